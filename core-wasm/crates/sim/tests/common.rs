//! Shared helpers for the integration tests: build a simulator from a scheme,
//! chip and workload, run it, and check it against the reference model.
#![allow(dead_code)]

use ftl_sim::ftl::SchemeParams;
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::Simulator;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::parse::{parse_bytes, RawTrace, TraceOptions};

pub fn scenario(scheme: &str, params: SchemeParams, blocks: u32, ppb: u32, workload: Workload) -> Scenario {
    Scenario {
        scheme: scheme.into(),
        params,
        chip: ChipSpec { preset: "classroom".into(), blocks: Some(blocks), pages_per_block: Some(ppb) },
        workload,
        run: Default::default(),
    }
}

/// A hybrid scheme's parameters with `n` log blocks (the rest the registry's defaults).
pub fn lb(n: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(n), ..Default::default() }
}

/// An uploaded trace's workload as the app and `ftl run --trace` give it: the text is
/// parsed apart (`parse_text`) and handed to `load::build_with_raw` with `fit`.
pub fn trace_workload(fit: Fit) -> Workload {
    Workload::Trace {
        text: String::new(),
        format: None,
        fit,
        device: None,
        skip_bad_lines: false,
        blkparse_action: None,
    }
}

/// Trace text parsed at `page_bytes` a page (format detected as for an upload).
pub fn parse_text(text: &str, page_bytes: u32) -> RawTrace {
    parse_bytes(text.as_bytes(), TraceOptions { page_bytes, ..TraceOptions::default() })
        .unwrap_or_else(|e| panic!("{e}"))
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

/// The workloads power-cut tests draw (issue 34: wider than uniform and hot/cold).
pub const WORKLOAD_KINDS: [&str; 6] = ["uniform", "hotcold", "camera", "sequential", "one_hot_page", "erased_reads"];

/// Workload `kind` (an index into `WORKLOAD_KINDS`) of `n` requests over `logical_pages`:
/// uniform and hot/cold with `read_ratio` reads; a camera with small photos (sequential
/// runs of about `ppb` pages and FAT updates); sequential writes; one hot page (every
/// request to lpn 0, `read_ratio` of them reads); reads of erased pages (writes only to
/// the lower half of the space, reads over all of it, so half the reads find a page never
/// written).
pub fn workload(kind: usize, n: u64, seed: u64, read_ratio: f64, logical_pages: u32, ppb: u32) -> Workload {
    match WORKLOAD_KINDS[kind % WORKLOAD_KINDS.len()] {
        "uniform" => Workload::Uniform { n, seed, read_ratio },
        "hotcold" => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.2, hot_ratio: 0.8 },
        "camera" => Workload::Camera { n, seed, file_pages: ppb.max(2) as u64, fat_fraction: 0.05, fat_writes: 2 },
        "sequential" => Workload::Sequential { n },
        "one_hot_page" => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.0, hot_ratio: 1.0 },
        _ => {
            let mut g = ftl_sim::trace::rng::SplitMix64::new(seed);
            let space = logical_pages.max(2) as u64;
            let text: Vec<String> = (0..n)
                .map(|_| {
                    if g.unit() < 0.4 {
                        format!("r{}", g.below(space))
                    } else {
                        format!("w{}", g.below(space.div_ceil(2)))
                    }
                })
                .collect();
            Workload::Pattern { text: text.join(" ") }
        }
    }
}

/// The parameters of a wide power-cut test: the registry's defaults, except the hybrid
/// schemes' checkpoint period (FastCheck / fast-ltlog: 16 LPNs a region, so small chips
/// checkpoint often), when the scheme reads it.
pub fn cut_params(scheme: &str) -> SchemeParams {
    let reads = ftl_sim::ftl::scheme_params(scheme);
    SchemeParams { checkpoint_lpns: reads.contains(&"checkpoint_lpns").then_some(16), ..Default::default() }
}

/// Pages per block for `scheme` on a classroom chip of `blocks` blocks: `from`, or the
/// fewest pages doubling from it that the registry takes the scheme on (RFTL and GFTL
/// need larger blocks than the others: `fit::min_pages_per_block`).
pub fn ppb_for(scheme: &str, params: &SchemeParams, blocks: u32, from: u32) -> u32 {
    let mut chip = ftl_sim::nand::Chip::preset("classroom").unwrap();
    chip.geometry.blocks = blocks;
    ftl_sim::fit::min_pages_per_block(scheme, params, &chip, from)
        .unwrap_or_else(|| panic!("{scheme} builds on no classroom chip of {blocks} blocks"))
}

/// A chip for `scheme`: `ppb` pages a block and the scheme's registry minimum of blocks
/// (`fit::min_blocks`) plus `extra`, at most 256. None when no chip of `ppb`-page blocks
/// builds.
pub fn wide_chip(scheme: &str, params: &SchemeParams, ppb: u32, extra: u32) -> Option<u32> {
    ftl_sim::fit::min_blocks(scheme, params, "classroom", ppb).map(|m| (m + extra).min(256.max(m)))
}

/// Everything two runs must agree on: metrics (every field, scheme metrics included),
/// host counters, the chip's pages and erase counts, and the reference model.
pub fn assert_same(label: &str, a: &Simulator, b: &Simulator) {
    assert_eq!(a.pos(), b.pos(), "{label}: position");
    assert_eq!(a.state.metrics(), b.state.metrics(), "{label}: metrics");
    assert_eq!(a.state.host, b.state.host, "{label}: host counters");
    assert_eq!(a.state.flash.erase_counts(), b.state.flash.erase_counts(), "{label}: erase counts");
    assert_eq!(a.state.flash.total_ops(), b.state.flash.total_ops(), "{label}: flash ops");
    let g = a.state.flash.geometry().pages();
    for ppn in 0..g {
        assert_eq!(a.state.flash.peek(ppn), b.state.flash.peek(ppn), "{label}: page {ppn}");
    }
    assert!(a.state.mismatches().is_empty() && b.state.mismatches().is_empty(), "{label}: reference model");
    assert_eq!(a.state.host.wrong_reads, 0, "{label}: wrong reads");
}

/// A player run as the app's Session keeps it: keyframes every few hundred requests on
/// the tests' small chips, and the response-time timeline on.
pub fn prepare_player(mut sim: Simulator) -> Simulator {
    sim.set_keyframe_budget(1 << 17);
    sim.record_timeline(true);
    sim
}

/// What a player run leaves beside the state (`assert_same`): the run log, the
/// response-time timeline and the keyframes.
pub fn assert_same_record(label: &str, a: &Simulator, b: &Simulator) {
    assert_eq!(a.log.upto(), b.log.upto(), "{label}: run log covers");
    assert_eq!(a.log.markers(), b.log.markers(), "{label}: run log markers");
    assert_eq!(a.log.samples(), b.log.samples(), "{label}: run log samples");
    assert_eq!(a.timeline(), b.timeline(), "{label}: response times");
    assert_eq!(a.keyframe_steps(), b.keyframe_steps(), "{label}: keyframes");
}
