//! GFTL under chains of power cuts (issue 34): the pools every recovery leaves are the
//! pools a run without cuts has between requests, so the device never runs out of free
//! blocks however often the power fails.

use crate::common;

use common::scenario;
use ftl_sim::crash::{chain, ChainOptions, ChainReport};
use ftl_sim::ftl::{BlockRole, SchemeParams};
use ftl_sim::trace::gen::Workload;

fn gftl_chain(blocks: u32, ppb: u32, cuts: u64, seed: u64) -> (ChainReport, u32) {
    let sc = scenario("gftl", SchemeParams::default(), blocks, ppb, Workload::Pattern { text: String::new() });
    let fresh = sc.fresh().unwrap();
    // Logical blocks: every one holds a data block.
    let n = fresh.ftl.logical_pages() / ppb;
    (chain(&fresh, &sc.recoverer(), &ChainOptions::new(cuts, seed), |_| {}), n)
}

/// The bound recovery restores (docs/schemes/recovery.md, GFTL): no GC job half done and
/// every logical block at most one buffer block — so after every recovery at most n
/// buffers, no destination and blocks - 2n >= 3 free blocks, and no pool beyond the chain's
/// cut-free run.
fn assert_pools_within_cut_free_bound(r: &ChainReport, blocks: u32, n: u32) {
    assert!(!r.pools.is_empty(), "the chain measured no pools");
    for p in &r.pools {
        let bound = match p.role {
            BlockRole::Free => {
                assert!(p.after_recovery >= blocks - 2 * n, "free blocks after a recovery: {p:?}");
                assert!(p.after_recovery >= p.cut_free, "{p:?}");
                continue;
            }
            BlockRole::Buffer => n,
            BlockRole::GcDestination => 0,
            _ => continue,
        };
        assert!(p.after_recovery <= bound && p.after_recovery <= p.cut_free, "{p:?} (structural bound {bound})");
    }
    assert_eq!(r.pool_excess, 0, "recoveries that left a pool beyond its cut-free bound: {:?}", r.pools);
}

/// Issue 34: on a 9-block chip (3 logical blocks: 3 data blocks, at most 4 buffers, one GC
/// destination, one free block) cuts inside GC jobs undid them again and again — a torn
/// page left the job's new block no room for the pages still to copy — while the logical
/// blocks queued behind kept their buffers: "GFTL ran out of free blocks" after 15,586
/// cuts. Recovery now runs queued jobs to their end until the pools are back within the
/// cut-free bound.
#[test]
fn gftl_recovery_restores_free_blocks_on_the_smallest_chip() {
    let (r, n) = gftl_chain(9, 12, 30_000, 1);
    assert_eq!(n, 3);
    assert_eq!(r.cuts, 30_000, "{:?}", r.stopped);
    assert!(!r.stuck, "{:?}", r.stopped);
    assert_eq!((r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.errors), (30_000, 0, 0, 0));
    assert_pools_within_cut_free_bound(&r, 9, n);
}

/// Odd pages per block and a larger chip: the same bound after every recovery.
#[test]
fn gftl_pools_stay_within_bound_after_every_recovery() {
    for (blocks, ppb, seed) in [(9, 13, 2), (11, 15, 3), (20, 12, 1)] {
        let (r, n) = gftl_chain(blocks, ppb, 5_000, seed);
        assert_eq!(
            (r.cuts, r.recovered_correctly, r.acked_writes_lost, r.errors),
            (5_000, 5_000, 0, 0),
            "{blocks}x{ppb}: {:?}",
            r.stopped
        );
        assert!(!r.stuck);
        assert_pools_within_cut_free_bound(&r, blocks, n);
    }
}

/// A logical block behind the head whose only buffer a torn last page had filled needed
/// another block while the head's job took its destination and its own new buffer: 9 x 12,
/// seed 3, stuck after 31,737 cuts with every block count within bound. Recovery now also
/// runs jobs until every logical block behind the head has room for one job's writes.
#[test]
fn gftl_recovery_leaves_room_in_the_buffers_behind_the_head() {
    let (r, n) = gftl_chain(9, 12, 32_000, 3);
    assert_eq!(r.cuts, 32_000, "{:?}", r.stopped);
    assert!(!r.stuck, "{:?}", r.stopped);
    assert_eq!((r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.errors), (32_000, 0, 0, 0));
    assert_pools_within_cut_free_bound(&r, 9, n);
}

/// 32 x 16, hot/cold, reads of erased pages: the chain's run without cuts peaked at 9
/// buffer blocks, always with the head's job holding a new block at that moment, while a
/// recovery that ran a half-done job to its end left 10 buffers and no new block, with free
/// blocks at that run's fewest (12 = 12): nothing leaked, the blocks were split otherwise
/// between the two roles. GFTL's buffers and a job's new block are one pool
/// (`Ftl::pool_of`), held as a whole to the run without cuts (cut 33,979 of this chain).
#[test]
fn gftl_buffers_and_the_job_destination_are_one_pool() {
    let w: Workload =
        serde_json::from_value(serde_json::json!({"kind": "hotcold", "n": 5000, "seed": 3, "read_ratio": 0.1}))
            .unwrap();
    let sc = scenario("gftl", SchemeParams::default(), 32, 16, w);
    let fresh = sc.fresh().unwrap();
    let n = fresh.ftl.logical_pages() / 16;
    let mut o = ChainOptions::new(34_000, 3);
    o.workload = Some(sc.requests(fresh.ftl.logical_pages(), false).unwrap().into());
    o.reads_erased = true;
    let r = chain(&fresh, &sc.recoverer(), &o, |_| {});
    assert_eq!(r.cuts, 34_000, "{:?}", r.stopped);
    assert!(!r.stuck, "{:?}", r.stopped);
    assert_eq!((r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.errors), (34_000, 0, 0, 0));
    assert!(r.pools.iter().all(|p| p.role != BlockRole::GcDestination), "folded into Buffer: {:?}", r.pools);
    let buffers = r.pools.iter().find(|p| p.role == BlockRole::Buffer).expect("a buffer pool");
    assert_eq!((buffers.after_recovery, buffers.cut_free), (10, 10), "{:?}", r.pools);
    assert_pools_within_cut_free_bound(&r, 32, n);
}
