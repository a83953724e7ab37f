//! Power cuts that FastCheck and fast-ltlog (and the FAST rebuild they share with FAST and
//! O-FAST) once lost acknowledged writes at, or that grew FastCheck's checkpoint area until
//! the device took no more writes: each case at the cut points that found it, and a short
//! pattern that builds the situation on purpose (every cut point of it, each cut again
//! inside its recovery).

use crate::common;

use common::scenario;
use ftl_sim::crash::{chain, sweep, verify, ChainOptions, ChainReport, Points, Recover, SweepReport};
use ftl_sim::ftl::{self, BlockRole, Ftl, SchemeParams};
use ftl_sim::nand::{Cause, Event, Flash, FlashError, OpKind, PageKind};
use ftl_sim::sim::State;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::Request;

fn params(log_blocks: Option<u32>, lpns: Option<u32>) -> SchemeParams {
    SchemeParams { log_blocks, checkpoint_lpns: lpns, ..Default::default() }
}

fn sweep_of(scheme: &str, p: SchemeParams, blocks: u32, ppb: u32, w: Workload, recut: Option<u64>) -> SweepReport {
    let sc = scenario(scheme, p, blocks, ppb, w);
    let sim = sc.build().unwrap();
    sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::All, recut, |_, _| {})
}

fn assert_sweep_clean(r: &SweepReport, what: &str) {
    assert!(r.points_tried > 0 && r.points_tried == r.run_ops, "{what}: {r:?}");
    assert_eq!(
        (r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.torn_mapped, r.errors),
        (r.points_tried, 0, 0, 0, 0),
        "{what}: {:#?}",
        r.first_failures
    );
}

fn chain_of(scheme: &str, p: SchemeParams, blocks: u32, ppb: u32, o: &ChainOptions) -> ChainReport {
    let sc = scenario(scheme, p, blocks, ppb, Workload::Pattern { text: String::new() });
    chain(&sc.fresh().unwrap(), &sc.recoverer(), o, |_| {})
}

/// No loss, never stuck, and every recovery left each pool within its cut-free bound.
fn assert_chain_clean(r: &ChainReport, cuts: u64, what: &str) {
    assert_eq!(r.cuts, cuts, "{what}: {:?} {:#?}", r.stopped, r.first_failures);
    assert_eq!(
        (r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.torn_mapped, r.errors),
        (cuts, 0, 0, 0, 0),
        "{what}: {:#?}",
        r.first_failures
    );
    assert!(!r.stuck && r.stopped.is_none(), "{what}: {:?}", r.stopped);
    assert_eq!(r.pool_excess, 0, "{what}: pools {:?}", r.pools);
}

/// Every FAST-family scheme on one chip (16 x 4, 1 SW + 2 RW log blocks), every cut
/// point of `pattern`, each cut again inside its recovery.
fn every_cut_of_pattern(pattern: &str) {
    for scheme in ["fast", "ofast", "fastcheck", "fast-ltlog"] {
        let r = sweep_of(scheme, params(Some(3), None), 16, 4, Workload::Pattern { text: pattern.into() }, Some(5));
        assert_sweep_clean(&r, scheme);
    }
}

/// fast-ltlog names a log page by its physical page in each mapping record. A RW log block
/// is a victim, erased and reallocated again and again; a record of its earlier life, still
/// in the log after the newest dump, was replayed onto its current life: on 15 x 4 (one
/// data block) a page merged out before the erase made the current page at that offset −1,
/// and lpn 3's newest copy was lost (26 acknowledged writes over the sweep). A record now
/// carries the generation of its block (LTFTL 2.2 logs the page a write went to; the
/// generation tells which life of the block that was), and recovery replays only the
/// records of the current one.
#[test]
fn ltlog_replays_no_record_of_an_earlier_life_of_a_log_block() {
    let w = Workload::Uniform { n: 1500, seed: 1, read_ratio: 0.2 };
    assert_sweep_clean(&sweep_of("fast-ltlog", params(None, None), 15, 4, w, None), "15 x 4 uniform");
    let w: Workload = serde_json::from_str(r#"{"kind":"camera","n":2000,"seed":3,"file_pages":8}"#).unwrap();
    assert_sweep_clean(&sweep_of("fast-ltlog", params(None, None), 15, 3, w, Some(3)), "15 x 3 camera");
}

/// A partial merge with nothing to copy (the SW log block's missing sectors were never
/// written) makes the SW log block the data block without programming a merge page, as a
/// switch does; writes in place fill it later. When it is still the newest SW-born block
/// and a cut tears one of those writes in place, recovery took it for the live SW log
/// block and merged its sectors over the RW copies written after it (fast-ltlog 20 x 5,
/// 2 records a page, chain seed 3: 2 writes lost at cut 93; FastCheck 17 x 7 hot/cold,
/// cut plus recut). Now a SW-born block with no other block of its logical block is its
/// data block, whose sectors are not newer than the RW copies.
#[test]
fn a_torn_write_in_place_into_a_block_a_switch_made_keeps_the_newer_rw_copies() {
    // LBN 0's SW log block holds 0, 1; the write of lpn 4 retires it (nothing to copy);
    // LBN 1's SW log block is merged away (case 2.3); lpn 1 goes to a RW log block; lpns 2
    // and 3 are written in place into LBN 0's data block (the cut tears them).
    every_cut_of_pattern("w0-1 w0 w1 w4-5 w4 w5 w5 w1 w2 w3 r0-7");
    let mut o = ChainOptions::new(93, 3);
    o.pool_baseline = 2000;
    let r = chain_of("fast-ltlog", params(None, Some(2)), 20, 5, &o);
    assert_chain_clean(&r, 93, "fast-ltlog 20 x 5 chain");
    let w = Workload::Hotcold { n: 2000, seed: 2, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
    assert_sweep_clean(&sweep_of("fastcheck", params(None, None), 17, 7, w, Some(2)), "fastcheck 17 x 7 hot/cold");
}

/// A full SW log block switched to the data block, then merged into a new block with the
/// RW copies written since (a RW victim's merge). A cut after the merge's last copy (and,
/// for FastCheck, its map page) but before the erase of the old data block left the old
/// block on the chip; as the newest SW-born block it was taken for the live SW log block,
/// and its old sectors were mapped over the merge's (FastCheck 20 x 3 targeted chain,
/// seed 1: a write lost at cut 10,294, right after a map-directory page). A complete merge
/// of its logical block begun after the block's last program holds each of its sectors at
/// the same version or newer, so such a block is garbage.
#[test]
fn an_old_data_block_a_cut_merge_left_is_not_taken_for_the_sw_log_block() {
    // LBN 0: data block in place, then a full SW log block (switched when lpn 4 starts
    // LBN 1's SW log block, which case 2.3 merges away); lpn 1 to a RW log block, eight
    // more RW writes make the block holding it the victim: LBN 0 is merged and its old data
    // block (the switched one) erased last.
    every_cut_of_pattern("w0-3 w0 w1 w2 w3 w4-5 w4 w5 w5 w1 w5 w5 w5 w5 w5 w5 w5 w5 r0-7");
    let mut o = ChainOptions::new(10_294, 1);
    o.targeted = true;
    let r = chain_of("fastcheck", params(None, None), 20, 3, &o);
    assert_chain_clean(&r, 10_294, "fastcheck 20 x 3 targeted chain");
}

/// Blocks of the checkpoint area on the device.
fn checkpoint_blocks(s: &State) -> usize {
    (0..s.flash.blocks()).filter(|&b| s.ftl.block_role(b) == BlockRole::Checkpoint).count()
}

/// FastCheck 4.1 checkpoints a log region when its last log block fills. A cut between
/// that block's last page and the checkpoint page (or one tearing it) left the region's
/// older checkpoint as its newest, which kept that checkpoint's block in the area; cut
/// there again and again, the area grew past what a run without cuts uses (256 x 32 with
/// 85 log blocks: 4 checkpoint blocks against 2, stuck at cut 13,563, "the metadata area
/// ran out of free blocks"; 13 x 3 targeted chain, seed 2: 2 against 1). Recovery now
/// writes the checkpoint the cut skipped. Here: every time a request would write a
/// checkpoint, power fails at that program; recovery must program it, and the area never
/// holds more blocks than without cuts.
#[test]
fn recovery_writes_the_checkpoint_a_cut_skipped() {
    use ftl_sim::trace::rng::SplitMix64;
    // 24 x 4, 6 RW log blocks in regions of 2 (8 LPNs a checkpoint): 3 regions.
    let p = params(Some(7), Some(8));
    let sc = scenario("fastcheck", p.clone(), 24, 4, Workload::Pattern { text: String::new() });
    let fresh = sc.fresh().unwrap();
    let lp = fresh.ftl.logical_pages() as u64;
    let mut g = SplitMix64::new(7);
    let reqs: Vec<Request> = (0..3000).map(|_| Request::Write { lpn: g.below(lp) as u32 }).collect();
    let mut s = fresh.clone();
    let mut most = 0;
    for &r in &reqs {
        s.exec(r).unwrap();
        most = most.max(checkpoint_blocks(&s));
    }
    let mut s = fresh.clone();
    let mut cuts = 0;
    for (i, &r) in reqs.iter().enumerate() {
        let mut t = s.clone();
        t.flash.set_recording(true);
        t.exec(r).unwrap_or_else(|e| panic!("request {i} after {cuts} cuts: {e}"));
        let ops: Vec<Event> = t.flash.take_events().into_iter().filter(|e| matches!(e, Event::Op { .. })).collect();
        let ckpt = ops.iter().position(|e| match *e {
            Event::Op { kind: OpKind::Program, ppn, cause: Cause::Log, .. } => t.flash.peek(ppn).kind == PageKind::Meta,
            _ => false,
        });
        let Some(k) = ckpt else {
            t.flash.set_recording(false);
            s = t;
            continue;
        };
        // Power fails at the checkpoint program (it is torn); the write was acknowledged
        // only if it came before (RW page first, then the checkpoint).
        s.flash.set_power_budget(Some(k as u64));
        assert!(s.exec(r).is_err(), "request {i}: the cut at op {k} did not stop it");
        s.flash.power_on();
        s.flash.set_recording(true);
        s.ftl = ftl::recover("fastcheck", &p, &mut s.flash).unwrap().unwrap();
        let programs_ckpt = s.flash.take_events().into_iter().any(|e| match e {
            Event::Op { kind: OpKind::Program, cause: Cause::Log, ppn, .. } => s.flash.peek(ppn).kind == PageKind::Meta,
            _ => false,
        });
        s.flash.set_recording(false);
        let lpn = r.lpn().unwrap();
        if s.ftl.locate(lpn).is_some_and(|q| s.flash.peek(q).version == s.next_version - 1) {
            s.oracle.ack(lpn, s.next_version - 1);
        }
        let v = ftl_sim::crash::verify(s.ftl.as_ref(), &s.flash, &s.oracle, None);
        assert_eq!((v.lost, v.wrong), (0, 0), "cut {cuts} (request {i})");
        assert!(programs_ckpt, "cut {cuts} (request {i}): recovery did not write the skipped checkpoint");
        assert!(
            checkpoint_blocks(&s) <= most,
            "cut {cuts} (request {i}): {} checkpoint blocks (cut-free {most})",
            checkpoint_blocks(&s)
        );
        cuts += 1;
    }
    eprintln!("{cuts} cuts at a checkpoint program; checkpoint blocks within {most}");
    assert!(cuts >= 50, "only {cuts} cuts");
    // The issue's small chain: a leak before (2 checkpoint blocks against 1 cut-free).
    let mut o = ChainOptions::new(50_000, 2);
    o.targeted = true;
    assert_chain_clean(&chain_of("fastcheck", params(None, None), 13, 3, &o), 50_000, "13 x 3 targeted chain");
}

/// What a recovered device is to the host and to the next write: the version every LPN
/// reads (0: unmapped; u32::MAX: a torn page or another LPN's page), the blocks in each
/// role but the log area and the free blocks (data, SW / RW log, map block, map
/// directory), and the blocks of the log area (checkpoint blocks, LTFTL-style log blocks).
#[derive(PartialEq, Eq, Debug)]
struct Device {
    reads: Vec<u32>,
    pools: Vec<(BlockRole, u32)>,
    area: u32,
}

fn is_area(r: BlockRole) -> bool {
    matches!(r, BlockRole::Checkpoint | BlockRole::Metadata)
}

fn device(ftl: &dyn Ftl, flash: &Flash) -> Device {
    let reads = (0..ftl.logical_pages())
        .map(|l| match ftl.locate(l).map(|p| *flash.peek(p)) {
            None => 0,
            Some(pg) if pg.kind == PageKind::Data && pg.lpn == l => pg.version,
            Some(_) => u32::MAX,
        })
        .collect();
    let mut pools: Vec<(BlockRole, u32)> = Vec::new();
    let mut area = 0;
    for b in 0..flash.blocks() {
        let r = ftl.block_role(b);
        if is_area(r) {
            area += 1;
            continue;
        }
        if r == BlockRole::Free {
            continue;
        }
        match pools.iter_mut().find(|(x, _)| *x == r) {
            Some((_, n)) => *n += 1,
            None => pools.push((r, 1)),
        }
    }
    pools.sort_by_key(|&(r, _)| r as u32);
    Device { reads, pools, area }
}

/// The chip `cut` recovered once, against the same chip whose recovery is cut after each
/// of its operations in turn (every `deep`-th second recovery cut again half way) and
/// then recovered: the same device (FastCheck 5.3: repeated, recovery "is the same as if
/// executed once") — the same reads and pools; the log area may differ (a torn metadata
/// page takes room) but stays within `area_max`, what a run without cuts uses. Returns
/// the recoveries cut.
fn check_idempotent(
    rec: &Recover,
    cut: &Flash,
    s: &State,
    in_flight: Option<(u32, u32)>,
    area_max: u32,
    what: &str,
) -> u64 {
    let deep = 13;
    let mut a = cut.clone();
    let o0 = a.total_ops();
    let ftl = rec(&mut a).unwrap().unwrap_or_else(|e| panic!("{what}: {e}"));
    let ops = a.total_ops() - o0;
    let v = verify(ftl.as_ref(), &a, &s.oracle, in_flight);
    assert_eq!((v.lost, v.wrong, v.torn_mapped), (0, 0, 0), "{what}: one recovery");
    let want = device(ftl.as_ref(), &a);
    assert!(want.area <= area_max, "{what}: one recovery left {} log-area blocks (cut-free {area_max})", want.area);
    let mut cuts = 0;
    for j in 0..ops {
        let mut b = cut.clone();
        b.set_power_budget(Some(j));
        let _ = rec(&mut b);
        assert!(b.power_lost(), "{what}: recovery cut after {j} of {ops} operations ran to the end");
        b.power_on();
        cuts += 1;
        if j.is_multiple_of(deep) {
            let mut c = b.clone();
            let c0 = c.total_ops();
            let _ = rec(&mut c);
            b.set_power_budget(Some((c.total_ops() - c0) / 2));
            let _ = rec(&mut b);
            b.power_on();
            cuts += 1;
        }
        let ftl_b = rec(&mut b).unwrap().unwrap_or_else(|e| panic!("{what}: after a cut at {j} of {ops}: {e}"));
        let got = device(ftl_b.as_ref(), &b);
        assert_eq!(
            (&got.reads, &got.pools),
            (&want.reads, &want.pools),
            "{what}: recovery cut after {j} of its {ops} operations, then recovered again, differs from one recovery"
        );
        assert!(
            got.area <= area_max,
            "{what}: after a cut at {j} of {ops}: {} log-area blocks (cut-free {area_max})",
            got.area
        );
    }
    cuts
}

/// A cut anywhere inside recovery, then recovery again, gives the device one recovery
/// gives — every LPN's read and every pool, the checkpoint / log area and map block
/// included — now that recovery writes (a skipped checkpoint, a dump, a map page, the
/// compaction): every 5th cut point of a run on odd and even blocks.
#[test]
fn recovery_cut_inside_then_recovered_equals_one_recovery() {
    for (scheme, blocks, ppb, lb, lpns) in [
        ("fastcheck", 20, 3, 7, 6),
        ("fastcheck", 24, 4, 7, 8),
        ("fast-ltlog", 20, 5, 4, 2),
        ("fast-ltlog", 16, 4, 4, 4),
    ] {
        let what = format!("{scheme} {blocks}x{ppb}");
        let w = Workload::Hotcold { n: 500, seed: 3, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
        let sc = scenario(scheme, params(Some(lb), Some(lpns)), blocks, ppb, w);
        let sim = sc.build().unwrap();
        let rec = sc.recoverer();
        let mut s = sim.state.clone();
        let mut area_max = 0;
        for &r in sim.requests() {
            s.exec(r).unwrap();
            area_max = area_max.max(device(s.ftl.as_ref(), &s.flash).area);
        }
        let mut s = sim.state.clone();
        let (mut points, mut cuts) = (0u64, 0u64);
        for (i, &r) in sim.requests().iter().enumerate() {
            let start = s.flash.total_ops();
            let mut done = s.clone();
            done.exec(r).unwrap_or_else(|e| panic!("{what}: request {i}: {e}"));
            for k in 0..done.flash.total_ops() - start {
                if !(start + k).is_multiple_of(5) {
                    continue;
                }
                let mut c = s.clone();
                c.flash.set_power_budget(Some(k));
                assert_eq!(c.exec(r), Err(FlashError::PowerLoss), "{what}: request {i}");
                c.flash.power_on();
                let in_flight = r.lpn().filter(|_| matches!(r, Request::Write { .. })).map(|l| (l, s.next_version));
                let at = format!("{what}, cut after op {}", start + k);
                cuts += check_idempotent(&rec, &c.flash, &s, in_flight, area_max, &at);
                points += 1;
            }
            s = done;
        }
        eprintln!("{what}: {points} cut points, {cuts} recoveries cut, log area within {area_max} blocks");
        assert!(points > 200, "{what}: {points} points");
    }
}
