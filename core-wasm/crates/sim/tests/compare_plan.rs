//! One workload and one chip for every run of a comparison or sweep (issue 16), and
//! preconditioning (src/precondition.rs).

mod common;

use common::{run_checked, scenario};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::precondition::Precondition;
use ftl_sim::scenario::Scenario;
use ftl_sim::sim::Simulator;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::load;
use ftl_sim::trace::parse::{parse_bytes, RawTrace, TraceOptions};
use ftl_sim::trace::plan::plan;
use ftl_sim::trace::Request;

fn lb(n: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(n), ..Default::default() }
}

/// FNV-1a of the request list.
fn hash(reqs: &[Request]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in format!("{reqs:?}").bytes() {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

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

/// Builds every planned run and checks: same request list (hash), same geometry.
fn assert_one_workload(sims: &[Simulator]) -> (u64, u32, u32) {
    let first = &sims[0];
    let (h, b, p) = (hash(first.requests()), first.state.flash.blocks(), first.state.flash.ppb());
    for s in sims {
        assert_eq!(hash(s.requests()), h, "{}: another workload", s.state.ftl.name());
        assert_eq!(s.requests(), first.requests());
        assert_eq!((s.state.flash.blocks(), s.state.flash.ppb()), (b, p), "{}: another chip", s.state.ftl.name());
    }
    (h, b, p)
}

#[test]
fn generated_workload_is_the_same_for_every_run() {
    let scs = configs(64, 4, Workload::Uniform { n: 3000, seed: 5, read_ratio: 0.2 });
    let spaces = own_spaces(&scs);
    assert!(spaces.iter().min() < spaces.iter().max(), "the configurations' spaces should differ: {spaces:?}");
    let p = plan(&scs, Fit::None, None).unwrap();
    assert_eq!(p.logical_pages, *spaces.iter().min().unwrap());
    assert!(p.one_chip && p.note.contains("64 blocks × 4 pages"), "{}", p.note);
    let mut sims: Vec<Simulator> = p.apply(&scs).into_iter().map(|s| s.unwrap().build().unwrap()).collect();
    assert_one_workload(&sims);
    assert!(sims[0].requests().iter().all(|r| r.lpn().unwrap() < p.logical_pages));
    for s in &mut sims {
        run_checked(s, 1000);
    }
}

fn trace(pages: &[u64]) -> RawTrace {
    let mut text = String::from("op,lpn\n");
    for (i, p) in pages.iter().enumerate() {
        text.push_str(&format!("{},{p}\n", if i % 5 == 4 { "r" } else { "w" }));
    }
    parse_bytes(text.as_bytes(), TraceOptions { page_bytes: 512, ..TraceOptions::default() }).unwrap()
}

fn trace_scenarios(blocks: u32, fit: Fit) -> Vec<Scenario> {
    let w = Workload::Trace {
        text: String::new(),
        format: None,
        fit,
        device: None,
        skip_bad_lines: false,
        blkparse_action: None,
    };
    let mut scs = configs(blocks, 4, w);
    for s in &mut scs {
        s.chip.preset = "classroom".into();
    }
    scs
}

fn sims_for(scs: &[Scenario], raw: &RawTrace, fit: Fit) -> Vec<(Simulator, ftl_sim::trace::fit::TraceSummary)> {
    let need = raw.max_page().map(|m| m + 1);
    let p = plan(scs, fit, need).unwrap();
    p.apply(scs).into_iter().map(|s| load::build_with_raw(&s.unwrap(), raw, fit).unwrap()).collect()
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
fn fold_is_decided_once_and_says_what_it_merged() {
    let raw = trace(&wide_pages());
    let scs = trace_scenarios(64, Fit::Fold);
    let spaces = own_spaces(&scs);
    assert!(spaces.iter().min() < spaces.iter().max());
    // Folding each configuration into its own space would give different workloads.
    let own: Vec<u64> =
        scs.iter().map(|s| hash(load::build_with_raw(s, &raw, Fit::Fold).unwrap().0.requests())).collect();
    assert!(own.iter().any(|&h| h != own[0]), "the test trace should fold differently per space");
    let mut sims = sims_for(&scs, &raw, Fit::Fold);
    let s = &sims[0].1;
    assert!(s.fitted_footprint_pages < s.footprint_pages);
    assert!(
        s.fit_note
            .contains(&format!("fold merged {} distinct pages into {}", s.footprint_pages, s.fitted_footprint_pages)),
        "{}",
        s.fit_note
    );
    let ss: Vec<Simulator> = sims.drain(..).map(|(sim, _)| sim).collect();
    assert_one_workload(&ss);
}

#[test]
fn compact_is_decided_once() {
    // 40 touched blocks of 4 pages, spread far apart: fits every space compacted.
    let pages: Vec<u64> = (0..3000u64).map(|i| (i * 7 % 40) * 400 + i % 4).collect();
    let raw = trace(&pages);
    let scs = trace_scenarios(64, Fit::Compact);
    let sims: Vec<Simulator> = sims_for(&scs, &raw, Fit::Compact).into_iter().map(|(s, _)| s).collect();
    assert_one_workload(&sims);
}

#[test]
fn scale_grows_one_chip_for_all() {
    let raw = trace(&wide_pages());
    let scs = trace_scenarios(16, Fit::Scale);
    // Scaled one by one, the schemes would get different chips.
    let chips: Vec<u32> =
        scs.iter().map(|s| load::build_with_raw(s, &raw, Fit::Scale).unwrap().0.state.flash.blocks()).collect();
    assert!(chips.iter().any(|&b| b != chips[0]), "{chips:?}");
    let sims: Vec<Simulator> = sims_for(&scs, &raw, Fit::Scale).into_iter().map(|(s, _)| s).collect();
    let (_, blocks, _) = assert_one_workload(&sims);
    assert_eq!(blocks, *chips.iter().max().unwrap(), "one chip, the largest any run needs");
    // Addresses unchanged.
    let space = ftl_sim::trace::fit::Space { logical_pages: 1 << 20, pages_per_block: 4 };
    let want: Vec<Request> = raw.fit(Some(space), Fit::None).unwrap().0;
    assert_eq!(want, sims[0].requests());
    assert_eq!(sims[0].requests().iter().filter_map(|r| r.lpn()).max().map(|m| m as u64), raw.max_page());
}

#[test]
fn a_configuration_that_cannot_hold_the_workload_is_reported() {
    let mut scs = configs(64, 4, Workload::Uniform { n: 100, seed: 1, read_ratio: 0.0 });
    // BAST with more log blocks than the chip: cannot be built.
    scs.push(scenario("bast", lb(80), 64, 4, Workload::Uniform { n: 100, seed: 1, read_ratio: 0.0 }));
    let p = plan(&scs, Fit::None, None).unwrap();
    let applied = p.apply(&scs);
    assert!(applied[..5].iter().all(|r| r.is_ok()));
    assert!(applied[5].is_err() && p.runs[5].error.is_some());
    // A run given a space larger than its own is refused, never given another workload.
    let mut big = applied[0].clone().unwrap();
    big.run.workload_space.as_mut().unwrap().logical_pages = 10_000;
    let e = big.build().err().expect("too large a space must fail");
    assert!(e.contains("cannot hold the workload"), "{e}");
}

#[test]
fn sweep_of_log_blocks_shares_one_workload_and_fast_erases_fall() {
    // FAST paper Figure 10's shape: on uniform random writes, FAST erases fewer blocks
    // as it gets more log blocks (same workload, same chip for every point).
    let w = Workload::Uniform { n: 20_000, seed: 3, read_ratio: 0.0 };
    let scs: Vec<Scenario> = [4, 8, 16, 32].iter().map(|&n| scenario("fast", lb(n), 128, 8, w.clone())).collect();
    let p = plan(&scs, Fit::None, None).unwrap();
    let mut sims: Vec<Simulator> = p.apply(&scs).into_iter().map(|s| s.unwrap().build().unwrap()).collect();
    assert_one_workload(&sims);
    let erases: Vec<u64> = sims
        .iter_mut()
        .map(|s| {
            let n = s.total();
            s.run(n).unwrap();
            s.state.metrics().erases
        })
        .collect();
    assert!(erases.windows(2).all(|w| w[0] > w[1]), "FAST erases should fall as log blocks grow: {erases:?}");
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
