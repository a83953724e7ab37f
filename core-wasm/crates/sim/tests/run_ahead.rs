//! "Run to end" without the run log's probe a request (`Stepper::run_ahead`, issue 37
//! item 4): stretch by stretch, each checked by the chip's counts as a whole, and logged
//! request by request from the first stretch that is not quiet. It must leave exactly what
//! stepping request by request on the player leaves: the moment, the run log (markers,
//! sampled counts), the timeline and the keyframes, on runs that stay quiet, that begin
//! collecting garbage or merging part-way, and that are noisy from the start, for every
//! scheme, run in uneven chunks (a chunk ends where the page's Cancel or progress stops it).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use crate::common;

use common::{assert_same, assert_same_record, prepare_player, scenario};
use ftl_sim::ftl::page::PageFtl;
use ftl_sim::ftl::{BlockRole, Ftl, SchemeParams, SCHEMES};
use ftl_sim::nand::{Flash, FlashResult, Lpn, Pbn, Ppn};
use ftl_sim::scenario::load;
use ftl_sim::sim::{Fresh, Simulator};
use ftl_sim::stepper::Stepper;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;

/// Runs `build()` to the end by `run_ahead` in uneven chunks and by stepping, compares
/// them, and returns where `run_ahead` went logged.
fn check(label: &str, build: &dyn Fn() -> Simulator) -> Option<usize> {
    let mut stepped = prepare_player(build());
    let total = stepped.total();
    while stepped.step().unwrap_or_else(|e| panic!("{label} (stepped): {e}")) {}
    let mut ahead = Stepper::new(prepare_player(build()));
    let mut chunk = 1;
    while ahead.sim.pos() < total {
        let before = ahead.sim.pos();
        let ran = ahead.run_ahead(chunk).unwrap_or_else(|e| panic!("{label} (run_ahead): {e}"));
        assert_eq!(ran, chunk.min(total - before), "{label}: ran");
        chunk = chunk * 3 + 1;
    }
    assert_eq!(ahead.run_ahead(10).unwrap(), 0, "{label}: nothing left to run");
    assert_same(label, &ahead.sim, &stepped);
    assert_same_record(label, &ahead.sim, &stepped);
    assert_eq!(ahead.sim.log.samples().len(), 1 + total / total.div_ceil(1000), "{label}: samples");
    // Scrubbing after it: a seek back replays from its keyframes to the stepped state.
    let mid = total / 2 + 3;
    ahead.seek(mid).unwrap();
    let mut there = prepare_player(build());
    while there.pos() < mid {
        there.step().unwrap();
    }
    assert_same(&format!("{label} (seek back)"), &ahead.sim, &there);
    ahead.run_ahead_logged_from()
}

fn generated(scheme: &str, blocks: u32, w: Workload) -> Simulator {
    scenario(scheme, SchemeParams::default(), blocks, 16, w).build().unwrap()
}

#[test]
fn run_ahead_leaves_what_stepping_leaves_for_every_scheme() {
    let mut went_logged = 0;
    for &(scheme, _) in SCHEMES {
        // Hot writes on a small chip: quiet while the chip fills, then merges or GC.
        let w = Workload::Hotcold { n: 3000, seed: 5, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
        let at = check(&format!("{scheme} / hotcold"), &|| generated(scheme, 64, w.clone()));
        if let Some(at) = at {
            went_logged += 1;
            if ["page", "bast", "fast"].contains(&scheme) {
                assert!(at > 0, "{scheme}: the first stretch of an empty chip is quiet");
            }
        }
        // A few writes on a large chip: no cleaning, so no stretch goes logged (markers
        // from metadata writes aside: those schemes go logged where they write it).
        let w = Workload::Uniform { n: 1500, seed: 9, read_ratio: 0.3 };
        check(&format!("{scheme} / few writes"), &|| generated(scheme, 1024, w.clone()));
    }
    assert!(went_logged >= SCHEMES.len() / 2, "most schemes clean on the hot run ({went_logged})");
}

#[test]
fn run_ahead_stays_quiet_where_nothing_is_a_marker() {
    // Mostly reads after a few writes: no merge, no GC, no metadata.
    for scheme in ["page", "bast", "fast"] {
        let w = Workload::Uniform { n: 2000, seed: 4, read_ratio: 0.99 };
        let at = check(&format!("{scheme} / quiet"), &|| generated(scheme, 1024, w.clone()));
        assert_eq!(at, None, "{scheme}: a run without cleaning is taken stretch by stretch to its end");
    }
}

#[test]
fn run_ahead_on_a_parsed_trace_and_a_time_shift() {
    // Runs of pages (a packed store), for a scheme with merges too.
    for scheme in ["page", "fast", "bast"] {
        let build = || {
            let sc = scenario(scheme, SchemeParams::default(), 64, 16, common::trace_workload(Fit::Fold));
            let page_bytes = sc.chip.chip().unwrap().geometry.page_bytes;
            let mut text = String::new();
            for t in 0..3000u64 {
                let page = (t * 7919) % 700;
                let spp = u64::from(page_bytes / 512).max(1);
                text.push_str(&format!("{t}.0 0 {} {spp} 0\n", page * spp));
            }
            load::build_with_raw_owned(&sc, common::parse_text(&text, page_bytes), Fit::Fold).unwrap().0
        };
        check(&format!("{scheme} / trace"), &build);
    }
    // A freeze part-way (a time-shift marker, no read or write): the stretch with it is
    // not quiet, however little the chip did.
    let build = || {
        let w = Workload::Pattern { text: format!("{} freeze {}", "w1 r2 w3 ".repeat(400), "w4 r1 ".repeat(300)) };
        generated("ltftl", 1024, w)
    };
    assert!(check("ltftl / freeze", &build).is_some(), "the freeze's stretch goes logged");
}

#[test]
fn run_ahead_after_a_power_cut_and_recovery_keeps_the_branch() {
    // On a branch the state is not the workload replayed from step 0: the stretch that is
    // not quiet goes back to its start from the branch's recovered state.
    let build = || {
        let w = Workload::Hotcold { n: 3000, seed: 5, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
        let sc = scenario("page", SchemeParams::default(), 64, 16, w);
        // No keyframes: a seek back replays from a kept state before the cut, not on the branch.
        let mut sim = prepare_player(sc.build().unwrap());
        sim.set_keyframe_budget(0);
        let mut s = Stepper::new(sim);
        s.set_recoverer(sc.recoverer());
        for _ in 0..200 {
            s.step_request().unwrap();
        }
        s.step_op().unwrap();
        s.power_cut().unwrap();
        s.recover().unwrap();
        while s.recovering() {
            s.step_op().unwrap();
        }
        s
    };
    let mut stepped = build();
    while stepped.step_request().unwrap() {}
    let mut ahead = build();
    let total = ahead.sim.total();
    let mut chunk = 1;
    while ahead.sim.pos() < total {
        ahead.run_ahead(chunk).unwrap();
        chunk = chunk * 3 + 1;
    }
    assert!(ahead.run_ahead_logged_from().is_some_and(|at| at > 200), "a quiet stretch, then one that is not");
    assert_same("page after a recovery", &ahead.sim, &stepped.sim);
    assert_eq!(ahead.sim.log.markers(), stepped.sim.log.markers(), "markers");
    assert_eq!(ahead.sim.log.samples(), stepped.sim.log.samples(), "samples");
    assert!(ahead.sim.state.mismatches().is_empty());
}

#[test]
fn run_ahead_logs_page_mappings_first_cleaning_at_once_without_a_replay() {
    // No keyframe, as for page mapping's 12 MB state in the Session's 16 MB: a stretch found
    // not quiet after it ran unlogged went back to step 0's state, built afresh, and replayed
    // the run to it. Page mapping says how many writes stay quiet (`Ftl::quiet_writes`), so
    // the stretch that may collect garbage is logged at once and nothing is built again.
    let w = Workload::Hotcold { n: 3000, seed: 5, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
    let built = Arc::new(AtomicUsize::new(0));
    let build = || {
        let sim = generated("page", 64, w.clone());
        let inner = sim.fresh().clone();
        let count = built.clone();
        let fresh: Fresh = Arc::new(move || {
            count.fetch_add(1, Ordering::SeqCst);
            inner()
        });
        let mut sim = Simulator::new(fresh, sim.requests().to_vec());
        sim.set_keyframe_budget(0);
        sim.record_timeline(true);
        sim
    };
    let mut stepped = build();
    while stepped.step().unwrap() {}
    built.store(0, Ordering::SeqCst);
    let mut ahead = Stepper::new(build());
    let total = ahead.sim.total();
    assert_eq!(ahead.run_ahead(total).unwrap(), total);
    assert!(ahead.run_ahead_logged_from().is_some_and(|at| at > 0), "quiet stretches, then one that cleans");
    assert_eq!(built.load(Ordering::SeqCst), 1, "step 0's state built once: no stretch run again");
    assert_same("page, no keyframe", &ahead.sim, &stepped);
    assert_same_record("page, no keyframe", &ahead.sim, &stepped);
}

/// Page mapping that claims every write stays quiet: what `run_ahead` must survive from a
/// scheme wrong about `quiet_writes` (it only chooses how a stretch is tried first).
#[derive(Clone)]
struct ClaimsQuiet(PageFtl);

impl Ftl for ClaimsQuiet {
    fn name(&self) -> &'static str {
        self.0.name()
    }
    fn logical_pages(&self) -> u32 {
        self.0.logical_pages()
    }
    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        self.0.write(flash, lpn, version)
    }
    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        self.0.read(flash, lpn)
    }
    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.0.locate(lpn)
    }
    fn block_role(&self, pbn: Pbn) -> BlockRole {
        self.0.block_role(pbn)
    }
    fn ram_bytes(&self) -> u64 {
        self.0.ram_bytes()
    }
    fn quiet_writes(&self) -> Option<u64> {
        Some(u64::MAX)
    }
}

#[test]
fn run_ahead_checks_each_stretch_whatever_the_scheme_claims() {
    // The stretch after the claim is still checked by the counts: the first GC's stretch is
    // found not quiet and run again logged, so the log keeps every marker.
    let w = Workload::Hotcold { n: 3000, seed: 5, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
    let build = || {
        let sim = generated("page", 64, w.clone());
        let inner = sim.fresh().clone();
        let g = *sim.state.flash.geometry();
        let fresh: Fresh = Arc::new(move || {
            let mut s = inner();
            s.ftl = Box::new(ClaimsQuiet(PageFtl::new(&g, &SchemeParams::default()).unwrap()));
            s
        });
        Simulator::new(fresh, sim.requests().to_vec())
    };
    let at = check("page claiming quiet writes", &build);
    assert!(at.is_some_and(|at| at > 0), "quiet stretches, then one found not quiet");
}
