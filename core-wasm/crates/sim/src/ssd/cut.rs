//! Power cuts on a device (issue 40, item 6; docs/ssd.md, "Power cuts"): one cut stops
//! every die at once. The die running the page request the cut falls in loses that
//! request (its operation under way fails, a program is torn: crash.rs's cut); every other
//! die is stopped between page requests. RAM is lost on **every** die, so every die
//! recovers from its own chip alone (the scheme's `recover`), each checked against its
//! reference model (crash.rs's `verify`): no acknowledged write lost, nothing wrong, no
//! torn page mapped. The run then goes on with the recovered dies, so cuts chain.

use super::{place, Shape};
use crate::crash::{crash_once, verify, CrashOutcome, Recover};
use crate::sim::State;
use crate::trace::Request;

/// Where a cut falls: in device page request `request` (0-based, host order), after
/// `ops` of its flash operations on its die (0: before its first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceCut {
    pub request: usize,
    pub ops: u64,
}

/// One cut's outcome, die by die (index = die).
#[derive(Clone, Debug)]
pub struct DeviceCutReport {
    pub cut: DeviceCut,
    /// The die the cut request ran on.
    pub die: u32,
    /// Whether the cut fell inside the request (it needed more than `ops` operations);
    /// otherwise the request completed and the cut fell right after it.
    pub interrupted: bool,
    pub dies: Vec<CrashOutcome>,
}

impl DeviceCutReport {
    pub fn ok(&self) -> bool {
        self.dies.iter().all(|o| o.ok)
    }
}

/// Runs `requests` (device LPNs) on `dies` striped by `shape` and `unit`, cutting power at
/// each of `cuts` (in request order) and recovering every die; `after` requests are run on
/// each recovered die by `crash_once`'s check before the run goes on. Returns each cut's
/// report; Err when a request fails outside a cut (a die stuck after recovery).
pub fn run_with_cuts(
    dies: &mut [State],
    shape: &Shape,
    unit: u32,
    requests: &[Request],
    cuts: &[DeviceCut],
    recover: &Recover,
) -> Result<Vec<DeviceCutReport>, String> {
    let d = shape.dies();
    assert_eq!(dies.len(), d as usize, "one state per die");
    let mut cuts: Vec<DeviceCut> = cuts.to_vec();
    cuts.sort_by_key(|c| (c.request, c.ops));
    let mut next = cuts.into_iter().peekable();
    let mut out = Vec::new();
    for (i, &req) in requests.iter().enumerate() {
        let lpn = req.lpn().ok_or("time-shift requests need a device of one die")?;
        let (die, local) = place(lpn, d, unit);
        let local_req = match req {
            Request::Read { .. } => Request::Read { lpn: local },
            _ => Request::Write { lpn: local },
        };
        let Some(cut) = next.next_if(|c| c.request == i) else {
            dies[die as usize]
                .exec(local_req)
                .map_err(|e| format!("request {} ({req:?}) on die {die} failed: {e}", i + 1))?;
            continue;
        };
        // Further cuts at the same request are the same instant: one cut.
        while next.next_if(|c| c.request == i).is_some() {}
        let mut report = DeviceCutReport { cut, die, interrupted: false, dies: Vec::with_capacity(d as usize) };
        for (k, st) in dies.iter_mut().enumerate() {
            if k == die as usize {
                match crash_once(st, local_req, cut.ops, None, recover, &[]) {
                    Some((o, s)) => {
                        report.interrupted = true;
                        report.dies.push(o);
                        *st = s;
                        continue;
                    }
                    // The request needed `ops` operations or fewer: it completed, and
                    // the cut falls right after it, on a die between requests.
                    None => st.exec(local_req).map_err(|e| format!("request {} on die {die} failed: {e}", i + 1))?,
                }
            }
            report.dies.push(recover_idle(st, recover));
        }
        out.push(report);
    }
    Ok(out)
}

/// A die the cut found between page requests: RAM lost, recovery from its chip alone.
pub(super) fn recover_idle(st: &mut State, recover: &Recover) -> CrashOutcome {
    let mut flash = st.flash.clone();
    let t0 = flash.elapsed_ns;
    let mut o = match recover(&mut flash) {
        Ok(Ok(ftl)) => {
            let mut o = verify(ftl.as_ref(), &flash, &st.oracle, None);
            o.recovery_ns = flash.elapsed_ns - t0;
            st.ftl = ftl;
            st.flash = flash;
            o
        }
        Ok(Err(e)) => CrashOutcome { error: Some(e), ..Default::default() },
        Err(e) => CrashOutcome { error: Some(format!("recovery failed: {e}")), ..Default::default() },
    };
    if o.error.is_none() && !st.mismatches().is_empty() {
        o.error = Some("the recovered die disagrees with its reference model".into());
    }
    o.settled()
}
