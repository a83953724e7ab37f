//! The full-speed path (`RunMode::FullSpeed`: no keyframes, no run log, a tight loop)
//! and the player (the Stepper revealing one flash operation at a time with events on,
//! and the Simulator with keyframes, run log and seeks) end in the same state with the
//! same metrics, for every scheme on several workloads.

use crate::common;

use common::{assert_same, scenario};
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::sim::{RunMode, Simulator};
use ftl_sim::stepper::Stepper;
use ftl_sim::trace::gen::Workload;

fn workloads(scheme: &str) -> Vec<(&'static str, Workload)> {
    let mut w = vec![
        ("uniform", Workload::Uniform { n: 1500, seed: 7, read_ratio: 0.3 }),
        ("hotcold", Workload::Hotcold { n: 1500, seed: 8, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 }),
        ("sequential", Workload::Sequential { n: 1200 }),
        ("postmark", serde_json::from_str(r#"{"kind":"postmark","n":1200,"seed":9}"#).unwrap()),
    ];
    if scheme == "ltftl" {
        // Time shift: freeze, writes, revert / unfreeze, under GC pressure.
        let text = "(w0 w1 w2 w3 w4 w5 w6 w7)x20 freeze (w1 w3 w5 w9 r2)x30 revert 1 (w2 w4)x40 freeze (w7 w8 r1)x30 unfreeze 2 (w0 w6 w1)x50";
        w.push(("time-shift", Workload::Pattern { text: text.into() }));
    }
    w
}

fn build(scheme: &str, w: &Workload) -> Simulator {
    let sc = scenario(scheme, SchemeParams::default(), 64, 16, w.clone());
    sc.build().unwrap_or_else(|e| panic!("{scheme}: {e}"))
}

#[test]
fn full_speed_and_player_agree_for_every_scheme() {
    let mut checked = 0;
    for &(scheme, _) in SCHEMES {
        for (name, w) in workloads(scheme) {
            let label = format!("{scheme} / {name}");

            // Full speed, in uneven chunks (run() resumes mid-workload).
            let mut fast = build(scheme, &w);
            fast.set_mode(RunMode::FullSpeed);
            let total = fast.total();
            assert!(total > 0, "{label}: empty workload");
            let mut chunk = 1;
            while fast.pos() < total {
                let ran = fast.run(chunk).unwrap_or_else(|e| panic!("{label}: {e}"));
                assert!(ran > 0);
                chunk = chunk * 3 + 1;
            }
            assert_eq!(fast.run(10).unwrap(), 0, "{label}: nothing left to run");

            // The player, one flash operation at a time with events recorded.
            let mut player = Stepper::new(build(scheme, &w));
            while player.step_op().unwrap_or_else(|e| panic!("{label} (player): {e}")) {}
            assert_same(&label, &fast, &player.sim);

            // The player's Simulator with keyframes, run log and seeks back and forth.
            let mut seeker = build(scheme, &w);
            seeker.set_keyframe_budget(1 << 20);
            seeker.run(total).unwrap();
            seeker.seek(total / 3).unwrap();
            seeker.seek(total).unwrap();
            assert_same(&format!("{label} (seek)"), &fast, &seeker);
            // The player recorded its run log; full speed did not.
            assert_eq!(seeker.log.upto(), total, "{label}: player's run log");
            assert_eq!(fast.log.upto(), 0, "{label}: full speed keeps no run log");
            checked += 1;
        }
    }
    assert!(checked >= SCHEMES.len() * 4);
}

#[test]
fn full_speed_keeps_no_keyframes_and_seeks_by_replay() {
    let w = Workload::Uniform { n: 5000, seed: 3, read_ratio: 0.2 };
    let mut fast = build("page", &w);
    fast.set_mode(RunMode::FullSpeed);
    assert_eq!(fast.keyframe_interval(), usize::MAX);
    fast.run(5000).unwrap();
    let end = fast.state.metrics();
    // Seeking back replays from step 0 and lands on the player's state there.
    fast.seek(1234).unwrap();
    let mut player = build("page", &w);
    player.run(1234).unwrap();
    assert_same("seek back", &fast, &player);
    fast.seek(5000).unwrap();
    assert_eq!(fast.state.metrics(), end);
    // Back to the player: keyframes again.
    fast.set_mode(RunMode::Player);
    assert!(fast.keyframe_interval() < usize::MAX);
}

#[test]
fn full_speed_keeps_the_timeline_when_asked() {
    let w = Workload::Hotcold { n: 2000, seed: 4, read_ratio: 0.2, hot_fraction: 0.1, hot_ratio: 0.9 };
    let mut fast = build("fast", &w);
    fast.set_mode(RunMode::FullSpeed);
    fast.record_timeline(true);
    fast.run(2000).unwrap();
    let mut player = build("fast", &w);
    player.record_timeline(true);
    player.run(2000).unwrap();
    assert_eq!(fast.timeline().unwrap(), player.timeline().unwrap());
    assert_eq!(fast.timeline().unwrap().len(), 2000);
    assert_same("timeline", &fast, &player);
}

/// A parsed trace fitted for `ftl run` (`build_with_raw_owned`: its page requests stored
/// as runs, expanded by the run loop) runs the same page requests, host requests and
/// response times as the same trace fitted into a `Vec` (`build_with_raw`, the app's
/// path) on the player: multi-page records, one-page records on consecutive pages (a
/// large request split into lines: one run across host requests), reads and writes, and
/// records folded past the end of the space, for every scheme.
#[test]
fn a_trace_stored_as_runs_runs_as_its_page_requests() {
    use ftl_sim::scenario::load;
    use ftl_sim::trace::fit::Fit;
    for &(scheme, _) in SCHEMES {
        let sc = scenario(scheme, SchemeParams::default(), 64, 16, common::trace_workload(Fit::Fold));
        let page_bytes = sc.chip.chip().unwrap().geometry.page_bytes;
        let spp = (page_bytes / 512).max(1) as u64;
        let mut text = String::new();
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut rnd = |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 33) % m
        };
        let mut t = 0u64;
        for _ in 0..300 {
            let (page, write) = (rnd(1400), rnd(10) < 7);
            let ty = if write { 0 } else { 1 };
            if rnd(2) == 0 {
                // One record of several pages.
                let n = 1 + rnd(5);
                text.push_str(&format!("{t}.0 0 {} {} {ty}\n", page * spp, n * spp));
                t += 1;
            } else {
                // The same pages as one-page records.
                for i in 0..1 + rnd(6) {
                    text.push_str(&format!("{t}.0 0 {} {spp} {ty}\n", (page + i) * spp));
                    t += 1;
                }
            }
        }
        let raw = common::parse_text(&text, page_bytes);
        let (mut runs, s1) = load::build_with_raw_owned(&sc, raw.clone(), Fit::Fold).unwrap();
        let (mut vec, s2) = load::build_with_raw(&sc, &raw, Fit::Fold).unwrap();
        let label = format!("{scheme} / trace");
        assert_eq!(s1, s2, "{label}: summary");
        assert!(s1.fit_touched > 0, "{label}: some records fold past the space");
        assert_eq!(runs.total(), vec.total(), "{label}: page requests");
        assert_eq!(runs.request_hash(), vec.request_hash(), "{label}: request hash");
        assert_eq!(runs.requests(), vec.requests(), "{label}: requests");
        assert!((0..runs.total()).all(|i| runs.request(i) == vec.request(i)), "{label}: request(i)");
        assert_eq!(runs.schedule().requests(), raw.host_requests() as usize, "{label}: host requests");
        assert_eq!(vec.schedule().requests(), raw.host_requests() as usize, "{label}: host requests");

        runs.set_mode(RunMode::FullSpeed);
        runs.record_timeline(true);
        vec.record_timeline(true);
        let total = runs.total();
        let mut chunk = 1;
        while runs.pos() < total {
            runs.run(chunk).unwrap_or_else(|e| panic!("{label}: {e}"));
            chunk = chunk * 2 + 1;
        }
        while vec.step().unwrap_or_else(|e| panic!("{label} (player): {e}")) {}
        assert_same(&label, &runs, &vec);
        assert_eq!(runs.timeline(), vec.timeline(), "{label}: response times");
        assert_eq!(runs.host_timeline(), vec.host_timeline(), "{label}: host requests in time");
    }
}
