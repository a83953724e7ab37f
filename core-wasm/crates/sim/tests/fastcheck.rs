//! Power cuts and recovery for BAST, FAST, O-FAST, FastCheck and LTFTL-style logging on
//! FAST: crash sweeps (every cut point on small chips, random points on larger ones, a
//! second cut inside each recovery), the situation of FastCheck Figure 4, and the
//! paper's logging-overhead and recovery-cost equations.

use crate::common;

use common::scenario;
use ftl_sim::crash::{sweep, Points, SweepReport};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::trace::gen::Workload;

fn lb(n: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(n), ..Default::default() }
}

fn run_sweep(
    scheme: &str,
    params: SchemeParams,
    blocks: u32,
    ppb: u32,
    w: Workload,
    points: Points,
    recut: Option<u64>,
) -> SweepReport {
    let sc = scenario(scheme, params, blocks, ppb, w);
    let sim = sc.build().unwrap();
    sweep(&sim.state, sim.requests(), &sc.recoverer(), points, recut, |_, _| {})
}

fn assert_all_ok(r: &SweepReport) {
    assert!(r.points_tried > 0, "{r:?}");
    assert_eq!(r.recovered_correctly, r.points_tried, "{}: {:#?}", r.scheme, r.first_failures);
}

fn mixed(n: u64, seed: u64) -> Workload {
    Workload::Hotcold { n, seed, read_ratio: 0.2, hot_fraction: 0.2, hot_ratio: 0.8 }
}

/// Sequential runs (from block starts or mid-block: SW log block cases 1, 2.1, 2.2, 2.3,
/// switches and partial merges) mixed with random writes and reads, as a pattern.
fn seq_mix(n: usize, seed: u64, logical: u32, ppb: u32) -> Workload {
    let mut x = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1;
    let mut rnd = |m: u32| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x % m as u64) as u32
    };
    let mut t = String::new();
    let mut k = 0;
    while k < n {
        match rnd(10) {
            0..=2 => {
                let start = if rnd(2) == 0 { rnd(logical / ppb) * ppb } else { rnd(logical) };
                let len = 1 + rnd(2 * ppb);
                let end = (start + len).min(logical) - 1;
                t += &format!("w{start}-{end} ");
                k += (end - start + 1) as usize;
            }
            3 => {
                t += &format!("r{} ", rnd(logical));
                k += 1;
            }
            _ => {
                t += &format!("w{} ", rnd(logical));
                k += 1;
            }
        }
    }
    Workload::Pattern { text: t }
}

#[test]
fn scan_recovery_every_cut_point_small_chip() {
    for scheme in ["bast", "fast", "ofast"] {
        for (seed, w) in [
            (1, mixed(500, 1)),
            (2, Workload::Uniform { n: 500, seed: 2, read_ratio: 0.1 }),
            (3, seq_mix(500, 3, 32, 4)),
        ] {
            let r = run_sweep(scheme, lb(3), 12, 4, w, Points::All, Some(seed));
            eprintln!(
                "{scheme} seed {seed}: {} points, ok {}, recut {}, pages read mean {}",
                r.points_tried, r.recovered_correctly, r.recut_points, r.recovery_pages_read.mean
            );
            assert_eq!(r.points_tried, r.run_ops);
            assert_all_ok(&r);
        }
    }
}

fn fc(log_blocks: u32, lpns: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(log_blocks), checkpoint_lpns: Some(lpns), ..Default::default() }
}

#[test]
fn fastcheck_and_ltlog_every_cut_point_small_chip() {
    for scheme in ["fastcheck", "fast-ltlog"] {
        for (seed, w) in [
            (1, mixed(500, 1)),
            (2, Workload::Uniform { n: 500, seed: 2, read_ratio: 0.1 }),
            (3, seq_mix(500, 3, 56, 4)),
        ] {
            // 7 RW log blocks of 4 pages, regions of 2 log blocks (8 LPNs per checkpoint).
            let r = run_sweep(scheme, fc(8, 8), 32, 4, w, Points::All, Some(seed));
            eprintln!(
                "{scheme} seed {seed}: {} points, ok {}, pages read mean {}",
                r.points_tried, r.recovered_correctly, r.recovery_pages_read.mean
            );
            assert_eq!(r.points_tried, r.run_ops);
            assert_all_ok(&r);
        }
    }
}

/// FastCheck Figure 4: six RW log blocks in two log regions of three (4-page blocks, a
/// checkpoint of 12 LPNs). Region 0 is checkpointed; region 1's first block was a victim
/// and was replaced by a new block, now full; the second block of region 1 is the victim
/// — it holds LPNs 41, 42 (LBN 10), 46 (LBN 11) and 49 (LBN 12, already merged: −1) —
/// and power fails right after its first merge (LBN 10).
#[test]
fn figure_4_cut_right_after_the_first_merge_of_a_victim() {
    use ftl_sim::crash::crash_once;
    use ftl_sim::nand::{Cause, Event, OpKind};
    use ftl_sim::trace::Request;
    let text = [
        "w0-67",                                           // every data block written in place
        "w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25",     // region 0: A B C (checkpoint)
        "w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33", // region 1: D E F (checkpoint)
        "w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5",     // A, B, C victims → A' B' C' (checkpoint)
        "w9 w10 w11 w13",                                  // D victim (merges LBN 12) → D'
        "w18",                                             // E victim: merge LBN 10, then LBN 11
    ]
    .join(" ");
    let sc = scenario("fastcheck", fc(7, 12), 32, 4, Workload::Pattern { text });
    let sim = sc.build().unwrap();
    let reqs = sim.requests().to_vec();
    let mut s = sim.state.clone();
    for &r in &reqs[..reqs.len() - 1] {
        s.exec(r).unwrap();
    }
    let last = *reqs.last().unwrap();
    assert_eq!(last, Request::Write { lpn: 18 });
    // Find the end of the victim's first merge: the erase of LBN 10's old data block.
    let mut probe = s.clone();
    probe.flash.set_recording(true);
    probe.exec(last).unwrap();
    let ev: Vec<Event> = probe.flash.take_events().into_iter().filter(|e| matches!(e, Event::Op { .. })).collect();
    let first_erase =
        ev.iter().position(|e| matches!(e, Event::Op { kind: OpKind::Erase, cause: Cause::FullMerge, .. })).unwrap();
    let merges_before = s.flash.counters.full_merges;
    eprintln!(
        "Figure 4: request {} of {}, cut after operation {} of {}",
        reqs.len(),
        reqs.len(),
        first_erase + 1,
        ev.len()
    );

    let rec = sc.recoverer();
    let notes = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let n2 = notes.clone();
    let rec2: ftl_sim::crash::Recover = std::sync::Arc::new(move |f: &mut ftl_sim::nand::Flash| {
        f.set_recording(true);
        let r = rec(f);
        for e in f.take_events() {
            if let Event::Note { tag, text } = e {
                n2.lock().unwrap().push((tag, text));
            }
        }
        f.set_recording(false);
        r
    });
    let (o, after) = crash_once(&s, last, first_erase as u64 + 1, None, &rec2, &[]).unwrap();
    assert!(o.ok, "{o:?}");
    // Exactly one merge (LBN 10) happened in the cut request.
    assert_eq!(after.flash.counters.full_merges, merges_before + 1);

    let notes = notes.lock().unwrap().clone();
    let phases: Vec<&str> = notes.iter().filter(|n| n.0 == "recovery_phase").map(|n| &n.1[..2]).collect();
    assert_eq!(phases, ["1.", "2.", "3.", "4.", "5.", "6."], "{notes:#?}");
    // The consistency check sets exactly LPNs 41, 42 (merged by the interrupted victim's
    // first merge) and 49 (merged with D after region 1's checkpoint) of the victim to −1.
    let inval: Vec<&String> =
        notes.iter().filter(|n| n.0 == "consistency" && n.1.contains("→ −1")).map(|n| &n.1).collect();
    assert_eq!(inval.len(), 3, "{inval:#?}");
    for l in ["LPN 41", "LPN 42", "LPN 49"] {
        assert!(inval.iter().any(|t| t.contains(l)), "{l}: {inval:#?}");
    }
    let m = &after.ftl.scheme_metrics()["recovery_logging"]["last_recovery"];
    // The newest checkpoint of each of the 2 regions, plus 2 spare-area reads (a binary
    // search over the 4 pages of the checkpoint block) to find where its pages end.
    assert_eq!(m["checkpoints"], 2 + 2, "{m}");
    assert_eq!(m["restoration"], 4, "the spare areas of the one uncheckpointed log block D': {m}");
    assert_eq!(m["redo_ops"], 0, "the merge completed: nothing to undo or finish: {m}");

    // The recovered RW list: the victim first, with its merged entries −1 and LPN 46 still
    // valid (LBN 11's merge is redone at the next RW write), then F, A', B', C', D'.
    let t = after.ftl.panels(&after.flash);
    let rw = t
        .iter()
        .find_map(|p| match &p.data {
            ftl_sim::ftl::PanelData::SharedLogBlocks { blocks } => Some(blocks),
            _ => None,
        })
        .unwrap();
    use ftl_sim::ftl::panel::SectorEntry::{Lsn, Merged};
    let lpns: Vec<_> = rw.iter().map(|r| r.lsns.clone()).collect();
    assert_eq!(
        lpns,
        [
            [Merged, Merged, Lsn(46), Merged],
            [Lsn(29), Lsn(30), Lsn(31), Lsn(33)],
            [Lsn(53), Lsn(54), Lsn(55), Lsn(57)],
            [Lsn(61), Lsn(62), Lsn(63), Lsn(65)],
            [Lsn(1), Lsn(2), Lsn(3), Lsn(5)],
            [Lsn(9), Lsn(10), Lsn(11), Lsn(13)]
        ]
    );
    // Redo: the write that was cut is retried; the victim's remaining merge (LBN 11) runs.
    let mut again = after.clone();
    again.exec(last).unwrap();
    assert_eq!(again.flash.counters.full_merges, merges_before + 2);
    assert!(again.mismatches().is_empty());
}

#[test]
fn random_cut_points_on_a_larger_chip_all_schemes() {
    for scheme in ["bast", "fast", "ofast", "fastcheck", "fast-ltlog"] {
        // checkpoint_lpns only where the scheme reads it (a scenario refuses it elsewhere).
        let ck = matches!(scheme, "fastcheck" | "fast-ltlog").then_some(32);
        let p = SchemeParams { log_blocks: Some(8), checkpoint_lpns: ck, ..Default::default() };
        let w = seq_mix(6000, 21, 600, 16);
        let r = run_sweep(scheme, p, 64, 16, w, Points::Random { n: 2500, seed: 4 }, Some(4));
        eprintln!(
            "{scheme}: {} points, ok {}, pages read mean {:.0}",
            r.points_tried, r.recovered_correctly, r.recovery_pages_read.mean
        );
        assert!(r.points_tried > 2000);
        assert_all_ok(&r);
    }
}

/// The paper's geometry (4 KB pages, 512 KB blocks: P_fastcheck = 1024, P_ltftl = 256) on a
/// 1024-block (512 MB) chip, log provisioning 3, 10 and 20 %; docs/schemes/fastcheck.md has the
/// 8 GB runs. Equation 3: FastCheck writes one checkpoint page per P log-page writes;
/// equation 4: LTFTL-style logging writes at least 16 times more log pages. Equations 5
/// and 6 bound the pages read to restore the log-page-mapping table.
#[test]
fn logging_overhead_and_recovery_cost_against_equations_3_to_6() {
    use ftl_sim::nand::{Cause, OpKind};
    use ftl_sim::scenario::{ChipSpec, Scenario};
    let blocks = 1024u32;
    for rate in [0.03, 0.10, 0.20] {
        let log_blocks = (blocks as f64 * rate).round() as u32;
        let mut out = Vec::new();
        for scheme in ["fastcheck", "fast-ltlog"] {
            let sc = Scenario {
                scheme: scheme.into(),
                params: SchemeParams { log_blocks: Some(log_blocks), ..Default::default() },
                chip: ChipSpec { preset: "fastcheck".into(), blocks: Some(blocks), pages_per_block: None },
                workload: Workload::Hotcold {
                    n: 150_000,
                    seed: 9,
                    read_ratio: 0.0,
                    hot_fraction: 0.05,
                    hot_ratio: 0.9,
                },
                run: Default::default(),
            };
            let mut sim = sc.build().unwrap();
            let total = sim.total();
            sim.run(total).unwrap();
            assert!(sim.state.mismatches().is_empty());
            let f = &sim.state.flash;
            let sm = sim.state.ftl.scheme_metrics();
            let rw_writes = sm["case3"].as_u64().unwrap();
            let log_pages = f.count(OpKind::Program, Cause::Log);
            let npmap = sm["recovery_logging"]["n_pmap"].as_u64().unwrap();
            let mut flash = f.clone();
            let ftl = ftl_sim::ftl::recover(scheme, &sc.params, &mut flash).unwrap().unwrap();
            let lr = ftl.scheme_metrics()["recovery_logging"]["last_recovery"].clone();
            let (ck, rs) = (lr["checkpoints"].as_u64().unwrap(), lr["restoration"].as_u64().unwrap());
            let mapping = ck + rs;
            let c = &f.counters;
            let merges = c.full_merges + c.partial_merges + c.switch_merges;
            eprintln!("{scheme} log {:.0}%: rw writes {rw_writes}, log pages {log_pages}, n_pmap {npmap}, merges {merges}, recovery mapping pages {mapping} ({lr})", rate * 100.0);
            out.push((rw_writes, log_pages, npmap, mapping, ck, rs, merges));
        }
        let (w, fc_pages, npmap, fc_rec, fc_ck, fc_rs, _) = out[0];
        let (lt_w, lt_pages, _, lt_rec, lt_ck, lt_rs, lt_merges) = out[1];
        // Equation 3 (the writes that reach the log blocks): one page per region of 1024 LPNs
        // (8 blocks); the last region is smaller when 8 does not divide the RW log blocks.
        let cap = (log_blocks - 1) as f64;
        let eq3 = w as f64 / 1024.0 * ((cap / 8.0).ceil() * 8.0 / cap);
        assert!(
            (fc_pages as f64 - eq3).abs() <= 0.05 * eq3 + 2.0,
            "FastCheck {fc_pages} checkpoint pages, equation 3 gives {eq3:.1}"
        );
        // Equation 4: LTFTL-style ≥ 16× (flushes after every merge add more, as Figure 7 shows),
        // and not beyond Figure 7's 120×.
        let ratio = lt_pages as f64 / fc_pages as f64;
        assert!((16.0..=120.0).contains(&ratio), "LTFTL-style {lt_pages} vs FastCheck {fc_pages}: {ratio:.1}x");
        // Equation 2 term by term, on the RW writes that reach the log: at least one record per
        // write (P_ltftl = 256 per page); at most two per write (the write and its merged-out
        // record), a dump of N_pmap pages per N_pmap record pages, and one part-full page
        // flushed per merge.
        let recs = lt_w as f64 / 256.0;
        let dumps = (2.0 * recs / npmap as f64).floor() + 1.0;
        let upper = 2.0 * recs + dumps * npmap as f64 + lt_merges as f64;
        assert!(
            lt_pages as f64 >= recs && lt_pages as f64 <= upper,
            "LTFTL-style log pages {lt_pages} outside equation 2's [{recs:.0}, {upper:.0}]"
        );
        // Equation 6 term by term: the whole checkpointed log-page-mapping table (N_pmap pages,
        // plus a binary search of the last checkpoint block's fill, ≤ 7 spare reads), then at
        // most one region (P_fastcheck = 1024 LPNs) of restoration scan, and at least one page.
        assert!(fc_ck >= npmap && fc_ck <= npmap + 7, "FastCheck read {fc_ck} checkpoint pages, N_pmap = {npmap}");
        assert!((1..=1024).contains(&fc_rs), "FastCheck restoration scan {fc_rs} pages, P = 1024");
        assert!(fc_rec <= npmap + 1024 + 7, "FastCheck recovery read {fc_rec} > N_pmap + P = {}", npmap + 1024);
        // Equation 5 with our extra dump trigger (every 4 N_pmap record pages): the whole dump
        // (≥ N_pmap), at most 4 N_pmap record pages after it (+ the binary search), and at most
        // P_ltftl = 256 pages of tail scan.
        assert!(
            lt_ck >= npmap && lt_ck <= 5 * npmap + 7,
            "LTFTL-style read {lt_ck} dump + record pages, N_pmap = {npmap}"
        );
        assert!(lt_rs <= 256, "LTFTL-style tail scan {lt_rs} pages > P_ltftl = 256");
        assert!(
            lt_rec <= (1 + 4) * npmap + 256 + 7,
            "LTFTL-style recovery read {lt_rec} > 5 N_pmap + P = {}",
            5 * npmap + 256
        );
    }
}

/// The app's power button: cut power at the current operation of a stepped request, RAM
/// panels dark, recovery revealed operation by operation with its phase notes, a verdict,
/// then the run goes on; seeking back returns to the recorded run.
#[test]
fn stepper_power_cut_and_recover() {
    use ftl_sim::stepper::Stepper;
    let sc = scenario("fastcheck", fc(8, 8), 32, 4, mixed(400, 1));
    let sim = sc.build().unwrap();
    let mut st = Stepper::new(sim);
    st.set_recoverer(sc.recoverer());
    st.run(200).unwrap();
    // Step into the next request that needs several operations, stop after its second.
    loop {
        st.step_op().unwrap();
        if st.op_count() >= 3 && st.op_cursor() == 2 {
            break;
        }
        if st.op_cursor() == st.op_count() || st.op_count() < 3 {
            st.step_request().unwrap();
        }
    }
    let at = st.step();
    st.power_cut().unwrap();
    assert!(!st.powered());
    assert!(st.view_json().contains("\"powered\":false"));
    assert!(st.step_op().is_err(), "no stepping while the power is off");
    assert!(st.narration().starts_with("Power cut during"), "{}", st.narration());
    st.recover().unwrap();
    assert!(st.powered());
    let mut phases = 0;
    while st.op_cursor() < st.op_count() {
        st.step_op().unwrap();
    }
    for e in st.events() {
        phases += (e.kind == "recovery_phase") as usize;
    }
    assert_eq!(phases, 6);
    let v: serde_json::Value = serde_json::from_str(&st.verdict_json()).unwrap();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(st.step(), at + 1, "the interrupted request is dropped (never acknowledged); the run goes on after it");
    st.run(100).unwrap();
    assert!(st.sim.state.mismatches().is_empty());
    // Seeking back leaves the branch: the recorded run is replayed.
    st.seek(10).unwrap();
    st.seek(300).unwrap();
    assert!(st.sim.state.mismatches().is_empty());
}

/// The app's Figure 4 preset (docs/schemes/fastcheck.md): seek to request 108, reveal 10
/// operations of request 109 (up to the erase that ends LBN 10's merge), cut, recover.
#[test]
fn figure_4_preset_through_the_stepper() {
    use ftl_sim::scenario::Scenario;
    use ftl_sim::stepper::Stepper;
    let json = r#"{"scheme":"fastcheck","params":{"log_blocks":7,"checkpoint_lpns":12},
        "chip":{"preset":"classroom","blocks":32,"pages_per_block":4},
        "workload":{"kind":"pattern","text":"w0-67 w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25 w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33 w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5 w9 w10 w11 w13 w18"}}"#;
    let sc = Scenario::from_json(json).unwrap();
    let mut st = Stepper::new(sc.build().unwrap());
    st.set_recoverer(sc.recoverer());
    st.seek(108).unwrap();
    for _ in 0..10 {
        st.step_op().unwrap();
    }
    let last = st.events().into_iter().rev().find(|e| e.cause.is_some()).unwrap();
    assert_eq!((last.kind, last.cause), ("erase", Some("full_merge")), "{}", last.text);
    st.power_cut().unwrap();
    st.recover().unwrap();
    st.step_request().unwrap();
    let ev = st.events();
    let inval = ev.iter().filter(|e| e.kind == "consistency" && e.text.contains("→ −1")).count();
    assert_eq!(inval, 3);
    let v: serde_json::Value = serde_json::from_str(&st.verdict_json()).unwrap();
    assert_eq!(v["ok"], true, "{v}");
}
