//! Power cuts at any flash-operation boundary, recovery from the chip alone, and
//! verification against the reference model.
//!
//! A cut at point `p` of a run means: the first `p` flash operations of the run complete,
//! operation `p + 1` fails with `PowerLoss` (a program under way is torn), the host
//! request in flight is not acknowledged, RAM is lost. Recovery must then give every LPN
//! its latest acknowledged version — except the LPN of an interrupted write, which may be
//! either fully old or fully new.

use serde::Serialize;
use std::sync::Arc;
use ts_rs::TS;

use crate::ftl::Ftl;
use crate::metrics::LatencyHist;
use crate::nand::{Cause, Flash, FlashError, FlashResult, OpKind, PageKind};
use crate::sim::State;
use crate::trace::Request;

mod chain;
pub mod health;
pub mod judge;
pub(crate) use chain::{aim, op_causes, run_on_copy, torn_model_of, Aim};
pub use chain::{chain, default_pool_baseline, ChainOptions, ChainReport, CutAt, CutVerdict};

/// Rebuilds the scheme from the chip alone.
pub type Recover = Arc<dyn Fn(&mut Flash) -> FlashResult<Result<Box<dyn Ftl>, String>> + Send + Sync>;

/// What one cut and its recovery led to, every LPN against the reference model: a point of
/// a sweep (`crash_once`), the app's power button (`Stepper::verdict`), a die of a device.
#[derive(Clone, Debug, Default, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CrashOutcome {
    /// Recovered correctly: nothing lost, wrong, torn mapped or damaged, no error. Set once
    /// the outcome is final (`settled`).
    pub ok: bool,
    /// Acknowledged writes whose data recovery lost (mapped to an older version or none).
    #[ts(type = "number")]
    pub lost: u64,
    /// LPNs mapped to data that was never the latest acknowledged nor the in-flight write.
    #[ts(type = "number")]
    pub wrong: u64,
    /// LPNs mapped to a torn page (must be 0: a torn program is detected, not read).
    #[ts(type = "number")]
    pub torn_mapped: u64,
    /// Frozen states (LTFTL) the recovery lost or changed (crash/judge.rs).
    #[ts(type = "number")]
    pub frozen_damaged: u64,
    /// Flash operations recovery needed, and their time.
    #[ts(type = "number")]
    pub recovery_ops: u64,
    #[ts(type = "number")]
    pub recovery_pages_read: u64,
    #[ts(type = "number")]
    pub recovery_ns: u64,
    /// A problem that is not a data mismatch (recovery refused, result not idempotent ...).
    pub error: Option<String>,
    /// The request the cut interrupted, in words (None: the cut fell between requests).
    pub in_flight: Option<String>,
    /// The recovered chip shows the interrupted request done (a write that survived whole).
    pub in_flight_survived: bool,
}

impl CrashOutcome {
    /// The outcome with `ok` set from what it holds: call once it is final.
    pub fn settled(mut self) -> CrashOutcome {
        self.ok = self.lost == 0
            && self.wrong == 0
            && self.torn_mapped == 0
            && self.frozen_damaged == 0
            && self.error.is_none();
        self
    }
}

/// A request in words ("write of lpn 18"), as a recovery's outcome and the narration name it.
pub fn request_words(r: Request) -> String {
    match r {
        Request::Write { lpn } => format!("write of lpn {lpn}"),
        Request::Read { lpn } => format!("read of lpn {lpn}"),
        Request::Freeze => "freeze".into(),
        Request::Unfreeze { state } => format!("unfreeze of state {state}"),
        Request::Revert { state } => format!("revert to state {state}"),
    }
}

/// Recovery's flash operations so far on `flash`, and its page reads among them.
pub(crate) fn recovery_ops(flash: &Flash) -> (u64, u64) {
    let ops = [OpKind::Read, OpKind::ReadOob, OpKind::Program, OpKind::Erase]
        .iter()
        .map(|&k| flash.count(k, Cause::Recovery))
        .sum();
    (ops, flash.count(OpKind::Read, Cause::Recovery) + flash.count(OpKind::ReadOob, Cause::Recovery))
}

/// Power failing again inside a recovery (`crash_once_with`; a device's idle die,
/// ssd/cut.rs `recover_idle`).
pub enum Recut<'a> {
    /// Once, after this many operations of the first attempt (a sweep's point: the
    /// attempt may finish before it; recovery then runs again whole).
    Once(u64),
    /// Attempt after attempt, up to `cut_recovery`'s `max` times in a row (a chain's,
    /// `ChainOptions::max_recuts`), each after `draw(n, ops)` of its operations: `n` the
    /// cuts so far, `ops` what an uncut attempt from the chip as it now is runs (a point
    /// below it, so the power fails inside).
    Drawn(&'a mut dyn FnMut(u32, u64) -> u64),
}

/// Cuts the recovery of `flash` (powered on after a cut) as `recut` says; the chip is
/// then ready for the recovery that runs whole. Returns what an uncut recovery rebuilds
/// when the power failed inside (the whole recovery must rebuild the same: idempotence)
/// and how many times it failed there (`Once`: 1, whether or not the attempt finished).
pub(crate) fn cut_recovery(
    flash: &mut Flash,
    recover: &Recover,
    recut: Option<Recut>,
    max: u32,
) -> (Option<Vec<u32>>, u32) {
    let rebuilt = |f: &mut Flash| recover(f).ok().and_then(|r| r.ok()).map(|ftl| snapshot(ftl.as_ref(), f));
    match recut {
        None => (None, 0),
        Some(Recut::Once(b)) => {
            let reference = rebuilt(&mut flash.clone());
            flash.set_power_budget(Some(b));
            let _ = recover(flash); // power fails somewhere inside (or it finishes)
            flash.power_on();
            (reference, 1)
        }
        Some(Recut::Drawn(draw)) => {
            let (mut reference, mut n) = (None, 0);
            while n < max {
                let mut f = flash.clone();
                let o0 = f.total_ops();
                let r = rebuilt(&mut f);
                let ops = f.total_ops() - o0;
                if n == 0 {
                    reference = r;
                }
                if ops == 0 {
                    break;
                }
                flash.set_power_budget(Some(draw(n, ops).min(ops - 1)));
                let _ = recover(flash);
                flash.power_on();
                n += 1;
            }
            (reference.filter(|_| n > 0), n)
        }
    }
}

/// Cuts power after `cut_after` operations of `req` run on a copy of `before`; if
/// `recut` is given, cuts power again after that many operations of the first recovery
/// attempt. Returns None when `req` needs `cut_after` operations or fewer (no cut happened).
pub fn crash_once(
    before: &State,
    req: Request,
    cut_after: u64,
    recut: Option<u64>,
    recover: &Recover,
    after: &[Request],
) -> Option<(CrashOutcome, State)> {
    crash_once_with(before, req, cut_after, recut.map(Recut::Once), 1, recover, after).map(|(o, s, _)| (o, s))
}

/// `crash_once` with its recovery cut as `recut` says (at most `max_recuts` times); also
/// returns how many times the power failed inside the recovery. The cut program tears as
/// `before.flash.torn_model` says (a device chain's `--paired-pages`, `--reads-erased`).
pub fn crash_once_with(
    before: &State,
    req: Request,
    cut_after: u64,
    recut: Option<Recut>,
    max_recuts: u32,
    recover: &Recover,
    after: &[Request],
) -> Option<(CrashOutcome, State, u32)> {
    let mut s = before.clone();
    s.flash.set_power_budget(Some(cut_after));
    let mut out = CrashOutcome { in_flight: Some(request_words(req)), ..Default::default() };
    // The torn model `before` carries tears the cut program only; a recovery's own cuts tear
    // as the default (as the one-chip chain).
    let res = s.exec(req);
    s.flash.torn_model = crate::nand::TornModel::default();
    match res {
        Ok(()) => return None,
        Err(FlashError::PowerLoss) => {}
        Err(e) => {
            out.error = Some(format!("the run failed before the cut: {e}"));
            return Some((out.settled(), s, 0));
        }
    }
    s.flash.power_on();
    let (ops0, reads0) = recovery_ops(&s.flash);
    let t0 = s.flash.elapsed_ns;

    // The reference result (recovery on an untouched copy of the chip after the cut) and
    // the recovery cut again.
    let (reference, recuts) = cut_recovery(&mut s.flash, recover, recut, max_recuts);
    let ftl = match recover(&mut s.flash) {
        Ok(Ok(f)) => f,
        Ok(Err(e)) => return Some((CrashOutcome { error: Some(e), ..out }.settled(), s, recuts)),
        Err(e) => {
            let out = CrashOutcome { error: Some(format!("recovery failed: {e}")), ..out };
            return Some((out.settled(), s, recuts));
        }
    };
    let (ops1, reads1) = recovery_ops(&s.flash);
    out.recovery_ops = ops1 - ops0;
    out.recovery_pages_read = reads1 - reads0;
    out.recovery_ns = s.flash.elapsed_ns - t0;
    if let Some(reference) = reference {
        if reference != snapshot(ftl.as_ref(), &s.flash) {
            out.error = Some("recovery is not idempotent: a cut during recovery changed its result".into());
        }
    }

    // Verify against the oracle (the in-flight request was not acknowledged).
    let in_flight = match req {
        Request::Write { lpn } => Some((lpn, before.next_version)),
        _ => None,
    };
    let v = verify(ftl.as_ref(), &s.flash, &s.oracle, in_flight);
    out.lost = v.lost;
    out.wrong = v.wrong;
    out.torn_mapped = v.torn_mapped;
    if in_flight.is_some_and(|(lpn, v)| ftl.locate(lpn).is_some_and(|p| s.flash.peek(p).version == v)) {
        // The interrupted write survived: from now on it is the latest version.
        let (lpn, v) = in_flight.unwrap();
        s.oracle.ack(lpn, v);
        out.in_flight_survived = true;
    }
    s.ftl = ftl;
    s.next_version = before.next_version + 1;
    // The recovered scheme must keep working: run a few more requests and check them.
    for &r in after {
        if let Err(e) = s.exec(r) {
            out.error = Some(format!("after recovery, {r:?} failed: {e}"));
            break;
        }
    }
    if out.error.is_none() {
        let bad = s.mismatches().len() as u64;
        if bad > 0 || s.host.wrong_reads > before.host.wrong_reads {
            out.error = Some(format!(
                "after recovery and {} more requests, {bad} LPNs disagree with the reference model",
                after.len()
            ));
        }
    }
    Some((out.settled(), s, recuts))
}

/// Checks a recovered scheme against the reference model: every LPN must map to its
/// latest acknowledged version, except `in_flight` (lpn, version), which may also be new.
/// Fills `lost`, `wrong` and `torn_mapped` (not `ok`: the outcome is not final).
pub fn verify(
    ftl: &dyn Ftl,
    flash: &Flash,
    oracle: &crate::oracle::Oracle,
    in_flight: Option<(u32, u32)>,
) -> CrashOutcome {
    let mut out = CrashOutcome::default();
    for lpn in 0..ftl.logical_pages() {
        let want = oracle.expected(lpn);
        let got = match ftl.locate(lpn) {
            None => 0,
            Some(ppn) => {
                let p = flash.peek(ppn);
                match p.kind {
                    PageKind::Data if p.lpn == lpn => p.version,
                    // An erased page reads as never written (as State::mismatches counts it).
                    PageKind::Erased => 0,
                    PageKind::Torn => {
                        out.torn_mapped += 1;
                        continue;
                    }
                    _ => u32::MAX,
                }
            }
        };
        if got == want || in_flight == Some((lpn, got)) {
            continue;
        }
        if got < want {
            out.lost += 1;
        } else {
            out.wrong += 1;
        }
    }
    out
}

/// What a recovery rebuilt, for the idempotence check: where every LPN maps.
pub(crate) fn snapshot(ftl: &dyn Ftl, flash: &Flash) -> Vec<u32> {
    (0..ftl.logical_pages()).map(|l| ftl.locate(l).map(|p| flash.peek(p).version).unwrap_or(0)).collect()
}

/// Which cut points a sweep tries, as operation indices of the whole run.
#[derive(Clone, Debug)]
pub enum Points {
    All,
    Every(u64),
    Random { n: u64, seed: u64 },
}

impl Points {
    /// The operation indices chosen in a run of `run_ops` operations, in order.
    pub(crate) fn choose(&self, run_ops: u64) -> Vec<u64> {
        let mut chosen: Vec<u64> = match *self {
            Points::All => (0..run_ops).collect(),
            Points::Every(n) => (0..run_ops).step_by(n.max(1) as usize).collect(),
            Points::Random { n, seed } => {
                let mut rng = crate::trace::rng::SplitMix64::new(seed);
                (0..n).map(|_| rng.below(run_ops.max(1))).collect()
            }
        };
        chosen.sort_unstable();
        chosen
    }
}

/// A cut inside the first recovery of a point on `s` (with the sweep's recut seed):
/// somewhere in its operations, at most 4 per page of the chip.
pub(crate) fn recut_in(rng: Option<&mut crate::trace::rng::SplitMix64>, s: &State) -> Option<u64> {
    rng.map(|g| g.below(4 * s.flash.blocks() as u64 * s.flash.ppb() as u64 + 1))
}

/// A sweep's report as its points come in (`sweep`, and `ssd::crash::sweep` on a device).
pub(crate) struct Tally {
    report: SweepReport,
    pages: LatencyHist,
    time: LatencyHist,
}

impl Tally {
    pub(crate) fn new(scheme: String, run_ops: u64) -> Tally {
        let report = SweepReport { scheme, run_ops, ..Default::default() };
        Tally { report, pages: LatencyHist::default(), time: LatencyHist::default() }
    }

    /// One point's outcome `o` (on a device: summed over the dies, `merged`), `errors` of
    /// its outcomes with an error; `at` names the point for a failure line.
    pub(crate) fn add(&mut self, o: &CrashOutcome, recut: bool, errors: u64, at: impl FnOnce() -> String) {
        let report = &mut self.report;
        report.points_tried += 1;
        report.recut_points += recut as u64;
        report.acked_writes_lost += o.lost;
        report.wrong_reads += o.wrong;
        report.torn_mapped += o.torn_mapped;
        report.errors += errors;
        self.pages.record(o.recovery_pages_read * 1000);
        self.time.record(o.recovery_ns);
        if o.ok {
            report.recovered_correctly += 1;
        } else if report.first_failures.len() < 10 {
            report.first_failures.push(format!(
                "{}: lost {}, wrong {}, torn mapped {}{}",
                at(),
                o.lost,
                o.wrong,
                o.torn_mapped,
                o.error.as_ref().map(|e| format!(", {e}")).unwrap_or_default()
            ));
        }
    }

    pub(crate) fn finish(mut self) -> SweepReport {
        self.report.recovery_pages_read = summary(&self.pages);
        self.report.recovery_us = summary(&self.time);
        self.report
    }
}

#[derive(Clone, Debug, Default, Serialize, TS)]
#[ts(export)]
pub struct SweepReport {
    pub scheme: String,
    #[ts(type = "number")]
    pub run_ops: u64,
    #[ts(type = "number")]
    pub points_tried: u64,
    #[ts(type = "number")]
    pub recovered_correctly: u64,
    #[ts(type = "number")]
    pub acked_writes_lost: u64,
    #[ts(type = "number")]
    pub wrong_reads: u64,
    #[ts(type = "number")]
    pub torn_mapped: u64,
    #[ts(type = "number")]
    pub errors: u64,
    /// Points also cut again inside their recovery.
    #[ts(type = "number")]
    pub recut_points: u64,
    pub recovery_pages_read: Summary,
    pub recovery_us: Summary,
    /// The first failures, for diagnosis.
    pub first_failures: Vec<String>,
}

#[derive(Clone, Debug, Default, Serialize, TS)]
#[ts(export, rename = "SweepSummary")]
pub struct Summary {
    pub min: f64,
    pub mean: f64,
    pub p99: f64,
    pub max: f64,
}

/// The histogram reports thousandths (ns → µs); pages are recorded ×1000 to match.
pub(crate) fn summary(h: &LatencyHist) -> Summary {
    let s = h.summary();
    Summary { min: s.best, mean: s.mean, p99: s.p99, max: s.worst }
}

/// Runs `requests` from `fresh`, cutting power at the chosen points (each point on its
/// own copy of the state), recovering and verifying. With `recut_seed`, each point is
/// also cut once more at a random operation inside its recovery.
pub fn sweep(
    fresh: &State,
    requests: &[Request],
    recover: &Recover,
    points: Points,
    recut_seed: Option<u64>,
    mut progress: impl FnMut(u64, u64),
) -> SweepReport {
    // First pass: operations per request, to place the points.
    let mut s = fresh.clone();
    let mut ops_before = Vec::with_capacity(requests.len() + 1);
    for &r in requests {
        ops_before.push(s.flash.total_ops());
        if s.exec(r).is_err() {
            break;
        }
    }
    let run_ops = s.flash.total_ops();
    ops_before.push(run_ops);
    let chosen = points.choose(run_ops);
    let mut rng = recut_seed.map(crate::trace::rng::SplitMix64::new);
    let mut tally = Tally::new(fresh.ftl.name().into(), run_ops);
    let mut s = fresh.clone();
    let mut next = 0;
    for (i, &r) in requests.iter().enumerate() {
        let hi = ops_before[i + 1];
        while next < chosen.len() && chosen[next] < hi {
            let cut_after = chosen[next] - ops_before[i];
            next += 1;
            let recut = recut_in(rng.as_mut(), &s);
            let after = &requests[i + 1..(i + 33).min(requests.len())];
            let Some((o, _)) = crash_once(&s, r, cut_after, recut, recover, after) else { continue };
            let op = chosen[next - 1];
            tally.add(&o, recut.is_some(), o.error.is_some() as u64, || {
                format!("cut after op {op} (request {} {r:?}, op {} of it)", i + 1, cut_after + 1)
            });
            progress(next as u64, chosen.len() as u64);
        }
        if s.exec(r).is_err() {
            break;
        }
    }
    tally.finish()
}
