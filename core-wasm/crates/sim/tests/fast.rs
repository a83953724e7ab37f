//! BAST, FAST and O-FAST: the FAST paper's worked examples with exact counts, and the
//! reference-model property test over random geometries and workloads.
//!
//! "Data blocks already written" (2.4, 3.1): every worked example runs a prefix that
//! writes every logical sector once (in place, no erase, no merge), then the paper's
//! pattern; counts are the deltas over the pattern (docs/schemes/fast.md).

use crate::common;

use common::{run_checked, scenario};
use ftl_sim::ftl::panel::SectorEntry;
use ftl_sim::ftl::{PanelData, SchemeParams};
use ftl_sim::nand::{Cause, Event, OpKind};
use ftl_sim::sim::Simulator;
use ftl_sim::trace::gen::Workload;
use proptest::prelude::*;

fn params(log_blocks: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(log_blocks), ..Default::default() }
}

/// What a pattern cost, as deltas after the prefix.
#[derive(Debug, Default, Clone, PartialEq)]
struct Cost {
    erases: u64,
    switch: u64,
    partial: u64,
    full: u64,
    full_victims: u64,
    /// Merge copies (page reads caused by a merge; each is followed by a program).
    copies: u64,
    replacements: u64,
    utilisation_sum: f64,
    host_programs: u64,
}

fn snapshot(sim: &Simulator) -> Cost {
    let f = &sim.state.flash;
    let c = &f.counters;
    Cost {
        erases: f.total(OpKind::Erase),
        switch: c.switch_merges,
        partial: c.partial_merges,
        full: c.full_merges,
        full_victims: c.full_merge_victims,
        copies: [Cause::Switch, Cause::PartialMerge, Cause::FullMerge].iter().map(|&k| f.count(OpKind::Read, k)).sum(),
        replacements: c.log_replacements,
        utilisation_sum: c.log_utilisation_sum,
        host_programs: f.count(OpKind::Program, Cause::Host),
    }
}

fn delta(a: &Cost, b: &Cost) -> Cost {
    Cost {
        erases: b.erases - a.erases,
        switch: b.switch - a.switch,
        partial: b.partial - a.partial,
        full: b.full - a.full,
        full_victims: b.full_victims - a.full_victims,
        copies: b.copies - a.copies,
        replacements: b.replacements - a.replacements,
        utilisation_sum: b.utilisation_sum - a.utilisation_sum,
        host_programs: b.host_programs - a.host_programs,
    }
}

struct Run {
    cost: Cost,
    notes: Vec<String>,
    sim: Simulator,
}

impl Run {
    fn metric(&self, key: &str) -> u64 {
        self.sim.state.ftl.scheme_metrics()[key].as_u64().unwrap_or_else(|| panic!("no scheme metric {key}"))
    }
    fn has_note(&self, needle: &str) -> bool {
        self.notes.iter().any(|n| n.contains(needle))
    }
}

/// Runs `pattern` after a prefix that writes every logical sector once; returns the
/// deltas over the pattern and its narration notes. The chip is the classroom chip
/// (16 blocks of 4 sectors) unless `blocks`/`ppb` say otherwise.
fn run_after_fill(scheme: &str, log_blocks: u32, blocks: u32, ppb: u32, pattern: &str) -> Run {
    let probe = scenario(scheme, params(log_blocks), blocks, ppb, Workload::Sequential { n: 1 }).build().unwrap();
    let lp = probe.state.ftl.logical_pages();
    let text = format!("w0-{} {pattern}", lp - 1);
    let mut sim = scenario(scheme, params(log_blocks), blocks, ppb, Workload::Pattern { text }).build().unwrap();
    sim.run(lp as usize).unwrap();
    let before = snapshot(&sim);
    assert_eq!(before.erases, 0, "the prefix writes in place");
    sim.state.flash.set_recording(true);
    let total = sim.total();
    run_checked(&mut sim, 1);
    assert_eq!(sim.pos(), total);
    let notes: Vec<String> = sim
        .state
        .flash
        .take_events()
        .into_iter()
        .filter_map(|e| match e {
            Event::Note { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    let cost = delta(&before, &snapshot(&sim));
    if std::env::var("FAST_NOTES").is_ok() {
        eprintln!(
            "--- {scheme} L={log_blocks} {pattern}\n{}",
            notes
                .iter()
                .filter(|n| !n.starts_with("S") || !n.contains("in place"))
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
    Run { cost, notes, sim }
}

fn classroom(scheme: &str, log_blocks: u32, pattern: &str) -> Run {
    run_after_fill(scheme, log_blocks, 16, 4, pattern)
}

// ---- 2.4: log-block thrashing in BAST -------------------------------------------------

#[test]
fn bast_thrashing_section_2_4() {
    let r = classroom("bast", 2, "S0 S4 S8 S12 S0 S4 S8 S12");
    // A replacement on every overwrite from the first S8 on: S8 S12 S0 S4 S8 S12.
    assert_eq!(r.cost.replacements, 6, "{:?}", r.cost);
    assert_eq!(r.metric("rule3_round_robin"), 6);
    // Each victim holds one sector of four: 25% utilisation.
    assert!((r.cost.utilisation_sum / r.cost.replacements as f64 - 0.25).abs() < 1e-9);
    assert!((r.sim.state.metrics().log_utilisation.unwrap() - 0.25).abs() < 1e-9);
    // Every merge is a full merge with two erases (data block + log block).
    assert_eq!((r.cost.full, r.cost.switch, r.cost.partial), (6, 0, 0));
    assert_eq!(r.cost.erases, 12);
    assert!(r.has_note("rule (3): round robin"));
}

// ---- 3.1 (a): the claim, with the patterns moved off offset 0 -------------------------

#[test]
fn fast_no_replacement_on_shifted_thrashing_pattern_section_3_1a() {
    let pattern = "S1 S5 S9 S13 S1 S5 S9 S13";
    for scheme in ["fast", "ofast"] {
        // 1 SW + 2 RW log blocks: the two RW log blocks take all eight sectors.
        let r = classroom(scheme, 3, pattern);
        assert_eq!(r.cost.erases, 0, "{scheme}: {:?}", r.cost);
        assert_eq!(r.cost.replacements + r.cost.full + r.cost.partial + r.cost.switch, 0);
        assert_eq!(r.metric("case3"), 8);
    }
    // BAST with two log blocks thrashes just as on the unshifted pattern.
    let b = classroom("bast", 2, pattern);
    assert_eq!((b.cost.replacements, b.cost.full, b.cost.erases), (6, 6, 12));
}

#[test]
fn fast_no_merge_on_shifted_hot_block_pattern_section_3_1a() {
    let pattern = "S1 S3 S2 S3 S1 S2 S3 S1";
    for scheme in ["fast", "ofast"] {
        let r = classroom(scheme, 3, pattern);
        assert_eq!(r.cost.erases, 0, "{scheme}: {:?}", r.cost);
        assert_eq!(r.cost.full + r.cost.partial + r.cost.switch, 0);
    }
    // BAST merges its dedicated log block at the 5th overwrite (after every 4th) while
    // its other log block is never used.
    let b = classroom("bast", 2, pattern);
    assert_eq!((b.cost.replacements, b.cost.full, b.cost.erases), (1, 1, 2), "{:?}", b.cost);
    assert_eq!(b.metric("rule1_full"), 1);
    assert_eq!(b.metric("new_log"), 1, "the second log block stays idle");
    assert!((b.cost.utilisation_sum - 1.0).abs() < 1e-9);
}

// ---- 3.1 (b): the literal patterns through Fig. 6 -------------------------------------

#[test]
fn fast_literal_thrashing_pattern_goes_through_the_sw_log_block_section_3_1b() {
    // Every sector is at offset 0: case 1 eight times. The first starts the SW log
    // block; each later one partially merges the previous one (Fig. 7a: 3 missing
    // sectors copied from the data block, 1 erase) and starts a new one.
    let r = classroom("fast", 3, "S0 S4 S8 S12 S0 S4 S8 S12");
    assert_eq!(r.metric("case1"), 8);
    assert_eq!((r.cost.partial, r.cost.full, r.cost.switch), (7, 0, 0), "{:?}", r.cost);
    assert_eq!(r.cost.erases, 7);
    assert_eq!(r.cost.copies, 21);
    assert_eq!(r.cost.replacements, 7);
    assert!((r.cost.utilisation_sum - 7.0 * 0.25).abs() < 1e-9);
    assert!(r.has_note("case 1 (Fig. 5)"));
    assert!(r.has_note("partial merge (Fig. 7a)"));
}

#[test]
fn fast_literal_hot_block_pattern_section_3_1b() {
    // S0 case 1 (new SW log block); S2 case 2.2 (gap after S0: partial merge with S2
    // written into it: S1, S3 copied, 1 erase); S1 S3 S1 case 3 (RW); S0 case 1 (new SW
    // log block, nothing to merge); S2 case 2.2 (partial merge: S1 and S3 copied from
    // the RW log block, 1 erase, LBN 0's RW sectors marked −1); S3 case 3.
    let r = classroom("fast", 3, "S0 S2 S1 S3 S1 S0 S2 S3");
    assert_eq!(
        [r.metric("case1"), r.metric("case2_1"), r.metric("case2_2"), r.metric("case2_3"), r.metric("case3")],
        [2, 0, 2, 0, 4]
    );
    assert_eq!((r.cost.partial, r.cost.full, r.cost.switch), (2, 0, 0), "{:?}", r.cost);
    assert_eq!(r.cost.erases, 2);
    assert_eq!(r.cost.copies, 4);
    let panels = r.sim.state.ftl.panels(&r.sim.state.flash);
    let rw = panels
        .iter()
        .find_map(|p| match &p.data {
            PanelData::SharedLogBlocks { blocks } => Some(blocks),
            _ => None,
        })
        .unwrap();
    assert_eq!(rw.len(), 1);
    use SectorEntry::{Lsn, Merged};
    assert_eq!(rw[0].lsns, [Merged, Merged, Merged, Lsn(3)], "the merged S1 S3 S1 are −1, then S3 appended");
    assert!(r.has_note("case 2.2 (Fig. 5)"));
    assert!(r.has_note("case 3 (Fig. 5)"));
}

// ---- where Fig. 6 is ambiguous: cases 2.2 and 2.3, and the switch ---------------------

#[test]
fn case_2_2_partial_merge_writes_the_sector_into_the_sw_log_block() {
    // SW [S4]; S6 leaves a gap: partial merge, S5 and S7 copied, S6 written at offset 2.
    let r = classroom("fast", 3, "S4 S6 r5 r6");
    assert_eq!((r.metric("case1"), r.metric("case2_2")), (1, 1));
    assert_eq!((r.cost.partial, r.cost.erases, r.cost.copies), (1, 1, 2), "{:?}", r.cost);
    assert_eq!(r.cost.host_programs, 2, "S6 lands in the merged block, not in a log block");
}

#[test]
fn case_2_3_merges_into_a_free_block_with_the_sector() {
    // SW [S4 S5]; S5 again: merge into a free block (S4 copied from SW, S6 S7 from the
    // data block, S5 written), SW log block and data block erased.
    let r = classroom("fast", 3, "S4 S5 S5 r4 r5");
    assert_eq!((r.metric("case1"), r.metric("case2_1"), r.metric("case2_3")), (1, 1, 1));
    assert_eq!((r.cost.full, r.cost.full_victims, r.cost.partial), (1, 1, 0), "{:?}", r.cost);
    assert_eq!((r.cost.erases, r.cost.copies), (2, 3));
}

#[test]
fn full_sequential_sw_log_block_is_switched() {
    let r = classroom("fast", 3, "S4 S5 S6 S7 S8 r4 r7");
    assert_eq!((r.metric("case1"), r.metric("case2_1")), (2, 3));
    assert_eq!((r.cost.switch, r.cost.partial, r.cost.full), (1, 0, 0), "{:?}", r.cost);
    assert_eq!((r.cost.erases, r.cost.copies), (1, 0));
    // BAST switches on the same pattern too (its victim of rule (2) when S8 needs a log block).
    let b = classroom("bast", 1, "S4 S5 S6 S7 S8");
    assert_eq!((b.cost.switch, b.cost.erases), (1, 1), "{:?}", b.cost);
    assert_eq!(b.metric("rule2_switchable"), 1);
}

/// BAST's victim rule (2) with several log blocks in use: the switchable log block is the
/// victim wherever it sits, not the round-robin slot (rule 3) or the first slot; a switch
/// costs one erase and no copy, where the round-robin victim would cost a full merge.
#[test]
fn bast_rule_2_picks_the_switchable_log_block_among_several() {
    // 3 log blocks: LBN 1 [S5 S6], LBN 2 [S8..S11] (sequential, full), LBN 3 [S13 S12];
    // then S16 (LBN 4) needs a log block.
    for (pattern, switchable_lbn) in [
        ("S5 S6 S8 S9 S10 S11 S13 S12 S16", 2),
        ("S5 S6 S13 S12 S8 S9 S10 S11 S16", 2),
        ("S8 S9 S10 S11 S5 S6 S13 S12 S16", 2),
    ] {
        let b = classroom("bast", 3, pattern);
        assert_eq!(b.metric("rule2_switchable"), 1, "{pattern}");
        assert_eq!(b.metric("rule3_round_robin"), 0, "{pattern}");
        assert_eq!((b.cost.switch, b.cost.full, b.cost.erases, b.cost.copies), (1, 0, 1, 0), "{pattern}: {:?}", b.cost);
        assert!(b.has_note("rule (2)"), "{pattern}");
        // The switched log block became LBN 2's data block; the others are still log blocks.
        let ftl = &b.sim.state.ftl;
        let lbn_of_logs: Vec<u32> = (0..16)
            .filter(|&p| ftl.block_role(p) == ftl_sim::ftl::BlockRole::Log)
            .filter_map(|p| ftl.block_owner(p))
            .collect();
        assert!(
            !lbn_of_logs.contains(&switchable_lbn),
            "{pattern}: LBN {switchable_lbn} still has a log block: {lbn_of_logs:?}"
        );
        assert!(
            lbn_of_logs.contains(&1) && lbn_of_logs.contains(&3) && lbn_of_logs.contains(&4),
            "{pattern}: {lbn_of_logs:?}"
        );
    }
    // With no switchable log block, rule (3) takes the round-robin slot: a full merge.
    let b = classroom("bast", 3, "S5 S6 S8 S9 S10 S13 S12 S16");
    assert_eq!((b.metric("rule2_switchable"), b.metric("rule3_round_robin")), (0, 1));
    assert_eq!((b.cost.switch, b.cost.full, b.cost.erases), (0, 1, 2), "{:?}", b.cost);
}

/// Mapping RAM by one accounting (ftl/ram.rs, the KRAFT paper's bit widths): BAST's log
/// block keeps page offsets (it serves one logical block), FAST's RW log blocks absolute
/// LSNs and its SW log block only an owner and a count (FAST section 3.2). So BAST is no
/// larger than FAST at the same geometry, and FAST is below the KRAFT paper's figure
/// (every log block a full page table).
#[test]
fn ram_one_accounting_bast_no_larger_than_fast() {
    use ftl_sim::ftl::ram::{bytes, MapGeometry};
    for (blocks, ppb, logs) in [(16u32, 4u32, 3u32), (2048, 32, 64), (4096, 64, 16), (64, 32, 8)] {
        let chip = |scheme: &str| {
            let sc = ftl_sim::scenario::Scenario {
                scheme: scheme.into(),
                params: params(logs),
                chip: ftl_sim::scenario::ChipSpec {
                    preset: "fast2007".into(),
                    blocks: Some(blocks),
                    pages_per_block: Some(ppb),
                },
                workload: Workload::Sequential { n: 1 },
                run: Default::default(),
            };
            sc.build().unwrap().state.ftl.ram_bytes()
        };
        let (bast, fast, ofast) = (chip("bast"), chip("fast"), chip("ofast"));
        assert!(bast <= fast, "{blocks}x{ppb}, {logs} log blocks: BAST {bast} B > FAST {fast} B");
        assert_eq!(fast, ofast);
        // By hand: data blocks = blocks − logs − 1; PBN over all blocks, LBN / LSN over the data.
        let data = (blocks - logs - 1) as u64;
        let bits = |n: u64| if n <= 2 { 1 } else { 64 - (n - 1).leading_zeros() as u64 };
        let (pbn, lbn, lsn, off) = (bits(blocks as u64), bits(data), bits(data * ppb as u64), bits(ppb as u64));
        let map = data * pbn;
        assert_eq!(bast, (map + logs as u64 * (pbn + lbn + ppb as u64 * off)).div_ceil(8), "BAST {blocks}x{ppb}");
        let sw = pbn + lbn + bits(ppb as u64 + 1);
        assert_eq!(fast, (map + (logs as u64 - 1) * (pbn + ppb as u64 * lsn) + sw).div_ceil(8), "FAST {blocks}x{ppb}");
        let g = MapGeometry { physical_blocks: blocks as u64, logical_blocks: data, pages_per_block: ppb as u64 };
        assert!(fast < bytes(g.fast_bits(logs as u64)), "the SW log is charged less than a page table");
    }
}

// ---- 3.5: analytical comparison -------------------------------------------------------

/// Writes `lbns` in turn at offsets 1.. (never offset 0, so FAST never uses its SW log
/// block: 3.5 leaves sequential writes out) until `stop` says so; returns erases.
fn hot_run(
    scheme: &str,
    log_blocks: u32,
    ppb: u32,
    lbns: &[u32],
    stop: impl Fn(&Simulator, usize) -> bool,
) -> (u64, usize) {
    let blocks = 48;
    let mut text = String::new();
    for i in 0..4000u32 {
        let lbn = lbns[(i as usize) % lbns.len()];
        let off = 1 + (i / lbns.len() as u32 * 3 + i) % (ppb - 1);
        text += &format!("S{} ", lbn * ppb + off);
    }
    let probe = scenario(scheme, params(log_blocks), blocks, ppb, Workload::Sequential { n: 1 }).build().unwrap();
    let lp = probe.state.ftl.logical_pages();
    let full = format!("w0-{} {text}", lp - 1);
    let mut sim = scenario(scheme, params(log_blocks), blocks, ppb, Workload::Pattern { text: full }).build().unwrap();
    sim.run(lp as usize).unwrap();
    let mut written = 0;
    while !stop(&sim, written) {
        sim.run(1).unwrap();
        written += 1;
    }
    assert!(sim.state.mismatches().is_empty());
    (sim.state.flash.total(OpKind::Erase), written)
}

fn replaced(n: u64) -> impl Fn(&Simulator, usize) -> bool {
    move |s, _| s.state.flash.counters.log_replacements >= n
}

#[test]
fn one_hot_block_fast_saves_nlb_minus_1_erases_section_3_5() {
    for (nlb, ppb) in [(2u32, 4u32), (4, 8), (6, 4), (3, 16)] {
        // FAST: nlb RW log blocks (+ the SW log block, unused here).
        let (fast, _) = hot_run("fast", nlb + 1, ppb, &[2], replaced(nlb as u64));
        // First victim: its own erase + the hot data block's; the next nlb−1 victims
        // hold only −1 sectors: one erase each.
        assert_eq!(fast, nlb as u64 + 1, "nlb {nlb}");
        let (bast, _) = hot_run("bast", nlb, ppb, &[2], replaced(nlb as u64));
        assert_eq!(bast, 2 * nlb as u64, "nlb {nlb}");
        assert_eq!(bast - fast, nlb as u64 - 1);
    }
}

#[test]
fn hot_blocks_equal_log_blocks_cost_the_same_section_3_5() {
    for (nlb, ppb) in [(4u32, 4u32), (4, 8), (3, 16)] {
        let hot: Vec<u32> = (1..=nlb).collect();
        // FAST: the first victim holds sectors of all nlb hot blocks: nlb + 1 erases; the
        // next nlb − 1 victims are all −1: one each. 2·nlb in all, as BAST.
        let (fast, _) = hot_run("fast", nlb + 1, ppb, &hot, replaced(nlb as u64));
        let (bast, _) = hot_run("bast", nlb, ppb, &hot, replaced(nlb as u64));
        assert_eq!((fast, bast), (2 * nlb as u64, 2 * nlb as u64), "nlb {nlb} nspb {ppb}");
    }
}

#[test]
fn more_hot_blocks_than_log_blocks_section_3_5() {
    // nhb = nspb = 4 > nlb = 2: FAST needs nspb + 1 erases for the first victim and one
    // for the second: nspb + nlb = 6 by the time nlb log blocks are replaced.
    // nhb = 4 < nspb = 8: nhb + 1 for the first victim, nhb + nlb in all.
    for (nhb, ppb, want) in [(4u32, 4u32, 4 + 2), (4, 8, 4 + 2)] {
        let nlb = 2u32;
        let hot: Vec<u32> = (1..=nhb).collect();
        let (fast, _) = hot_run("fast", nlb + 1, ppb, &hot, replaced(nlb as u64));
        assert_eq!(fast, want as u64, "nhb {nhb} nspb {ppb}");
        // BAST over the nlb·nspb overwrites FAST absorbed: a replacement (2 erases) on
        // every one after the first nlb, close to the worst case 2·nlb·nspb.
        let n = (nlb * ppb) as usize;
        let (bast, _) = hot_run("bast", nlb, ppb, &hot, |_, w| w >= n);
        assert_eq!(bast, 2 * (nlb * ppb - nlb) as u64);
        // The section's claim over the same overwrites: FAST (nlb RW log blocks) erases
        // less than BAST (nlb log blocks). Before, this was `bast <= 2·nlb·nspb`, which
        // the line above already implied.
        let (fast_n, _) = hot_run("fast", nlb + 1, ppb, &hot, |_, w| w >= n);
        // "FAST caches the sectors to be overwritten in a new log block until it is full":
        // the nlb·nspb overwrites fit in its nlb RW log blocks without a merge.
        assert_eq!(fast_n, 0, "nhb {nhb} nspb {ppb}: FAST erased before its RW log blocks were full");
        assert!(fast_n < bast, "nhb {nhb} nspb {ppb}: FAST {fast_n} erases vs BAST {bast} over {n} overwrites");
        // and by the time FAST has replaced nlb log blocks, it has absorbed more
        // overwrites for fewer erases than BAST needs for the nlb·nspb.
        let (_, absorbed) = hot_run("fast", nlb + 1, ppb, &hot, replaced(nlb as u64));
        assert!(
            absorbed > n && fast < bast,
            "nhb {nhb} nspb {ppb}: FAST absorbed {absorbed} overwrites for {fast} erases"
        );
    }
}

// ---- 3.6: O-FAST's lazy merge ---------------------------------------------------------

#[test]
fn ofast_skips_a_merge_fast_performs_section_3_6() {
    // RW log blocks: [S1 S9 S10 S11] [S9 S10 S11 S2]; S3 needs a victim: the first
    // block holds LBN 0 (S1) and LBN 2 (S9 S10 S11). Newer copies of all of LBN 2's
    // sectors are in the second block, so O-FAST skips that merge (Fig. 7b).
    let pattern = "S1 S9 S10 S11 S9 S10 S11 S2 S3 r1 r2 r3 r9 r10 r11";
    let f = classroom("fast", 3, pattern);
    assert_eq!((f.cost.full, f.cost.full_victims, f.cost.erases), (2, 1, 3), "{:?}", f.cost);
    assert!(f.has_note("holds sectors of LBN 0 and 2 → two merges"), "{:?}", f.notes);
    let o = classroom("ofast", 3, pattern);
    assert_eq!((o.cost.full, o.cost.full_victims, o.cost.erases), (1, 1, 2), "{:?}", o.cost);
    assert_eq!(o.metric("lazy_skips"), 1);
    assert!(o.has_note("O-FAST lazy merge skips LBN 2"), "{:?}", o.notes);
    // Both read back the latest data (run_checked checked every step).
    assert_eq!(o.sim.state.host.wrong_reads + f.sim.state.host.wrong_reads, 0);
}

#[test]
fn ofast_counts_a_newer_copy_in_the_sw_log_block() {
    // RW [S5 S6 S7 S1]; S4 S5 S6 S7 go to the SW log block (LBN 1); S2 S3 S1 S2 fill
    // the second RW block; S3 needs a victim: LBN 1's victim sectors are superseded
    // by the SW log block, LBN 0's (S1) by the second RW block: no merge at all.
    let pattern = "S5 S6 S7 S1 S4 S5 S6 S7 S2 S3 S1 S2 S3 r5 r6 r7 r1";
    let o = classroom("ofast", 3, pattern);
    assert_eq!(o.metric("lazy_skips"), 2);
    assert_eq!((o.cost.full, o.cost.erases), (0, 1), "{:?}", o.cost);
    let f = classroom("fast", 3, pattern);
    assert_eq!((f.cost.full, f.cost.erases), (2, 3), "{:?}", f.cost);
}

// ---- reference model ------------------------------------------------------------------

fn workload(kind: u8, n: u64, seed: u64, read_ratio: f64) -> Workload {
    match kind {
        0 => Workload::Uniform { n, seed, read_ratio },
        1 => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.1, hot_ratio: 0.9 },
        2 => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.02, hot_ratio: 0.95 },
        _ => Workload::Sequential { n },
    }
}

#[allow(clippy::too_many_arguments)]
fn reference_model(
    scheme: &str,
    ppb: u32,
    log_blocks: u32,
    data_blocks: u32,
    kind: u8,
    n: u64,
    seed: u64,
    read_ratio: f64,
) {
    let blocks = data_blocks + log_blocks + 1;
    let mut sim =
        scenario(scheme, params(log_blocks), blocks, ppb, workload(kind, n, seed, read_ratio)).build().unwrap();
    run_checked(&mut sim, 1999);
    let m = sim.state.metrics();
    assert_eq!(m.wrong_reads, 0);
    assert_eq!(m.requests, n);
    if std::env::var("FAST_STATS").is_ok() {
        eprintln!("{scheme} ppb {ppb} L {log_blocks} D {data_blocks} kind {kind} n {n}: erases {} switch {} partial {} full {} victims {}", m.erases, m.merges.switch, m.merges.partial, m.merges.full, m.merges.full_victims);
    }
}

proptest! {
    // 32 cases × ≥ 20,000 requests = ≥ 640,000 requests per scheme.
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn bast_matches_reference_model(ppb in 4u32..=128, log_blocks in 2u32..=64, data_blocks in 2u32..40,
        kind in 0u8..4, seed in any::<u64>(), read_ratio in 0.0f64..0.4, n in 20_000u64..30_000) {
        reference_model("bast", ppb, log_blocks, data_blocks, kind, n, seed, read_ratio);
    }

    #[test]
    fn fast_matches_reference_model(ppb in 4u32..=128, log_blocks in 2u32..=64, data_blocks in 2u32..40,
        kind in 0u8..4, seed in any::<u64>(), read_ratio in 0.0f64..0.4, n in 20_000u64..30_000) {
        reference_model("fast", ppb, log_blocks, data_blocks, kind, n, seed, read_ratio);
    }

    #[test]
    fn ofast_matches_reference_model(ppb in 4u32..=128, log_blocks in 2u32..=64, data_blocks in 2u32..40,
        kind in 0u8..4, seed in any::<u64>(), read_ratio in 0.0f64..0.4, n in 20_000u64..30_000) {
        reference_model("ofast", ppb, log_blocks, data_blocks, kind, n, seed, read_ratio);
    }
}

/// Small chips where every case of Fig. 5, SW merges with RW copies and RW victims
/// meet often: 4–8 sectors per block, 2–4 log blocks, 2–6 data blocks.
#[test]
fn tiny_chips_match_reference_model() {
    for scheme in ["bast", "fast", "ofast"] {
        for seed in 0..24u64 {
            let ppb = 4 + (seed % 5) as u32;
            let log_blocks = 2 + (seed % 3) as u32;
            let data = 2 + (seed % 5) as u32;
            reference_model(scheme, ppb, log_blocks, data, (seed % 4) as u8, 3000, seed, 0.3);
        }
    }
}

#[test]
fn seek_equals_fresh_replay() {
    for scheme in ["bast", "fast", "ofast"] {
        let w = Workload::Hotcold { n: 4000, seed: 5, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
        let sc = scenario(scheme, params(4), 24, 8, w);
        let mut sim = sc.build().unwrap();
        sim.run(4000).unwrap();
        for &k in &[3001usize, 0, 257, 2999] {
            sim.seek(k).unwrap();
            let mut fresh = sc.build().unwrap();
            fresh.run(k).unwrap();
            assert_eq!(sim.state.metrics(), fresh.state.metrics(), "{scheme} at {k}");
            assert!(sim.state.flash.pages().iter().zip(fresh.state.flash.pages()).all(|(a, b)| a == b));
        }
    }
}

#[test]
fn bad_parameters_are_clear_errors() {
    let w = Workload::Sequential { n: 10 };
    let e = scenario("fast", params(1), 16, 4, w.clone()).build().err().unwrap();
    assert!(e.contains("at least 2 log blocks"), "{e}");
    let e = scenario("bast", params(15), 16, 4, w.clone()).build().err().unwrap();
    assert!(e.contains("needs at least 17 blocks"), "{e}");
    // Logical space = data blocks = blocks − log blocks − 1 spare.
    let s = scenario("ofast", params(4), 16, 4, w).build().unwrap();
    assert_eq!(s.state.ftl.logical_pages(), (16 - 4 - 1) * 4);
}

/// The scenario presets of docs/schemes/fast.md (classroom chip, only the touched data
/// blocks filled first: `w0-15`) give the same counts as the tests above.
#[test]
fn docs_presets_give_the_papers_counts() {
    let presets: [(&str, u32, &str, u64, u64); 8] = [
        // scheme, log blocks, pattern, erases, merges (switch + partial + full)
        ("bast", 2, "w0-15 S0 S4 S8 S12 S0 S4 S8 S12", 12, 6),
        ("fast", 3, "w0-15 S0 S4 S8 S12 S0 S4 S8 S12", 7, 7),
        ("fast", 3, "w0-15 S1 S5 S9 S13 S1 S5 S9 S13", 0, 0),
        ("bast", 2, "w0-15 S0 S2 S1 S3 S1 S0 S2 S3", 2, 1),
        ("fast", 3, "w0-15 S0 S2 S1 S3 S1 S0 S2 S3", 2, 2),
        ("fast", 3, "w0-15 S1 S3 S2 S3 S1 S2 S3 S1", 0, 0),
        ("fast", 3, "w0-15 S1 S9 S10 S11 S9 S10 S11 S2 S3", 3, 2),
        ("ofast", 3, "w0-15 S1 S9 S10 S11 S9 S10 S11 S2 S3", 2, 1),
    ];
    for (scheme, lb, text, erases, merges) in presets {
        let mut sim = scenario(scheme, params(lb), 16, 4, Workload::Pattern { text: text.into() }).build().unwrap();
        run_checked(&mut sim, 1);
        let m = sim.state.metrics();
        assert_eq!((m.erases, m.merges.switch + m.merges.partial + m.merges.full), (erases, merges), "{scheme} {text}");
    }
}

/// Stepping one flash operation at a time: each merge's copies are narrated by that
/// merge's note (the note comes before its operations), and the block roles and
/// owners follow the merges.
#[test]
fn stepping_narrates_each_merge_at_its_copies() {
    use ftl_sim::stepper::Stepper;
    let text = "w0-15 S1 S9 S10 S11 S9 S10 S11 S2 S3";
    let mut s =
        Stepper::new(scenario("fast", params(3), 16, 4, Workload::Pattern { text: text.into() }).build().unwrap());
    let mut seen = [false; 2];
    while s.step_op().unwrap() {
        let evs = s.events();
        let Some(last) = evs.iter().rev().find(|e| e.cause.is_some()) else { continue };
        if last.cause == Some("full_merge") && last.kind == "read" {
            let lbn = last.lpn.unwrap() / 4;
            let n = s.narration();
            assert!(n.contains(&format!("merge of LBN {lbn}:")), "copy of lpn {:?} narrated as: {n}", last.lpn);
            seen[if lbn == 0 { 0 } else { 1 }] = true;
        }
    }
    assert_eq!(seen, [true, true]);
    let roles = s.block_roles();
    let owners = s.block_owners();
    // Data blocks of LBN 0..3 + two RW log blocks ([-1 -1 -1 -1] and [S3]); the rest free.
    assert_eq!(roles.iter().filter(|&&r| r == 1).count(), 4);
    assert_eq!(roles.iter().filter(|&&r| r == 4).count(), 2);
    assert_eq!(roles.iter().filter(|&&r| r == 0).count(), 10);
    for lbn in 0..4 {
        assert_eq!(owners.iter().filter(|&&o| o == lbn).count(), 1, "one data block per LBN");
    }
    // The RW log panel shows merged-out sectors (−1): read from the typed panels, not the JSON.
    let view = s.scheme_view();
    let merged = view.panels.iter().any(|p| match &p.data {
        PanelData::SharedLogBlocks { blocks } => blocks.iter().any(|b| b.lsns.contains(&SectorEntry::Merged)),
        _ => false,
    });
    assert!(merged, "{}", s.view_json());
}

/// The paper's chip geometry (4096 blocks of 32 sectors, 64 MB) with 4 and 64 log
/// blocks, a skewed workload with reads.
#[test]
fn fast2007_geometry_matches_reference_model() {
    for scheme in ["bast", "fast", "ofast"] {
        for lb in [4u32, 64] {
            reference_model(scheme, 32, lb, 4096 - lb - 1, 1, 60_000, 11, 0.3);
        }
    }
}
