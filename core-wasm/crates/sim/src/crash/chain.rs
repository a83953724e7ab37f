//! Chains of power cuts (`ftl crash-sweep --chain N`): one run cut many times, each
//! time recovered, verified and continued from the recovered state.

use serde::Serialize;

use super::health::{self, is_merge, Feed, PoolBound, TargetCount};
use super::judge::{go_on_from, judge, sync_frozen, version_of, versions};
use super::{summary, Recover, Summary};
use crate::metrics::LatencyHist;
use crate::nand::{Cause, Event, FlashError, TornModel};
use crate::sim::State;
use crate::trace::rng::SplitMix64;
use crate::trace::Request;

/// Options of a chain of power cuts (`ftl crash-sweep --chain N`).
#[derive(Clone, Debug)]
pub struct ChainOptions {
    /// Power cuts to make.
    pub cuts: u64,
    pub seed: u64,
    /// Requests run without a cut between two cuts: drawn in 0..=max_gap (0 = the next
    /// request right after a recovery).
    pub max_gap: u32,
    /// Share of reads among the chain's own random requests (not used with `workload`).
    pub read_ratio: f64,
    /// A generated workload (`--gen`, `--pattern`) the chain runs in order, from the start
    /// again after its last request; None: the chain's own random workload (seed).
    pub workload: Option<std::sync::Arc<[Request]>>,
    /// Freeze / unfreeze / revert in the workload (time-shifting schemes).
    pub time_shift: bool,
    /// Chance that a recovery is cut again (drawn inside its actual operations); a cut
    /// recovery may be cut again, up to `max_recuts` times in a row.
    pub recut_chance: f64,
    pub max_recuts: u32,
    /// Torn-page models to use; each cut draws one of the enabled ones (the default torn
    /// page always among them).
    pub paired_pages: bool,
    pub reads_erased: bool,
    /// Aim half the cuts at a target the request in flight offers (health::TARGETS: right
    /// after each kind of metadata program, inside a GC destination, at the last free block).
    pub targeted: bool,
    /// Hold the pools every recovery leaves against a cut-free run of this many requests
    /// of the same workload (0: no check). The default covers the chain's own length.
    pub pool_baseline: u64,
}

impl ChainOptions {
    pub fn new(cuts: u64, seed: u64) -> ChainOptions {
        ChainOptions {
            cuts,
            seed,
            max_gap: 4,
            read_ratio: 0.2,
            workload: None,
            time_shift: false,
            recut_chance: 0.6,
            max_recuts: 3,
            paired_pages: false,
            reads_erased: false,
            targeted: false,
            pool_baseline: default_pool_baseline(cuts, 4),
        }
    }
}

/// A cut-free run as long as the chain (0..=max_gap requests between cuts, the one in
/// flight, 1 more), at least 2,000 requests, at most `MAX_DEFAULT_BASELINE`: the bounds hold
/// over the whole chain, not a window of it.
pub fn default_pool_baseline(cuts: u64, max_gap: u32) -> u64 {
    cuts.saturating_mul(max_gap as u64 / 2 + 2).clamp(2000, MAX_DEFAULT_BASELINE)
}

/// The longest default cut-free run (chains of up to 500,000 cuts are covered whole).
const MAX_DEFAULT_BASELINE: u64 = 2_000_000;

/// Where a cut landed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CutAt {
    /// Before the first operation of a request (between two requests).
    Between,
    /// Among the host operations of a request.
    MidRequest,
    /// Inside a merge, switch, fill or GC a request carried.
    MidMerge,
    /// Inside a map / checkpoint / log write.
    MidCheckpoint,
}

/// The verdict on one cut of a chain.
#[derive(Clone, Debug, Serialize)]
pub struct CutVerdict {
    pub cut: u64,
    /// Requests completed before the one in flight.
    pub request: u64,
    /// The request in flight (None: the cut fell between two requests).
    pub in_flight: Option<Request>,
    pub at: CutAt,
    /// Cause of the operation the cut failed (None: between requests).
    pub op_cause: Option<&'static str>,
    /// The request in flight was the first after a recovery.
    pub right_after_recovery: bool,
    /// Cuts inside the recovery before it completed.
    pub recuts: u32,
    /// The torn-page model of this cut: "torn", "erased", "paired".
    pub torn_model: &'static str,
    /// The recovered state shows the request in flight as done.
    pub took_effect: bool,
    pub lost: u64,
    pub wrong: u64,
    pub torn_mapped: u64,
    pub frozen_damaged: u64,
    pub recovery_ops: u64,
    pub error: Option<String>,
    /// The target the cut was aimed at (`--targeted`).
    pub target: Option<&'static str>,
    /// The pools this recovery left beyond their cut-free bound (`health::is_checked_pool`),
    /// each with its count, the bound and the difference.
    pub pools: Option<String>,
}

impl CutVerdict {
    pub fn ok(&self) -> bool {
        self.lost == 0
            && self.wrong == 0
            && self.torn_mapped == 0
            && self.frozen_damaged == 0
            && self.error.is_none()
            && self.pools.is_none()
    }
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct ChainReport {
    pub scheme: String,
    pub seed: u64,
    pub cuts: u64,
    pub requests_run: u64,
    pub recovered_correctly: u64,
    pub acked_writes_lost: u64,
    pub wrong_reads: u64,
    pub torn_mapped: u64,
    pub frozen_damaged: u64,
    pub errors: u64,
    /// Cuts by where they landed.
    pub between: u64,
    pub mid_request: u64,
    pub mid_merge: u64,
    pub mid_checkpoint: u64,
    pub right_after_recovery: u64,
    /// In-flight requests the recovery showed as done.
    pub took_effect: u64,
    /// Cut points drawn inside a recovery, and how many of them did cut it (the point lies
    /// within the recovery's actual operation count, counted on a copy first).
    pub recut_points: u64,
    pub recut_inside_recovery: u64,
    /// Share of all cut points (first cuts + recuts) that landed inside a recovery.
    pub share_inside_recovery: f64,
    pub recovery_ops: Summary,
    /// Targeted cuts: per target, requests in flight that offered it and cuts aimed at it.
    pub targets: Vec<TargetCount>,
    /// Per pool: its bound in a cut-free run and its extreme over the recovered states.
    pub pools: Vec<PoolBound>,
    /// Recoveries that left a pool beyond its cut-free bound (each a failed cut).
    pub pool_excess: u64,
    /// A request failed without a cut (the device refused a write after a recovery).
    pub stuck: bool,
    pub first_failures: Vec<String>,
    /// Set when the chain had to stop (a scheme error it cannot go on from).
    pub stopped: Option<String>,
}

impl ChainReport {
    /// Counts a cut by where it landed.
    pub(crate) fn landed(&mut self, at: CutAt) {
        match at {
            CutAt::Between => self.between += 1,
            CutAt::MidRequest => self.mid_request += 1,
            CutAt::MidMerge => self.mid_merge += 1,
            CutAt::MidCheckpoint => self.mid_checkpoint += 1,
        }
    }

    /// A cut recovered correctly, or its failure noted (the first ten, `failure` in words).
    pub(crate) fn judged(&mut self, ok: bool, failure: impl FnOnce() -> String) {
        if ok {
            self.recovered_correctly += 1;
        } else if self.first_failures.len() < 10 {
            self.first_failures.push(failure());
        }
    }

    /// Reads on `s` since the last look that returned data other than the latest
    /// acknowledged (after cut `cut`): counted, the first ones noted (`read` names them).
    pub(crate) fn wrong_reads_seen(&mut self, s: &mut State, cut: u64, read: impl FnOnce() -> String) {
        if s.host.wrong_reads > 0 {
            self.wrong_reads += s.host.wrong_reads;
            if self.first_failures.len() < 10 {
                self.first_failures.push(format!("after cut {cut}: {} returned wrong data", read()));
            }
            s.host.wrong_reads = 0;
        }
    }
}

impl CutAt {
    /// Where a cut at an operation of `cause` landed (`between`: before the request's first).
    pub(crate) fn of(between: bool, cause: Cause) -> CutAt {
        if between {
            CutAt::Between
        } else if is_merge(cause) {
            CutAt::MidMerge
        } else if matches!(cause, Cause::Map | Cause::Log) {
            CutAt::MidCheckpoint
        } else {
            CutAt::MidRequest
        }
    }
}

/// The request in flight run to completion on a copy of `s`, the chip recording: the copy
/// after it and its events (a cut inside it falls at one of their operations, `op_causes`).
pub(crate) fn run_on_copy(s: &State, req: Request) -> Result<(State, Vec<Event>), FlashError> {
    let mut done = s.clone();
    done.flash.set_recording(true);
    done.exec(req)?;
    let events = done.flash.take_events();
    done.flash.set_recording(false);
    Ok((done, events))
}

/// The cause of every flash operation among `events`, in order.
pub(crate) fn op_causes(events: &[Event]) -> Vec<Cause> {
    events
        .iter()
        .filter_map(|e| match *e {
            Event::Op { cause, .. } => Some(cause),
            _ => None,
        })
        .collect()
}

/// After how many of a request's operations (`causes`) a cut of `kind` falls: 0, before the
/// first (between requests); 1, any; 2, a merge's (any when the request carries none); 3, a
/// map / log write's (likewise).
pub(crate) fn cut_point(kind: u64, rng: &mut SplitMix64, causes: &[Cause]) -> u64 {
    let pick = |rng: &mut SplitMix64, f: &dyn Fn(Cause) -> bool| -> u64 {
        let idx: Vec<u64> = (0..causes.len() as u64).filter(|&i| f(causes[i as usize])).collect();
        if idx.is_empty() {
            rng.below(causes.len() as u64)
        } else {
            idx[rng.below(idx.len() as u64) as usize]
        }
    };
    match kind {
        0 => 0,
        1 => rng.below(causes.len() as u64),
        2 => pick(rng, &is_merge),
        _ => pick(rng, &|c| matches!(c, Cause::Map | Cause::Log)),
    }
}

/// Where a chain's cut falls in the request in flight (`aim`).
pub(crate) struct Aim {
    /// 0: before its first operation (between requests); 1-3 as `cut_point`.
    pub kind: u64,
    /// Operations of the request done before the power fails (`causes.len()`: a cut aimed
    /// right after its last program; the request completes and the cut falls after it).
    pub cut_after: u64,
    /// The operation cut (for a cut right after a program: that program).
    pub cause: Cause,
    pub at: CutAt,
    /// The target aimed at (`--targeted`) and its cut point.
    pub target: Option<(health::Target, u64)>,
}

/// Draws where a cut falls among the operations (`causes`, `events`) of the request in
/// flight from `before` (`done`: it run whole): with `o.targeted` half the time at a target
/// it offers (health::TARGETS, counted in `rep.targets`), otherwise `cut_point`'s kinds.
/// One chip's chain and each device chain's cut die (ssd/crash.rs) draw it the same way.
pub(crate) fn aim(
    rng: &mut SplitMix64,
    o: &ChainOptions,
    events: &[Event],
    causes: &[Cause],
    before: &State,
    done: &State,
    rep: &mut ChainReport,
) -> Aim {
    let target = if o.targeted {
        let offered = health::targets_of(events, before, done);
        let aim = rng.unit() < 0.5;
        health::pick_target(rng, &offered, &mut rep.targets, aim)
    } else {
        None
    };
    let kind = if target.is_some() { 1 } else { rng.below(4) };
    let cut_after = match target {
        Some((_, b)) => b,
        None => cut_point(kind, rng, causes),
    };
    let op = match target {
        Some((health::Target::After(_), b)) => b - 1,
        _ => cut_after,
    };
    let cause = causes[op as usize];
    Aim { kind, cut_after, cause, at: CutAt::of(kind == 0, cause), target }
}

/// The torn-page model of a cut, drawn among the enabled ones (the default torn page always
/// among them): its name for the verdict and the chip's model.
pub(crate) fn torn_model_of(rng: &mut SplitMix64, o: &ChainOptions) -> (&'static str, TornModel) {
    let mut models = vec!["torn"];
    if o.reads_erased {
        models.push("erased");
    }
    if o.paired_pages {
        models.push("paired");
    }
    let name = models[rng.below(models.len() as u64) as usize];
    (name, TornModel { paired_pages: name == "paired", reads_erased: name == "erased" })
}

/// One run that cuts power `o.cuts` times: at a random boundary (between requests, among a
/// request's host operations, inside a merge / GC, inside a map or checkpoint write; right
/// after a recovery when no request ran since), recovers (cut again inside the recovery at
/// a point drawn within its actual operation count), verifies against the reference model
/// and goes on from the recovered state. `on_cut` gets every verdict.
pub fn chain(fresh: &State, recover: &Recover, o: &ChainOptions, mut on_cut: impl FnMut(&CutVerdict)) -> ChainReport {
    let mut rng = SplitMix64::new(o.seed);
    let mut feed = Feed::new();
    let mut rep = ChainReport { scheme: fresh.ftl.name().into(), seed: o.seed, ..Default::default() };
    let mut rec_ops = LatencyHist::default();
    let mut s = fresh.clone();
    let mut since_recovery = u64::MAX;
    let mut cut = 0u64;
    let mut first_cuts = 0u64;
    // Diagnosis: FTL_CHAIN_TRACE=<cut> prints that cut's recoveries (notes, programs and
    // erases) and the LPNs and frozen states that disagree with the reference model.
    let trace_cut = std::env::var("FTL_CHAIN_TRACE").ok().and_then(|x| x.parse::<u64>().ok());
    rep.targets = health::target_counts();
    // Pools the scheme caps by construction are judged against the cap (Ftl::pool_cap).
    let mut pools = (o.pool_baseline > 0)
        .then(|| health::cut_free_bounds(fresh, o, o.pool_baseline))
        .flatten()
        .map(|b| health::PoolCheck::new(b, &s));
    'chain: while cut < o.cuts {
        // Requests without a cut.
        for _ in 0..rng.below(o.max_gap as u64 + 1) {
            let r = feed.next(&mut rng, &s, o);
            if let Err(e) = s.exec(r) {
                rep.stopped = Some(format!("request {} ({r:?}) failed without a cut: {e}", s.pos + 1));
                rep.stuck = true;
                break 'chain;
            }
            sync_frozen(&mut s);
            rep.requests_run += 1;
            since_recovery = since_recovery.saturating_add(1);
            rep.wrong_reads_seen(&mut s, cut, || format!("{r:?}"));
        }
        // The request in flight: run it to completion on a copy to count its operations.
        let req = feed.next(&mut rng, &s, o);
        let (mut done, events) = match run_on_copy(&s, req) {
            Ok(x) => x,
            Err(e) => {
                rep.stopped = Some(format!("request {} ({req:?}) failed without a cut: {e}", s.pos + 1));
                rep.stuck = true;
                break;
            }
        };
        sync_frozen(&mut done);
        let causes = op_causes(&events);
        if causes.is_empty() {
            // Nothing to cut (a read of a page never written, a refused time shift).
            s = done;
            rep.wrong_reads_seen(&mut s, cut, || format!("{req:?}"));
            rep.requests_run += 1;
            since_recovery = since_recovery.saturating_add(1);
            continue;
        }
        let Aim { kind, cut_after, cause, at, target } = aim(&mut rng, o, &events, &causes, &s, &done, &mut rep);
        let (torn_model, model) = torn_model_of(&mut rng, o);
        if kind == 0 {
            // Power fails before the request starts: nothing is in flight.
            done = s.clone();
        }
        let mut before = s.clone();
        s.flash.torn_model = model;
        s.flash.set_power_budget(Some(cut_after));
        let res = if kind == 0 { Err(FlashError::PowerLoss) } else { s.exec(req) };
        s.flash.torn_model = crate::nand::TornModel::default();
        s.flash.power_on();
        // Aimed right after the request's last operation: the request completed and was
        // acknowledged; the cut falls before the next one.
        let completed = target.is_some() && res.is_ok();
        if completed {
            sync_frozen(&mut s);
            rep.requests_run += 1;
            before = s.clone();
            done = s.clone();
        }
        cut += 1;
        first_cuts += 1;
        let mut v = CutVerdict {
            cut,
            request: before.pos as u64,
            in_flight: (kind != 0 && !completed).then_some(req),
            at: if completed { CutAt::Between } else { at },
            op_cause: (at != CutAt::Between).then(|| cause.name()),
            right_after_recovery: since_recovery == 0,
            recuts: 0,
            torn_model,
            took_effect: false,
            lost: 0,
            wrong: 0,
            torn_mapped: 0,
            frozen_damaged: 0,
            recovery_ops: 0,
            error: None,
            target: target.map(|t| t.0.name()),
            pools: None,
        };
        if res != Err(FlashError::PowerLoss) && !completed {
            v.error = Some(format!("the request did not stop at the cut: {res:?}"));
        }
        // Recovery, cut again inside it (at a point within its actual operations) by chance.
        let mut reference: Option<Vec<u32>> = None;
        while v.recuts < o.max_recuts && rng.unit() < o.recut_chance {
            let mut f = s.flash.clone();
            let o0 = f.total_ops();
            let r = recover(&mut f);
            let ops = f.total_ops() - o0;
            if reference.is_none() {
                reference = match r {
                    Ok(Ok(ftl)) => Some(versions(ftl.as_ref(), &f).0),
                    _ => None,
                };
            }
            if ops == 0 {
                break;
            }
            let b = rng.below(ops);
            s.flash.set_power_budget(Some(b));
            let tr = trace_cut == Some(cut);
            if tr {
                s.flash.set_recording(true);
            }
            let _ = recover(&mut s.flash);
            if tr {
                eprintln!(" recut after {b} of {ops} ops:");
                for e in s.flash.take_events() {
                    match e {
                        crate::nand::Event::Note { tag, text } => eprintln!("  [{tag}] {text}"),
                        crate::nand::Event::Op { kind, ppn, cause, .. }
                            if kind != crate::nand::OpKind::Read && kind != crate::nand::OpKind::ReadOob =>
                        {
                            eprintln!("   op {kind:?} {ppn} {cause:?}")
                        }
                        _ => {}
                    }
                }
                s.flash.set_recording(false);
            }
            rep.recut_points += 1;
            rep.recut_inside_recovery += s.flash.power_lost() as u64;
            s.flash.power_on();
            v.recuts += 1;
        }
        let o0 = s.flash.total_ops();
        let trace_this = trace_cut == Some(cut);
        if trace_this {
            s.flash.set_recording(true);
            eprintln!("cut {cut}: in flight {:?} at {at:?} ({cut_after} ops done), {} recuts", v.in_flight, v.recuts);
        }
        let ftl = match recover(&mut s.flash) {
            Ok(Ok(f)) => f,
            Ok(Err(e)) => {
                v.error = Some(e);
                record(&mut rep, &v);
                on_cut(&v);
                rep.stopped = Some(format!("cut {cut}: recovery refused"));
                break;
            }
            Err(e) => {
                v.error = Some(format!("recovery failed: {e}"));
                record(&mut rep, &v);
                on_cut(&v);
                rep.stopped = Some(format!("cut {cut}: recovery failed"));
                break;
            }
        };
        v.recovery_ops = s.flash.total_ops() - o0;
        rec_ops.record(v.recovery_ops * 1000);
        let (got, torn) = versions(ftl.as_ref(), &s.flash);
        if trace_this {
            for e in s.flash.take_events() {
                if let crate::nand::Event::Note { tag, text } = e {
                    eprintln!("  [{tag}] {text}");
                }
            }
            s.flash.set_recording(false);
            for (l, (&g, &w)) in got.iter().zip(before.oracle.latest()).enumerate() {
                if g != w {
                    let at = ftl.locate(l as u32);
                    eprintln!(
                        "  lpn {l}: recovered version {g}, latest acknowledged {w}; at {at:?} {:?}",
                        at.map(|p| *s.flash.peek(p))
                    );
                    let n = s.flash.ppb();
                    for (ppn, pg) in s.flash.pages().iter().enumerate() {
                        if pg.lpn == l as u32 {
                            eprintln!("    block {} page {}: {:?}", ppn as u32 / n, ppn as u32 % n, pg);
                        }
                    }
                }
            }
        }
        v.torn_mapped = torn;
        if let Some(r) = &reference {
            if *r != got && v.error.is_none() {
                v.error = Some("recovery is not idempotent: a cut during recovery changed its result".into());
            }
        }
        // Which way the request in flight went (crash/judge.rs).
        let ids = ftl.frozen_states();
        let j = judge(&before, &done, v.in_flight, ftl.as_ref(), &s.flash);
        v.took_effect = j.took_effect;
        // Not acknowledged and not done: cut in flight, or never started (a cut between
        // requests). The host issues it again, so a generated workload reaches the device in
        // the order of the cut-free run that bounds the pools: a sequential run with a request
        // skipped, or a write done twice, is not that run (FAST then merges, case 2.3, and
        // the next write takes an RW log block that run never takes).
        if !completed && !v.took_effect {
            feed.cut(req, o);
        }
        v.lost = j.lost;
        v.wrong = j.wrong;
        v.frozen_damaged = j.frozen_damaged;
        let mut oracle = j.oracle;
        if trace_this {
            for p in ftl.panels(&s.flash) {
                eprintln!("  {}: {:?}", p.title, p.data);
            }
            let roles: Vec<String> = (0..s.flash.blocks())
                .map(|b| {
                    let n = s.flash.block_pages(b).iter().filter(|p| !p.is_erased()).count();
                    format!("{b}:{:?}/{n}", ftl.block_role(b))
                })
                .collect();
            eprintln!("  block roles / pages programmed: {}", roles.join(" "));
            eprintln!("  frozen: oracle {:?}, recovered {:?}, took effect {}", oracle.frozen_ids(), ids, v.took_effect);
            for id in oracle.frozen_ids() {
                if let Some(img) = ftl.frozen_image(id) {
                    let want = oracle.frozen(id).unwrap();
                    for (l, &p) in img.iter().enumerate() {
                        let mut t = 0;
                        let g = version_of((p != crate::nand::NONE).then_some(p), l as u32, &s.flash, &mut t);
                        if g != want[l] {
                            eprintln!("   state {id} lpn {l}: image page {p} version {g}, frozen {}", want[l]);
                        }
                    }
                }
            }
        }
        let ok = v.ok();
        if !ok {
            // Go on from what was recovered, so later cuts are judged on their own.
            go_on_from(&mut oracle, &got);
            oracle.retain_frozen(&ids);
        }
        s.oracle = oracle;
        s.ftl = ftl;
        if let Some(check) = &mut pools {
            // Every recovery leaves every pool within its cut-free bound (issue 34): the
            // reserve is restored by recovery, not by later traffic.
            v.pools = check.after_recovery(&s);
            rep.pool_excess += v.pools.is_some() as u64;
        }
        record(&mut rep, &v);
        on_cut(&v);
        since_recovery = 0;
        if !ok && v.torn_mapped > 0 {
            rep.stopped = Some(format!("cut {cut}: a torn page is mapped; the chain cannot go on from it"));
            break;
        }
    }
    rep.cuts = cut;
    rep.pools = pools.map(|c| c.report()).unwrap_or_default();
    let all = first_cuts + rep.recut_points;
    rep.share_inside_recovery = if all == 0 { 0.0 } else { rep.recut_inside_recovery as f64 / all as f64 };
    rep.recovery_ops = summary(&rec_ops);
    rep
}

fn record(rep: &mut ChainReport, v: &CutVerdict) {
    rep.acked_writes_lost += v.lost;
    rep.wrong_reads += v.wrong;
    rep.torn_mapped += v.torn_mapped;
    rep.frozen_damaged += v.frozen_damaged;
    rep.errors += v.error.is_some() as u64;
    rep.took_effect += v.took_effect as u64;
    rep.right_after_recovery += v.right_after_recovery as u64;
    rep.landed(v.at);
    rep.judged(v.ok(), || {
        format!(
            "cut {} (after request {}, {:?} in flight, {:?}{}{}, {} recuts, {} model): lost {}, wrong {}, torn mapped {}, frozen damaged {}{}{}",
            v.cut,
            v.request,
            v.in_flight,
            v.at,
            v.op_cause.map(|c| format!(" at a {c} op")).unwrap_or_default(),
            v.target.map(|t| format!(", aimed {t}")).unwrap_or_default(),
            v.recuts,
            v.torn_model,
            v.lost,
            v.wrong,
            v.torn_mapped,
            v.frozen_damaged,
            v.error.as_ref().map(|e| format!(", {e}")).unwrap_or_default(),
            v.pools.as_ref().map(|p| format!(", pools: {p}")).unwrap_or_default()
        )
    });
}
