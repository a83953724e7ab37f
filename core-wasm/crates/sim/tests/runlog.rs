//! Markers and sampled series for the timeline and charts.

use crate::common;

use common::scenario;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::runlog::{MARK_GC, MARK_MERGE};
use ftl_sim::trace::gen::Workload;

#[test]
fn markers_flag_exactly_the_requests_that_collected_garbage() {
    let w = Workload::Uniform { n: 3000, seed: 9, read_ratio: 0.2 };
    let sc = scenario("page", SchemeParams::default(), 16, 4, w);
    let mut sim = sc.build().unwrap();
    let mut expect = Vec::new();
    for i in 0..3000u32 {
        let before = sim.state.flash.counters.gc_runs;
        sim.step().unwrap();
        if sim.state.flash.counters.gc_runs != before {
            expect.push(i);
        }
    }
    let got: Vec<u32> = sim.log.markers().iter().filter(|m| m.1 & MARK_GC != 0).map(|m| m.0).collect();
    assert!(!expect.is_empty());
    assert_eq!(got, expect);
    // Seeking back and replaying does not duplicate markers or samples.
    let (markers, samples) = (sim.log.markers().to_vec(), sim.log.samples().to_vec());
    sim.seek(100).unwrap();
    sim.seek(3000).unwrap();
    assert_eq!(sim.log.markers(), &markers[..]);
    assert_eq!(sim.log.samples(), &samples[..]);
    // Samples: step 0 plus one every 3 requests, cumulative and consistent with the end.
    assert_eq!(samples.len(), 1001);
    assert!(samples.windows(2).all(|w| w[0].erases <= w[1].erases && w[0].step < w[1].step));
    let m = sim.state.metrics();
    assert_eq!(samples.last().unwrap().erases, m.erases);
    assert_eq!(samples.last().unwrap().page_programs, m.page_programs);
}

#[test]
fn merges_are_marked_for_hybrid_schemes() {
    let w = Workload::Pattern { text: "(w1 w5 w9 w13)x4".into() };
    let sc = scenario("bast", SchemeParams { log_blocks: Some(2), ..Default::default() }, 16, 4, w);
    let mut sim = sc.build().unwrap();
    sim.run(16).unwrap();
    let merges = sim.log.markers().iter().filter(|m| m.1 & MARK_MERGE != 0).count() as u64;
    let m = sim.state.metrics();
    assert!(merges > 0);
    assert!(merges <= m.merges.switch + m.merges.partial + m.merges.full);
}
