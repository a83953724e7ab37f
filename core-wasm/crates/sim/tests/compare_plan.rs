//! The chip and workload space of each run of a comparison or sweep, planned from that
//! run alone (issue 27; issue 16 for the shared-space case), and preconditioning
//! (src/precondition.rs).

use crate::common;

use common::{lb, parse_text, run_checked, scenario, trace_workload};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::precondition::Precondition;
use ftl_sim::scenario::load;
use ftl_sim::scenario::plan::{plan, plan_one};
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::Simulator;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::parse::RawTrace;
use ftl_sim::trace::{request_hash, Request};

/// The configurations of a comparison: their own logical spaces differ on one chip.
fn configs(blocks: u32, ppb: u32, w: Workload) -> Vec<Scenario> {
    vec![
        scenario("page", SchemeParams::default(), blocks, ppb, w.clone()),
        scenario("bast", lb(4), blocks, ppb, w.clone()),
        scenario("fast", lb(8), blocks, ppb, w.clone()),
        scenario("kraft", SchemeParams::default(), blocks, ppb, w.clone()),
        scenario("fast", lb(16), blocks, ppb, w),
    ]
}

fn own_spaces(scs: &[Scenario]) -> Vec<u32> {
    scs.iter().map(|s| s.fresh().unwrap().ftl.logical_pages()).collect()
}

/// Runs to the end: (request-list hash, chip blocks, erases, page programs).
fn outcome(mut sim: Simulator) -> (String, u32, u64, u64) {
    let n = sim.total();
    sim.run(n).unwrap();
    let m = sim.state.metrics();
    assert_eq!(m.wrong_reads, 0);
    (request_hash(sim.requests()), sim.state.flash.blocks(), m.erases, m.page_programs)
}

/// Every run's outcome when planned in this order.
fn planned(
    scs: &[Scenario],
    fit: Fit,
    space: Option<u32>,
    raw: Option<&RawTrace>,
) -> Vec<Option<(String, u32, u64, u64)>> {
    let need = raw.and_then(|r| r.max_page()).map(|m| m + 1);
    let p = plan(scs, fit, need, space).unwrap();
    p.apply(scs)
        .into_iter()
        .map(|s| {
            let s = s.ok()?;
            Some(outcome(match raw {
                Some(raw) => load::build_with_raw(&s, raw, fit).unwrap().0,
                None => s.build().unwrap(),
            }))
        })
        .collect()
}

/// A run planned in a set equals the same run planned alone, and the set planned in
/// reverse order gives the same rows.
fn assert_alone_and_in_any_order(scs: &[Scenario], fit: Fit, space: Option<u32>, raw: Option<&RawTrace>) {
    let rows = planned(scs, fit, space, raw);
    let rev: Vec<Scenario> = scs.iter().rev().cloned().collect();
    let mut back = planned(&rev, fit, space, raw);
    back.reverse();
    assert_eq!(rows, back, "the rows depend on the order of the set");
    for (sc, row) in scs.iter().zip(&rows) {
        let need = raw.and_then(|r| r.max_page()).map(|m| m + 1);
        if plan_one(sc, fit, need, space).error.is_some() {
            assert!(row.is_none());
            continue;
        }
        let alone = planned(std::slice::from_ref(sc), fit, space, raw);
        assert_eq!(&alone[0], row, "{} {:?}: the row differs from the run alone", sc.scheme, sc.params);
    }
    // Without a space, a single run needs no plan at all: the row is `ftl run`'s.
    if space.is_none() {
        for (sc, row) in scs.iter().zip(&rows) {
            let Some(row) = row else { continue };
            let sim = match raw {
                Some(raw) => load::build_with_raw(sc, raw, fit).unwrap().0,
                None => sc.build().unwrap(),
            };
            assert_eq!(&outcome(sim), row, "{}: unplanned", sc.scheme);
        }
    }
}

#[test]
fn each_run_is_planned_alone_and_equals_the_run_alone() {
    let scs = configs(64, 4, Workload::Uniform { n: 3000, seed: 5, read_ratio: 0.2 });
    let spaces = own_spaces(&scs);
    assert!(spaces.iter().min() < spaces.iter().max(), "the configurations' spaces should differ: {spaces:?}");
    let p = plan(&scs, Fit::None, None, None).unwrap();
    assert_eq!(p.runs.iter().map(|r| r.workload_pages.unwrap()).collect::<Vec<_>>(), spaces);
    assert_alone_and_in_any_order(&scs, Fit::None, None, None);
}

#[test]
fn a_given_space_gives_every_run_one_request_list() {
    let scs = configs(64, 4, Workload::Uniform { n: 3000, seed: 5, read_ratio: 0.2 });
    let smallest = *own_spaces(&scs).iter().min().unwrap();
    let rows = planned(&scs, Fit::None, Some(smallest), None);
    let hashes: Vec<&String> = rows.iter().map(|r| &r.as_ref().unwrap().0).collect();
    assert!(hashes.iter().all(|h| *h == hashes[0]), "{hashes:?}");
    assert_alone_and_in_any_order(&scs, Fit::None, Some(smallest), None);
    let mut sims: Vec<Simulator> = plan(&scs, Fit::None, None, Some(smallest))
        .unwrap()
        .apply(&scs)
        .into_iter()
        .map(|s| s.unwrap().build().unwrap())
        .collect();
    for s in &mut sims {
        assert!(s.requests().iter().all(|r| r.lpn().unwrap() < smallest));
        run_checked(s, 1000);
    }
}

#[test]
fn real_time_schemes_take_part_built_on_the_chip_with_its_timing() {
    let w = Workload::Uniform { n: 2000, seed: 2, read_ratio: 0.3 };
    let mut scs: Vec<Scenario> =
        ["page", "bast", "fast", "kraft", "kast", "nftl", "ltftl", "rftl", "gftl", "fastcheck"]
            .iter()
            .map(|s| scenario(s, SchemeParams::default(), 0, 0, w.clone()))
            .collect();
    for s in &mut scs {
        s.chip = ChipSpec { preset: "rftl-large".into(), blocks: None, pages_per_block: None };
    }
    let p = plan(&scs, Fit::None, None, None).unwrap();
    for (s, r) in scs.iter().zip(&p.runs) {
        assert_eq!(r.error, None, "{}", s.scheme);
    }
    assert_alone_and_in_any_order(&scs, Fit::None, None, None);
}

fn trace(pages: &[u64]) -> RawTrace {
    trace_in(pages, 512)
}

fn trace_in(pages: &[u64], page_bytes: u32) -> RawTrace {
    let mut text = String::from("op,lpn\n");
    for (i, p) in pages.iter().enumerate() {
        text.push_str(&format!("{},{p}\n", if i % 5 == 4 { "r" } else { "w" }));
    }
    parse_text(&text, page_bytes)
}

fn trace_scenarios(blocks: u32, fit: Fit) -> Vec<Scenario> {
    let mut scs = configs(blocks, 4, trace_workload(fit));
    for s in &mut scs {
        s.chip.preset = "classroom".into();
    }
    scs
}

/// A trace whose pages go beyond every configuration's space, with a spread that fold
/// would fold differently in different spaces.
fn wide_pages() -> Vec<u64> {
    let mut rng = 7u64;
    (0..4000)
        .map(|_| {
            rng = rng.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (rng >> 33) % 2000
        })
        .collect()
}

#[test]
fn fold_compact_and_scale_are_decided_per_run() {
    let raw = trace(&wide_pages());
    for fit in [Fit::Fold, Fit::Scale] {
        assert_alone_and_in_any_order(&trace_scenarios(64, fit), fit, None, Some(&raw));
    }
    // 40 touched blocks of 4 pages, spread far apart: fits every space compacted.
    let pages: Vec<u64> = (0..3000u64).map(|i| (i * 7 % 40) * 400 + i % 4).collect();
    let compact = trace(&pages);
    assert_alone_and_in_any_order(&trace_scenarios(64, Fit::Compact), Fit::Compact, None, Some(&compact));
    // Folded into one given space, every run replays the same requests.
    let scs = trace_scenarios(64, Fit::Fold);
    let smallest = *own_spaces(&scs).iter().min().unwrap();
    let rows = planned(&scs, Fit::Fold, Some(smallest), Some(&raw));
    assert!(rows.iter().all(|r| r.as_ref().unwrap().0 == rows[0].as_ref().unwrap().0));
    // Scale: the addresses are unchanged, each chip grown for its own scheme.
    let rows = planned(&trace_scenarios(16, Fit::Scale), Fit::Scale, None, Some(&raw));
    assert!(rows.iter().all(|r| r.as_ref().unwrap().0 == rows[0].as_ref().unwrap().0));
    assert!(rows.iter().all(|r| r.as_ref().unwrap().1 > 16));
}

#[test]
fn scale_sees_the_real_time_schemes_real_space() {
    // RFTL keeps a primary, a replacement and a buffer block per logical block: scaling
    // must build it on the chip (with its timing) to see what it exports.
    let raw = trace_in(&wide_pages(), 2048);
    let mut sc = trace_scenarios(16, Fit::Scale).remove(0);
    sc.scheme = "rftl".into();
    sc.params = SchemeParams::default();
    sc.chip = ChipSpec { preset: "rftl-large".into(), blocks: Some(16), pages_per_block: None };
    let r = plan_one(&sc, Fit::Scale, raw.max_page().map(|m| m + 1), None);
    assert_eq!(r.error, None);
    assert!(r.logical_pages.unwrap() as u64 > raw.max_page().unwrap());
    let (sim, _) = load::build_with_raw(&sc, &raw, Fit::Scale).unwrap();
    assert_eq!(sim.state.flash.blocks(), r.blocks, "the same chip as the run alone");
}

#[test]
fn a_configuration_that_cannot_hold_the_workload_fails_alone_named() {
    let w = Workload::Uniform { n: 100, seed: 1, read_ratio: 0.0 };
    let mut scs = configs(64, 4, w.clone());
    // BAST with more log blocks than the chip: cannot be built.
    scs.push(scenario("bast", lb(80), 64, 4, w));
    let p = plan(&scs, Fit::None, None, None).unwrap();
    let applied = p.apply(&scs);
    assert!(applied[..5].iter().all(|r| r.is_ok()));
    assert!(applied[5].is_err() && p.runs[5].error.is_some());
    assert_eq!(p.runnable(), 5);
    // A space larger than one run's own: that run alone is refused, the others run it.
    let page_space = own_spaces(&scs[..1])[0];
    let p = plan(&scs[..2], Fit::None, None, Some(page_space + 1)).unwrap();
    let e = p.runs[0].error.as_deref().unwrap();
    assert!(e.contains("cannot hold the workload"), "{e}");
    assert_eq!(p.runs[1].error, None);
    // A trace that needs more than a run's space, unchanged: that run is named.
    let raw = trace(&[10, 20, 5000]);
    let r = plan_one(&trace_scenarios(64, Fit::None)[0], Fit::None, raw.max_page().map(|m| m + 1), None);
    assert!(r.error.as_deref().unwrap().contains("--fit fold, compact or scale"), "{:?}", r.error);
    // A run given a space larger than its own is refused at build time too.
    let mut big = plan(&scs[..1], Fit::None, None, None).unwrap().apply(&scs[..1]).remove(0).unwrap();
    big.run.workload_space.as_mut().unwrap().logical_pages = 10_000;
    let e = big.build().err().expect("too large a space must fail");
    assert!(e.contains("cannot hold the workload"), "{e}");
}

#[test]
fn sweep_of_log_blocks_in_one_space_and_fast_erases_fall() {
    // FAST paper Figure 10's shape: on uniform random writes, FAST erases fewer blocks
    // as it gets more log blocks (one workload space given, the same chip for every point).
    let w = Workload::Uniform { n: 20_000, seed: 3, read_ratio: 0.0 };
    let scs: Vec<Scenario> = [4, 8, 16, 32].iter().map(|&n| scenario("fast", lb(n), 128, 8, w.clone())).collect();
    let space = *own_spaces(&scs).iter().min().unwrap();
    let rows = planned(&scs, Fit::None, Some(space), None);
    let erases: Vec<u64> = rows.iter().map(|r| r.as_ref().unwrap().2).collect();
    assert!(rows.iter().all(|r| r.as_ref().unwrap().0 == rows[0].as_ref().unwrap().0));
    assert!(erases.windows(2).all(|w| w[0] > w[1]), "FAST erases should fall as log blocks grow: {erases:?}");
}

#[test]
fn the_request_hash_names_the_request_list() {
    let a = [Request::Write { lpn: 1 }, Request::Read { lpn: 1 }];
    let b = [Request::Read { lpn: 1 }, Request::Write { lpn: 1 }];
    assert_ne!(request_hash(&a), request_hash(&b));
    assert_eq!(request_hash(&a), request_hash(&a.clone()));
    assert_eq!(request_hash(&[]).len(), 16);
}

#[test]
fn preconditioning_fills_then_measures_only_the_workload() {
    let w = Workload::Uniform { n: 2000, seed: 9, read_ratio: 0.3 };
    let mut sc = scenario("page", SchemeParams::default(), 32, 8, w);
    let plain = sc.build().unwrap();
    sc.run.precondition = Some(Precondition { fill: true, random_writes: 500, seed: 4 });
    let mut sim = sc.build().unwrap();
    // Step 0 is the filled chip, with counters at zero.
    let m0 = sim.state.metrics();
    assert_eq!((m0.host_writes, m0.page_programs, m0.erases, m0.elapsed_us), (0, 0, 0, 0.0));
    let lp = sim.state.ftl.logical_pages();
    assert!(sim.state.oracle.expected(lp - 1) > 0, "the fill wrote every logical page");
    assert!(sim.state.flash.erase_counts().iter().any(|&e| e > 0), "wear of the random writes is kept");
    assert_eq!(sim.requests(), plain.requests(), "the measured workload is unchanged");
    run_checked(&mut sim, 500);
    let m = sim.state.metrics();
    assert_eq!(m.requests, 2000);
    assert_eq!(m.host_writes + m.host_reads, 2000);
    assert_eq!(m.wrong_reads, 0);
    // A full device collects garbage from the first writes: WA above the fresh chip's.
    let mut fresh = plain;
    let n = fresh.total();
    fresh.run(n).unwrap();
    assert!(m.write_amplification > fresh.state.metrics().write_amplification);
    // Seeking back to the start and replaying gives the same numbers.
    sim.seek(0).unwrap();
    assert_eq!(sim.state.metrics().page_programs, 0);
    sim.run(n).unwrap();
    assert_eq!(sim.state.metrics(), m);
}

#[test]
fn precondition_specs() {
    assert_eq!(Precondition::parse("none").unwrap(), None);
    assert_eq!(Precondition::parse("fill").unwrap(), Some(Precondition { fill: true, random_writes: 0, seed: 1 }));
    assert_eq!(
        Precondition::parse("fill,random=100_000,seed=3").unwrap(),
        Some(Precondition { fill: true, random_writes: 100_000, seed: 3 })
    );
    assert!(Precondition::parse("random").unwrap_err().contains("needs a value"));
    assert!(Precondition::parse("bogus").unwrap_err().contains("unknown part"));
    // The scenario JSON the app and links carry.
    let sc = Scenario::from_json(
        r#"{"scheme":"page","workload":{"kind":"sequential","n":10},"precondition":{"fill":true,"random_writes":5},"workload_space":{"logical_pages":40,"pages_per_block":4}}"#,
    )
    .unwrap();
    assert_eq!(sc.run.precondition, Some(Precondition { fill: true, random_writes: 5, seed: 1 }));
    assert_eq!(sc.run.workload_space.map(|w| w.logical_pages), Some(40));
}

/// Fair by default (issue 38, item 2): the common space is the smallest logical space
/// among the runs, every run can hold it, and planned alone with it every run replays one
/// request list; the workloads it matters for are the generated and the fitted ones.
#[test]
fn the_common_space_gives_every_run_one_request_list() {
    use ftl_sim::scenario::plan::{common_space, space_shapes_requests};
    let w = Workload::Uniform { n: 3000, seed: 9, read_ratio: 0.2 };
    let scs = configs(64, 8, w.clone());
    let own = own_spaces(&scs);
    let n = common_space(&scs).unwrap();
    assert_eq!(n, *own.iter().min().unwrap());
    assert!(own.iter().any(|&o| o > n), "the spaces differ on this chip: {own:?}");
    let hashes: std::collections::BTreeSet<String> = scs
        .iter()
        .map(|sc| {
            let run = plan_one(sc, Fit::None, None, Some(n));
            outcome(run.apply(sc).unwrap().build().unwrap()).0
        })
        .collect();
    assert_eq!(hashes.len(), 1, "one request list");
    // Each scheme's own space: as many lists as distinct spaces.
    let own_lists: std::collections::BTreeSet<String> = scs
        .iter()
        .map(|sc| outcome(plan_one(sc, Fit::None, None, None).apply(sc).unwrap().build().unwrap()).0)
        .collect();
    let distinct: std::collections::BTreeSet<u32> = own.iter().copied().collect();
    assert_eq!(own_lists.len(), distinct.len());
    assert!(space_shapes_requests(&w));
    assert!(!space_shapes_requests(&Workload::Pattern { text: "w0 w1".into() }));
    // A run that cannot be built is left out; none buildable: no space.
    let mut bad = scs.clone();
    // BAST with 63 log blocks on 64 blocks: no room for a spare and a data block.
    bad[0].scheme = "bast".into();
    bad[0].params = lb(63);
    assert!(bad[0].build().is_err());
    assert_eq!(common_space(&bad), own[1..].iter().copied().min());
    assert_eq!(common_space(&bad[..1]), None);
}
