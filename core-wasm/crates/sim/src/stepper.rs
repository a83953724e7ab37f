//! Stepping one flash operation at a time, for the app (docs/architecture.md, "Op-exact
//! moments"). A request runs whole once with event recording on (its operations and
//! notes, and the state after it); the state shown at operation k of request r is the
//! state before r, cloned, re-run on r with the chip paused after k operations
//! (`Flash::pause_after`): the FTL unwinds at operation k + 1 exactly as on a power cut,
//! so chip, scheme RAM and counters are those of that moment (a host request counts when
//! it completes). A pause is a cut whose state is shown and then dropped. Recovery is
//! revealed the same way: recovery re-run from the chip the cut left, paused after k
//! operations.

use std::cell::OnceCell;

use crate::crash::{request_words, CrashOutcome, Recover};
use crate::moment::Display;
use crate::nand::{Event, FlashError, OpKind, Pbn};
use crate::sim::{Rebuild, Simulator, State};
use crate::trace::Request;

mod ahead;
mod back;
mod delta;
mod queue;
mod view;
pub use back::{Prepare, PREPARE_PART_BYTES};
pub use delta::Delta;
use delta::Track;
pub use queue::{fmt_wait, QueueItem, QueueView};
pub use view::{EventView, SchemeView};

/// Power is off: the chip as the cut left it; RAM is lost (docs/session-api.md).
#[derive(Clone)]
struct PowerOff {
    /// The state before the interrupted request (the reference model's view).
    before: State,
    /// The request in flight (not acknowledged), None for a cut between requests.
    req: Option<Request>,
    /// Flash operations done before the cut (of the request, or of the recovery).
    ops: usize,
    /// The cut came during a recovery being revealed.
    in_recovery: bool,
    /// The flash operation the cut interrupted (a program tears one page, an erase its
    /// whole block: the narration says which), None between requests.
    torn_by: Option<OpKind>,
    /// The device view of the cut moment (the torn page included).
    display: Display,
    /// The chip's time at the cut (after the interrupted request's operations before it):
    /// recovery time is counted from here (every attempt, docs/timing.md).
    cut_ns: u64,
}

/// A recovery whose operations are being revealed.
#[derive(Clone)]
struct Recovering {
    /// The power cut it recovers from (kept: a cut inside the recovery returns to it).
    off: PowerOff,
    /// The state the cut left: the chip recovery starts from, RAM as it was at the cut
    /// (only used to draw roles and page states while the scheme is being rebuilt).
    cut: State,
    /// `branch_from` before this recovery.
    branch_from: Option<usize>,
}

pub struct Stepper {
    pub sim: Simulator,
    /// Events of the in-progress (or last completed) request or recovery.
    events: Vec<Event>,
    /// Events revealed so far, and the flash operations among them (k) and in all (n).
    cursor: usize,
    k: usize,
    n: usize,
    in_request: bool,
    /// The request the events belong to.
    request: Option<Request>,
    /// The state before `request` (kept after it completes, for stepping back).
    before: Option<State>,
    /// The state shown at (request, k) for 0 <= k < n (None: `sim.state` is shown).
    paused: Option<State>,
    /// A state of the recorded run a request or two behind the moment, made while the app
    /// is idle (`prepare_back`) and taken by move by the next Back or rebuilt before-state
    /// instead of a copy of a kept state (issue 37 item 3). Held only while `before` and
    /// `paused` are not: it takes their place in the Session's memory budget.
    behind: Option<State>,
    /// `behind` being made in parts (`prepare_back_part`), one short task each; held, and
    /// dropped, as `behind` is.
    rebuilding: Option<Rebuild>,
    /// Power cut and recovery (`power_cut`, `recover`).
    power: Option<PowerOff>,
    recoverer: Option<Recover>,
    rec: Option<Recovering>,
    /// The events are a recovery's.
    recovery_events: bool,
    /// The verdict of the last recovery.
    verdict: Option<CrashOutcome>,
    /// Requests completed when the run first diverged from the recorded workload run.
    branch_from: Option<usize>,
    /// The states right after each recovery of this branch (by position): seeking inside
    /// the branch replays from them, never from the recorded run.
    roots: Vec<Root>,
    /// Bytes the roots may take (`limits::roots_budget`: the Session's memory budget less
    /// what `limits::session_memory` counts), and what they take (`limits::root_bytes`).
    roots_budget: u64,
    /// What the Simulator's keyframe near the cursor may take (0: none kept), out of
    /// `roots_budget`.
    near_bytes: u64,
    roots_bytes: u64,
    /// The display of `before` (consistent: between requests), and of the moment shown
    /// (src/moment.rs); computed on first read, dropped when the moment changes.
    base: OnceCell<Display>,
    shown: OnceCell<Display>,
    /// What the app was last sent, for snapshots by change (stepper/delta.rs).
    track: Track,
    /// The blocks the request in play touches (None: pages anywhere, a time shift).
    req_blocks: Option<Vec<Pbn>>,
    /// Where `run_ahead` met a stretch that was not quiet: it logs request by request from then on.
    ahead_logged_from: Option<usize>,
}

/// The state right after a recovery, with the recovery and the cut it recovered from:
/// Back from there retraces the recovery, the power-off moment and the cut.
struct Root {
    state: State,
    rec: Recovering,
    events: Vec<Event>,
    verdict: Option<CrashOutcome>,
}

impl Stepper {
    pub fn new(mut sim: Simulator) -> Stepper {
        let g = *sim.state.flash.geometry();
        let roots_budget = crate::limits::roots_budget(&g);
        // Back as fast as forward (issue 37, item 3): one more state kept near the cursor
        // for steps back, out of the memory the recoveries may take; the first power cut
        // that needs that room drops it for the rest of the session (room_for_a_recovery).
        let mut near_bytes = crate::limits::state_bytes(&g);
        if roots_budget >= near_bytes {
            sim.set_near_keyframe(crate::limits::NEAR_KEYFRAME_GAP);
        } else {
            near_bytes = 0;
        }
        Stepper {
            sim,
            events: Vec::new(),
            cursor: 0,
            k: 0,
            n: 0,
            in_request: false,
            request: None,
            before: None,
            paused: None,
            behind: None,
            rebuilding: None,
            power: None,
            recoverer: None,
            rec: None,
            recovery_events: false,
            verdict: None,
            branch_from: None,
            roots: Vec::new(),
            roots_budget,
            roots_bytes: 0,
            near_bytes,
            base: OnceCell::new(),
            shown: OnceCell::new(),
            track: Track::default(),
            req_blocks: Some(Vec::new()),
            ahead_logged_from: None,
        }
    }

    /// The bytes the recoveries kept on this branch may take (default
    /// `limits::roots_budget` of the chip; the near keyframe takes its share of it until
    /// a recovery needs the room), and what they take now.
    pub fn set_roots_budget(&mut self, bytes: u64) {
        self.roots_budget = bytes;
    }
    pub fn roots_bytes(&self) -> u64 {
        self.roots_bytes
    }

    fn root_bytes(&self, events: &[Event]) -> u64 {
        crate::limits::root_bytes(self.sim.state.flash.geometry(), crate::limits::events_bytes(events))
    }
    /// Keeps the roots `keep` accepts; the others no longer count.
    fn drop_roots(&mut self, keep: impl Fn(&Root) -> bool) {
        self.roots.retain(|r| keep(r));
        self.roots_bytes = self.roots.iter().map(|r| self.root_bytes(&r.events)).sum();
    }
    fn truncate_roots(&mut self, n: usize) {
        self.roots.truncate(n);
        self.roots_bytes = self.roots.iter().map(|r| self.root_bytes(&r.events)).sum();
    }

    /// How `recover` rebuilds the scheme from the chip (Scenario::recoverer).
    pub fn set_recoverer(&mut self, r: Recover) {
        self.recoverer = Some(r);
    }

    pub fn powered(&self) -> bool {
        self.power.is_none()
    }
    /// A recovery's operations are being revealed.
    pub fn recovering(&self) -> bool {
        self.rec.is_some()
    }

    // ---- revealing ----------------------------------------------------------------

    /// Starts the next request: keep the state before it (unless the request is to be
    /// shown whole: playback by requests then costs no clone), run it whole recording events.
    fn begin(&mut self, keep_before: bool) -> Result<bool, String> {
        let Some(req) = self.sim.next_request() else { return Ok(false) };
        self.leave_recovery();
        self.paused = None;
        // The last request's before-state goes first, so its memory takes the new copy (a
        // chip of 4 M pages: a fourth state's fresh pages cost a 50-60 ms first touch; issue
        // 37 item 3). Back without it replays from a keyframe.
        self.before = None;
        // On the recorded run the copy waits until the request turns out to need it: most
        // requests are one operation, shown complete at once, and a copy of a 4 M-page
        // chip is most of an op step's time (issue 37 item 3). A branch after a recovery
        // copies first (its states are not the recorded run's to rebuild), and so does a
        // request far from any kept state (a replay would cost more than the copy).
        let pos = self.sim.pos();
        let lazy = keep_before && self.roots.is_empty() && self.sim.rebuilds_behind(pos, self.behind.as_ref());
        if keep_before && !lazy {
            self.behind = None;
            self.rebuilding = None;
        }
        let before = (keep_before && !lazy).then(|| self.sim.state.clone());
        // The copy a write replaces (its block changes with no operation on it).
        let old = match req {
            Request::Write { lpn } | Request::Read { lpn } => self.sim.state.ftl.locate(lpn),
            _ => None,
        };
        self.sim.state.flash.set_recording(true);
        let r = self.sim.step();
        self.events = self.sim.state.flash.take_events();
        self.sim.state.flash.set_recording(false);
        if r.is_err() {
            self.track.need_full();
        }
        r?;
        self.before = before;
        self.base = OnceCell::new();
        self.recovery_events = false;
        self.request = Some(req);
        self.n = self.events.iter().filter(|e| matches!(e, Event::Op { .. })).count();
        if lazy && self.n > 1 {
            // Revealed operation by operation: each moment is the state before, re-run
            // paused (`pause_at`). Rebuilt from the nearest kept state.
            // The state prepared behind the moment, when there is one, is taken instead of a
            // copy; it goes either way, as the before-state and the paused one take its place.
            let r = self.sim.state_at_from(pos, &mut self.behind);
            self.behind = None;
            self.rebuilding = None;
            self.before = Some(r?);
        }
        self.cursor = 0;
        self.k = 0;
        self.in_request = true;
        self.note_request(req, old);
        self.mark_request();
        Ok(true)
    }

    /// Shows the first `k` operations (and their notes) of the events, and the state at
    /// that moment. At k = n the request (or recovery) is complete.
    fn reveal_to(&mut self, k: usize) {
        let k = k.min(self.n);
        let mut c = 0;
        if k > 0 {
            let mut seen = 0;
            for (i, e) in self.events.iter().enumerate() {
                if matches!(e, Event::Op { .. }) {
                    seen += 1;
                    if seen == k {
                        c = i + 1;
                        break;
                    }
                }
            }
        }
        // Schemes write a note before the operations it explains, so notes after this
        // operation belong to the next one — unless no operation follows (a closing note).
        if self.events[c..].iter().all(|e| matches!(e, Event::Note { .. })) {
            c = self.events.len();
        }
        self.cursor = c;
        self.k = k;
        self.shown = OnceCell::new();
        self.in_request = c < self.events.len();
        self.paused = None;
        if self.in_request {
            self.paused = Some(self.pause_at(k));
        } else if self.rec.is_some() {
            // The recovery is complete: `sim.state` is the recovered state.
            self.rec = None;
        }
    }

    /// The state after `k` operations of the request (or recovery) being revealed.
    fn pause_at(&self, k: usize) -> State {
        if let Some(rec) = &self.rec {
            let mut s = rec.cut.clone();
            s.flash.pause_after(k as u64);
            if let Some(recover) = &self.recoverer {
                let _ = recover(&mut s.flash);
            }
            s.flash.power_on();
            return s;
        }
        let mut s = self.before.clone().expect("a request in progress has its before-state");
        s.flash.pause_after(k as u64);
        let r = s.exec(self.request.expect("a request in progress"));
        debug_assert!(r.is_err(), "the request finished within {k} operations");
        s.flash.power_on();
        s
    }

    /// A recovery being revealed is taken as finished (the recovered state stands).
    fn leave_recovery(&mut self) {
        if self.rec.take().is_some() {
            self.paused = None;
            self.in_request = false;
        }
    }

    /// One more flash operation (starting the next request if needed). False at the end.
    pub fn step_op(&mut self) -> Result<bool, String> {
        self.shown = OnceCell::new();
        self.check_power()?;
        self.mark_request();
        if self.in_request {
            self.reveal_to(self.k + 1);
            self.mark_request();
            return Ok(true);
        }
        if !self.begin(true)? {
            return Ok(false);
        }
        self.reveal_to(1);
        Ok(true)
    }

    /// Finishes the in-progress request (or recovery), or runs the next one whole.
    pub fn step_request(&mut self) -> Result<bool, String> {
        self.shown = OnceCell::new();
        self.check_power()?;
        self.mark_request();
        if !self.in_request && !self.begin(false)? {
            return Ok(false);
        }
        self.reveal_to(self.n);
        self.mark_request();
        Ok(true)
    }

    /// Full speed, no events kept.
    pub fn run(&mut self, n: usize) -> Result<usize, String> {
        self.begin_run()?;
        self.sim.run(n)
    }

    /// What every run leaves behind it first (`run`, `run_ahead`): the power on, no
    /// recovery or request shown, the delta's base taken whole afterwards.
    fn begin_run(&mut self) -> Result<(), String> {
        self.shown = OnceCell::new();
        self.check_power()?;
        self.leave_recovery();
        self.forget_request();
        self.track.need_full();
        Ok(())
    }

    /// Leaves no request in progress and no events to show.
    fn forget_request(&mut self) {
        self.in_request = false;
        self.events.clear();
        self.cursor = 0;
        self.k = 0;
        self.n = 0;
        self.request = None;
        self.before = None;
        self.paused = None;
        self.recovery_events = false;
        self.base = OnceCell::new();
        self.shown = OnceCell::new();
        self.req_blocks = Some(Vec::new());
    }

    fn check_power(&self) -> Result<(), String> {
        if self.power.is_some() {
            return Err("power is off: recover first (or seek to leave the power cut)".into());
        }
        Ok(())
    }

    // ---- power ------------------------------------------------------------------

    /// Cuts power at the current flash operation: mid-request, the operations revealed so
    /// far are done and the next one never happens (a program under way is torn); between
    /// requests, before the next one; inside a recovery being revealed, after the recovery
    /// operations revealed (recovering again then starts from that chip). The chip keeps
    /// its pages; RAM is lost (the scheme's tables are dark until `recover`). The session
    /// stays on its own branch.
    pub fn power_cut(&mut self) -> Result<(), String> {
        self.shown = OnceCell::new();
        self.track.need_full();
        // A branch replays from its own recovered states; and the cut copies the state.
        self.behind = None;
        self.rebuilding = None;
        if self.power.is_some() {
            return Err("power is already off".into());
        }
        if self.rec.is_none() {
            self.room_for_a_recovery()?;
        }
        let k = self.k;
        if let Some(rec) = self.rec.take() {
            let mut s = rec.cut.clone();
            s.flash.set_power_budget(Some(k as u64));
            if let Some(recover) = &self.recoverer {
                let _ = recover(&mut s.flash);
            }
            s.flash.power_on();
            let display = Display::during(&rec.off.display, &rec.cut, &s, &self.events[..self.cursor], false);
            let torn_by = self.next_op_kind();
            self.sim.state = s;
            self.truncate_roots(self.roots.len().saturating_sub(1));
            self.branch_from = rec.branch_from;
            self.events.truncate(self.cursor);
            self.in_request = false;
            self.paused = None;
            self.verdict = None;
            self.power = Some(PowerOff { ops: k, in_recovery: true, display, torn_by, ..rec.off });
            return Ok(());
        }
        if self.in_request {
            let req = self.request.expect("a request in progress");
            let before = self.before.take().expect("a request in progress has its before-state");
            let mut cut = before.clone();
            cut.flash.set_power_budget(Some(k as u64));
            match cut.exec(req) {
                Ok(()) => return Err("the request finished before the cut".into()),
                Err(FlashError::PowerLoss) => {}
                Err(e) => return Err(e.to_string()),
            }
            cut.flash.power_on();
            // The operations before the cut took the chip's time; the host request is
            // never acknowledged (timing.rs).
            let h0 = before.flash.time_ns(crate::nand::Cause::Host);
            self.sim.charge_cut(&mut cut, Some(req), before.flash.elapsed_ns, h0);
            let base = self.base.take().unwrap_or_else(|| Display::of(&before));
            let display = Display::during(&base, &before, &cut, &self.events[..self.cursor], true);
            let torn_by = self.next_op_kind();
            self.sim.state = cut;
            self.events.truncate(self.cursor);
            self.in_request = false;
            self.paused = None;
            self.verdict = None;
            let cut_ns = self.sim.state.flash.elapsed_ns;
            self.power =
                Some(PowerOff { before, req: Some(req), ops: k, in_recovery: false, display, cut_ns, torn_by });
            return Ok(());
        }
        self.forget_request();
        self.verdict = None;
        let display = Display::of(&self.sim.state);
        let before = self.sim.state.clone();
        // Between two pages of a host request: it is never acknowledged.
        self.sim.state.clock.interrupt_between();
        let cut_ns = self.sim.state.flash.elapsed_ns;
        self.power = Some(PowerOff { before, req: None, ops: 0, in_recovery: false, display, cut_ns, torn_by: None });
        Ok(())
    }

    /// The kind of the next operation not yet revealed: the one a cut now interrupts.
    fn next_op_kind(&self) -> Option<OpKind> {
        self.events[self.cursor..].iter().find_map(|e| match e {
            Event::Op { kind, .. } => Some(*kind),
            Event::Note { .. } => None,
        })
    }

    /// The recovery a power cut leads to is kept on the branch (a root, for Back and for
    /// seeking inside the branch): refused when it would take the roots past their share of
    /// the Session's memory budget. A cut inside a recovery being revealed replaces its
    /// root, so only cuts from a running device are held to it. The new root's events are
    /// taken as the most any root kept has, and at least one operation a page and a block
    /// (a recovery's scan).
    fn room_for_a_recovery(&mut self) -> Result<(), String> {
        let g = *self.sim.state.flash.geometry();
        let scan = (g.pages() as u64 + g.blocks as u64) * std::mem::size_of::<Event>() as u64;
        let events = self.roots.iter().map(|r| crate::limits::events_bytes(&r.events)).max().unwrap_or(0).max(scan);
        let next = crate::limits::root_bytes(&g, events);
        if self.near_bytes > 0 && self.roots_bytes + next + self.near_bytes > self.roots_budget {
            // The recoveries come first: steps back replay from keyframes again.
            self.sim.set_near_keyframe(0);
            self.near_bytes = 0;
        }
        if self.roots_bytes + next > self.roots_budget {
            return Err(format!(
                "power cut refused: the {} recoveries this session keeps take {} MB and another needs about {} MB, over their {} MB of the session's {} MB memory limit (go back before an earlier power cut, which drops it, or reload the scenario)",
                self.roots.len(),
                self.roots_bytes >> 20,
                next.div_ceil(1 << 20),
                self.roots_budget >> 20,
                crate::limits::SESSION_MEMORY_BUDGET >> 20
            ));
        }
        Ok(())
    }

    /// Power comes back: the scheme recovers from the chip alone. Its operations and notes
    /// are revealed like a request's (`step_op`); the verdict (`verdict`) compares every LPN
    /// with the reference model. The run then goes on with the requests after the
    /// interrupted one (which was not acknowledged), on a branch of the recorded run.
    pub fn recover(&mut self) -> Result<(), String> {
        self.shown = OnceCell::new();
        self.track.need_full();
        let Some(off) = self.power.take() else { return Err("power is on".into()) };
        let Some(rec) = self.recoverer.clone() else {
            self.power = Some(off);
            return Err("this session has no recovery".into());
        };
        let mut flash = self.sim.state.flash.clone();
        let t0 = flash.elapsed_ns;
        flash.set_recording(true);
        let ftl = match rec(&mut flash) {
            Ok(Ok(f)) => f,
            other => {
                let msg = match other {
                    Ok(Err(e)) => e,
                    Err(e) => e.to_string(),
                    Ok(Ok(_)) => unreachable!(),
                };
                self.power = Some(off);
                return Err(msg);
            }
        };
        let events = flash.take_events();
        flash.set_recording(false);
        // The request in flight went one way or the other, as the chip shows: the reference
        // model follows (a write that survived, an LTFTL revert that completed: time shift
        // is all or nothing), as in the chain of cuts (crash/judge.rs).
        let done = crate::crash::judge::completed(&off.before, off.req);
        let j = crate::crash::judge::judge(&off.before, &done, off.req, ftl.as_ref(), &flash);
        let ops = events.iter().filter(|e| matches!(e, Event::Op { .. })).count();
        let reads =
            events.iter().filter(|e| matches!(e, Event::Op { kind: OpKind::Read | OpKind::ReadOob, .. })).count();
        let pos = off.before.pos + usize::from(off.req.is_some());
        // The clock as the cut left it (the interrupted request charged, `power_cut`), then
        // the recovery's operations — of every attempt since the cut — take the chip.
        let mut clock = self.sim.state.clock.clone();
        clock.recovered(off.before.pos as u64, flash.elapsed_ns.saturating_sub(off.cut_ns));
        let recovered = State {
            flash,
            ftl,
            oracle: j.oracle.clone(),
            host: off.before.host.clone(),
            next_version: off.before.next_version + u32::from(off.req.is_some()),
            pos,
            clock,
        };
        let cut = std::mem::replace(&mut self.sim.state, recovered);
        self.sim.truncate_keyframes(off.before.pos);
        let prev_branch = self.branch_from;
        self.branch_from = Some(prev_branch.map_or(off.before.pos, |b| b.min(off.before.pos)));
        self.drop_roots(|r| r.state.pos < pos);
        let verdict = CrashOutcome {
            recovery_ops: ops as u64,
            recovery_pages_read: reads as u64,
            recovery_ns: self.sim.state.flash.elapsed_ns - t0,
            in_flight: off.req.map(request_words),
            ..j.outcome()
        };
        self.verdict = Some(verdict.settled());
        self.forget_request();
        let rec = Recovering { off, cut, branch_from: prev_branch };
        self.roots_bytes += self.root_bytes(&events);
        self.roots.push(Root {
            state: self.sim.state.clone(),
            rec: rec.clone(),
            events: events.clone(),
            verdict: self.verdict.clone(),
        });
        self.events = events;
        self.n = ops;
        self.recovery_events = true;
        self.rec = Some(rec);
        self.in_request = !self.events.is_empty();
        if self.in_request {
            self.reveal_to(0);
        } else {
            self.rec = None;
        }
        Ok(())
    }

    /// The requests interrupted by the power cuts this branch recovered from, before the
    /// moment shown: (request index, whether its write survived the cut). Recovery counts
    /// the interrupted request as done (the run goes on after it, `recover`), so the step
    /// counter says what became of it.
    pub fn cut_requests(&self) -> Vec<(usize, bool)> {
        let step = self.step();
        self.roots
            .iter()
            .filter(|r| r.rec.off.req.is_some() && r.rec.off.before.pos < step)
            .map(|r| {
                let survived = r.verdict.as_ref().is_some_and(|v| v.in_flight_survived);
                (r.rec.off.before.pos, survived)
            })
            .collect()
    }

    /// The last recovery's verdict (None before any).
    pub fn verdict(&self) -> Option<&CrashOutcome> {
        self.verdict.as_ref()
    }
    /// The last recovery's verdict as JSON (null before any).
    pub fn verdict_json(&self) -> String {
        serde_json::to_string(&self.verdict).unwrap_or_default()
    }
}
