//! Power cuts on a device (issue 40, item 6; docs/ssd.md, "Power cuts"): one cut stops
//! every die at once. The die running the page request the cut falls in loses that
//! request (its operation under way fails, a program is torn: crash.rs's cut); every other
//! die is stopped between page requests. RAM is lost on **every** die, so every die
//! recovers from its own chip alone (the scheme's `recover`), each checked against its
//! reference model (crash.rs's `verify`): no acknowledged write lost, nothing wrong, no
//! torn page mapped. The run then goes on with the recovered dies, so cuts chain.

use super::{place, Shape};
use crate::crash::health::{bounds_over, PoolCheck};
use crate::crash::{crash_once, cut_recovery, recovery_ops, snapshot, verify, CrashOutcome, Recover, Recut};
use crate::sim::State;
use crate::trace::Request;

/// Where a cut falls: in device page request `request` (0-based, host order), after
/// `ops` of its flash operations on its die (0: before its first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeviceCut {
    pub request: usize,
    pub ops: u64,
}

/// A device's dies and how the logical space is striped over them.
pub struct Dies<'a> {
    pub shape: &'a Shape,
    /// Stripe unit, pages.
    pub unit: u32,
}

impl Dies<'_> {
    /// Die and die-local request of device request `req`.
    pub(super) fn place(&self, req: Request) -> Result<(usize, Request), String> {
        let lpn = req.lpn().ok_or("freeze / unfreeze / revert need a device of one die")?;
        let (die, local) = place(lpn, self.shape.dies(), self.unit);
        let local = match req {
            Request::Read { .. } => Request::Read { lpn: local },
            _ => Request::Write { lpn: local },
        };
        Ok((die as usize, local))
    }
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
    /// Per die, the pools its recovery left beyond the run without cuts (crash/health.rs:
    /// fewer free blocks than that run's fewest, or more log / map / checkpoint blocks than
    /// its most), in words; None: all within it.
    pub pools: Vec<Option<String>>,
}

impl DeviceCutReport {
    pub fn ok(&self) -> bool {
        self.dies.iter().all(|o| o.ok) && self.pools.iter().all(Option::is_none)
    }
}

/// Runs `requests` (device LPNs) on `dies` striped by `shape` and `unit`, cutting power at
/// each of `cuts` (in request order) and recovering every die. Every recovered die's pools
/// are held to their extremes in the same requests run without cuts (`pools`). Returns
/// each cut's report; Err when a request fails outside a cut (a die stuck after recovery).
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
    let at = Dies { shape, unit };
    let placed: Vec<(usize, Request)> = requests.iter().map(|&r| at.place(r)).collect::<Result<_, _>>()?;
    let mut i = 0;
    let bounds = bounds_over(dies.to_vec(), placed.len() as u64, |run| {
        let (die, local) = placed[i];
        i += 1;
        run[die].exec(local).ok().map(|_| die)
    })
    .ok_or("the run without cuts failed")?;
    let mut checks = PoolCheck::per_die(&bounds, dies);
    let mut cuts: Vec<DeviceCut> = cuts.to_vec();
    cuts.sort_by_key(|c| (c.request, c.ops));
    let mut next = cuts.into_iter().peekable();
    let mut out = Vec::new();
    for (i, &(die, local_req)) in placed.iter().enumerate() {
        let Some(cut) = next.next_if(|c| c.request == i) else {
            dies[die]
                .exec(local_req)
                .map_err(|e| format!("request {} ({:?}) on die {die} failed: {e}", i + 1, requests[i]))?;
            continue;
        };
        // Further cuts at the same request are the same instant: one cut.
        while next.next_if(|c| c.request == i).is_some() {}
        let mut report =
            DeviceCutReport { cut, die: die as u32, interrupted: false, dies: Vec::new(), pools: Vec::new() };
        for (k, st) in dies.iter_mut().enumerate() {
            let o = match (k == die).then(|| crash_once(st, local_req, cut.ops, None, recover, &[])).flatten() {
                Some((o, s)) => {
                    report.interrupted = true;
                    *st = s;
                    o
                }
                None => {
                    if k == die {
                        // The request needed `ops` operations or fewer: it completed, and
                        // the cut falls right after it, on a die between requests.
                        st.exec(local_req).map_err(|e| format!("request {} on die {die} failed: {e}", i + 1))?;
                    }
                    recover_idle(st, recover, None, 0).0
                }
            };
            report.dies.push(o);
            report.pools.push(checks[k].after_recovery(st));
        }
        out.push(report);
    }
    Ok(out)
}

/// A die the cut found between page requests: RAM lost, recovery from its chip alone
/// (`recut`: power fails again inside the recovery, at most `max_recuts` times, then it
/// recovers whole and must rebuild what an uncut recovery does). Also returns how many
/// times the power failed inside.
pub(super) fn recover_idle(
    st: &mut State,
    recover: &Recover,
    recut: Option<Recut>,
    max_recuts: u32,
) -> (CrashOutcome, u32) {
    let mut flash = st.flash.clone();
    let t0 = flash.elapsed_ns;
    let (ops0, reads0) = recovery_ops(&flash);
    let (reference, recuts) = cut_recovery(&mut flash, recover, recut, max_recuts);
    let mut o = match recover(&mut flash) {
        Ok(Ok(ftl)) => {
            let mut o = verify(ftl.as_ref(), &flash, &st.oracle, None);
            let (ops1, reads1) = recovery_ops(&flash);
            (o.recovery_ops, o.recovery_pages_read) = (ops1 - ops0, reads1 - reads0);
            o.recovery_ns = flash.elapsed_ns - t0;
            if reference.is_some_and(|r| r != snapshot(ftl.as_ref(), &flash)) {
                o.error = Some("recovery is not idempotent: a cut during recovery changed its result".into());
            }
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
    (o.settled(), recuts)
}
