//! FAST and O-FAST after power cuts (ftl/fast/recovery.rs, docs/schemes/fast.md
//! "Recovery after a power cut"): recovery's merges order the copies of a sector by the
//! sequence numbers already on flash (never an older version under a newer sequence
//! number), a retired SW log block is told from the live one, and recovery is idempotent —
//! a cut anywhere inside it, then recovery again, gives the same device as one recovery.

use crate::common;

use common::scenario;
use ftl_sim::crash::{chain, sweep, verify, ChainOptions, ChainReport, Points, Recover};
use ftl_sim::ftl::{BlockRole, Ftl, SchemeParams};
use ftl_sim::nand::{Flash, FlashError, PageKind};
use ftl_sim::sim::State;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::{pattern, Request};

fn params(log_blocks: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(log_blocks), ..Default::default() }
}

/// What a recovered device is to the host and to the next write: the version every LPN
/// reads (0: unmapped; u32::MAX: a torn page or another LPN's page) and the number of
/// blocks in each role.
#[derive(PartialEq, Eq, Debug)]
struct Device {
    reads: Vec<u32>,
    pools: Vec<(BlockRole, u32)>,
}

fn device(ftl: &dyn Ftl, flash: &Flash) -> Device {
    let reads = (0..ftl.logical_pages())
        .map(|l| match ftl.locate(l) {
            None => 0,
            Some(p) => {
                let pg = flash.peek(p);
                if pg.kind == PageKind::Data && pg.lpn == l {
                    pg.version
                } else {
                    u32::MAX
                }
            }
        })
        .collect();
    let mut pools: Vec<(BlockRole, u32)> = Vec::new();
    for b in 0..flash.blocks() {
        let r = ftl.block_role(b);
        match pools.iter_mut().find(|(x, _)| *x == r) {
            Some((_, n)) => *n += 1,
            None => pools.push((r, 1)),
        }
    }
    pools.sort_by_key(|&(r, _)| r as u32);
    Device { reads, pools }
}

fn recover(rec: &Recover, flash: &mut Flash) -> Result<Box<dyn Ftl>, String> {
    match rec(flash) {
        Ok(Ok(f)) => Ok(f),
        Ok(Err(e)) => Err(e),
        Err(e) => Err(format!("recovery failed: {e}")),
    }
}

/// The chip `cut` (power just came back) recovered once, against the same chip whose
/// recovery is cut after each of its operations in turn and then recovered again (and, at
/// every `deep`-th of them, cut once more inside that second recovery). Also checks the
/// one recovery against the reference model (`in_flight`: the write the cut interrupted,
/// which may read either way). Returns the number of recoveries cut.
fn check_idempotent(
    rec: &Recover,
    cut: &Flash,
    s: &State,
    in_flight: Option<(u32, u32)>,
    deep: u64,
    what: &str,
) -> u64 {
    let mut a = cut.clone();
    let o0 = a.total_ops();
    let ftl = recover(rec, &mut a).unwrap_or_else(|e| panic!("{what}: {e}"));
    let ops = a.total_ops() - o0;
    let v = verify(ftl.as_ref(), &a, &s.oracle, in_flight);
    assert_eq!((v.lost, v.wrong, v.torn_mapped), (0, 0, 0), "{what}: one recovery");
    let want = device(ftl.as_ref(), &a);
    let mut cuts = 0;
    for j in 0..ops {
        let mut b = cut.clone();
        b.set_power_budget(Some(j));
        let r = rec(&mut b);
        assert!(b.power_lost(), "{what}: recovery cut after {j} of {ops} operations ran to the end: {:?}", r.is_ok());
        b.power_on();
        cuts += 1;
        if deep > 0 && j.is_multiple_of(deep) {
            // Cut the second recovery too, half way through.
            let mut c = b.clone();
            let c0 = c.total_ops();
            let _ = recover(rec, &mut c);
            let half = (c.total_ops() - c0) / 2;
            b.set_power_budget(Some(half));
            let _ = rec(&mut b);
            b.power_on();
            cuts += 1;
        }
        let ftl_b = recover(rec, &mut b).unwrap_or_else(|e| panic!("{what}: after a cut at {j} of {ops}: {e}"));
        assert_eq!(
            device(ftl_b.as_ref(), &b),
            want,
            "{what}: recovery cut after {j} of its {ops} operations, then recovered again, differs from one recovery"
        );
    }
    cuts
}

/// Every `step`-th flash operation of `reqs` run from `fresh`: cut there, then
/// `check_idempotent`. Returns (cut points, recoveries cut).
fn idempotent_over_run(
    rec: &Recover,
    fresh: &State,
    reqs: &[Request],
    step: u64,
    window: Option<(u64, u64)>,
    deep: u64,
    what: &str,
) -> (u64, u64) {
    let mut s = fresh.clone();
    let (mut points, mut cuts) = (0, 0);
    let (lo, hi) = window.unwrap_or((0, u64::MAX));
    for (i, &r) in reqs.iter().enumerate() {
        let start = s.flash.total_ops();
        if start > hi {
            break;
        }
        let mut done = s.clone();
        done.exec(r).unwrap_or_else(|e| panic!("{what}: request {i} failed: {e}"));
        let ops = done.flash.total_ops() - start;
        for k in 0..ops {
            let at = start + k;
            if at < lo || at > hi || !at.is_multiple_of(step) {
                continue;
            }
            let mut c = s.clone();
            c.flash.set_power_budget(Some(k));
            assert_eq!(c.exec(r), Err(FlashError::PowerLoss), "{what}: request {i} cut after {k} of {ops}");
            c.flash.power_on();
            let in_flight = match r {
                Request::Write { lpn } => Some((lpn, s.next_version)),
                _ => None,
            };
            cuts += check_idempotent(rec, &c.flash, &s, in_flight, deep, &format!("{what}, cut after op {at}"));
            points += 1;
        }
        s = done;
    }
    (points, cuts)
}

fn assert_chain_clean(r: &ChainReport, cuts: u64) {
    assert_eq!(r.cuts, cuts, "{}: {:?} {:#?}", r.scheme, r.stopped, r.first_failures);
    assert_eq!(
        (r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.errors),
        (cuts, 0, 0, 0),
        "{}: {:#?}",
        r.scheme,
        r.first_failures
    );
    assert!(r.stopped.is_none() && !r.stuck, "{}: {:?}", r.scheme, r.stopped);
}

fn run_chain(scheme: &str, blocks: u32, ppb: u32, cuts: u64, seed: u64) -> ChainReport {
    let sc = scenario(scheme, params(4), blocks, ppb, Workload::Pattern { text: String::new() });
    chain(&sc.fresh().unwrap(), &sc.recoverer(), &ChainOptions::new(cuts, seed), |_| {})
}

/// The retired SW log block of the bug: LBN 0's SW log block retires with holes (a partial
/// merge with nothing to copy leaves no mark on flash), its hole is then written in place,
/// the sector is written again (to a RW log block), and LBN 1's SW log block is gone (case
/// 2.3), so LBN 0's retired block is the newest SW-born block on the chip.
const RETIRED_SW_WITH_FILLED_HOLE: &str = "w0 w0 w4 w4 w5 w5 w5 w2 w2";

/// Recovery must read LPN 2 from the RW log block (the newer copy), not from the SW-born
/// block whose page 2 an in-place write filled: before, recovery took that block for a live
/// SW log block, merged it "because its pages are not a prefix" and let its sectors win over
/// the RW copies — a stale version under a newer sequence number, lost at every recovery
/// after.
#[test]
fn retired_sw_block_with_a_filled_hole_is_the_data_block() {
    for scheme in ["fast", "ofast"] {
        let sc = scenario(scheme, params(4), 12, 4, Workload::Pattern { text: String::new() });
        let mut s = sc.fresh().unwrap();
        for r in pattern::parse(RETIRED_SW_WITH_FILLED_HOLE).unwrap() {
            s.exec(r).unwrap();
        }
        assert_eq!(s.flash.count(ftl_sim::nand::OpKind::Program, ftl_sim::nand::Cause::PartialMerge), 0);
        // A clean power-off (nothing in flight), recovered twice.
        for round in 0..2 {
            s.flash.power_on();
            s.ftl = recover(&sc.recoverer(), &mut s.flash).unwrap();
            let v = verify(s.ftl.as_ref(), &s.flash, &s.oracle, None);
            assert_eq!((v.lost, v.wrong, v.torn_mapped), (0, 0, 0), "{scheme}: recovery {round}");
        }
        // And every cut point of the pattern, each recovery cut once more.
        let reqs = pattern::parse(&format!("{RETIRED_SW_WITH_FILLED_HOLE} r2 w2 w6 w2 r2")).unwrap();
        let fresh = sc.fresh().unwrap();
        let rep = sweep(&fresh, &reqs, &sc.recoverer(), Points::All, Some(3), |_, _| {});
        assert_eq!(rep.recovered_correctly, rep.points_tried, "{scheme}: {:#?}", rep.first_failures);
        let (points, cuts) = idempotent_over_run(&sc.recoverer(), &fresh, &reqs, 1, None, 5, scheme);
        assert!(points >= rep.points_tried - 1 && cuts > 10 * points, "{scheme}: {points} points, {cuts} cuts");
    }
}

/// FAST, 20 blocks of 3 pages (odd), a chain of 16 cuts (seed 1): lost LPN 2 at cut 16,
/// merged from a retired SW-born block over its newer RW copy.
#[test]
fn fast_chain_on_3_page_blocks_loses_no_write() {
    assert_chain_clean(&run_chain("fast", 20, 3, 16, 1), 16);
}

/// O-FAST, 11 blocks of 5 pages, a chain of 93 cuts (seed 3): lost LPNs 2 and 3 at cut 93.
#[test]
fn ofast_chain_on_5_page_blocks_loses_no_write() {
    assert_chain_clean(&run_chain("ofast", 11, 5, 93, 3), 93);
}

/// O-FAST, 16 x 8, hot/cold: every cut point of the run, each recovery cut once more
/// (before: 5 points lost a write and a cut recovery gave another result than one recovery).
#[test]
fn ofast_hotcold_every_cut_point_recut_loses_no_write() {
    let w = Workload::Hotcold { n: 1500, seed: 2, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
    let sc = scenario("ofast", params(4), 16, 8, w);
    let sim = sc.build().unwrap();
    let rep = sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::All, Some(1), |_, _| {});
    assert!(rep.points_tried > 6000, "{rep:?}");
    assert_eq!(rep.recovered_correctly, rep.points_tried, "{:#?}", rep.first_failures);
}

/// Recovery cut after each of its own operations, then run again, gives the device one
/// recovery gives (every LPN's read, every pool), on odd and even blocks, FAST and O-FAST:
/// the stretch of the O-FAST hot/cold run where a cut recovery used to differ, and a whole
/// hot/cold run on 3-page blocks at every 7th operation.
#[test]
fn recovery_cut_inside_then_recovered_equals_one_recovery() {
    let w = Workload::Hotcold { n: 1500, seed: 2, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
    let sc = scenario("ofast", params(4), 16, 8, w);
    let sim = sc.build().unwrap();
    let (points, cuts) =
        idempotent_over_run(&sc.recoverer(), &sim.state, sim.requests(), 1, Some((250, 290)), 17, "ofast 16x8");
    assert!(points >= 40 && cuts > 40 * 100, "{points} points, {cuts} recoveries cut");
    for (scheme, blocks, ppb) in [("fast", 14, 3), ("ofast", 14, 3), ("fast", 12, 5)] {
        let w = Workload::Hotcold { n: 400, seed: 7, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
        let sc = scenario(scheme, params(4), blocks, ppb, w);
        let sim = sc.build().unwrap();
        let what = format!("{scheme} {blocks}x{ppb}");
        let (points, cuts) = idempotent_over_run(&sc.recoverer(), &sim.state, sim.requests(), 7, None, 29, &what);
        assert!(points > 100 && cuts > 20 * points, "{what}: {points} points, {cuts} recoveries cut");
    }
}

/// Blocks of `s` in `role`.
fn blocks_in(s: &State, role: BlockRole) -> usize {
    (0..s.flash.blocks()).filter(|&b| s.ftl.block_role(b) == role).count()
}

/// A cut tears an append to the SW log block (case 2.1): recovery copies the block's
/// in-order sectors to a new SW log block (FAST 3.3), so the retried append is case 2.1
/// again and no RW log block is taken — the log pool of a run without the cut. Before, the
/// logical block was merged and the retried append went to an RW log block (case 3).
#[test]
fn a_torn_sw_append_leaves_an_sw_log_block_and_no_rw_log_block() {
    for scheme in ["fast", "ofast"] {
        for torn_reads_erased in [false, true] {
            // LBN 0 written in place, then its SW log block takes LPNs 0 and 1.
            let text = "w0 w1 w2 w3 w4 w0 w1";
            let sc = scenario(scheme, params(4), 8, 5, Workload::Pattern { text: text.into() });
            let mut sim = sc.build().unwrap();
            sim.run(usize::MAX).unwrap();
            let mut s = sim.state.clone();
            assert_eq!((blocks_in(&s, BlockRole::SwLog), blocks_in(&s, BlockRole::RwLog)), (1, 0));
            s.flash.torn_model.reads_erased = torn_reads_erased;
            s.flash.set_power_budget(Some(0));
            assert_eq!(s.exec(Request::Write { lpn: 2 }), Err(FlashError::PowerLoss));
            s.flash.power_on();
            let what = format!("{scheme}, torn model reads erased {torn_reads_erased}");
            s.ftl = recover(&sc.recoverer(), &mut s.flash).unwrap_or_else(|e| panic!("{what}: {e}"));
            let v = verify(s.ftl.as_ref(), &s.flash, &s.oracle, None);
            assert_eq!((v.lost, v.wrong, v.torn_mapped), (0, 0, 0), "{what}");
            assert_eq!((blocks_in(&s, BlockRole::SwLog), blocks_in(&s, BlockRole::RwLog)), (1, 0), "{what}");
            let sw = s.ftl.locate(0).unwrap() / 5;
            assert_eq!(s.ftl.block_role(sw), BlockRole::SwLog, "{what}: LPN 0 reads from the SW log block");
            assert_eq!(s.ftl.locate(1), Some(sw * 5 + 1), "{what}");
            // The host retries the write and goes on: appends, a switch, a new SW log block.
            for lpn in [2, 3, 4, 0, 1] {
                s.exec(Request::Write { lpn }).unwrap();
                assert_eq!(blocks_in(&s, BlockRole::RwLog), 0, "{what}: w{lpn} took an RW log block");
            }
            assert_eq!(s.ftl.block_role(sw), BlockRole::Data, "{what}: the restored SW log block was switched");
        }
    }
}

/// Recovery cut anywhere inside the SW log restore (its copies, the erase of the torn
/// block), then recovered again, gives the device one recovery gives: every cut point of
/// sequential runs on 3-, 4- and 5-page blocks, every 3rd of those recoveries cut again.
/// Also with the power failing between two of recovery's operations, nothing torn: after
/// the restore's last copy and before the erase of its torn source, both blocks are on the
/// chip and the next recovery must tell the source from the data block.
#[test]
fn recovery_cut_inside_an_sw_log_restore_equals_one_recovery() {
    for (scheme, blocks, ppb) in [("fast", 6, 5), ("ofast", 6, 3), ("fast", 9, 4), ("ofast", 8, 5)] {
        let what = format!("{scheme} {blocks}x{ppb}");
        let sc = scenario(scheme, SchemeParams::default(), blocks, ppb, Workload::Sequential { n: 120 });
        let sim = sc.build().unwrap();
        let rec = sc.recoverer();
        let (points, cuts) = idempotent_over_run(&rec, &sim.state, sim.requests(), 1, None, 3, &what);
        assert!(points >= 120 && cuts > 10 * points, "{what}: {points} points, {cuts} recoveries cut");
        // Clean cuts between recovery's operations, at every host operation cut.
        let (mut s, mut restores) = (sim.state.clone(), 0);
        for &r in sim.requests() {
            let start = s.flash.total_ops();
            let mut done = s.clone();
            done.exec(r).unwrap();
            for k in 0..done.flash.total_ops() - start {
                let mut c = s.clone();
                c.flash.set_power_budget(Some(k));
                assert_eq!(c.exec(r), Err(FlashError::PowerLoss));
                c.flash.power_on();
                let mut a = c.flash.clone();
                let o0 = a.total_ops();
                let want = device(recover(&rec, &mut a).unwrap().as_ref(), &a);
                let ops = a.total_ops() - o0;
                // A spare area with tag::RESTORE (5): this recovery restored an SW log block.
                restores += (0..a.blocks()).any(|b| a.block_pages(b).iter().any(|p| p.tag & 0x0f == 5)) as u32;
                for j in 0..ops {
                    let mut b = c.flash.clone();
                    b.pause_after(j);
                    let _ = rec(&mut b);
                    b.power_on();
                    let got = recover(&rec, &mut b).unwrap_or_else(|e| panic!("{what}: {e}"));
                    assert_eq!(device(got.as_ref(), &b), want, "{what}: power failed after {j} of {ops} operations");
                }
            }
            s = done;
        }
        assert!(restores > 10, "{what}: {restores} cuts restored an SW log block");
    }
}
