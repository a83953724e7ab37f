//! The page-mapping FTL against the reference model, time travel and determinism.

use crate::common;

use common::{run_checked, scenario};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::trace::gen::Workload;
use proptest::prelude::*;

fn params(op: f64) -> SchemeParams {
    SchemeParams { op: Some(op), ..Default::default() }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// Random geometries and workloads of at least 10,000 requests: every read returns
    /// the latest acknowledged version and the map agrees with the model throughout.
    #[test]
    fn page_mapping_matches_reference_model(
        blocks in 6u32..96,
        ppb in 1u32..64,
        op in 0.05f64..0.6,
        seed in any::<u64>(),
        kind in 0u8..3,
        read_ratio in 0.0f64..0.5,
        n in 10_000u64..14_000,
    ) {
        let workload = match kind {
            0 => Workload::Uniform { n, seed, read_ratio },
            1 => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.2, hot_ratio: 0.8 },
            _ => Workload::Sequential { n },
        };
        let mut sim = scenario("page", params(op), blocks, ppb, workload).build().unwrap();
        run_checked(&mut sim, 997);
        let m = sim.state.metrics();
        prop_assert_eq!(m.wrong_reads, 0);
        prop_assert_eq!(m.host_writes + m.host_reads, n);
        // Every host write is one host program; GC copies come on top.
        prop_assert!(m.page_programs >= m.host_writes);
    }
}

#[test]
fn gc_runs_and_write_amplification_grows_with_less_spare_space() {
    let wa = |op: f64| {
        let w = Workload::Uniform { n: 20_000, seed: 7, read_ratio: 0.0 };
        let mut sim = scenario("page", params(op), 64, 16, w).build().unwrap();
        run_checked(&mut sim, 5000);
        let m = sim.state.metrics();
        assert!(m.gc_runs > 0);
        m.write_amplification
    };
    let (tight, roomy) = (wa(0.07), wa(0.4));
    assert!(tight > roomy, "WA with 7% OP ({tight}) should exceed WA with 40% OP ({roomy})");
    assert!(roomy >= 1.0);
}

#[test]
fn seek_equals_fresh_replay() {
    let w = Workload::Hotcold { n: 5000, seed: 3, read_ratio: 0.3, hot_fraction: 0.2, hot_ratio: 0.8 };
    let sc = scenario("page", params(0.2), 24, 8, w);
    let mut sim = sc.build().unwrap();
    sim.run(5000).unwrap();
    for &k in &[4321usize, 0, 1, 256, 257, 2999, 5000, 17] {
        sim.seek(k).unwrap();
        let mut fresh = sc.build().unwrap();
        fresh.run(k).unwrap();
        assert_eq!(sim.pos(), k);
        assert_eq!(sim.state.metrics(), fresh.state.metrics(), "metrics differ at step {k}");
        assert_eq!(sim.state.flash.erase_counts(), fresh.state.flash.erase_counts());
        assert_eq!(sim.state.oracle, fresh.state.oracle);
        assert!(
            sim.state.flash.pages().iter().zip(fresh.state.flash.pages()).all(|(a, b)| a == b),
            "chip differs at {k}"
        );
    }
}

#[test]
fn same_seed_same_metrics_other_seed_other_metrics() {
    let run = |seed| {
        let w = Workload::Uniform { n: 8000, seed, read_ratio: 0.25 };
        let mut sim = scenario("page", params(0.15), 32, 8, w).build().unwrap();
        sim.run(8000).unwrap();
        sim.state.metrics()
    };
    assert_eq!(run(11), run(11));
    assert_ne!(run(11), run(12));
}

#[test]
fn bad_parameters_are_clear_errors() {
    let w = Workload::Sequential { n: 10 };
    let e = scenario("page", params(1.5), 16, 4, w.clone()).build().err().unwrap();
    assert!(e.contains("over-provisioning"), "{e}");
    let e = scenario("nope", params(0.1), 16, 4, w.clone()).build().err().unwrap();
    assert!(e.contains("unknown scheme"), "{e}");
    let e = scenario("page", params(0.1), 1, 4, w).build().err().unwrap();
    assert!(e.contains("at least 2 blocks"), "{e}");
    let p = Workload::Pattern { text: "w0 w9999".into() };
    let e = scenario("page", params(0.1), 16, 4, p).build().err().unwrap();
    assert!(e.contains("request 2") && e.contains("lpn 9999"), "{e}");
    let p = Workload::Pattern { text: "w0 freeze".into() };
    let e = scenario("page", params(0.1), 16, 4, p).build().err().unwrap();
    assert!(e.contains("does not support"), "{e}");
}

#[test]
fn page_mapping_says_how_many_writes_stay_quiet() {
    // `quiet_writes` (what `Stepper::run_ahead` logs by) is exact: that many writes do no
    // garbage collection, and the one after them collects, before and after GC has begun.
    for (blocks, ppb, op, seed) in [(16, 8, 0.25, 1), (40, 16, 0.1, 2), (64, 4, 0.4, 3), (12, 1, 0.3, 4)] {
        let w = Workload::Uniform { n: 20_000, seed, read_ratio: 0.0 };
        let mut sim = scenario("page", params(op), blocks, ppb, w).build().unwrap();
        let (total, mut collected) = (sim.total(), 0);
        while sim.pos() < total {
            let quiet = sim.state.ftl.quiet_writes().expect("page mapping says") as usize;
            let gc = sim.state.flash.counters.gc_runs;
            sim.run(quiet.min(total - sim.pos())).unwrap();
            assert_eq!(sim.state.flash.counters.gc_runs, gc, "{blocks} x {ppb}: {quiet} quiet writes");
            if sim.step().unwrap() {
                assert!(sim.state.flash.counters.gc_runs > gc, "{blocks} x {ppb}: the write after them collects");
                collected += 1;
            }
        }
        assert!(collected > 100, "{blocks} x {ppb}: GC ran {collected} times");
    }
}
