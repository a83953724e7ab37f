//! RFTL, GFTL and NFTL (papers/rftl-real-time-ftl.txt): Table 4's response times,
//! Table 2's bounds, the Figure 5 GC walk-through, and the reference model.

use crate::common;

use std::sync::Arc;

use common::run_checked;
use ftl_sim::ftl::panel::{BlockFill, BlockGroup, GroupGc, GroupGcKind, PageAt, SubTableRow};
use ftl_sim::ftl::rftl::{GcKind, Rftl};
use ftl_sim::ftl::{Ftl, PanelData, SchemeParams};
use ftl_sim::nand::{Chip, Flash, Geometry, Timing, NONE};
use ftl_sim::scenario::{ChipSpec, Scenario};
use ftl_sim::sim::{RequestTime, Simulator};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::rng::SplitMix64;
use ftl_sim::trace::Request;
use proptest::prelude::*;

fn params(u: f64) -> SchemeParams {
    SchemeParams { utilisation: Some(u), ..Default::default() }
}

fn large(scheme: &str, u: f64, blocks: u32) -> Scenario {
    Scenario {
        scheme: scheme.into(),
        params: params(u),
        chip: ChipSpec { preset: "rftl-large".into(), blocks: Some(blocks), pages_per_block: None },
        workload: Workload::Sequential { n: 1 },
        run: Default::default(),
    }
}

/// A simulator over explicit requests: every LPN written once (warm-up), then `n`
/// uniformly random requests, `read_ratio` of them reads. Returns it with the number of
/// warm-up requests.
fn warm_then_random(sc: &Scenario, n: usize, read_ratio: f64, seed: u64) -> (Simulator, usize) {
    let first = sc.fresh().unwrap();
    let space = first.ftl.logical_pages();
    let mut reqs: Vec<Request> = (0..space).map(|lpn| Request::Write { lpn }).collect();
    let warm = reqs.len();
    let mut rng = SplitMix64::new(seed);
    for _ in 0..n {
        let lpn = rng.below(space as u64) as u32;
        reqs.push(if rng.unit() < read_ratio { Request::Read { lpn } } else { Request::Write { lpn } });
    }
    let me = sc.clone();
    let mut sim = Simulator::new(Arc::new(move || me.fresh().unwrap()), reqs);
    sim.record_timeline(true);
    (sim, warm)
}

struct Split {
    read: Vec<RequestTime>,
    write: Vec<RequestTime>,
}

fn split(sim: &Simulator, from: usize) -> Split {
    let tl = sim.timeline().unwrap();
    let mut s = Split { read: vec![], write: vec![] };
    for (i, r) in sim.requests().iter().enumerate().skip(from) {
        match r {
            Request::Read { .. } => s.read.push(tl[i]),
            Request::Write { .. } => s.write.push(tl[i]),
            _ => {}
        }
    }
    s
}

const US: u32 = 1000;

/// Table 4: on the large-block chip RFTL's worst read is T_rdoob + T_rdpg = 50 us, its
/// worst write T_er + T_rdoob + T_wrpg = 2,325 us and its best write T_rdoob + T_wrpg =
/// 325 us, at 50% and 100% utilisation, while GC runs. Every write's own part is exactly
/// 325 us and the GC it carries at most one erase.
#[test]
fn table4_rftl_response_times_on_the_large_block_chip() {
    for &u in &[0.5, 1.0] {
        let (mut sim, warm) = warm_then_random(&large("rftl", u, 240), 60_000, 0.3, 4);
        run_checked(&mut sim, 20_000);
        let m = sim.state.metrics();
        assert!(m.gc_runs > 100, "GC must run (u = {u}): {}", m.gc_runs);
        assert!(m.erases > 100);
        let s = split(&sim, warm);
        let max = |v: &[RequestTime]| v.iter().map(|r| r.total_ns).max().unwrap();
        let min = |v: &[RequestTime]| v.iter().map(|r| r.total_ns).min().unwrap();
        assert_eq!(max(&s.read), 50 * US, "worst read at u = {u}");
        assert_eq!(min(&s.read), 50 * US, "best read at u = {u}");
        assert_eq!(max(&s.write), 2325 * US, "worst write at u = {u}");
        assert_eq!(min(&s.write), 325 * US, "best write at u = {u}");
        for w in &s.write {
            assert_eq!(w.total_ns - w.gc_ns, 325 * US, "a write's own operations");
            assert!(w.gc_ns <= 2000 * US, "a GC step longer than one erase");
        }
        for r in &s.read {
            assert_eq!(r.gc_ns, 0, "reads carry no GC (section 4.3)");
        }
        // Over the whole run, including the first write of each sub-table (no old
        // sub-table to read: 300 us), the metrics agree.
        assert_eq!(m.latency_us.read.worst, 50.0);
        assert_eq!(m.latency_us.write.worst, 2325.0);
        assert!(m.latency_us.write.best == 300.0 || m.latency_us.write.best == 325.0);
        let sm = &m.scheme_metrics;
        assert_eq!((sm["beta"].as_u64(), sm["k"].as_u64(), sm["j"].as_u64()), (Some(5), Some(8), Some(3)));
        assert!(sm["longest_gc_step_us"].as_f64().unwrap() <= 2000.0);
        assert!(sm["circular_shifts"].as_u64().unwrap() > 0 && sm["exchanges"].as_u64().unwrap() > 0);
    }
}

/// Table 2's bounds on the large-block chip (π = 32), and Table 5's ordering of the
/// worst cases: GFTL and NFTL exceed RFTL's 2,325 us.
#[test]
fn table2_bounds_hold_and_gftl_nftl_exceed_rftl() {
    let (trd, toob, twr, ter): (f64, f64, f64, f64) = (25.0, 25.0, 300.0, 2000.0);
    let pi: f64 = 32.0;
    let mut worst = std::collections::BTreeMap::new();
    for scheme in ["rftl", "gftl", "nftl"] {
        for &u in &[0.5, 1.0] {
            let (mut sim, _) = warm_then_random(&large(scheme, u, 150), 40_000, 0.3, 9);
            run_checked(&mut sim, 20_000);
            let m = sim.state.metrics();
            assert!(m.erases > 0, "{scheme}: GC must run");
            let (r, w) = (m.latency_us.read.worst, m.latency_us.write.worst);
            let (ur, uw, lp) = match scheme {
                // Table 2, RFTL column: U(e_r), and L(p) = max{T_er + U(e_w), U(e_r)}.
                "rftl" => (trd + toob, ter + twr + toob, (ter + twr + toob).max(trd + toob)),
                // GFTL column: L(p) = T_er + max{U(e_r), U(e_w)}; a GC step rides on every request.
                "gftl" => (ter + trd + pi * toob, ter + twr, ter + (trd + pi * toob).max(twr)),
                // NFTL (not in Table 2): scan the replacement's OOB; a merge: the OOB check,
                // π OOB reads, π−1 copies, the new page, two erases.
                _ => (
                    pi * toob + trd,
                    toob + pi * toob + (pi - 1.0) * (trd + twr) + twr + 2.0 * ter,
                    toob + pi * toob + (pi - 1.0) * (trd + twr) + twr + 2.0 * ter,
                ),
            };
            assert!(
                r <= ur && w <= uw && r.max(w) <= lp,
                "{scheme} u={u}: worst read {r} (bound {ur}), write {w} (bound {uw})"
            );
            let e = worst.entry(scheme).or_insert(0.0f64);
            *e = e.max(r.max(w));
        }
    }
    assert_eq!(worst["rftl"], 2325.0);
    assert_eq!(worst["gftl"], 2000.0 + 25.0 + 32.0 * 25.0, "GFTL's worst: a full OOB scan plus an erase step");
    assert!(worst["gftl"] > worst["rftl"] && worst["nftl"] > worst["rftl"], "{worst:?}");
}

/// Figure 5 (section 4.4), β = 4 and k = 3: π = 8 pages per block and a chip whose
/// valid-page copy (25 + 400 + 2·25 = 475 us) fits four times in one erase (2,000 us).
#[test]
fn figure5_gc_walkthrough() {
    let chip = Chip {
        name: "figure5".into(),
        geometry: Geometry { blocks: 3, pages_per_block: 8, page_bytes: 512, spare_bytes: 16 },
        timing: Timing::us(25, 25, 400, 2000),
        in_order_programming: true,
    };
    let mut flash = Flash::new(chip.clone());
    let mut f = Rftl::new(&chip.geometry, &chip.timing, &SchemeParams::default()).unwrap();
    assert_eq!((f.p.beta, f.p.k, f.p.j), (4, 3, 2));
    assert_eq!((f.p.k_eq1, f.p.j_eq3), (3, 2), "equations 1 and 3 as printed agree here");
    assert_eq!((f.p.alpha, f.p.n_sub), (4, 2));
    let mut version = 0;
    let mut latest = [0u32; 8];
    let mut write = |f: &mut Rftl, flash: &mut Flash, lpn: u32| {
        version += 1;
        latest[lpn as usize] = version;
        let t0 = flash.elapsed_ns;
        f.write(flash, lpn, version).unwrap();
        // Every page maps to its latest version.
        for l in 0..8u32 {
            if latest[l as usize] > 0 {
                let p = flash.peek(f.locate(l).unwrap());
                assert_eq!((p.lpn, p.version), (l, latest[l as usize]));
            }
        }
        flash.elapsed_ns - t0
    };
    // State: blocks [primary, replacement, buffer], pages used in each, GC (kind, step, bound).
    let state = |f: &Rftl| (f.lbs[0].blocks, f.lbs[0].next, f.gc_progress(0));
    let at = |f: &Rftl, lpn: u32| {
        let q = f.locate(lpn).unwrap();
        (q / 8, q % 8)
    };

    // (a) the primary (block 0) is full: LPNs 0..7 once each.
    for l in 0..8 {
        write(&mut f, &mut flash, l);
    }
    assert_eq!(state(&f), ([0, 1, 2], [8, 0, 0], None));

    // (b) w0 goes to the buffer's first page; copy0 moves four valid pages to the replacement.
    let t = write(&mut f, &mut flash, 0);
    assert_eq!(state(&f), ([0, 1, 2], [8, 4, 1], Some((GcKind::Primary, 1, 3))));
    assert_eq!(at(&f, 0), (2, 0));
    assert_eq!((1..5).map(|l| at(&f, l)).collect::<Vec<_>>(), vec![(1, 0), (1, 1), (1, 2), (1, 3)]);
    assert_eq!(t, (25 + 400 + 4 * 475) * 1000);
    // What the app shows: roles, owners, and the GC's progress in the block-map panel.
    use ftl_sim::ftl::BlockRole;
    assert_eq!(
        (0..3).map(|b| f.block_role(b)).collect::<Vec<_>>(),
        vec![BlockRole::Primary, BlockRole::Replacement, BlockRole::Buffer]
    );
    assert_eq!((0..3).map(|b| f.block_owner(b)).collect::<Vec<_>>(), vec![Some(0); 3]);
    let panels = f.panels(&flash);
    let PanelData::BlockGroups { groups } = &panels[0].data else { panic!("{:?}", panels[0]) };
    let block_fill = |pbn, used| BlockFill { pbn: Some(pbn), used, of: 8 };
    assert_eq!(
        groups[0],
        BlockGroup {
            lbn: 0,
            primary: block_fill(0, 8),
            replacement: block_fill(1, 4),
            buffer: block_fill(2, 1),
            gc: Some(GroupGc { kind: GroupGcKind::Primary, step: 1, of: 3 })
        }
    );
    // Sub-table 0 (BO 0..3) was last written with the copy of LPN 3, sub-table 1 with LPN 4's.
    let PanelData::SubTableIndex { rows, .. } = &panels[1].data else { panic!("{:?}", panels[1]) };
    let page_at = |pbn, page| Some(PageAt { pbn, page });
    assert_eq!(rows[0], SubTableRow { lbn: 0, at: vec![page_at(1, 2), page_at(1, 3)] });

    // (c) w1; copy1 moves the rest of the primary's valid pages (5 is now in the buffer).
    write(&mut f, &mut flash, 5);
    assert_eq!(state(&f), ([0, 1, 2], [8, 6, 2], Some((GcKind::Primary, 2, 3))));
    assert_eq!((at(&f, 6), at(&f, 7), at(&f, 5)), ((1, 4), (1, 5), (2, 1)));

    // (d) w2; the primary is erased, then the exchange: block 1 is the primary now.
    let t = write(&mut f, &mut flash, 1);
    assert_eq!(t, (25 + 400 + 2000) * 1000, "the erase step: T_rdoob + T_wrpg + T_er");
    assert_eq!(state(&f), ([1, 0, 2], [6, 0, 3], None));
    assert!(flash.block_pages(0).iter().all(|p| p.is_erased()));

    // w3, w4 fill the new primary; w5, w6 go to the buffer, which then has k = 3 free pages.
    write(&mut f, &mut flash, 2);
    write(&mut f, &mut flash, 3);
    assert_eq!(state(&f), ([1, 0, 2], [8, 0, 3], None));
    write(&mut f, &mut flash, 4);
    write(&mut f, &mut flash, 6);
    assert_eq!(state(&f), ([1, 0, 2], [8, 0, 5], None));
    assert_eq!(f.free_pages(0, 2), 3);

    // w7: only k free buffer pages — GC of primary + buffer into the replacement (block 0).
    write(&mut f, &mut flash, 7);
    assert_eq!(state(&f), ([1, 0, 2], [8, 4, 6], Some((GcKind::PrimaryAndBuffer, 1, 3))));
    assert_eq!((at(&f, 2), at(&f, 3), at(&f, 0), at(&f, 5)), ((0, 0), (0, 1), (0, 2), (0, 3)));
    write(&mut f, &mut flash, 0);
    assert_eq!(state(&f), ([1, 0, 2], [8, 7, 7], Some((GcKind::PrimaryAndBuffer, 2, 3))));
    assert_eq!((at(&f, 1), at(&f, 4), at(&f, 6)), ((0, 4), (0, 5), (0, 6)));

    // (e)–(f) w9 fills the buffer; the primary is erased; circular shift: replacement →
    // primary, buffer → replacement (holding k = 3 valid pages: w7, w8, w9), primary → buffer.
    write(&mut f, &mut flash, 5);
    assert_eq!(state(&f), ([0, 2, 1], [7, 8, 0], Some((GcKind::Replacement, 0, 2))));
    assert_eq!((at(&f, 7), at(&f, 0), at(&f, 5)), ((2, 5), (2, 6), (2, 7)));

    // (g) w10, w11 in the buffer; the replacement's GC takes j = 2 steps: copy, erase.
    write(&mut f, &mut flash, 2);
    assert_eq!(state(&f), ([0, 2, 1], [7, 8, 4], Some((GcKind::Replacement, 1, 2))));
    assert_eq!((at(&f, 2), at(&f, 7), at(&f, 0), at(&f, 5)), ((1, 0), (1, 1), (1, 2), (1, 3)));
    write(&mut f, &mut flash, 3);
    assert_eq!(state(&f), ([0, 2, 1], [7, 0, 5], None));
    assert!(flash.block_pages(2).iter().all(|p| p.is_erased()));

    // The primary has a free page again and serves the next write.
    write(&mut f, &mut flash, 4);
    assert_eq!(state(&f), ([0, 2, 1], [8, 0, 5], None));
    assert_eq!(at(&f, 4), (0, 7));
    // Σcp: 6 + 7 + 3 copies; Σer: 3 erases.
    assert_eq!(flash.total(ftl_sim::nand::OpKind::Erase), 3);
    assert_eq!(flash.count(ftl_sim::nand::OpKind::Program, ftl_sim::nand::Cause::Gc), 16);
    let _ = NONE;
}

/// Section 4.5: a chip on which the buffer cannot hold 2k + j pages is refused with a
/// clear error (not a panic later).
#[test]
fn rftl_refuses_chips_that_break_theorem_4_1() {
    let sc = Scenario {
        scheme: "rftl".into(),
        params: SchemeParams::default(),
        chip: ChipSpec { preset: "classroom".into(), blocks: None, pages_per_block: None },
        workload: Workload::Sequential { n: 10 },
        run: Default::default(),
    };
    let e = sc.build().err().unwrap();
    assert!(e.contains("2k + j"), "{e}");
    let mut sc = sc;
    sc.chip.pages_per_block = Some(8);
    sc.build().unwrap();
    sc.params.utilisation = Some(0.0);
    assert!(sc.build().err().unwrap().contains("utilisation"));
}

/// The timeline: one record per request; total = the request's flash time; the GC part
/// is what the metrics count under causes other than host; it survives a seek.
#[test]
fn timeline_records_each_request_and_survives_seek() {
    let (mut sim, _) = warm_then_random(&large("nftl", 1.0, 60), 5000, 0.3, 2);
    let total = sim.total();
    sim.run(total).unwrap();
    let tl = sim.timeline().unwrap().to_vec();
    assert_eq!(tl.len(), total);
    let sum: u64 = tl.iter().map(|r| r.total_ns as u64).sum();
    assert_eq!(sum, sim.state.flash.elapsed_ns);
    let gc: u64 = tl.iter().map(|r| r.gc_ns as u64).sum();
    assert_eq!(gc, sim.state.flash.elapsed_ns - sim.state.flash.time_ns(ftl_sim::nand::Cause::Host));
    assert!(gc > 0);
    sim.seek(1000).unwrap();
    sim.run(total).unwrap();
    assert_eq!(sim.timeline().unwrap(), &tl[..]);
}

fn small_chip(blocks: u32, ppb: u32) -> ChipSpec {
    // Classroom timing (15 / 15 / 200 / 2000 us): β = 8.
    ChipSpec { preset: "classroom".into(), blocks: Some(blocks), pages_per_block: Some(ppb) }
}

fn workload(kind: u8, n: u64, seed: u64, read_ratio: f64) -> Workload {
    match kind {
        0 => Workload::Uniform { n, seed, read_ratio },
        1 => Workload::Hotcold { n, seed, read_ratio, hot_fraction: 0.1, hot_ratio: 0.9 },
        _ => Workload::Sequential { n },
    }
}

/// Runs a scheme against the reference model and checks its Table 2 bound with the
/// classroom timing.
fn check_scheme(scheme: &str, blocks: u32, ppb: u32, u: f64, w: Workload) -> Result<(), TestCaseError> {
    let n = match &w {
        Workload::Uniform { n, .. } | Workload::Hotcold { n, .. } | Workload::Sequential { n } => *n,
        _ => 0,
    };
    let sc = Scenario {
        scheme: scheme.into(),
        params: params(u),
        chip: small_chip(blocks, ppb),
        workload: w,
        run: Default::default(),
    };
    let mut sim = sc.build().map_err(TestCaseError::fail)?;
    run_checked(&mut sim, 1999);
    let m = sim.state.metrics();
    prop_assert_eq!(m.wrong_reads, 0);
    prop_assert_eq!(m.host_reads + m.host_writes, n);
    let (trd, toob, twr, ter) = (15.0, 15.0, 200.0, 2000.0);
    let pi = ppb as f64;
    let (r, wr) = (m.latency_us.read.worst, m.latency_us.write.worst);
    match scheme {
        "rftl" => {
            prop_assert!(r <= trd + toob, "read {}", r);
            prop_assert!(wr <= ter + twr + toob, "write {}", wr);
        }
        "gftl" => {
            prop_assert!(r <= ter + trd + pi * toob, "read {}", r);
            prop_assert!(wr <= ter + twr, "write {}", wr);
        }
        _ => {
            prop_assert!(r <= pi * toob + trd, "read {}", r);
            prop_assert!(wr <= toob + pi * toob + (pi - 1.0) * (trd + twr) + twr + 2.0 * ter, "write {}", wr);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 9, ..ProptestConfig::default() })]

    /// ≥ 9 × 12,000 = 108,000 requests: RFTL against the reference model, random
    /// geometries (π ≥ 6 so that π ≥ 2k + j), utilisation 50% and 100%.
    #[test]
    fn rftl_matches_reference_model(blocks in 9u32..120, ppb in 6u32..48, full in any::<bool>(),
            seed in any::<u64>(), kind in 0u8..3, read_ratio in 0.0f64..0.5, n in 12_000u64..14_000) {
        check_scheme("rftl", blocks, ppb, if full { 1.0 } else { 0.5 }, workload(kind, n, seed, read_ratio))?;
    }

    #[test]
    fn gftl_matches_reference_model(blocks in 9u32..120, ppb in 12u32..48, full in any::<bool>(),
            seed in any::<u64>(), kind in 0u8..3, read_ratio in 0.0f64..0.5, n in 12_000u64..14_000) {
        check_scheme("gftl", blocks, ppb, if full { 1.0 } else { 0.5 }, workload(kind, n, seed, read_ratio))?;
    }

    #[test]
    fn nftl_matches_reference_model(blocks in 3u32..120, ppb in 1u32..48, full in any::<bool>(),
            seed in any::<u64>(), kind in 0u8..3, read_ratio in 0.0f64..0.5, n in 12_000u64..14_000) {
        check_scheme("nftl", blocks, ppb, if full { 1.0 } else { 0.5 }, workload(kind, n, seed, read_ratio))?;
    }
}

/// Figure 6 / section 4.4: a GC step rides only on a write to its own logical block;
/// requests to other logical blocks (and reads) leave it where it is.
#[test]
fn gc_steps_are_distributed_per_logical_block() {
    let chip = Chip {
        name: "figure6".into(),
        geometry: Geometry { blocks: 6, pages_per_block: 8, page_bytes: 512, spare_bytes: 16 },
        timing: Timing::us(25, 25, 400, 2000),
        in_order_programming: true,
    };
    let mut flash = Flash::new(chip.clone());
    let mut f = Rftl::new(&chip.geometry, &chip.timing, &SchemeParams::default()).unwrap();
    let mut v = 0;
    let mut w = |f: &mut Rftl, flash: &mut Flash, lpn: u32| {
        v += 1;
        f.write(flash, lpn, v).unwrap();
    };
    for l in 0..16 {
        w(&mut f, &mut flash, l);
    }
    // B0's GC starts with w0 (copy step 1)...
    w(&mut f, &mut flash, 0);
    assert_eq!(f.gc_progress(0), Some((GcKind::Primary, 1, 3)));
    // ...w1 goes to B1 and starts B1's own GC; B0's does not move, nor on a read.
    w(&mut f, &mut flash, 8);
    assert_eq!(f.gc_progress(0), Some((GcKind::Primary, 1, 3)));
    assert_eq!(f.gc_progress(1), Some((GcKind::Primary, 1, 3)));
    f.read(&mut flash, 3).unwrap();
    assert_eq!(f.gc_progress(0), Some((GcKind::Primary, 1, 3)));
    // The next write to B0 carries its step 2.
    w(&mut f, &mut flash, 1);
    assert_eq!(f.gc_progress(0), Some((GcKind::Primary, 2, 3)));
    assert_eq!(f.gc_progress(1), Some((GcKind::Primary, 1, 3)));
}

/// RFTL Table 4 with the live-pages workload (docs/schemes/rftl.md, "Table 4 with a
/// live-pages workload"): Multimedia's read/write mix (1,002,748 reads of 2,635,017
/// requests = 0.38), every logical block holding 2 live pages at "50 %" and 4 at "100 %".
/// One 192-block rftl-large chip (64 logical blocks) and 100,000 requests per cell, so
/// every logical block runs many GC cycles at every π.
fn table4_live(pi: u32, live: u64) -> ftl_sim::metrics::Metrics {
    let sc = Scenario {
        scheme: "rftl".into(),
        params: SchemeParams::default(),
        chip: ChipSpec { preset: "rftl-large".into(), blocks: Some(192), pages_per_block: Some(pi) },
        workload: Workload::Live { n: 100_000, seed: 1, read_ratio: 0.38, block_pages: pi as u64, live },
        run: Default::default(),
    };
    let mut sim = sc.build().unwrap();
    run_checked(&mut sim, 50_000);
    sim.state.metrics()
}

/// Table 4's averages (Multimedia rows), reproduced within ±15 %: W_avg for π = 32 / 64 /
/// 128 at 50 % and 100 %, R_avg = 50 us; copies roughly double from 50 % to 100 %; copies
/// and erases roughly halve when π doubles. The paper's T_avg is not pinned: it does not
/// follow from its own W_avg, R_avg and the trace's mix (0.62 · 419 + 0.38 · 50 = 279, not
/// 341); ours is pinned against that mix-weighted value instead.
#[test]
fn table4_averages_with_live_pages_per_logical_block() {
    // (π, % , paper W_avg) from Table 4, Multimedia.
    let paper =
        [(32, 50, 400.0), (32, 100, 419.0), (64, 50, 359.0), (64, 100, 375.0), (128, 50, 339.0), (128, 100, 353.0)];
    let mut cells = std::collections::BTreeMap::new();
    for &(pi, pct, w_paper) in &paper {
        let live = if pct == 100 { 4 } else { 2 };
        let m = table4_live(pi, live);
        let w = m.latency_us.write.mean;
        assert!(
            (w - w_paper).abs() <= 0.15 * w_paper,
            "π = {pi}, {pct} %: W_avg {w:.0} us vs Table 4's {w_paper} (±15 %)"
        );
        assert_eq!((m.latency_us.read.best, m.latency_us.read.mean, m.latency_us.read.worst), (50.0, 50.0, 50.0));
        assert_eq!(m.latency_us.write.worst, 2325.0);
        let t = (w * m.latency_us.write.count as f64 + 50.0 * m.latency_us.read.count as f64) / m.requests as f64;
        let t_mix = 0.62 * w_paper + 0.38 * 50.0;
        assert!((t - t_mix).abs() <= 0.15 * t_mix, "π = {pi}, {pct} %: T_avg {t:.0} vs the mix-weighted {t_mix:.0}");
        let cp = m.scheme_metrics["valid_page_copies"].as_u64().unwrap() as f64;
        cells.insert((pi, pct), (w, cp, m.erases as f64));
    }
    for pi in [32, 64, 128] {
        let (w50, cp50, _) = cells[&(pi, 50)];
        let (w100, cp100, _) = cells[&(pi, 100)];
        // Table 4: more utilisation, more copies (x1.97 at π = 32) and a slower write.
        assert!(w100 > w50, "π = {pi}: W_avg must grow with utilisation ({w50:.0} -> {w100:.0})");
        assert!((1.5..=3.5).contains(&(cp100 / cp50)), "π = {pi}: copies 50 % -> 100 % x{:.2}", cp100 / cp50);
    }
    for pct in [50, 100] {
        for (a, b) in [(32, 64), (64, 128)] {
            let (wa, cpa, era) = cells[&(a, pct)];
            let (wb, cpb, erb) = cells[&(b, pct)];
            assert!(wb < wa, "{pct} %: W_avg must fall from π = {a} to {b}");
            // Table 4: Σcp and Σer halve when π doubles (137,630 -> 66,508 -> 32,414).
            assert!((1.6..=2.8).contains(&(cpa / cpb)), "{pct} %: copies π {a} -> {b}: x{:.2}", cpa / cpb);
            assert!((1.6..=2.8).contains(&(era / erb)), "{pct} %: erases π {a} -> {b}: x{:.2}", era / erb);
        }
    }
}

/// Table 5's order on the live-pages workload at π = 64, 100 % (Table 5 uses Table 4's
/// Multimedia 100 % / π = 64 run: RFTL T_avg 303): worst response RFTL < GFTL < NFTL;
/// T_avg RFTL lowest; Σcp RFTL < NFTL < GFTL; Σoob RFTL < GFTL < NFTL. (Two departures,
/// measured and documented in rftl.md: our GFTL's T_avg is below NFTL's and NFTL erases the
/// most; in the paper NFTL's T_avg is between and it erases the least.)
#[test]
fn table5_order_with_live_pages_per_logical_block() {
    let mut r = std::collections::BTreeMap::new();
    for scheme in ["rftl", "gftl", "nftl"] {
        let sc = Scenario {
            scheme: scheme.into(),
            params: SchemeParams::default(),
            chip: ChipSpec { preset: "rftl-large".into(), blocks: Some(192), pages_per_block: Some(64) },
            workload: Workload::Live { n: 100_000, seed: 1, read_ratio: 0.38, block_pages: 64, live: 4 },
            run: Default::default(),
        };
        let mut sim = sc.build().unwrap();
        run_checked(&mut sim, 50_000);
        let m = sim.state.metrics();
        let l = &m.latency_us;
        let t_avg = (l.write.mean * l.write.count as f64 + l.read.mean * l.read.count as f64) / m.requests as f64;
        let copies = m.scheme_metrics["valid_page_copies"].as_u64().unwrap();
        r.insert(scheme, (l.read.worst.max(l.write.worst), t_avg, copies, m.oob_reads));
    }
    let (rf, gf, nf) = (r["rftl"], r["gftl"], r["nftl"]);
    assert!(rf.0 == 2325.0 && rf.0 < gf.0 && gf.0 < nf.0, "T_worst order: {r:?}");
    assert!(rf.1 < gf.1 && rf.1 < nf.1, "T_avg: RFTL lowest: {r:?}");
    assert!(rf.2 < nf.2 && nf.2 < gf.2, "Σcp order RFTL < NFTL < GFTL: {r:?}");
    assert!(rf.3 < gf.3 && gf.3 < nf.3, "Σoob order RFTL < GFTL < NFTL: {r:?}");
}

// ---- Power cuts (issue 34): RFTL recovery of a triple whose buffer holds the only copy ----

fn rftl_scenario(preset: &str, blocks: u32, ppb: Option<u32>, workload: Workload) -> Scenario {
    Scenario {
        scheme: "rftl".into(),
        params: SchemeParams::default(),
        chip: ChipSpec { preset: preset.into(), blocks: Some(blocks), pages_per_block: ppb },
        workload,
        run: Default::default(),
    }
}

fn one_hot_page(n: u32) -> Workload {
    Workload::Pattern { text: format!("(w0)x{n}") }
}

/// A cut at every operation boundary, with (`recut`) or without a second cut inside the
/// recovery; every point must recover every acknowledged write, idempotently.
fn sweep_all(sc: &Scenario, recut: Option<u64>) -> ftl_sim::crash::SweepReport {
    use ftl_sim::crash::{sweep, Points};
    let sim = sc.build().unwrap();
    let r = sweep(&sim.state, sim.requests(), &sc.recoverer(), Points::All, recut, |_, _| {});
    assert_eq!(r.points_tried, r.run_ops, "every operation boundary is a cut point");
    assert_eq!(r.recovered_correctly, r.points_tried, "{:#?}", r.first_failures);
    r
}

/// Rewriting one page: the primary fills with stale copies, so the first GC has nothing
/// to copy — the only copy is the one the triggering write put in the buffer — and
/// erases the primary; the exchange then leaves two empty blocks and the buffer (section
/// 4.4, Figure 5 (a)–(d) with no valid page). Recovery used to refuse that triple ("0
/// primary-like and 1 buffer-like blocks"); it is the state a cut-free run is in.
#[test]
fn rftl_recovers_when_buffer_holds_only_copy() {
    let sc = rftl_scenario("classroom", 16, Some(8), one_hot_page(20));
    sweep_all(&sc, None);
    sweep_all(&sc, Some(3));
    // Long enough for the primary + buffer GC with nothing to copy, its circular shift and
    // the replacement GC of a block holding only the hot page (rule 4 with an empty primary).
    sweep_all(&rftl_scenario("classroom", 9, Some(8), one_hot_page(120)), Some(5));
}

/// The benchmark chips (RFTL Table 1): the same one-hot-page workload, cut everywhere.
#[test]
fn rftl_recovers_one_hot_page_on_the_papers_chips() {
    for preset in ["rftl-small", "rftl-large"] {
        sweep_all(&rftl_scenario(preset, 6, None, one_hot_page(150)), Some(7));
    }
}

/// Chained cuts over a fixed request stream (the chain's own generator draws uniform and
/// hot/cold requests only): 0-4 requests run uncut, then a cut inside the next request's
/// operations; 6 cuts in 10 are cut again inside their recovery (crash_once compares the
/// result with an uncut recovery: idempotence); the run goes on from the recovered state.
fn chain_over(sc: &Scenario, cuts: u64, seed: u64) {
    use ftl_sim::crash::crash_once;
    let sim = sc.build().unwrap();
    let reqs = sim.requests().to_vec();
    let recover = sc.recoverer();
    let mut s = sim.state.clone();
    let mut g = SplitMix64::new(seed);
    let geo = *s.flash.geometry();
    let scan = (geo.blocks * geo.pages_per_block) as u64;
    let (mut i, mut cut) = (0usize, 0u64);
    while cut < cuts {
        for _ in 0..g.below(5) {
            s.exec(reqs[i % reqs.len()]).unwrap_or_else(|e| panic!("seed {seed}, after {cut} cuts: {e}"));
            i += 1;
        }
        let req = reqs[i % reqs.len()];
        i += 1;
        let mut t = s.clone();
        let o0 = t.flash.total_ops();
        t.exec(req).unwrap_or_else(|e| panic!("seed {seed}, after {cut} cuts: {e}"));
        let ops = t.flash.total_ops() - o0;
        if ops == 0 {
            s = t;
            continue;
        }
        let recut = (g.below(10) < 6).then(|| g.below(scan + 2 * geo.pages_per_block as u64));
        let (out, next) = crash_once(&s, req, g.below(ops), recut, &recover, &[]).expect("the cut falls inside");
        assert!(out.ok, "seed {seed}, cut {cut} ({req:?}): {out:?}");
        s = next;
        cut += 1;
    }
}

/// Issue 34: every chain of cuts over one hot page stopped with a failed recovery within
/// 4-13 cuts. Odd and even pages per block, the smallest chip RFTL accepts (3 blocks).
#[test]
fn rftl_one_hot_page_chains_keep_recovering() {
    for (blocks, ppb) in [(3, 7), (3, 8), (9, 9), (12, 6)] {
        for seed in 1..=3 {
            chain_over(&rftl_scenario("classroom", blocks, Some(ppb), one_hot_page(50_000)), 300, seed);
        }
    }
}

/// Issue 34's chain on a 10 x 6 chip (its own uniform / hot workload).
#[test]
fn rftl_chain_on_six_page_blocks_recovers_every_cut() {
    use ftl_sim::crash::{chain, ChainOptions};
    let sc = rftl_scenario("classroom", 10, Some(6), Workload::Pattern { text: String::new() });
    let fresh = sc.fresh().unwrap();
    for seed in 1..=3 {
        let r = chain(&fresh, &sc.recoverer(), &ChainOptions::new(2000, seed), |_| {});
        assert_eq!(r.cuts, 2000, "seed {seed}: {:?} {:#?}", r.stopped, r.first_failures);
        assert_eq!(
            (r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.errors),
            (2000, 0, 0, 0),
            "{:#?}",
            r.first_failures
        );
        assert!(!r.stuck && r.pool_excess == 0, "{r:?}");
    }
}

/// A 3-block chip (one logical block, 6 pages: k = 2, j = 2) written by hand: a circular
/// shift has happened (block 0 the primary holding the GC's copies or nothing, block 1 the
/// old buffer — the replacement GC's victim — and block 2 the new buffer), and recuts of
/// earlier recoveries tore every free page of the new buffer. Recovery must still finish
/// the replacement GC without losing a page.
fn shifted_triple(primary: &[(u32, u32)], old_buffer: &[(u32, u32)], new_buffer: &[(u32, u32)], torn: u32) -> Flash {
    use ftl_sim::nand::{Cause, Page};
    let sc = rftl_scenario("classroom", 3, Some(6), Workload::Pattern { text: String::new() });
    let mut flash = sc.fresh().unwrap().flash;
    // (lpn, seq) per page; the version is the sequence number; tags are the roles at
    // program time: copies into the replacement 1, buffer writes and copies 2.
    for (pbn, pages, tag) in [(0u32, primary, 1u8), (1, old_buffer, 2), (2, new_buffer, 2)] {
        for (o, &(lpn, seq)) in pages.iter().enumerate() {
            flash.program(pbn * 6 + o as u32, Page::stamped(lpn, seq, seq, tag), Cause::Host).unwrap();
        }
    }
    for o in new_buffer.len() as u32..new_buffer.len() as u32 + torn {
        flash.set_power_budget(Some(0));
        assert!(flash.program(12 + o, Page::stamped(5, 99, 99, 2), Cause::Host).is_err());
        flash.power_on();
    }
    flash
}

fn recovered_versions(flash: &mut Flash) -> (Rftl, Vec<u32>) {
    let f = Rftl::recover(flash, &SchemeParams::default()).unwrap();
    let v = (0..6).map(|l| f.locate(l).map_or(0, |q| flash.peek(q).version)).collect();
    (f, v)
}

#[test]
fn rftl_recovery_finishes_a_replacement_gc_whose_buffer_recuts_filled() {
    // Primary: copies of lpns 3 and 4; old buffer: lpn 1 (twice) and 2 live; new buffer:
    // one host write of lpn 0, then five torn pages: no room for the two live pages of
    // the victim, which go to the primary's free pages instead.
    let mut flash = shifted_triple(&[(3, 10), (4, 11)], &[(1, 1), (1, 5), (2, 6)], &[(0, 12)], 5);
    let (mut f, v) = recovered_versions(&mut flash);
    assert_eq!(v, vec![12, 5, 6, 10, 11, 0]);
    // The victim went, then the full buffer beside the primary was compacted (rule 4):
    // no torn page is left on the chip.
    let torn =
        (0..3).flat_map(|b| flash.block_pages(b).to_vec()).filter(|p| p.kind == ftl_sim::nand::PageKind::Torn).count();
    assert_eq!(torn, 0);
    // The device goes on: rewrite every page a few times (GCs included), nothing lost.
    for round in 0..8u32 {
        for l in 0..6 {
            f.write(&mut flash, l, 100 + 6 * round + l).unwrap();
        }
    }
    let (_, v) = recovered_versions(&mut flash);
    assert_eq!(v, (0..6).map(|l| 142 + l).collect::<Vec<_>>());

    // No primary page (every live page was written after the GC's trigger): compaction
    // into the empty block instead.
    let mut flash = shifted_triple(&[], &[(1, 1), (1, 5), (2, 6)], &[(0, 12)], 5);
    let (_, v) = recovered_versions(&mut flash);
    assert_eq!(v, vec![12, 5, 6, 0, 0, 0]);
    let used = (0..3).filter(|&b| flash.block_pages(b).iter().any(|p| !p.is_erased())).count();
    assert_eq!(used, 1, "the compaction block alone holds the logical block");
}

/// Rule 3 with no room anywhere: the new buffer's free pages torn, the primary full but for
/// one page, the victim's two live pages (lpns 1 and 2) to move — and no empty block, all
/// three are in use. Recovery used to refuse ("no room in buffer block ... and primary
/// block"). Now the primary or the buffer, whichever has fewer live pages, is emptied into
/// the others' free pages and erased. Case 1: the buffer (one live page, lpn 0) goes to the
/// primary's free page; the victim, with room for k more writes, is the buffer of a no-GC
/// triple. Case 2: the primary (one live page, lpn 3, beside four older copies) goes to
/// the victim, and with the buffer full (lpns 0, 4, 5, then torn pages) the victim's live
/// pages are compacted into the emptied block (rule 3 without a primary). A cut after any
/// of recovery's operations, then recovery again, gives the same; the device goes on.
#[test]
fn rftl_recovery_empties_a_block_when_a_replacement_gc_has_no_room_left() {
    type Pages = &'static [(u32, u32)];
    let cases: [(Pages, Pages, Pages, u32, [u32; 6]); 2] = [
        (&[(3, 10), (4, 11), (5, 12), (0, 13), (3, 14)], &[(1, 3), (2, 4)], &[(0, 20)], 5, [20, 3, 4, 14, 11, 12]),
        (
            &[(3, 10), (3, 11), (3, 12), (3, 13), (3, 14)],
            &[(1, 3), (2, 4)],
            &[(0, 20), (4, 21), (5, 22)],
            3,
            [20, 3, 4, 14, 21, 22],
        ),
    ];
    for (i, &(primary, victim, buffer, torn, want)) in cases.iter().enumerate() {
        let triple = || shifted_triple(primary, victim, buffer, torn);
        let mut flash = triple();
        let o0 = flash.total_ops();
        let (mut f, v) = recovered_versions(&mut flash);
        let ops = flash.total_ops() - o0;
        assert_eq!(v, want, "case {i}");
        let torn = (0..3)
            .flat_map(|b| flash.block_pages(b).to_vec())
            .filter(|p| p.kind == ftl_sim::nand::PageKind::Torn)
            .count();
        assert_eq!(torn, 0, "case {i}: the torn pages went with the erased buffer");
        for j in 0..ops {
            let mut cut = triple();
            cut.set_power_budget(Some(j));
            assert!(Rftl::recover(&mut cut, &SchemeParams::default()).is_err(), "case {i}: cut after {j} of {ops}");
            cut.power_on();
            assert_eq!(
                recovered_versions(&mut cut).1,
                want,
                "case {i}: recovery cut after {j} of its {ops} operations"
            );
        }
        for round in 0..8u32 {
            for l in 0..6 {
                f.write(&mut flash, l, 100 + 6 * round + l).unwrap();
            }
        }
        let (_, v) = recovered_versions(&mut flash);
        assert_eq!(v, (0..6).map(|l| 142 + l).collect::<Vec<_>>(), "case {i}");
    }
}
