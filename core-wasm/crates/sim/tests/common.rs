//! Shared helpers for the integration tests: build a simulator from a scheme,
//! chip and workload, run it, and check it against the reference model.
#![allow(dead_code)]

use ftl_sim::ftl::SchemeParams;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::Simulator;
use ftl_sim::trace::gen::Workload;

pub fn scenario(scheme: &str, params: SchemeParams, blocks: u32, ppb: u32, workload: Workload) -> Scenario {
    Scenario {
        scheme: scheme.into(),
        params,
        chip: ChipSpec { preset: "classroom".into(), blocks: Some(blocks), pages_per_block: Some(ppb) },
        workload,
        run: Default::default(),
    }
}

/// Runs the whole workload, checking every `check_every` requests that every logical
/// page maps to its latest acknowledged version, and that no read returned wrong data.
pub fn run_checked(sim: &mut Simulator, check_every: usize) {
    let total = sim.total();
    while sim.pos() < total {
        let n = check_every.min(total - sim.pos());
        sim.run(n).unwrap_or_else(|e| panic!("run failed: {e}"));
        let bad = sim.state.mismatches();
        assert!(
            bad.is_empty(),
            "after {} requests, {} LPNs disagree with the reference model, e.g. {:?}",
            sim.pos(),
            bad.len(),
            &bad[..bad.len().min(8)]
        );
        assert_eq!(sim.state.host.wrong_reads, 0, "wrong reads after {} requests", sim.pos());
    }
}
