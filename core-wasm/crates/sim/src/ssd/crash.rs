//! `ftl crash-sweep` on a device of several dies (issue 40, item 6; docs/ssd.md, "Power
//! cuts"): the cut points of a sweep and the cuts of a chain, with cut.rs's device cut.
//! A cut stops every die: the die of the page request it falls in loses that request
//! (crash.rs's `crash_once`: the operation under way fails, a program is torn), every other
//! die is stopped between page requests; every die recovers from its own chip alone and is
//! checked against its own reference model.
//!
//! Figures over dies (the choice, docs/ssd.md): a point or cut is recovered correctly when
//! every die is; lost / wrong / torn mapped are summed over the dies; recovery pages read and
//! operations are the sum over the dies (the work), recovery time the slowest die's (power
//! comes back on every die at once and they recover in parallel).

use super::cut::recover_idle;
use super::{place, Shape};
use crate::crash::{
    crash_once, cut_point, op_causes, recut_in, run_on_copy, summary, ChainReport, CrashOutcome, CutAt, CutVerdict,
    Points, Recover, SweepReport, Tally,
};
use crate::metrics::LatencyHist;
use crate::sim::State;
use crate::trace::rng::SplitMix64;
use crate::trace::Request;

/// A device's dies and how the logical space is striped over them.
pub struct Dies<'a> {
    pub shape: &'a Shape,
    /// Stripe unit, pages.
    pub unit: u32,
}

impl Dies<'_> {
    /// Die and die-local request of device request `req`.
    fn place(&self, req: Request) -> Result<(usize, Request), String> {
        let lpn = req.lpn().ok_or("freeze / unfreeze / revert need a device of one die")?;
        let (die, local) = place(lpn, self.shape.dies(), self.unit);
        let local = match req {
            Request::Read { .. } => Request::Read { lpn: local },
            _ => Request::Write { lpn: local },
        };
        Ok((die as usize, local))
    }
}

/// One cut on the device: die `die` cut after `cut_after` operations of `local` (`recut`:
/// again inside that die's recovery), every other die recovered between requests. The dies
/// after the cut and each die's outcome.
fn cut_device(
    dies: &[State],
    die: usize,
    local: Request,
    cut_after: u64,
    recut: Option<u64>,
    recover: &Recover,
    after: &[Request],
) -> Option<(Vec<State>, Vec<CrashOutcome>)> {
    let (o, s) = crash_once(&dies[die], local, cut_after, recut, recover, after)?;
    let mut states = Vec::with_capacity(dies.len());
    let mut outs = Vec::with_capacity(dies.len());
    for (k, st) in dies.iter().enumerate() {
        if k == die {
            states.push(s.clone());
            outs.push(o.clone());
        } else {
            let mut st = st.clone();
            outs.push(recover_idle(&mut st, recover));
            states.push(st);
        }
    }
    Some((states, outs))
}

/// Sums of the dies' outcomes, with the slowest die's recovery time and the first die's
/// error: ok when every die's is.
fn merged(outs: &[CrashOutcome]) -> CrashOutcome {
    let mut m = CrashOutcome::default();
    for (k, o) in outs.iter().enumerate() {
        m.lost += o.lost;
        m.wrong += o.wrong;
        m.torn_mapped += o.torn_mapped;
        m.frozen_damaged += o.frozen_damaged;
        m.recovery_ops += o.recovery_ops;
        m.recovery_pages_read += o.recovery_pages_read;
        m.recovery_ns = m.recovery_ns.max(o.recovery_ns);
        if m.error.is_none() {
            m.error = o.error.as_ref().map(|e| format!("die {k}: {e}"));
        }
    }
    m.settled()
}

/// `crash::sweep` on a device: `requests` (device LPNs) from `fresh` dies; the points are
/// operation indices of the whole device run in host order (every die's operations of a
/// page request counted at that request). Each point on its own copy of the dies.
pub fn sweep(
    fresh: &[State],
    at: &Dies,
    requests: &[Request],
    recover: &Recover,
    points: Points,
    recut_seed: Option<u64>,
    mut progress: impl FnMut(u64, u64),
) -> Result<SweepReport, String> {
    let placed: Vec<(usize, Request)> = requests.iter().map(|&r| at.place(r)).collect::<Result<_, _>>()?;
    // First pass: operations before each request, over all dies.
    let mut dies = fresh.to_vec();
    let mut ops_before = Vec::with_capacity(requests.len() + 1);
    let mut ops = 0;
    for &(d, r) in &placed {
        ops_before.push(ops);
        let t0 = dies[d].flash.total_ops();
        if dies[d].exec(r).is_err() {
            break;
        }
        ops += dies[d].flash.total_ops() - t0;
    }
    ops_before.resize(requests.len() + 1, ops);
    let run_ops = ops;
    let chosen = points.choose(run_ops);
    let mut rng = recut_seed.map(SplitMix64::new);
    let scheme = fresh.first().map(|s| s.ftl.name().to_string()).unwrap_or_default();
    let mut tally = Tally::new(scheme, run_ops);
    let mut dies = fresh.to_vec();
    let mut next = 0;
    for (i, &(d, r)) in placed.iter().enumerate() {
        let hi = ops_before[i + 1];
        while next < chosen.len() && chosen[next] < hi {
            let cut_after = chosen[next] - ops_before[i];
            next += 1;
            let recut = recut_in(rng.as_mut(), &dies[d]);
            // The next 32 requests of the cut die run on its recovered scheme.
            let after: Vec<Request> =
                placed[i + 1..].iter().filter(|(k, _)| *k == d).take(32).map(|&(_, r)| r).collect();
            let Some((_, outs)) = cut_device(&dies, d, r, cut_after, recut, recover, &after) else { continue };
            let errors = outs.iter().filter(|o| o.error.is_some()).count() as u64;
            let op = chosen[next - 1];
            tally.add(&merged(&outs), recut.is_some(), errors, || {
                format!(
                    "cut after op {op} (request {} {:?} on die {d}, op {} of it)",
                    i + 1,
                    requests[i],
                    cut_after + 1
                )
            });
            progress(next as u64, chosen.len() as u64);
        }
        if dies[d].exec(r).is_err() {
            break;
        }
    }
    Ok(tally.finish())
}

/// Options of a chain of cuts on a device (`ftl crash-sweep --chain N` with device flags).
#[derive(Clone, Debug)]
pub struct DeviceChainOptions {
    pub cuts: u64,
    pub seed: u64,
    /// Requests between two cuts: drawn in 0..=max_gap.
    pub max_gap: u32,
    /// Share of reads of the chain's own workload.
    pub read_ratio: f64,
    /// A workload (device LPNs) run in order and from its start again; None: the chain's
    /// own (half uniform over the device's space, half in its hot eighth).
    pub workload: Option<Vec<Request>>,
    /// Chance that the cut die's recovery is cut again (at an operation drawn inside it).
    pub recut_chance: f64,
}

impl DeviceChainOptions {
    pub fn new(cuts: u64, seed: u64) -> DeviceChainOptions {
        DeviceChainOptions { cuts, seed, max_gap: 4, read_ratio: 0.2, workload: None, recut_chance: 0.6 }
    }
}

/// One device run cut `o.cuts` times: 0..=max_gap requests, then a request whose die is
/// cut at a random operation of it (0: before its first, between requests), recut inside
/// its recovery with `o.recut_chance`; every other die recovers between requests; each die
/// is verified against its own reference model, and the run goes on from the recovered
/// dies (reads after it checked too). `logical_pages`: the device's. `on_cut` gets every
/// verdict (`in_flight` in device LPNs).
pub fn chain(
    fresh: &[State],
    at: &Dies,
    logical_pages: u64,
    recover: &Recover,
    o: &DeviceChainOptions,
    mut on_cut: impl FnMut(&CutVerdict),
) -> ChainReport {
    let mut rng = SplitMix64::new(o.seed);
    let scheme = fresh.first().map(|s| s.ftl.name().to_string()).unwrap_or_default();
    let mut rep = ChainReport { scheme, seed: o.seed, cuts: o.cuts, ..Default::default() };
    let mut rec_ops = LatencyHist::default();
    let mut dies = fresh.to_vec();
    let mut fed = 0usize;
    let mut next = |rng: &mut SplitMix64| -> Request {
        if let Some(w) = o.workload.as_ref().filter(|w| !w.is_empty()) {
            fed += 1;
            return w[(fed - 1) % w.len()];
        }
        let hot = (logical_pages / 8).max(1);
        let lpn = if rng.below(2) == 0 { rng.below(logical_pages.max(1)) } else { rng.below(hot) } as u32;
        if rng.unit() < o.read_ratio {
            Request::Read { lpn }
        } else {
            Request::Write { lpn }
        }
    };
    let wrong_seen = |dies: &mut [State], rep: &mut ChainReport, cut: u64| {
        for (k, s) in dies.iter_mut().enumerate() {
            rep.wrong_reads_seen(s, cut, || format!("a read on die {k}"));
        }
    };
    let mut since_recovery = u64::MAX;
    let mut recut_points = 0u64;
    let mut cut = 0u64;
    'chain: while cut < o.cuts {
        for _ in 0..rng.below(o.max_gap as u64 + 1) {
            let r = next(&mut rng);
            let (d, local) = match at.place(r) {
                Ok(p) => p,
                Err(e) => {
                    rep.stopped = Some(e);
                    break 'chain;
                }
            };
            if let Err(e) = dies[d].exec(local) {
                rep.stopped = Some(format!("request {r:?} on die {d} failed without a cut: {e}"));
                rep.stuck = true;
                break 'chain;
            }
            rep.requests_run += 1;
            since_recovery = since_recovery.saturating_add(1);
        }
        wrong_seen(&mut dies, &mut rep, cut);
        // The request in flight, run on a copy of its die to see its operations.
        let req = next(&mut rng);
        let (d, local) = match at.place(req) {
            Ok(p) => p,
            Err(e) => {
                rep.stopped = Some(e);
                break;
            }
        };
        let (done, events) = match run_on_copy(&dies[d], local) {
            Ok(x) => x,
            Err(e) => {
                rep.stopped = Some(format!("request {req:?} on die {d} failed without a cut: {e}"));
                rep.stuck = true;
                break;
            }
        };
        let causes = op_causes(&events);
        if causes.is_empty() {
            // Nothing to cut (a read of a page never written).
            dies[d] = done;
            rep.requests_run += 1;
            since_recovery = since_recovery.saturating_add(1);
            wrong_seen(&mut dies, &mut rep, cut);
            continue;
        }
        // As the one-chip chain: a quarter between requests (nothing in flight), the rest
        // at an operation of the request, aimed at a merge or a map / log write half the time
        // the request carries one.
        let kind = rng.below(4);
        let cut_after = cut_point(kind, &mut rng, &causes);
        let cause = causes[cut_after as usize];
        let at_kind = CutAt::of(kind == 0, cause);
        let cut_now = if kind == 0 {
            // Power fails before the request starts: every die between requests.
            let mut states = dies.clone();
            let outs: Vec<CrashOutcome> = states.iter_mut().map(|st| recover_idle(st, recover)).collect();
            Some((states, outs))
        } else {
            cut_device(&dies, d, local, cut_after, None, recover, &[])
        };
        let Some((mut states, mut outs)) = cut_now else {
            continue;
        };
        let mut recuts = 0;
        if kind != 0 && rng.unit() < o.recut_chance {
            // Cut again inside the cut die's recovery, at an operation it does run.
            recut_points += 1;
            let inside = outs[d].recovery_ops;
            if inside > 0 {
                let r = rng.below(inside);
                if let Some((s2, o2)) = cut_device(&dies, d, local, cut_after, Some(r), recover, &[]) {
                    states[d] = s2[d].clone();
                    outs[d] = o2[d].clone();
                    recuts = 1;
                }
            }
        }
        cut += 1;
        let before_version = dies[d].next_version;
        let took_effect =
            kind != 0 && matches!(local, Request::Write { lpn } if states[d].oracle.expected(lpn) == before_version);
        let m = merged(&outs);
        let v = CutVerdict {
            cut,
            request: rep.requests_run,
            in_flight: (kind != 0).then_some(req),
            at: at_kind,
            op_cause: (kind != 0).then(|| cause.name()),
            right_after_recovery: since_recovery == 0,
            recuts,
            torn_model: "torn",
            took_effect,
            lost: m.lost,
            wrong: m.wrong,
            torn_mapped: m.torn_mapped,
            frozen_damaged: 0,
            recovery_ops: m.recovery_ops,
            error: m.error.clone(),
            target: None,
            pools: None,
        };
        rep.landed(at_kind);
        rep.right_after_recovery += v.right_after_recovery as u64;
        rep.took_effect += took_effect as u64;
        rep.recut_inside_recovery += recuts as u64;
        rep.acked_writes_lost += m.lost;
        rep.wrong_reads += m.wrong;
        rep.torn_mapped += m.torn_mapped;
        rep.errors += outs.iter().filter(|o| o.error.is_some()).count() as u64;
        rec_ops.record(m.recovery_ops * 1000);
        rep.judged(m.ok, || {
            format!(
                "cut {cut} ({req:?} on die {d}, after {cut_after} of its ops): lost {}, wrong {}, torn mapped {}{}",
                m.lost,
                m.wrong,
                m.torn_mapped,
                m.error.as_ref().map(|e| format!(", {e}")).unwrap_or_default()
            )
        });
        on_cut(&v);
        dies = states;
        since_recovery = 0;
    }
    rep.recut_points = recut_points;
    let points = cut + recut_points;
    rep.share_inside_recovery = if points > 0 { rep.recut_inside_recovery as f64 / points as f64 } else { 0.0 };
    rep.recovery_ops = summary(&rec_ops);
    rep.cuts = cut;
    // Every die must end agreeing with its reference model.
    for (k, s) in dies.iter().enumerate() {
        if rep.stopped.is_none() && !s.mismatches().is_empty() {
            rep.errors += 1;
            rep.first_failures.push(format!("at the end, die {k} disagrees with its reference model"));
        }
    }
    rep
}
