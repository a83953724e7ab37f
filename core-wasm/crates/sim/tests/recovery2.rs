//! Power cuts anywhere and recovery from the chip alone for KRAFT, KAST, RFTL, GFTL and
//! NFTL (issue 7): every flash-operation boundary on small chips, with a second cut
//! inside each recovery; random points on a larger chip with a skewed workload.

use crate::common;

use common::scenario;
use ftl_sim::crash::{sweep, Points, SweepReport};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::trace::gen::Workload;

fn all_points(scheme: &str, params: SchemeParams, blocks: u32, ppb: u32, w: Workload) -> SweepReport {
    let sc = scenario(scheme, params, blocks, ppb, w);
    let sim = sc.build().unwrap();
    let r = sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::All, Some(11), |_, _| {});
    assert_eq!(r.points_tried, r.run_ops, "every operation boundary is a cut point");
    assert_eq!(r.recut_points, r.points_tried);
    assert_eq!(r.recovered_correctly, r.points_tried, "{scheme}: {:#?}", r.first_failures);
    r
}

fn random_points(scheme: &str, params: SchemeParams, blocks: u32, ppb: u32, n: u64, points: u64) -> SweepReport {
    let w = Workload::Hotcold { n, seed: 3, read_ratio: 0.3, hot_fraction: 0.2, hot_ratio: 0.8 };
    let sc = scenario(scheme, params, blocks, ppb, w);
    let sim = sc.build().unwrap();
    let r =
        sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::Random { n: points, seed: 4 }, Some(4), |_, _| {});
    assert_eq!(r.points_tried, points);
    assert_eq!(r.recovered_correctly, r.points_tried, "{scheme}: {:#?}", r.first_failures);
    r
}

#[test]
fn nftl_recovers_from_every_cut_point() {
    let w = Workload::Hotcold { n: 500, seed: 5, read_ratio: 0.2, hot_fraction: 0.25, hot_ratio: 0.8 };
    let r = all_points("nftl", SchemeParams::default(), 9, 4, w);
    assert!(r.points_tried > 1000, "{r:?}");
    // A recovery reads every spare area of the 36-page chip (twice when cut inside).
    assert!(r.recovery_pages_read.min >= 36.0 && r.recovery_pages_read.max <= 2.0 * 36.0, "{r:?}");
}

#[test]
fn nftl_recovers_on_a_larger_chip_with_skew() {
    let r = random_points("nftl", SchemeParams::default(), 48, 16, 6000, 3000);
    eprintln!("{r:?}");
}

#[test]
fn gftl_recovers_from_every_cut_point() {
    let w = Workload::Hotcold { n: 400, seed: 5, read_ratio: 0.2, hot_fraction: 0.25, hot_ratio: 0.8 };
    let r = all_points("gftl", SchemeParams::default(), 12, 32, w);
    assert!(r.points_tried > 1000, "{r:?}");
    // Uniform: several logical blocks queued at once (an early recovery ran out of blocks).
    let w = Workload::Uniform { n: 800, seed: 3, read_ratio: 0.2 };
    all_points("gftl", SchemeParams::default(), 16, 32, w);
    all_points("gftl", SchemeParams::default(), 16, 32, Workload::Sequential { n: 800 });
}

#[test]
fn gftl_recovers_on_a_larger_chip_with_skew() {
    let r = random_points("gftl", SchemeParams::default(), 48, 32, 6000, 3000);
    eprintln!("{r:?}");
}

#[test]
fn rftl_recovers_from_every_cut_point() {
    let w = Workload::Hotcold { n: 500, seed: 5, read_ratio: 0.2, hot_fraction: 0.25, hot_ratio: 0.8 };
    let r = all_points("rftl", SchemeParams::default(), 9, 16, w);
    assert!(r.points_tried > 1000, "{r:?}");
}

#[test]
fn rftl_recovers_on_a_larger_chip_with_skew() {
    let r = random_points("rftl", SchemeParams::default(), 48, 32, 6000, 3000);
    eprintln!("{r:?}");
}

fn kraft_params(log_blocks: u32, k: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(log_blocks), k: Some(k), ..Default::default() }
}

#[test]
fn kraft_recovers_from_every_cut_point() {
    let w = Workload::Hotcold { n: 500, seed: 5, read_ratio: 0.2, hot_fraction: 0.25, hot_ratio: 0.8 };
    let r = all_points("kraft", kraft_params(3, 2), 12, 4, w);
    assert!(r.points_tried > 1000, "{r:?}");
    let w = Workload::Sequential { n: 300 };
    all_points("kraft", kraft_params(2, 2), 10, 8, w);
    // K = 1 (BAST-like) and K = 8 (FAST-like), uniform, and camera (sequential runs: fills,
    // switches) on 8-page blocks.
    let w = Workload::Hotcold { n: 800, seed: 4, read_ratio: 0.2, hot_fraction: 0.2, hot_ratio: 0.8 };
    all_points("kraft", kraft_params(3, 1), 24, 8, w);
    all_points("kraft", kraft_params(4, 8), 24, 8, Workload::Uniform { n: 800, seed: 4, read_ratio: 0.2 });
    let w = Workload::Camera { n: 800, seed: 1, file_pages: 6, fat_fraction: 0.05, fat_writes: 2 };
    all_points("kraft", kraft_params(4, 2), 24, 8, w);
}

#[test]
fn kast_recovers_from_every_cut_point() {
    let w = Workload::Hotcold { n: 500, seed: 5, read_ratio: 0.2, hot_fraction: 0.25, hot_ratio: 0.8 };
    let r = all_points("kast", kraft_params(3, 2), 12, 4, w);
    assert!(r.points_tried > 1000, "{r:?}");
}

#[test]
fn kraft_recovers_on_a_larger_chip_with_skew() {
    let r = random_points("kraft", kraft_params(6, 4), 64, 16, 6000, 3000);
    eprintln!("{r:?}");
}

#[test]
fn kast_recovers_on_a_larger_chip_with_skew() {
    random_points("kast", kraft_params(6, 4), 64, 16, 6000, 3000);
}

/// A recovery that breaks one rule must be caught by the sweep.
#[test]
fn sabotaged_recoveries_are_caught() {
    use ftl_sim::ftl::kraft::{Kraft, Variant};
    use ftl_sim::ftl::nftl::Nftl;
    use ftl_sim::ftl::Ftl;
    use std::sync::Arc;
    let w = || Workload::Hotcold { n: 500, seed: 5, read_ratio: 0.2, hot_fraction: 0.25, hot_ratio: 0.8 };
    // NFTL that keeps the first copy of an LPN it finds, whatever its sequence number.
    let sc = scenario("nftl", SchemeParams::default(), 9, 4, w());
    let sim = sc.build().unwrap();
    let bad: ftl_sim::crash::Recover = Arc::new(|flash| {
        Ok(Ok(Box::new(Nftl::debug_recover_first_copy(flash, &SchemeParams::default())?) as Box<dyn Ftl>))
    });
    let r = sweep(&sim.state, sim.requests(), &bad, Points::Every(3), None, |_, _| {});
    assert!(r.recovered_correctly < r.points_tried && r.acked_writes_lost > 0, "{r:?}");
    // KRAFT that keeps a full merge's new block when the cut came before the merge's commit.
    let p = kraft_params(3, 2);
    let sc = scenario("kraft", p.clone(), 12, 4, w());
    let sim = sc.build().unwrap();
    let bad: ftl_sim::crash::Recover = Arc::new(move |flash| {
        Ok(Ok(Box::new(Kraft::debug_recover_without_merge_undo(flash, &p, Variant::Kraft)?) as Box<dyn Ftl>))
    });
    let r = sweep(&sim.state, sim.requests(), &bad, Points::All, None, |_, _| {});
    assert!(r.recovered_correctly < r.points_tried, "{r:?}");
    eprintln!("sabotaged KRAFT: {} of {} points failed", r.points_tried - r.recovered_correctly, r.points_tried);
}

mod random_geometries {
    use super::*;
    use proptest::prelude::*;

    fn workload(kind: u8, n: u64, seed: u64, read_ratio: f64) -> Workload {
        match kind {
            0 => Workload::Uniform { n, seed, read_ratio },
            1 => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.2, hot_ratio: 0.8 },
            2 => Workload::Camera { n, seed, file_pages: 5, fat_fraction: 0.05, fat_writes: 2 },
            _ => Workload::Sequential { n },
        }
    }

    fn check(
        scheme: &str,
        params: SchemeParams,
        blocks: u32,
        ppb: u32,
        w: Workload,
        every: u64,
        seed: u64,
    ) -> Result<(), TestCaseError> {
        let sc = scenario(scheme, params, blocks, ppb, w);
        let sim = sc.build().map_err(TestCaseError::reject)?;
        let r = sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::Every(every), Some(seed), |_, _| {});
        prop_assert!(r.points_tried > 0);
        prop_assert_eq!(r.recovered_correctly, r.points_tried, "{}: {:#?}", scheme, r.first_failures);
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

        /// Random small geometries, workloads and scheme parameters: every cut point of a
        /// regular sample (every 3rd operation), each cut again inside its recovery.
        #[test]
        fn every_scheme_recovers_on_random_geometries(
            seed in any::<u64>(),
            kind in 0u8..4,
            read_ratio in 0.0f64..0.4,
            blocks in 9u32..24,
            m in 2u32..5,
            k in 1u32..6,
            kraft_ppb in prop::sample::select(vec![4u32, 8, 16]),
        ) {
            let w = || workload(kind, 700, seed, read_ratio);
            check("nftl", SchemeParams::default(), blocks, 8, w(), 3, seed)?;
            check("gftl", SchemeParams::default(), blocks.max(12), 32, w(), 5, seed)?;
            check("rftl", SchemeParams::default(), blocks, 16, w(), 3, seed)?;
            let p = SchemeParams { log_blocks: Some(m), k: Some(k), ..Default::default() };
            check("kraft", p.clone(), blocks, kraft_ppb, w(), 3, seed)?;
            check("kast", p, blocks, kraft_ppb, w(), 3, seed)?;
        }
    }
}
