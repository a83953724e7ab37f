//! When merge and GC counters count (docs/cli.md, "When a merge or a GC run counts"): a
//! merge, a GC run or a log-block replacement counts at its first flash operation, in every
//! scheme. For every scheme of ftl::SCHEMES, random small scenarios; every request that
//! cleans (or counts) is re-run paused after each k of its n operations, as the stepper
//! shows it (src/stepper.rs), and the counters of those moments are checked:
//! (a) a counter rises between k − 1 and k only at an operation whose cause is its own
//!     (gc_runs: gc; switch / partial / full merges: switch / partial_merge / full_merge;
//!     a log-block replacement: any merge), so never at a host, map or log operation;
//! (b) the operation that starts a cleaning run is the one its count rises at, and no count
//!     rises inside a run (a late count);
//! (c) at k = n the counters are those of the request run whole.

use crate::common;

use common::scenario;
use ftl_sim::ftl::{entry, scheme_cleaning, Cleaning, Mapping, SchemeParams, SCHEMES};
use ftl_sim::nand::{Cause, Event, FtlCounters, OpKind, Pbn};
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::State;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::Request;
use proptest::prelude::*;
use std::collections::HashMap;

/// The causes whose operations a counter is defined by.
const CLEANING: [Cause; 4] = [Cause::Gc, Cause::Switch, Cause::PartialMerge, Cause::FullMerge];

/// (counter, value) pairs in one order, the utilisation sum apart.
fn counts(c: &FtlCounters) -> [(&'static str, u64); 6] {
    [
        ("gc_runs", c.gc_runs),
        ("switch_merges", c.switch_merges),
        ("partial_merges", c.partial_merges),
        ("full_merges", c.full_merges),
        ("full_merge_victims", c.full_merge_victims),
        ("log_replacements", c.log_replacements),
    ]
}

/// Whether `counter` may rise at an operation with `cause` (a).
fn done_by(counter: &str, cause: Cause) -> bool {
    match counter {
        "gc_runs" => cause == Cause::Gc,
        "switch_merges" => cause == Cause::Switch,
        "partial_merges" => cause == Cause::PartialMerge,
        "full_merges" | "full_merge_victims" => cause == Cause::FullMerge,
        "log_replacements" => matches!(cause, Cause::Switch | Cause::PartialMerge | Cause::FullMerge),
        _ => unreachable!(),
    }
}

/// The counters that must rise at the first operation of a run with `cause` (b): a full
/// merge's run may be a victim log block erased with no merge (FAST), which is only a
/// log-block replacement.
fn starts(cause: Cause) -> &'static [&'static str] {
    match cause {
        Cause::Gc => &["gc_runs"],
        Cause::Switch => &["switch_merges"],
        Cause::PartialMerge => &["partial_merges"],
        Cause::FullMerge => &["full_merges", "full_merge_victims", "log_replacements"],
        _ => &[],
    }
}

/// Where an operation stands in the cleaning of its request (b).
#[derive(Clone, Copy, Debug, PartialEq)]
enum Place {
    /// The first operation of a run: its counts rise here.
    Start,
    /// Inside a run: nothing rises here (a count at a later operation is a late count).
    Continue,
    Unknown,
}

/// The place of an operation of kind `kind` after an operation of the same cleaning cause
/// (an erase or not). A run ends with its erase(s), so the next non-erase starts one
/// (when `erase_ends` holds for the scheme); a second erase may end the same run (BAST,
/// NFTL and FAST erase two blocks at the end of a merge).
fn after(prev_erase: bool, kind: OpKind, erase_ends: bool) -> Place {
    match (prev_erase, kind == OpKind::Erase) {
        (false, _) => Place::Continue,
        (true, false) if erase_ends => Place::Start,
        _ => Place::Unknown,
    }
}

#[derive(Clone, Copy, Debug)]
struct Op {
    kind: OpKind,
    pbn: Pbn,
    cause: Cause,
}

/// The registry's defaults, with the hybrid schemes' log blocks drawn.
fn params(scheme: &str, log_blocks: u32) -> SchemeParams {
    match entry(scheme).map(|e| e.mapping) {
        Some(Mapping::Hybrid) => SchemeParams { log_blocks: Some(log_blocks), ..Default::default() },
        _ => SchemeParams::default(),
    }
}

/// Partial GC (RFTL, GFTL) spreads one GC over several requests (one step per write): their
/// runs are told apart per logical block, the others' within a request.
fn distributed(scheme: &str) -> bool {
    entry(scheme).is_some_and(|e| e.partial_gc())
}

/// The state after `k` operations of `req` from `before` (Stepper::pause_at): paused after
/// k operations, the scheme unwinds at k + 1, power back on.
fn paused_at(before: &State, req: Request, k: usize, n: usize) -> Result<State, TestCaseError> {
    let mut s = before.clone();
    s.flash.pause_after(k as u64);
    let r = s.exec(req);
    prop_assert_eq!(r.is_ok(), k == n, "a pause after {} of {} operations", k, n);
    s.flash.power_on();
    Ok(s)
}

/// Runs a scenario request by request and checks (a), (b), (c) at every operation of every
/// request that cleans or counts. Returns the runs of cleaning checked by (b), by cause.
fn check(sc: &Scenario) -> Result<HashMap<&'static str, usize>, TestCaseError> {
    let scheme = sc.scheme.as_str();
    let sim = sc.build().map_err(|e| TestCaseError::fail(format!("{scheme}: {e}")))?;
    let reqs = sim.requests().to_vec();
    let mut st = sim.state;
    // rftl / gftl: per logical block, whether its last cleaning operation was an erase
    // (a run of that block ended); absent = it never cleaned.
    let mut last_by_lbn: HashMap<u32, bool> = HashMap::new();
    let mut runs = HashMap::new();
    for (r, &req) in reqs.iter().enumerate() {
        let before = st.clone();
        st.flash.set_recording(true);
        st.exec(req).map_err(|e| TestCaseError::fail(format!("{scheme} request {r}: {e}")))?;
        let ops: Vec<Op> = st
            .flash
            .take_events()
            .into_iter()
            .filter_map(|e| match e {
                Event::Op { kind, pbn, cause, .. } => Some(Op { kind, pbn, cause }),
                Event::Note { .. } => None,
            })
            .collect();
        st.flash.set_recording(false);
        let n = ops.len();
        let at = |k: usize| format!("{scheme} request {r} ({req:?}) op {k}/{n}");
        if st.flash.counters == before.flash.counters && !ops.iter().any(|o| CLEANING.contains(&o.cause)) {
            continue; // nothing counted, nothing cleaned: no moment to check
        }
        let mut prev = before.flash.counters.clone();
        let mut prev_state = paused_at(&before, req, 0, n)?;
        prop_assert_eq!(&prev_state.flash.counters, &prev, "{}: a pause before any operation", at(0));
        for k in 1..=n {
            let s = paused_at(&before, req, k, n)?;
            let now = s.flash.counters.clone();
            let op = ops[k - 1];
            // (a)
            let mut rose = Vec::new();
            for (&(name, a), (_, b)) in counts(&prev).iter().zip(counts(&now)) {
                prop_assert!(b >= a, "{}: {} went down: {:?} → {:?}", at(k), name, prev, now);
                if b > a {
                    rose.push(name);
                }
            }
            for name in &rose {
                prop_assert!(
                    done_by(name, op.cause),
                    "{}: {} rose at a {:?} {:?} (counters {:?} → {:?})",
                    at(k),
                    name,
                    op.cause,
                    op.kind,
                    prev,
                    now
                );
            }
            if now.log_utilisation_sum != prev.log_utilisation_sum {
                prop_assert!(
                    rose.contains(&"log_replacements"),
                    "{}: utilisation sum moved without a replacement",
                    at(k)
                );
            }
            // (b) Does op k start a run of cleaning, continue one, or can the chip's
            // operations alone not tell?
            let place = if !CLEANING.contains(&op.cause) {
                Place::Unknown // (a) already allows no count here
            } else if distributed(scheme) {
                // Per logical block (the owner of the operation's block before it), across
                // requests: a run ends with its erase.
                let lbn = prev_state.ftl.block_owner(op.pbn);
                let place = match lbn.map(|l| last_by_lbn.get(&l)) {
                    None => Place::Unknown,
                    Some(None) => Place::Start,
                    Some(Some(&erase)) => after(erase, op.kind, true),
                };
                if let Some(l) = lbn {
                    last_by_lbn.insert(l, op.kind == OpKind::Erase);
                }
                place
            } else {
                // The last cleaning operation of this request before op k (host, map, log
                // and fill operations in between do not end a run: a merge programs the
                // host's sector into its destination, FastCheck logs the map mid-merge).
                match ops[..k - 1].iter().rev().find(|o| CLEANING.contains(&o.cause)) {
                    None => Place::Start,
                    Some(p) if p.cause != op.cause => Place::Start,
                    // LTFTL's GC also erases a written free block mid-run when it opens a GC
                    // frontier: after its erases only the scheme knows.
                    Some(p) => after(p.kind == OpKind::Erase, op.kind, scheme != "ltftl"),
                }
            };
            match place {
                Place::Start => {
                    *runs.entry(op.cause.name()).or_insert(0) += 1;
                    let want = starts(op.cause);
                    prop_assert!(
                        rose.iter().any(|c| want.contains(c)),
                        "{}: a {:?} run starts with this {:?} but none of {:?} rose (counters {:?} → {:?})",
                        at(k),
                        op.cause,
                        op.kind,
                        want,
                        prev,
                        now
                    );
                }
                Place::Continue => {
                    prop_assert!(
                        rose.is_empty(),
                        "{}: {:?} rose inside a {:?} run, at a {:?}: counted late (counters {:?} → {:?})",
                        at(k),
                        rose,
                        op.cause,
                        op.kind,
                        prev,
                        now
                    );
                }
                Place::Unknown => {}
            }
            prev = now;
            prev_state = s;
        }
        // (c)
        prop_assert_eq!(&prev, &st.flash.counters, "{}: the counters of the request run whole", at(n));
        prop_assert!(st.flash.pending_counts().is_empty(), "{}: counts left waiting after the request", at(n));
    }
    Ok(runs)
}

/// A small scenario: chip, log blocks and workload (`kind`: 0 uniform, 1 skewed (hot /
/// cold), 2 a camera's long sequential runs with small random updates: switches and
/// partial merges).
#[derive(Clone, Copy)]
struct Case {
    seed: u64,
    blocks: u32,
    ppb: u32,
    log_blocks: u32,
    n: u64,
    read_ratio: f64,
    kind: u8,
}

impl Case {
    fn fixed(seed: u64, n: u64, kind: u8) -> Case {
        Case { seed, blocks: 32, ppb: 4, log_blocks: 4, n, read_ratio: 0.1, kind }
    }

    fn scenario(self, scheme: &str) -> Scenario {
        let Case { seed, n, read_ratio, .. } = self;
        // The case's pages per block, or the fewest the registry takes the scheme on (RFTL and
        // GFTL need pi >= 2k + j pages per block, RFTL section 4.5).
        let params = params(scheme, self.log_blocks);
        let ppb = common::ppb_for(scheme, &params, self.blocks, self.ppb);
        let w = match self.kind {
            0 => Workload::Uniform { n, seed, read_ratio },
            1 => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.2, hot_ratio: 0.8 },
            _ => Workload::Camera { n, seed, file_pages: 3 * ppb as u64, fat_fraction: 0.05, fat_writes: 2 },
        };
        scenario(scheme, params, self.blocks, ppb, w)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_scheme_counts_a_merge_or_gc_at_its_first_operation(
        seed in 1u64..1_000_000,
        blocks in 24u32..40,
        ppb in prop_oneof![Just(4u32), Just(8u32)],
        log_blocks in 3u32..5,
        read_ratio in 0.0f64..0.3,
        kind in 0u8..3,
    ) {
        for &(scheme, _) in SCHEMES {
            let sc = Case { seed, blocks, ppb, log_blocks, n: 800, read_ratio, kind }.scenario(scheme);
            let runs = check(&sc)?;
            prop_assert!(!runs.is_empty(), "{}: no cleaning in 800 requests", scheme);
        }
    }
}

/// Fixed walks reach every kind of cleaning each scheme has (the property above is then
/// not vacuous): switches and partial merges come with the camera's sequential runs.
#[test]
fn fixed_walks_check_every_kind_of_cleaning() {
    for &(scheme, _) in SCHEMES {
        let mut runs: HashMap<&str, usize> = HashMap::new();
        for (seed, kind) in [(3, 0), (5, 1), (7, 2), (9, 2)] {
            for (c, k) in check(&Case::fixed(seed, 1500, kind).scenario(scheme)).unwrap() {
                *runs.entry(c).or_insert(0) += k;
            }
        }
        // Every kind of run the registry says the scheme performs, and no other.
        let mut want: Vec<&str> = entry(scheme).unwrap().runs.iter().map(|r| r.cause().name()).collect();
        want.dedup();
        // Kinds the registry calls seldom (KAST's partial merge) may not occur here.
        let seldom: Vec<&str> = entry(scheme).unwrap().seldom.iter().map(|r| r.cause().name()).collect();
        for c in want.iter().filter(|c| !seldom.contains(c)) {
            assert!(runs.get(c).copied().unwrap_or(0) >= 3, "{scheme}: {c} runs checked: {runs:?}");
        }
        assert!(runs.keys().all(|c| want.contains(c)), "{scheme}: {runs:?}");
        eprintln!("{scheme}: runs checked {runs:?}");
    }
}

/// Merge schemes never count GC runs (ftl::scheme_cleaning), GC schemes never count merges.
#[test]
fn cleaning_names_the_counter_a_scheme_uses() {
    for &(scheme, _) in SCHEMES {
        let sc = Case::fixed(11, 600, 0).scenario(scheme);
        let mut sim = sc.build().unwrap();
        let n = sim.total();
        sim.run(n).unwrap();
        let c = &sim.state.flash.counters;
        let merges = c.switch_merges + c.partial_merges + c.full_merges;
        match scheme_cleaning(scheme) {
            Cleaning::Merges => {
                assert_eq!(c.gc_runs, 0, "{scheme}");
                assert!(merges > 0, "{scheme}: no merge in {n} requests");
            }
            Cleaning::Gc => {
                assert_eq!(merges, 0, "{scheme}");
                assert!(c.gc_runs > 0, "{scheme}: no GC in {n} requests");
            }
        }
    }
}

/// The intro tour (web/src/tour/tours.ts, "Garbage collection, one operation at a time"):
/// w16 (request 28) needs two GCs; the first erases block 3 at operation 5, the second
/// starts at operation 6 with a read, and counts there (it counted at 5 before).
#[test]
fn intro_tour_second_gc_counts_at_its_first_read() {
    let sc = Scenario {
        scheme: "page".into(),
        params: SchemeParams { op: Some(0.25), ..Default::default() },
        chip: ChipSpec { preset: "classroom".into(), blocks: Some(8), pages_per_block: Some(4) },
        workload: Workload::Pattern { text: "w0-19 w0 w1 w4 w5 w8 w9 w12 w13 w16 w17 w0 w4 w8 w12".into() },
        run: Default::default(),
    };
    let mut sim = sc.build().unwrap();
    sim.seek(28).unwrap();
    let before = sim.state.clone();
    let req = sim.requests()[28];
    let mut whole = before.clone();
    whole.flash.set_recording(true);
    whole.exec(req).unwrap();
    let ops: Vec<(OpKind, Cause)> = whole
        .flash
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Op { kind, cause, .. } => Some((kind, cause)),
            _ => None,
        })
        .collect();
    assert_eq!(ops[4], (OpKind::Erase, Cause::Gc), "op 5 erases the first victim");
    assert_eq!(ops[5], (OpKind::Read, Cause::Gc), "op 6 starts the second GC");
    let gc_at = |k: usize| paused_at(&before, req, k, ops.len()).unwrap().flash.counters.gc_runs;
    assert_eq!(before.flash.counters.gc_runs, 0);
    assert_eq!(gc_at(0), 0, "no GC before the first operation");
    assert_eq!(gc_at(1), 1, "the first GC counts at its first read");
    assert_eq!(gc_at(5), 1, "still one GC at the first GC's erase");
    assert_eq!(gc_at(6), 2, "the second GC counts at its first read");
    assert_eq!(whole.flash.counters.gc_runs, 2);
}
