//! The player's run loop (`Simulator::run` in `RunMode::Player`: "Run to end" and a seek's
//! replay; issue 37 item 4) reads the requests in order and takes keyframes between
//! stretches, with no per-request keyframe check. It must leave exactly what stepping
//! request by request leaves: the moment (chip, counters, metrics), the run log (markers,
//! sampled counts), the response-time timelines and the keyframes, for every scheme, on a
//! generated workload and on a parsed trace stored as runs of pages, run in uneven chunks
//! (a chunk ends where the page's Cancel or a progress report stops it).

use crate::common;

use common::{assert_same, prepare_player, scenario};
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::scenario::load;
use ftl_sim::sim::Simulator;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;

/// A DiskSim text of multi-page records and runs of one-page records (stored as runs).
fn trace_text(spp: u64) -> String {
    let mut text = String::new();
    let mut x: u64 = 0x2545_f491_4f6c_dd1d;
    let mut rnd = |m: u64| {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (x >> 33) % m
    };
    for t in 0..400u64 {
        let (page, n, ty) = (rnd(900), 1 + rnd(6), u64::from(rnd(10) >= 7));
        text.push_str(&format!("{t}.0 0 {} {} {ty}\n", page * spp, n * spp));
    }
    text
}

/// The simulators to compare, built twice: a generated workload (requests in a `Vec`) and
/// a parsed trace (runs of pages, one host request per record).
fn builds(scheme: &str) -> Vec<(String, Box<dyn Fn() -> Simulator>)> {
    let s = scheme.to_string();
    let generated = move || {
        let w = Workload::Hotcold { n: 1500, seed: 11, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
        scenario(&s, SchemeParams::default(), 64, 16, w).build().unwrap()
    };
    let s = scheme.to_string();
    let traced = move || {
        let sc = scenario(&s, SchemeParams::default(), 64, 16, common::trace_workload(Fit::Fold));
        let page_bytes = sc.chip.chip().unwrap().geometry.page_bytes;
        let raw = common::parse_text(&trace_text((page_bytes / 512).max(1) as u64), page_bytes);
        load::build_with_raw_owned(&sc, raw, Fit::Fold).unwrap().0
    };
    vec![(format!("{scheme} / hotcold"), Box::new(generated)), (format!("{scheme} / trace"), Box::new(traced))]
}

/// The record, and the host requests in time (the CLI's and tests' runs record them).
fn assert_same_record(label: &str, a: &Simulator, b: &Simulator) {
    common::assert_same_record(label, a, b);
    assert_eq!(a.host_timeline(), b.host_timeline(), "{label}: host requests in time");
}

#[test]
fn the_run_loop_leaves_what_stepping_leaves_for_every_scheme() {
    let mut checked = 0;
    for &(scheme, _) in SCHEMES {
        for (label, build) in builds(scheme) {
            let mut stepped = prepare_player(build());
            let total = stepped.total();
            assert!(total > 1000, "{label}: {total} requests");
            while stepped.step().unwrap_or_else(|e| panic!("{label} (stepped): {e}")) {}

            // Uneven chunks, some ending on a keyframe position and some just after one.
            let mut run = prepare_player(build());
            let interval = run.keyframe_interval();
            assert!(interval < total / 2, "{label}: keyframes are taken ({interval})");
            let mut chunk = 1;
            let mut cut = None;
            while run.pos() < total {
                let before = run.pos();
                let ran = run.run(chunk).unwrap_or_else(|e| panic!("{label} (run): {e}"));
                assert_eq!(ran, chunk.min(total - before), "{label}: ran");
                if cut.is_none() && run.pos() > total / 3 {
                    // Cancel here: the moment is a request boundary, equal to stepping there.
                    let mut there = prepare_player(build());
                    for _ in 0..run.pos() {
                        there.step().unwrap();
                    }
                    assert_same(&format!("{label} (cancelled at {})", run.pos()), &run, &there);
                    assert_same_record(&format!("{label} (cancelled at {})", run.pos()), &run, &there);
                    cut = Some(run.pos());
                }
                chunk = if chunk == interval - 1 { interval + 1 } else { (chunk * 3 + 1).min(interval - 1) };
            }
            assert!(cut.is_some());
            assert_eq!(run.run(10).unwrap(), 0, "{label}: nothing left to run");
            assert_same(&label, &run, &stepped);
            assert_same_record(&label, &run, &stepped);
            assert_eq!(run.log.upto(), total, "{label}: the run log covers the run");
            assert!(!run.keyframe_steps().is_empty(), "{label}: keyframes taken");

            // A seek back replays with the same loop from a keyframe: the same state as a
            // fresh Simulator stepped there, and nothing recorded changes.
            let mid = total / 2 + 7;
            run.seek(mid).unwrap();
            let mut there = prepare_player(build());
            while there.pos() < mid {
                there.step().unwrap();
            }
            assert_same(&format!("{label} (seek back)"), &run, &there);
            run.seek(total).unwrap();
            assert_same(&format!("{label} (seek to the end)"), &run, &stepped);
            assert_same_record(&format!("{label} (seek to the end)"), &run, &stepped);

            // Keyframes dropped (as a power cut's recovery drops those after it) are taken
            // again by a seek's replay over a span the run log covers: only a span with no
            // keyframe position in it replays on the fast loop (`Simulator::replay`).
            run.truncate_keyframes(0);
            run.seek(0).unwrap();
            run.seek(total).unwrap();
            assert_same_record(&format!("{label} (keyframes dropped, then a seek over the run)"), &run, &stepped);
            checked += 1;
        }
    }
    assert_eq!(checked, SCHEMES.len() * 2);
}
