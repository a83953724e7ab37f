//! Power cuts at every flash-operation boundary, recovery from the chip alone.

use crate::common;

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

/// Schemes with an open power-cut finding of issue 34 that the wide generators reproduce
/// (docs/schemes/recovery.md, "Wide chips and workloads"): left out of the wide property
/// test until their fix lands (remove the id here with the fix). None open: FastCheck's and
/// fast-ltlog's last two (the log area one block over the cut-free run's, a second recovery
/// not equal to one) are fixed tests below.
const OPEN_FINDINGS: &[&str] = &[];

/// One wide case: a chain of `cuts` power cuts over `workload` (run in order, again from
/// its start), with the pools of every recovery held to a cut-free run's, and a single-cut
/// sweep (every `every`-th operation of the workload's first `sweep_n` requests, each cut
/// again inside its recovery).
#[allow(clippy::too_many_arguments)]
fn wide_case(
    scheme: &str,
    ppb: u32,
    extra: u32,
    kind: usize,
    seed: u64,
    read_ratio: f64,
    cuts: u64,
    torn_erased: bool,
) -> Result<(), String> {
    use ftl_sim::crash::{chain, ChainOptions};
    let p = common::cut_params(scheme);
    let Some(blocks) = common::wide_chip(scheme, &p, ppb, extra) else { return Ok(()) };
    let probe = scenario(scheme, p.clone(), blocks, ppb, Workload::Pattern { text: String::new() });
    let lp = probe.fresh()?.ftl.logical_pages();
    let w = common::workload(kind, 400, seed, read_ratio, lp, ppb);
    let what = format!(
        "{scheme} {blocks} x {ppb}, {} (seed {seed}, read ratio {read_ratio:.2})",
        common::WORKLOAD_KINDS[kind]
    );
    let sc = scenario(scheme, p, blocks, ppb, w);
    let sim = sc.build().map_err(|e| format!("{what}: {e}"))?;
    let mut o = ChainOptions::new(cuts, seed);
    o.workload = Some(sim.requests().to_vec().into());
    o.reads_erased = torn_erased;
    let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
    if r.cuts != cuts || r.recovered_correctly != cuts || r.wrong_reads > 0 || r.stopped.is_some() {
        return Err(format!(
            "{what}: chain of {cuts} cuts: {} correct of {}, {} lost, {} wrong, pools beyond {}, stopped {:?}: {:#?}",
            r.recovered_correctly,
            r.cuts,
            r.acked_writes_lost,
            r.wrong_reads,
            r.pool_excess,
            r.stopped,
            r.first_failures
        ));
    }
    let reqs = &sim.requests()[..sim.requests().len().min(120)];
    let s = sweep(&sim.state, reqs, &sc.recoverer(), Points::Every(3), Some(seed), |_, _| {});
    if s.recovered_correctly != s.points_tried {
        return Err(format!("{what}: single cuts: {:#?}", s.first_failures));
    }
    Ok(())
}

/// A wide case the property test found, run as a fixed test: `scheme` on `ppb`-page blocks
/// (`extra` blocks over its registry minimum, which must build), workload `kind` by name.
#[allow(clippy::too_many_arguments)]
fn fixed_wide_case(
    scheme: &str,
    ppb: u32,
    extra: u32,
    blocks: u32,
    kind: &str,
    seed: u64,
    read_ratio: f64,
    torn_erased: bool,
) {
    assert_eq!(common::wide_chip(scheme, &common::cut_params(scheme), ppb, extra), Some(blocks));
    let kind = common::WORKLOAD_KINDS.iter().position(|&k| k == kind).expect("a workload kind");
    if let Err(e) = wide_case(scheme, ppb, extra, kind, seed, read_ratio, 250, torn_erased) {
        panic!("{e}");
    }
}

/// GFTL on its smallest chip of 12-page blocks (5 x 12: one logical block), writes to half
/// the space and reads of pages never written. A cut inside a GC job's copies left the job
/// half done (its new block and the buffer it closed on flash); the retried write opened
/// another buffer, and cuts in the job's next steps kept it so: one free block after the
/// recovery where a run without cuts keeps two (2 of 250 recoveries). Recovery now runs a
/// job it finds half done to its end.
#[test]
fn gftl_recovery_finishes_a_gc_job_cut_before_its_commit() {
    for torn_erased in [false, true] {
        fixed_wide_case("gftl", 12, 0, 5, "erased_reads", 153_973, 0.0, torn_erased);
    }
}

/// GFTL 17 x 14, hot/cold (found once recovery ran half-done jobs to their end): a job
/// undone (a torn page left its new block no room) went back to the head of the queue with
/// the buffer it had closed and the one opened since, beside another logical block's
/// buffer: three buffer blocks after the recovery where a run without cuts has two.
/// Recovery now runs the head's job while its logical block holds more than one buffer.
#[test]
fn gftl_recovery_leaves_the_head_of_the_gc_queue_one_buffer() {
    fixed_wide_case("gftl", 14, 12, 17, "hotcold", 194_002, 0.28259567613083714, false);
}

mod wide {
    use super::*;
    use proptest::prelude::*;

    /// Every scheme of the registry (but open findings) with the pages per block it is
    /// drawn on: from the fewest on which the registry builds it (`fit::min_blocks` finds
    /// a chip) to 16 — RFTL and GFTL need larger blocks than the others, and drawing 2..=16
    /// for them wasted most of their cases on chips that do not build.
    fn schemes_and_ppb() -> impl Strategy<Value = (&'static str, u32)> {
        let s: Vec<(&'static str, u32)> = ftl_sim::ftl::REGISTRY
            .iter()
            .map(|e| e.id)
            .filter(|id| !OPEN_FINDINGS.contains(id))
            .filter_map(|id| {
                let p = common::cut_params(id);
                (2..=16u32).find(|&ppb| common::wide_chip(id, &p, ppb, 0).is_some()).map(|lo| (id, lo))
            })
            .collect();
        prop::sample::select(s).prop_flat_map(|(id, lo)| (Just(id), lo..=16u32))
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

        /// Issue 34: chips of up to 16 pages a block (odd and even) from each scheme's
        /// registry minimum of pages per block and of blocks, and workloads beyond uniform
        /// and hot/cold (camera, sequential, one hot page, reads of pages never written);
        /// cuts in chains and single cuts, with programs that read as erased in half the
        /// cases. Every recovery keeps every acknowledged write and every pool within its
        /// cut-free bound.
        #[test]
        fn every_scheme_survives_cuts_on_wide_chips_and_workloads(
            (scheme, ppb) in schemes_and_ppb(),
            extra in prop::sample::select(vec![0u32, 0, 1, 2, 5, 12]),
            kind in 0usize..common::WORKLOAD_KINDS.len(),
            seed in 1u64..1_000_000,
            read_ratio in 0.0f64..0.4,
            torn_erased in any::<bool>(),
        ) {
            prop_assert!(common::wide_chip(scheme, &common::cut_params(scheme), ppb, extra).is_some());
            if let Err(e) = wide_case(scheme, ppb, extra, kind, seed, read_ratio, 250, torn_erased) {
                prop_assert!(false, "{}", e);
            }
        }
    }
}

/// The registry minimum the wide generators start from is a chip the scheme builds on,
/// one block fewer is refused, and some scheme runs on 2-page blocks.
#[test]
fn min_blocks_is_the_smallest_chip_the_registry_builds() {
    use ftl_sim::fit::min_blocks;
    let mut on_two = 0;
    for e in ftl_sim::ftl::REGISTRY {
        let p = common::cut_params(e.id);
        for ppb in [2u32, 3, 5, 8, 16] {
            let Some(m) = min_blocks(e.id, &p, "classroom", ppb) else { continue };
            on_two += (ppb == 2) as u32;
            let sc = |b| scenario(e.id, p.clone(), b, ppb, Workload::Pattern { text: String::new() });
            assert!(sc(m).fresh().is_ok(), "{} {m} x {ppb}", e.id);
            assert!(m == 2 || sc(m - 1).fresh().is_err(), "{} {} x {ppb} builds too", e.id, m - 1);
        }
    }
    assert!(on_two > 0);
}

/// A chain of 3,000 cuts (seed 1) over 5,000 sequential writes, as `ftl crash-sweep
/// --scheme S --blocks B --pages-per-block P --gen sequential:n=5000 --chain 3000 --seed 1`:
/// no write lost and, after every recovery, every pool within the cut-free run's bound. A
/// cut-free sequential run of the FAST family never takes an RW log block; before the SW
/// log restore (ftl/fast/recovery.rs) a torn append left the logical block merged, the
/// retried append went to an RW log block, and nearly every later recovery had one RW log
/// block more and one free block fewer than that run.
fn sequential_chain_keeps_pools(scheme: &str, blocks: u32, ppb: u32, reads_erased: bool) {
    use ftl_sim::crash::{chain, ChainOptions};
    let sc = scenario(scheme, SchemeParams::default(), blocks, ppb, Workload::Sequential { n: 5000 });
    let sim = sc.build().unwrap();
    let mut o = ChainOptions::new(3000, 1);
    o.workload = Some(sim.requests().to_vec().into());
    o.reads_erased = reads_erased;
    let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
    let what = format!("{scheme} {blocks} x {ppb}");
    assert_eq!(r.cuts, 3000, "{what}: {:?}", r.stopped);
    assert!(r.recut_inside_recovery > 1000, "{what}: the chain cuts recoveries too");
    assert_eq!((r.acked_writes_lost, r.wrong_reads, r.errors), (0, 0, 0), "{what}: {:#?}", r.first_failures);
    assert_eq!(r.pool_excess, 0, "{what}: {:#?}", r.first_failures);
    assert_eq!(r.recovered_correctly, r.cuts, "{what}: {:#?}", r.first_failures);
    assert!(!r.stuck, "{what}");
    let rw = r.pools.iter().find(|p| p.role == ftl_sim::ftl::BlockRole::RwLog);
    assert!(rw.is_none_or(|p| p.after_recovery == 0), "{what}: {rw:?}");
}

#[test]
fn fast_sequential_chain_with_reads_erased_restores_the_sw_log() {
    sequential_chain_keeps_pools("fast", 6, 5, true);
}

#[test]
fn fast_and_ofast_sequential_chains_take_no_rw_log_block() {
    for scheme in ["fast", "ofast"] {
        for ppb in [3, 5] {
            sequential_chain_keeps_pools(scheme, 6, ppb, false);
        }
    }
}

#[test]
fn fastcheck_sequential_chains_take_no_rw_log_block() {
    for ppb in [3, 5] {
        sequential_chain_keeps_pools("fastcheck", 13, ppb, false);
    }
}

#[test]
fn fast_ltlog_sequential_chains_take_no_rw_log_block() {
    for ppb in [3, 5] {
        sequential_chain_keeps_pools("fast-ltlog", 15, ppb, false);
    }
}

/// The wide property test's cases that found the SW log restore missing: fast-ltlog on its
/// minimum chip plus one block, of 3-page blocks with the camera workload (seed 233528) and
/// of 16-page blocks with reads of erased pages (seed 165961); 3 of 250 recoveries beyond a
/// pool's bound in each before. With and without programs that read as erased.
#[test]
fn fast_ltlog_camera_chain_on_3_page_blocks_keeps_pools() {
    for torn_erased in [false, true] {
        wide_case("fast-ltlog", 3, 1, 2, 233528, 0.0, 250, torn_erased).unwrap();
    }
}

#[test]
fn fast_ltlog_erased_reads_chain_on_16_page_blocks_keeps_pools() {
    for torn_erased in [false, true] {
        wide_case("fast-ltlog", 16, 1, 5, 165961, 0.0, 250, torn_erased).unwrap();
    }
}

/// A wide case where a cut inside a partial merge with the host sector in it (case 2.2) was
/// redone without that sector: the logical block lost its SW log and the retried write took
/// an RW log block a cut-free run never takes. Recovery now undoes the interrupted partial
/// merge (the SW log restored, the data block kept), so the retry does the merge itself.
#[test]
fn fastcheck_hotcold_chain_undoes_an_interrupted_partial_merge() {
    wide_case("fastcheck", 3, 0, 1, 754687, 0.0585, 250, true).unwrap();
}

/// fast-ltlog's log area one block over the cut-free run's most (14 x 12, uniform, seed
/// 666407: "Metadata 2 blocks, 1 more than the cut-free run's most (1)" at 5 of 250 cuts, 0
/// lost). Recovery left the area at ⌈(live − 1) / ppb⌉ + 1 blocks, the most a run without
/// cuts can span, but after cuts the log's pages fall elsewhere than that run's did (a
/// recovery's own dump shifts them) and this run's live pages never straddled a block
/// boundary. Recovery now rewrites the live pages into the fewest blocks they fit.
#[test]
fn fast_ltlog_recovery_packs_the_log_area_into_the_fewest_blocks() {
    for torn_erased in [false, true] {
        fixed_wide_case("fast-ltlog", 12, 0, 14, "uniform", 666_407, 0.2305, torn_erased);
    }
}

/// FastCheck 15 x 12, uniform, seed 901400: a cut at the map page after a partial merge of
/// LBN 0, whose data block the newest map page did not name. Recovery finished the merge and
/// logged its dbMSN, but kept LBN 0's older log page of LPN 4 valid over the merged block's
/// newer copy (the consistency check had judged it by the old map page); the next recovery,
/// reading the new map page, set it to −1: a second recovery gave LPN 4 another version than
/// one did. Equation 1 now also applies the dbMSN of a merge recovery finds after the map
/// page (FastCheck 5.1, 5.2.2, 5.3).
#[test]
fn fastcheck_recovery_after_a_merge_the_map_page_missed_is_idempotent() {
    fixed_wide_case("fastcheck", 12, 2, 15, "uniform", 901_400, 0.3729, false);
}

/// Recovery of a recovered chip changes nothing (FastCheck 5.3: repeated, "the effect is
/// the same as if executed once"): every cut point of the first 120 requests of the
/// 15 x 12 uniform run above (seed 901400), recovered twice, reads every LPN the same.
#[test]
fn fastcheck_and_fast_ltlog_second_recovery_equals_the_first() {
    use ftl_sim::nand::FlashError;
    for scheme in ["fastcheck", "fast-ltlog"] {
        let p = common::cut_params(scheme);
        let blocks = common::wide_chip(scheme, &p, 12, 2).unwrap();
        let probe = scenario(scheme, p.clone(), blocks, 12, Workload::Pattern { text: String::new() });
        let lp = probe.fresh().unwrap().ftl.logical_pages();
        let sc = scenario(scheme, p, blocks, 12, common::workload(0, 120, 901_400, 0.3729, lp, 12));
        let sim = sc.build().unwrap();
        let rec = sc.recoverer();
        let reads = |ftl: &dyn ftl_sim::ftl::Ftl, f: &ftl_sim::nand::Flash| -> Vec<u32> {
            (0..ftl.logical_pages()).map(|l| ftl.locate(l).map(|q| f.peek(q).version).unwrap_or(0)).collect()
        };
        let mut s = sim.state.clone();
        let mut points = 0;
        for (i, &r) in sim.requests().iter().enumerate() {
            for k in 0.. {
                let mut c = s.clone();
                c.flash.set_power_budget(Some(k));
                if c.exec(r) != Err(FlashError::PowerLoss) {
                    break;
                }
                c.flash.power_on();
                let once = rec(&mut c.flash).unwrap().unwrap();
                let first = reads(once.as_ref(), &c.flash);
                let twice = rec(&mut c.flash).unwrap().unwrap();
                assert_eq!(first, reads(twice.as_ref(), &c.flash), "{scheme}: request {i}, cut after {k} of its ops");
                points += 1;
            }
            s.exec(r).unwrap();
        }
        eprintln!("{scheme}: {points} cut points, each recovered twice");
        assert!(points > 150, "{scheme}: {points} cut points");
    }
}
