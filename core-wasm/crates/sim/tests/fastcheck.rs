//! Power cuts and recovery for BAST, FAST, O-FAST, FastCheck and LTFTL-style logging on
//! FAST: crash sweeps (every cut point on small chips, random points on larger ones, a
//! second cut inside each recovery), the situation of FastCheck Figure 4, and the
//! paper's logging-overhead and recovery-cost equations.

mod common;

use common::scenario;
use ftl_sim::crash::{sweep, Points, SweepReport};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::trace::gen::Workload;

fn lb(n: u32) -> SchemeParams {
    SchemeParams { log_blocks: Some(n), ..Default::default() }
}

fn run_sweep(scheme: &str, params: SchemeParams, blocks: u32, ppb: u32, w: Workload, points: Points, recut: Option<u64>) -> SweepReport {
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
            eprintln!("{scheme} seed {seed}: {} points, ok {}, recut {}, pages read mean {}", r.points_tried, r.recovered_correctly, r.recut_points, r.recovery_pages_read.mean);
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
            eprintln!("{scheme} seed {seed}: {} points, ok {}, pages read mean {}", r.points_tried, r.recovered_correctly, r.recovery_pages_read.mean);
            assert_eq!(r.points_tried, r.run_ops);
            assert_all_ok(&r);
        }
    }
}

#[test]
#[ignore]
fn debug_point() {
    use ftl_sim::crash::crash_once;
    let scheme = std::env::var("S").unwrap_or("fast-ltlog".into());
    let req_i: usize = std::env::var("R").unwrap().parse().unwrap();
    let op: u64 = std::env::var("O").unwrap().parse().unwrap();
    let w = match std::env::var("W").as_deref() {
        Ok("2") => Workload::Uniform { n: 500, seed: 2, read_ratio: 0.1 },
        Ok("3") => seq_mix(500, 3, 56, 4),
        _ => mixed(500, 1),
    };
    let sc = scenario(&scheme, fc(8, 8), 32, 4, w);
    let sim = sc.build().unwrap();
    let mut s = sim.state.clone();
    let reqs = sim.requests().to_vec();
    for &r in &reqs[..req_i - 1] {
        s.exec(r).unwrap();
    }
    s.flash.set_recording(true);
    let mut t = s.clone();
    let _ = t.exec(reqs[req_i - 1]);
    for e in t.flash.take_events().iter().take(40) {
        eprintln!("  {e:?}");
    }
    let rec = sc.recoverer();
    let rec2: ftl_sim::crash::Recover = std::sync::Arc::new(move |f: &mut ftl_sim::nand::Flash| {
        let r = rec(f);
        for e in f.take_events() {
            if let ftl_sim::nand::Event::Note { text, .. } = e {
                eprintln!("  REC {text}");
            }
        }
        r
    });
    let (o, st) = crash_once(&s, reqs[req_i - 1], op - 1, None, &rec2, &[]).unwrap();
    eprintln!("{o:?}");
    for t in st.ftl.tables(&st.flash) {
        eprintln!("{}: {:?}", t.title, t.rows);
    }
    eprintln!("mismatches {:?}", st.mismatches());
}
