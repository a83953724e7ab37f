//! The closed model's full-speed loop (`Simulator::run_each`'s common case).

use super::Simulator;
use crate::timing::Kind;
use crate::trace::Request;

impl Simulator {
    /// `run_each` in the closed model with every page request a host request of its own
    /// and no per-request timeline: `tick`'s checks made once for the run, not per
    /// request (issue 37). Same clock, same state: the clock's `last_done` is set once at
    /// the end, and its service times recorded there from the host's record of the same
    /// times (issue 37: ten stores and a second histogram a request; `Clock::page_closed_run`).
    pub(super) fn run_closed(&mut self, reqs: impl Iterator<Item = Request>) -> Result<(), String> {
        let h = &self.state.host;
        let then = [h.write_latency.clone(), h.read_latency.clone(), h.unwritten_read_latency.clone()];
        // The latest request's (page request, service, GC time), for `last_done`.
        let mut last = None;
        let mut r = Ok(());
        for req in reqs {
            // One match on the kind serves both the request and the clock.
            let done = match req {
                Request::Write { .. } => self.closed_one(req, Kind::Write),
                Request::Read { .. } => self.closed_one(req, Kind::Read),
                _ => self.closed_one(req, Kind::Other),
            };
            match done {
                Ok(done) => last = Some(done),
                Err(e) => {
                    r = Err(e);
                    break;
                }
            }
        }
        let (clock, h) = (&mut self.state.clock, &self.state.host);
        if let Some((page, service, gc)) = last {
            clock.closed_done(page, service, gc);
        }
        clock.write.record_since(&h.write_latency, &then[0]);
        clock.read.record_since(&h.read_latency, &then[1]);
        clock.read.record_since(&h.unwritten_read_latency, &then[2]);
        r
    }

    /// One request of `run_closed`, of kind `kind`: its page request, service and GC time.
    #[inline(always)]
    fn closed_one(&mut self, req: Request, kind: Kind) -> Result<(u64, u64, u64), String> {
        let (_, _, service, gc) = exec_timed!(self, req);
        if gc > 0 {
            self.note_gc();
        }
        let page = (self.state.pos - 1) as u64;
        self.state.clock.page_closed_run(page, kind, service, gc, false);
        Ok((page, service, gc))
    }
}
