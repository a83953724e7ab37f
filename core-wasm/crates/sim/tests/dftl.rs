//! DFTL (Gupta et al., ASPLOS 2009): the map on flash and the CMT agree with the data,
//! the reference model holds with and without power cuts, the CMT hit ratio grows with the
//! cache, and the address-translation overhead falls as the paper reports.

use crate::common;

use common::{run_checked, scenario};
use ftl_sim::ftl::dftl::Dftl;
use ftl_sim::ftl::{Ftl, SchemeParams};
use ftl_sim::nand::{Chip, Flash, PageKind};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::rng::SplitMix64;

fn chip(blocks: u32, ppb: u32, page_bytes: u32) -> Chip {
    let mut c = Chip::preset("classroom").unwrap();
    c.geometry.blocks = blocks;
    c.geometry.pages_per_block = ppb;
    c.geometry.page_bytes = page_bytes;
    c
}

fn params(cmt: u32) -> SchemeParams {
    SchemeParams { cmt_entries: Some(cmt), ..Default::default() }
}

/// Every LPN: the scheme's own tables (its CMT entry, else its translation page on flash)
/// say where it is, that page holds its latest version, and no page went invalid -> valid.
fn check_tables(ftl: &Dftl, flash: &Flash, model: &[u32]) {
    for (lpn, &v) in model.iter().enumerate() {
        let at = ftl.mapped_by_tables(flash, lpn as u32);
        assert_eq!(at, ftl.locate(lpn as u32), "lpn {lpn}: tables and the device view disagree");
        match at {
            None => assert_eq!(v, 0, "lpn {lpn} written but unmapped"),
            Some(p) => {
                let page = flash.peek(p);
                assert_eq!((page.kind, page.lpn, page.version), (PageKind::Data, lpn as u32, v), "lpn {lpn}");
            }
        }
    }
    assert!(ftl.cmt().len() <= ftl.cmt().capacity());
    // The GTD points at translation pages of the right number.
    for t in 0..ftl.translation_pages() {
        if let Some(p) = ftl.gtd(t) {
            let page = flash.peek(p);
            assert_eq!((page.kind, page.lpn), (PageKind::Meta, t), "translation page {t}");
        }
    }
}

/// Random writes and reads, skewed, straight on the scheme: tables checked every 50 requests.
fn drive(c: Chip, cmt: u32, n: usize, seed: u64, skewed: bool) -> (Dftl, Flash) {
    let mut flash = Flash::new(c.clone());
    let mut ftl = Dftl::new(&c.geometry, &params(cmt)).unwrap();
    let lp = ftl.logical_pages();
    let mut model = vec![0u32; lp as usize];
    let mut rng = SplitMix64::new(seed);
    for i in 0..n {
        let hot = skewed && rng.unit() < 0.8;
        let lpn = if hot { rng.below((lp as u64 / 5).max(1)) } else { rng.below(lp as u64) } as u32;
        if rng.unit() < 0.3 {
            let got = ftl.read(&mut flash, lpn).unwrap();
            assert_eq!(got.map(|p| flash.peek(p).version).unwrap_or(0), model[lpn as usize], "read of {lpn}");
        } else {
            model[lpn as usize] += 1;
            ftl.write(&mut flash, lpn, model[lpn as usize]).unwrap();
        }
        if i % 50 == 0 {
            check_tables(&ftl, &flash, &model);
        }
    }
    check_tables(&ftl, &flash, &model);
    (ftl, flash)
}

#[test]
fn the_map_on_flash_and_the_cmt_agree_with_the_data() {
    // 512-byte pages: 128 entries a translation page; small and large CMTs, small and large blocks.
    for (blocks, ppb, page_bytes, cmt) in
        [(16, 4, 512, 4), (64, 8, 64, 8), (128, 16, 32, 3), (40, 4, 16, 1), (96, 32, 512, 64)]
    {
        let (ftl, flash) = drive(chip(blocks, ppb, page_bytes), cmt, 12_000, blocks as u64, true);
        let s = ftl.stats();
        assert!(s.data_gc_runs > 0, "{blocks} x {ppb}: GC ran");
        assert!(s.cmt_misses > 0 && s.translation_writes() > 0, "{blocks} x {ppb}: {s:?}");
        if ftl.translation_pages() > ppb {
            assert!(s.translation_gc_runs > 0, "{blocks} x {ppb} x {page_bytes}: translation blocks collected: {s:?}");
        }
        // Every program the chip did is a host write, a GC copy or a translation write.
        use ftl_sim::nand::{Cause, OpKind};
        let host = flash.count(OpKind::Program, Cause::Host);
        assert_eq!(
            flash.total(OpKind::Program),
            host + s.data_gc_copies + s.translation_writes() + s.translation_gc_copies,
            "{s:?}"
        );
        assert_eq!(
            flash.total(OpKind::Read) - flash.count(OpKind::Read, Cause::Host),
            s.data_gc_copies + s.translation_reads() + s.translation_gc_copies
        );
    }
}

#[test]
fn dftl_matches_the_reference_model_on_every_workload() {
    for (i, w) in [
        Workload::Uniform { n: 3000, seed: 1, read_ratio: 0.3 },
        Workload::Hotcold { n: 3000, seed: 2, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 },
        Workload::Sequential { n: 3000 },
        Workload::Camera { n: 3000, seed: 3, file_pages: 8, fat_fraction: 0.05, fat_writes: 2 },
    ]
    .into_iter()
    .enumerate()
    {
        for p in [SchemeParams::default(), params(2), SchemeParams { op: Some(0.05), ..params(16) }] {
            let mut sim = scenario("dftl", p.clone(), 24 + 8 * i as u32, 8, w.clone()).build().unwrap();
            run_checked(&mut sim, 97);
        }
    }
}

/// (hit ratio, translation reads, translation writes) of 40,000 requests on a 256 x 32 chip
/// of 512-byte pages (6,144 logical pages, 48 translation pages), 30 % reads: skewed (80 %
/// of requests to 20 % of the pages) or uniform.
fn overhead(cmt: u32, skewed: bool) -> (f64, u64, u64) {
    let (ftl, _) = drive(chip(256, 32, 512), cmt, 40_000, 7, skewed);
    let s = ftl.stats();
    (s.cmt_hits as f64 / (s.cmt_hits + s.cmt_misses) as f64, s.translation_reads(), s.translation_writes())
}

/// Section 4 of the paper: the CMT hit ratio grows with the cache, the address-translation
/// overhead (translation-page reads and writes) falls with it, and a workload with
/// temporal locality pays less of it than a uniform one with the same CMT.
#[test]
fn the_hit_ratio_rises_and_the_translation_overhead_falls_with_the_cmt_size() {
    let sizes = [32u32, 128, 512, 2048];
    let runs: Vec<_> = sizes.iter().map(|&c| overhead(c, true)).collect();
    eprintln!("skewed: {runs:?}");
    for w in runs.windows(2) {
        assert!(w[1].0 > w[0].0, "hit ratio rises: {runs:?}");
        assert!(w[1].1 < w[0].1, "translation reads fall: {runs:?}");
        assert!(w[1].2 < w[0].2, "translation writes fall: {runs:?}");
    }
    for (i, &c) in sizes.iter().enumerate() {
        let u = overhead(c, false);
        eprintln!("uniform {c}: {u:?}");
        assert!(u.0 < runs[i].0 && u.1 > runs[i].1, "cmt {c}: uniform {u:?}, skewed {:?}", runs[i]);
    }
}

/// Power cuts (issue 38): chains of cuts and single cuts over every workload kind the crash
/// tests draw, on classroom chips (128 entries a translation page) from DFTL's registry
/// minimum up to 4 translation pages; every acknowledged write survives and every pool stays within its cut-free
/// bound (crash::chain's checks). The wide property test in crash.rs draws DFTL too.
#[test]
fn dftl_recovers_from_power_cut_chains_on_every_workload() {
    use ftl_sim::crash::{chain, sweep, ChainOptions, Points};
    let mut seed = 11u64;
    for (ppb, extra) in [(2u32, 0u32), (3, 1), (4, 5), (5, 12), (8, 60), (16, 24)] {
        let p = SchemeParams { cmt_entries: Some(3), ..Default::default() };
        let blocks = ftl_sim::fit::min_blocks("dftl", &p, "classroom", ppb).unwrap() + extra;
        for kind in 0..common::WORKLOAD_KINDS.len() {
            seed += 1;
            let c = chip(blocks, ppb, 512);
            let lp = Dftl::new(&c.geometry, &p).unwrap().logical_pages();
            let w = common::workload(kind, 400, seed, 0.2, lp, ppb);
            let sc = scenario("dftl", p.clone(), blocks, ppb, w);
            let sim = sc.build().unwrap();
            let what = format!("{blocks} x {ppb}, {}", common::WORKLOAD_KINDS[kind]);
            for reads_erased in [false, true] {
                let mut o = ChainOptions::new(250, seed);
                o.workload = Some(sim.requests().to_vec().into());
                o.reads_erased = reads_erased;
                let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
                assert_eq!(r.cuts, 250, "{what}: {:?}", r.stopped);
                assert_eq!(
                    (r.recovered_correctly, r.acked_writes_lost, r.wrong_reads, r.pool_excess),
                    (250, 0, 0, 0),
                    "{what}: {:#?}",
                    r.first_failures
                );
            }
            let reqs = &sim.requests()[..sim.requests().len().min(120)];
            let s = sweep(&sim.state, reqs, &sc.recoverer(), Points::Every(3), Some(seed), |_, _| {});
            assert_eq!(s.recovered_correctly, s.points_tried, "{what}: {:#?}", s.first_failures);
        }
    }
}

/// After every cut, the recovered scheme's own tables (CMT, else its translation page on
/// flash) name the same page as the device view, and the CMT holds no more than its size:
/// the mappings that lagged their translation pages fit in it (recovery.rs, rule 1).
#[test]
fn after_every_cut_the_recovered_tables_agree_with_the_device_view() {
    use ftl_sim::crash::{sweep, Points, Recover};
    use std::sync::Arc;
    for (blocks, ppb, cmt) in [(12u32, 4u32, 2u32), (20, 8, 5)] {
        let p = params(cmt);
        let w = Workload::Hotcold { n: 500, seed: blocks as u64, read_ratio: 0.2, hot_fraction: 0.2, hot_ratio: 0.8 };
        let sc = scenario("dftl", p.clone(), blocks, ppb, w);
        let sim = sc.build().unwrap();
        let checked: Recover = Arc::new(move |flash| {
            let ftl = Dftl::recover(flash, &p)?;
            for lpn in 0..ftl.logical_pages() {
                assert_eq!(ftl.mapped_by_tables(flash, lpn), ftl.locate(lpn), "lpn {lpn} after recovery");
            }
            assert!(ftl.cmt().len() <= ftl.cmt().capacity());
            Ok(Ok(Box::new(ftl) as Box<dyn Ftl>))
        });
        let r = sweep(&sim.state, sim.requests(), &checked, Points::All, Some(3), |_, _| {});
        assert!(r.points_tried > 1000, "{r:?}");
        assert_eq!(r.recovered_correctly, r.points_tried, "{blocks} x {ppb}: {:#?}", r.first_failures);
    }
}

/// The app's DFTL panels: the CMT's entries (each where the scheme says its LPN is, dirty
/// where its translation page lags), the translation counters, the GTD.
#[test]
fn the_panels_show_the_cmt_the_counters_and_the_gtd() {
    use ftl_sim::ftl::panel::{Cell, PanelData};
    let (ftl, flash) = drive(chip(64, 8, 64), 6, 3000, 5, true);
    let panels = ftl.panels(&flash);
    assert_eq!(panels.len(), 3);
    let rows = |i: usize| match &panels[i].data {
        PanelData::Table { rows, .. } => rows.clone(),
        other => panic!("{other:?}"),
    };
    let n = |c: &Cell| match c {
        Cell::Number(x) => *x as u32,
        Cell::Text(t) => panic!("{t}"),
    };
    let cmt = rows(0);
    assert_eq!(cmt.len(), ftl.cmt().len());
    for r in &cmt {
        let lpn = n(&r[0]);
        let at = ftl.locate(lpn).unwrap();
        assert_eq!((n(&r[2]), n(&r[3])), (at / 8, at % 8), "lpn {lpn}");
        let lags = ftl.gtd(lpn / 16).and_then(|t| flash.payload(t).map(|e| e[(lpn % 16) as usize])) != Some(at);
        assert_eq!(r[4] == Cell::Text("dirty".into()), lags, "lpn {lpn}");
    }
    let s = ftl.stats();
    let counters = rows(1);
    assert_eq!(n(&counters[0][1]) as u64, s.cmt_hits);
    assert_eq!(n(&counters[3][1]) as u64, s.translation_reads());
    assert_eq!(n(&counters[7][1]) as u64, s.translation_writes());
    assert_eq!(rows(2).len() as u32, ftl.translation_pages());
}

/// Recovery's spare-area count is exact: each spare area it reads once (the flash's own
/// ReadOob operations, no page twice), and as many as the scan's rule names, worked out
/// here from the chip: a block's first page; a translation block's pages up to the first
/// erased one; a data block's last page and, unless that is data older than `T_min`, its
/// pages up to the first erased one. Before, a data block read whole counted (and read) its
/// last spare area twice ("8,248 spare areas read of 8,192").
fn assert_spare_reads_exact(flash: &Flash, events: &[ftl_sim::nand::Event], reads: &ftl_sim::ftl::dftl::RecoveryReads) {
    use ftl_sim::nand::{Event, OpKind};
    let oob: Vec<u32> = events
        .iter()
        .filter_map(|e| match *e {
            Event::Op { kind: OpKind::ReadOob, ppn, .. } => Some(ppn),
            _ => None,
        })
        .collect();
    let mut distinct = oob.clone();
    distinct.sort_unstable();
    distinct.dedup();
    assert_eq!(distinct.len(), oob.len(), "a spare area read twice");
    assert_eq!(reads.spare_reads, oob.len() as u64, "counted against read");
    let ppb = flash.geometry().pages_per_block;
    let mut want = 0u64;
    for b in 0..flash.geometry().blocks {
        let page = |o: u32| *flash.peek(b * ppb + o);
        let first = page(0);
        // Pages after the first up to the first erased one (it read too), within the block.
        let scanned = (1..ppb).position(|o| page(o).kind == PageKind::Erased).map_or(ppb - 1, |i| i as u32 + 1);
        want += 1 + match first.kind {
            PageKind::Erased => 0,
            PageKind::Meta => scanned,
            _ if ppb == 1 => 0,
            _ => {
                let last = page(ppb - 1);
                if last.kind == PageKind::Data && last.seq < reads.t_min {
                    1
                } else {
                    // The last page once, whether or not the scan reaches it.
                    scanned + (scanned < ppb - 1) as u32
                }
            }
        } as u64;
    }
    assert_eq!(reads.spare_reads, want, "{reads:?}");
}

/// Recovery reads less than every spare area (issue 38, item 3; recovery.rs): each block's
/// first page, the translation blocks whole, and only the data blocks not older than every
/// translation page. Measured after skewed and uniform runs (the reads it saved are printed:
/// `cargo test --release -p ftlscope-sim --test dftl recovery_skips -- --nocapture`), and the
/// recovered device holds every LPN where the scheme had it. Correctness under cuts anywhere,
/// inside recovery too, is the chain and sweep tests above.
#[test]
fn recovery_skips_data_blocks_older_than_every_translation_page() {
    for (blocks, ppb, cmt, n) in [(64u32, 8u32, 6u32, 3000usize), (256, 32, 128, 40_000)] {
        for skewed in [true, false] {
            let (ftl, flash) = drive(chip(blocks, ppb, 512), cmt, n, 9, skewed);
            let mut cut = flash.clone();
            cut.set_recording(true);
            let (rec, reads) = Dftl::recover_counted(&mut cut, &params(cmt)).unwrap();
            assert_spare_reads_exact(&flash, &cut.take_events(), &reads);
            for lpn in 0..ftl.logical_pages() {
                let want = ftl.locate(lpn).map(|p| (flash.peek(p).lpn, flash.peek(p).version));
                let got = rec.locate(lpn).map(|p| (cut.peek(p).lpn, cut.peek(p).version));
                assert_eq!(got, want, "lpn {lpn}");
                assert_eq!(rec.mapped_by_tables(&cut, lpn), rec.locate(lpn), "lpn {lpn}");
            }
            let full = reads.chip_pages;
            eprintln!(
                "{blocks} x {ppb}, CMT {cmt}, {n} requests, {}: {} spare areas read of {full} ({:.1} %), {} data blocks skipped, T_min {}",
                if skewed { "skewed" } else { "uniform" },
                reads.spare_reads,
                100.0 * reads.spare_reads as f64 / full as f64,
                reads.skipped_blocks,
                reads.t_min
            );
            assert!(reads.skipped_blocks > 0 && reads.spare_reads < full, "{reads:?}");
        }
    }
}

/// Sequential writes on DFTL's smallest chips (one translation page): after a cut, most of
/// all one inside a write-back or inside the recovery's own, cut again, recovery left
/// closed translation blocks holding nothing valid, which GC reclaims only when it needs a
/// block and, with the candidates rebuilt in block order, after data blocks: 3 map blocks
/// where a cut-free run has at most 2 (the open one and the one holding the translation
/// page), "pools: MapBlock 3 blocks, 1 more than the cut-free run's most (2)" at cut 19, 31
/// and 455 of these chains (21 chains of the long run on 8-11 blocks). Recovery now erases
/// every closed translation block with no valid translation page (recovery.rs).
#[test]
fn recovery_erases_translation_blocks_holding_nothing_valid() {
    use ftl_sim::crash::{chain, ChainOptions};
    use ftl_sim::ftl::BlockRole;
    for (blocks, ppb, seed) in [(10u32, 4u32, 2u64), (10, 7, 2), (10, 5, 1), (11, 2, 1)] {
        let sc = scenario("dftl", SchemeParams::default(), blocks, ppb, Workload::Sequential { n: 5000 });
        let sim = sc.build().unwrap();
        assert_eq!(sim.state.ftl.logical_pages().div_ceil(128), 1, "one translation page");
        let mut o = ChainOptions::new(600, seed);
        o.workload = Some(sim.requests().to_vec().into());
        o.reads_erased = true;
        let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
        let what = format!("{blocks} x {ppb}, seed {seed}");
        assert_eq!((r.cuts, r.recovered_correctly, r.acked_writes_lost), (600, 600, 0), "{what}: {:?}", r.stopped);
        let map = r.pools.iter().find(|p| p.role == BlockRole::MapBlock).expect("map blocks measured");
        assert!(map.after_recovery <= 2 && map.after_recovery <= map.cut_free, "{what}: {map:?}");
        assert_eq!(r.pool_excess, 0, "{what}: {:#?}", r.first_failures);
    }
}

/// 11 x 2, uniform (`ftl crash-sweep --scheme dftl --blocks 11 --pages-per-block 2 --gen
/// uniform:n=5000,seed=2,read_ratio=0.2 --seed 2 --chain 20000 --reads-erased`), cut 8,448:
/// two write-backs torn in fresh blocks (a GC's batch update, then recovery's own CMT
/// refill) left the scan no free block, only closed blocks holding nothing valid, and the
/// next recovery's refill (5 lagging mappings, 4 CMT entries) needed a translation block
/// before its GC ran: "DFTL ran out of free blocks". Recovery now erases blocks holding
/// nothing valid before it programs anything.
#[test]
fn recovery_erases_empty_blocks_before_its_own_write_backs() {
    use ftl_sim::crash::{chain, ChainOptions};
    let w = Workload::Uniform { n: 5000, seed: 2, read_ratio: 0.2 };
    let sc = scenario("dftl", SchemeParams::default(), 11, 2, w);
    let sim = sc.build().unwrap();
    let mut o = ChainOptions::new(9000, 2);
    o.workload = Some(sim.requests().to_vec().into());
    o.reads_erased = true;
    let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
    assert_eq!(r.stopped, None, "{:#?}", r.first_failures);
    assert_eq!((r.cuts, r.recovered_correctly, r.acked_writes_lost, r.wrong_reads), (9000, 9000, 0, 0));
    assert_eq!(r.pool_excess, 0, "{:#?}", r.first_failures);
}

/// Sequential writes on 256-block chips (`ftl crash-sweep --scheme dftl --blocks 256
/// --pages-per-block 32 --gen sequential:n=5000 --seed 1 --chain 10000 --reads-erased`):
/// recoveries left 4 map blocks where the one cut-free run has at most 3 (first at cut
/// 4,261, a cut between requests whose recovery wrote nothing), and on 256 x 8 6 against 5.
/// The chain's history drifts from that run (a recovered CMT holds only the lagging
/// entries and evicts in another order), and greedy GC bounds translation blocks only by
/// history: one holding a valid translation page is never its victim while data blocks die
/// whole. Recovery now holds the closed translation blocks to a structural cap, the blocks
/// the translation pages fill plus one (48 pages of 32 a block: 2 + 1; 12 of 8: 2 + 1), and
/// the chain judges the map pool against that cap and the open block (4 on both). Without
/// the cap in recovery 256 x 8 fails at cut 1,188 (5 map blocks); judged against the
/// cut-free run 256 x 32 fails at cut 4,261.
#[test]
fn recovery_holds_translation_blocks_to_their_structural_cap() {
    use ftl_sim::crash::{chain, ChainOptions};
    use ftl_sim::ftl::BlockRole;
    for (ppb, cuts, pages) in [(8u32, 2_000u64, 12u32), (32, 5_000, 48)] {
        let sc = scenario("dftl", SchemeParams::default(), 256, ppb, Workload::Sequential { n: 5000 });
        let sim = sc.build().unwrap();
        let dftl = Dftl::new(&sim.state.flash.geometry().clone(), &SchemeParams::default()).unwrap();
        assert_eq!((dftl.translation_pages(), dftl.translation_block_cap()), (pages, 3));
        assert_eq!(sim.state.ftl.pool_cap(BlockRole::MapBlock), Some(4));
        let mut o = ChainOptions::new(cuts, 1);
        o.workload = Some(sim.requests().to_vec().into());
        o.reads_erased = true;
        let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
        let what = format!("256 x {ppb}");
        assert_eq!(
            (r.cuts, r.recovered_correctly, r.acked_writes_lost, r.wrong_reads),
            (cuts, cuts, 0, 0),
            "{what}: {:#?}",
            r.first_failures
        );
        let map = r.pools.iter().find(|p| p.role == BlockRole::MapBlock).expect("map blocks measured");
        assert_eq!(map.cap, Some(4), "{what}");
        assert!(map.after_recovery <= 4, "{what}: {map:?}");
        assert_eq!(r.pool_excess, 0, "{what}: {:#?}", r.first_failures);
    }
}
