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
pub use super::cut::Dies;
use crate::crash::health::{self, Feed, PoolCheck};
use crate::crash::judge::{go_on_from, versions};
use crate::crash::{
    aim, crash_once_with, op_causes, recut_in, run_on_copy, summary, torn_model_of, Aim, ChainOptions, ChainReport,
    CrashOutcome, CutAt, CutVerdict, Points, Recover, Recut, SweepReport, Tally,
};
use crate::metrics::LatencyHist;
use crate::nand::TornModel;
use crate::sim::State;
use crate::trace::rng::SplitMix64;
use crate::trace::Request;

/// Power failing again inside the recoveries of a device cut.
enum Again<'a> {
    None,
    /// A sweep's point: die `die`'s recovery once, after `at` of its first attempt's operations.
    Once {
        die: usize,
        at: u64,
    },
    /// A chain's: the power fails `times` times in a row while the dies recover, each time
    /// inside every die's attempt, at an operation drawn inside that die's own attempt.
    Drawn {
        times: u32,
        draw: &'a mut dyn FnMut(u32, u64) -> u64,
    },
}

/// One cut on the device: `in_flight` (die, its request, operations done) is cut inside
/// its request, its cut program torn as `torn` says (the other dies have no program under
/// way), every other die (every die when None) between requests; each die's
/// recovery is cut again as `again` says. The dies after the cut, each die's outcome and
/// the most times a die's recovery was cut; None when the request in flight needs no
/// more than that many operations (no cut happened).
fn cut_device(
    dies: &[State],
    in_flight: Option<(usize, Request, u64)>,
    torn: TornModel,
    mut again: Again,
    recover: &Recover,
    after: &[Request],
) -> Option<(Vec<State>, Vec<CrashOutcome>, u32)> {
    let mut states = Vec::with_capacity(dies.len());
    let mut outs = Vec::with_capacity(dies.len());
    let mut most = 0;
    for (k, st) in dies.iter().enumerate() {
        let (recut, max) = match &mut again {
            Again::None => (None, 0),
            Again::Once { die, at } => ((*die == k).then_some(Recut::Once(*at)), 1),
            Again::Drawn { times, draw } => (Some(Recut::Drawn(&mut **draw)), *times),
        };
        let recuts = match in_flight {
            Some((d, local, cut_after)) if d == k => {
                let torn_st;
                let st = if torn == TornModel::default() {
                    st
                } else {
                    let mut c = st.clone();
                    c.flash.torn_model = torn;
                    torn_st = c;
                    &torn_st
                };
                let (o, s, n) = crash_once_with(st, local, cut_after, recut, max, recover, after)?;
                states.push(s);
                outs.push(o);
                n
            }
            _ => {
                let mut st = st.clone();
                let (o, n) = recover_idle(&mut st, recover, recut, max);
                outs.push(o);
                states.push(st);
                n
            }
        };
        most = most.max(recuts);
    }
    Some((states, outs, most))
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
            let again = recut.map_or(Again::None, |at| Again::Once { die: d, at });
            // The next 32 requests of the cut die run on its recovered scheme.
            let after: Vec<Request> =
                placed[i + 1..].iter().filter(|(k, _)| *k == d).take(32).map(|&(_, r)| r).collect();
            let Some((_, outs, _)) =
                cut_device(&dies, Some((d, r, cut_after)), TornModel::default(), again, recover, &after)
            else {
                continue;
            };
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

/// One device run cut `o.cuts` times (`ftl crash-sweep --chain N` with device flags), with
/// the one-chip chain's options (time shift is one chip's only: the chain stops at once with
/// it): 0..=max_gap requests (the one-chip chain's `Feed`: its own workload over the
/// device's space, or a generated one, a request not acknowledged offered again), then a
/// request whose die is cut where the one-chip chain cuts its request (`aim`: a random
/// operation of it, a quarter before its first, every die then between requests; with
/// `o.targeted` half the time at a target it offers on its die, a cut right after its last
/// program falling after it), every other die between requests. The cut program tears
/// as a torn-page model drawn among those `o` enables (`torn_model_of`: with
/// `o.reads_erased` it may read as erased, with `o.paired_pages` its paired lower page on
/// that die tears too). With `o.recut_chance` power fails again inside the recovery, and again, up to
/// `o.max_recuts` times in a row (as the one-chip chain): each time every die's recovery
/// attempt is cut, each at an operation drawn inside its own attempt (the dies recover
/// apart, so every instant's combination is among these draws), the next attempt starting
/// from the chip the cut left; then each recovers whole and must rebuild what an uncut
/// recovery does. Each die is
/// verified against its own reference model and its pools held to a cut-free run of the
/// same workload (each die's extremes; `o.pool_baseline` requests, another seed); the run
/// goes on from the recovered dies (reads after it checked too). `logical_pages`: the
/// device's. `on_cut` gets every verdict (`in_flight` in device LPNs).
pub fn chain(
    fresh: &[State],
    at: &Dies,
    logical_pages: u64,
    recover: &Recover,
    o: &ChainOptions,
    mut on_cut: impl FnMut(&CutVerdict),
) -> ChainReport {
    let mut rng = SplitMix64::new(o.seed);
    let mut feed = Feed::new();
    let scheme = fresh.first().map(|s| s.ftl.name().to_string()).unwrap_or_default();
    let mut rep = ChainReport { scheme, seed: o.seed, cuts: o.cuts, ..Default::default() };
    if o.time_shift {
        // A freeze, unfreeze or revert is the whole device's: not striped over the dies.
        rep.stopped = Some("time shift needs a device of one die".into());
        return rep;
    }
    rep.targets = health::target_counts();
    let mut rec_ops = LatencyHist::default();
    let mut dies = fresh.to_vec();
    let (mut base_rng, mut base_feed) = health::cut_free_feed(o);
    let bounds = (o.pool_baseline > 0)
        .then(|| {
            health::bounds_over(fresh.to_vec(), o.pool_baseline, |run| {
                let (d, local) = at.place(base_feed.next_in(&mut base_rng, logical_pages, o)).ok()?;
                run[d].exec(local).ok().map(|_| d)
            })
        })
        .flatten();
    let mut pools = PoolCheck::per_die(&bounds.unwrap_or_default(), fresh);
    let wrong_seen = |dies: &mut [State], rep: &mut ChainReport, cut: u64| {
        for (k, s) in dies.iter_mut().enumerate() {
            rep.wrong_reads_seen(s, cut, || format!("a read on die {k}"));
        }
    };
    let mut since_recovery = u64::MAX;
    let mut cut = 0u64;
    'chain: while cut < o.cuts {
        for _ in 0..rng.below(o.max_gap as u64 + 1) {
            let r = feed.next_in(&mut rng, logical_pages, o);
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
        let req = feed.next_in(&mut rng, logical_pages, o);
        let (d, local) = match at.place(req) {
            Ok(p) => p,
            Err(e) => {
                rep.stopped = Some(e);
                break;
            }
        };
        let (mut done, events) = match run_on_copy(&dies[d], local) {
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
        // the request carries one, or at a target it offers on its die (`--targeted`).
        let Aim { kind, cut_after, cause, at: mut at_kind, target } =
            aim(&mut rng, o, &events, &causes, &dies[d], &done, &mut rep);
        // Aimed right after the request's last program: it completes (acknowledged) and the
        // cut falls before the next request, every die between requests.
        let completed = cut_after >= causes.len() as u64;
        if completed {
            std::mem::swap(&mut dies[d], &mut done);
            rep.requests_run += 1;
            since_recovery = since_recovery.saturating_add(1);
            at_kind = CutAt::Between;
        }
        let in_flight = (kind != 0 && !completed).then_some((d, local, cut_after));
        // Drawn only when another model is enabled: the default chain's draws stay as they were.
        let (torn_name, torn) =
            if o.paired_pages || o.reads_erased { torn_model_of(&mut rng, o) } else { ("torn", TornModel::default()) };
        // As the one-chip chain: with chance `recut_chance` power fails again inside the
        // recovery, and again, up to `max_recuts` times in a row. Each time it stops every
        // die's recovery, each at an operation drawn inside its own attempt.
        let mut times = 0;
        while times < o.max_recuts && rng.unit() < o.recut_chance {
            times += 1;
        }
        let mut draw = |_: u32, ops: u64| rng.below(ops);
        let again = if times > 0 { Again::Drawn { times, draw: &mut draw } } else { Again::None };
        let Some((states, outs, recuts)) = cut_device(&dies, in_flight, torn, again, recover, &[]) else {
            continue;
        };
        rep.recut_points += times as u64;
        cut += 1;
        let before_version = dies[d].next_version;
        let took_effect = in_flight.is_some()
            && matches!(local, Request::Write { lpn } if states[d].oracle.expected(lpn) == before_version);
        if !took_effect && !completed {
            // Not acknowledged: the host offers it again (a generated workload stays in order).
            feed.cut(req, o);
        }
        let m = merged(&outs);
        // Every die's pools within their cut-free bound after its recovery.
        let excess: Vec<String> = pools
            .iter_mut()
            .zip(&states)
            .enumerate()
            .filter_map(|(k, (p, s))| p.after_recovery(s).map(|x| format!("die {k}: {x}")))
            .collect();
        let v = CutVerdict {
            cut,
            request: rep.requests_run,
            in_flight: in_flight.map(|_| req),
            at: at_kind,
            op_cause: (kind != 0).then(|| cause.name()),
            right_after_recovery: since_recovery == 0,
            recuts,
            torn_model: torn_name,
            took_effect,
            lost: m.lost,
            wrong: m.wrong,
            torn_mapped: m.torn_mapped,
            frozen_damaged: 0,
            recovery_ops: m.recovery_ops,
            error: m.error.clone(),
            target: target.map(|t| t.0.name()),
            pools: (!excess.is_empty()).then(|| excess.join("; ")),
        };
        rep.landed(at_kind);
        rep.right_after_recovery += v.right_after_recovery as u64;
        rep.took_effect += took_effect as u64;
        rep.recut_inside_recovery += recuts as u64;
        rep.acked_writes_lost += m.lost;
        rep.wrong_reads += m.wrong;
        rep.torn_mapped += m.torn_mapped;
        rep.errors += outs.iter().filter(|o| o.error.is_some()).count() as u64;
        rep.pool_excess += v.pools.is_some() as u64;
        rec_ops.record(m.recovery_ops * 1000);
        rep.judged(v.ok(), || {
            format!(
                "cut {cut} ({req:?} on die {d}, after {cut_after} of its ops{}, {recuts} recuts, {torn_name} model): lost {}, wrong {}, torn mapped {}{}{}",
                v.target.map(|t| format!(", aimed {t}")).unwrap_or_default(),
                m.lost,
                m.wrong,
                m.torn_mapped,
                m.error.as_ref().map(|e| format!(", {e}")).unwrap_or_default(),
                v.pools.as_ref().map(|p| format!(", pools: {p}")).unwrap_or_default()
            )
        });
        on_cut(&v);
        dies = states;
        for (s, o) in dies.iter_mut().zip(&outs) {
            if !o.ok {
                // As the one-chip chain: go on from what the die recovered, so later cuts are
                // judged on their own (a paired lower page lost stays lost, not counted again).
                let (got, _) = versions(s.ftl.as_ref(), &s.flash);
                go_on_from(&mut s.oracle, &got);
            }
        }
        since_recovery = 0;
    }
    let points = cut + rep.recut_points;
    rep.share_inside_recovery = if points > 0 { rep.recut_inside_recovery as f64 / points as f64 } else { 0.0 };
    rep.recovery_ops = summary(&rec_ops);
    rep.pools = PoolCheck::merged(&pools).map(|p| p.report()).unwrap_or_default();
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
