//! Power cuts at every flash-operation boundary, recovery from the chip alone.

mod common;

use common::scenario;
use ftl_sim::crash::{sweep, Points};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::trace::gen::Workload;

#[test]
fn page_mapping_recovers_from_every_cut_point() {
    let w = Workload::Uniform { n: 600, seed: 5, read_ratio: 0.2 };
    let sc = scenario("page", SchemeParams { op: Some(0.2), ..Default::default() }, 10, 4, w);
    let sim = sc.build().unwrap();
    let report = sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::All, Some(9), |_, _| {});
    assert!(report.points_tried > 1000, "{report:?}");
    assert_eq!(report.points_tried, report.run_ops, "every operation boundary is a cut point");
    assert_eq!(report.recovered_correctly, report.points_tried, "{:#?}", report.first_failures);
    assert_eq!(report.recut_points, report.points_tried);
    // One recovery reads at most every spare area of the 40-page chip; a point cut again
    // inside its recovery pays for the interrupted attempt too.
    assert!(report.recovery_pages_read.max <= 2.0 * 40.0, "{report:?}");
    assert!(report.recovery_pages_read.min >= 10.0, "at least one spare area per block");
}

#[test]
fn a_broken_recovery_is_caught() {
    // Recovery that forgets the sequence numbers (keeps the first copy it finds) loses data.
    use ftl_sim::ftl::{page::PageFtl, Ftl};
    use ftl_sim::nand::{Cause, PageKind};
    use std::sync::Arc;
    let w = Workload::Uniform { n: 300, seed: 2, read_ratio: 0.0 };
    let sc = scenario("page", SchemeParams::default(), 8, 4, w);
    let sim = sc.build().unwrap();
    let bad: ftl_sim::crash::Recover = Arc::new(|flash| {
        let mut f = PageFtl::recover(flash, &SchemeParams::default())?;
        // Sabotage: map LPN 0 to the first copy found in the chip, whatever its age.
        for ppn in 0..flash.geometry().pages() {
            let p = *flash.peek(ppn);
            if p.kind == PageKind::Data && p.lpn == 0 {
                f.debug_force_map(0, ppn);
                break;
            }
        }
        let _ = flash.read_oob(0, Cause::Recovery)?;
        Ok(Ok(Box::new(f) as Box<dyn Ftl>))
    });
    let report = sweep(&sim.state, sim.requests(), &bad, Points::Every(7), None, |_, _| {});
    assert!(report.recovered_correctly < report.points_tried, "{report:?}");
    assert!(report.acked_writes_lost + report.errors > 0);
}

#[test]
fn page_mapping_recovers_on_a_larger_chip_with_skew() {
    let w = Workload::Hotcold { n: 8000, seed: 3, read_ratio: 0.3, hot_fraction: 0.2, hot_ratio: 0.8 };
    let sc = scenario("page", SchemeParams::default(), 64, 16, w);
    let sim = sc.build().unwrap();
    let report =
        sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::Random { n: 6000, seed: 4 }, Some(4), |_, _| {});
    assert_eq!(report.points_tried, 6000);
    assert_eq!(report.recovered_correctly, report.points_tried, "{:#?}", report.first_failures);
}
