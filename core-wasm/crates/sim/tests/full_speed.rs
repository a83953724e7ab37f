//! The full-speed path (`RunMode::FullSpeed`: no keyframes, no run log, a tight loop)
//! and the player (the Stepper revealing one flash operation at a time with events on,
//! and the Simulator with keyframes, run log and seeks) end in the same state with the
//! same metrics, for every scheme on several workloads.

mod common;

use common::scenario;
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

/// Everything two runs must agree on: metrics (every field, scheme metrics included),
/// host counters, the chip's pages and erase counts, and the reference model.
fn assert_same(label: &str, a: &Simulator, b: &Simulator) {
    assert_eq!(a.pos(), b.pos(), "{label}: position");
    assert_eq!(a.state.metrics(), b.state.metrics(), "{label}: metrics");
    assert_eq!(a.state.host, b.state.host, "{label}: host counters");
    assert_eq!(a.state.flash.erase_counts(), b.state.flash.erase_counts(), "{label}: erase counts");
    assert_eq!(a.state.flash.total_ops(), b.state.flash.total_ops(), "{label}: flash ops");
    let g = a.state.flash.geometry().pages();
    for ppn in 0..g {
        assert_eq!(a.state.flash.peek(ppn), b.state.flash.peek(ppn), "{label}: page {ppn}");
    }
    assert!(a.state.mismatches().is_empty() && b.state.mismatches().is_empty(), "{label}: reference model");
    assert_eq!(a.state.host.wrong_reads, 0, "{label}: wrong reads");
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
