//! Stepping one flash operation at a time, and stepping back.

use crate::common;

use common::scenario;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::stepper::{Prepare, Stepper};
use ftl_sim::trace::gen::Workload;

fn stepper(text: &str) -> Stepper {
    let sc = scenario("page", SchemeParams::default(), 8, 4, Workload::Pattern { text: text.into() });
    Stepper::new(sc.build().unwrap())
}

#[test]
fn op_steps_reveal_a_gc_then_snap_to_the_scheme_view() {
    // 8 blocks x 4 pages, 20 logical pages: rewriting fills the chip and forces GC.
    let mut s = stepper("(w0-19)x3");
    let mut ops_seen = 0;
    let mut saw_gc = false;
    while s.step_op().unwrap() {
        ops_seen += 1;
        if s.op_cursor() > 0 {
            assert!(s.op_cursor() <= s.op_count());
        }
        saw_gc |= s.events().iter().any(|e| e.cause == Some("gc"));
        let states = s.page_states();
        let valid = states.iter().filter(|&&x| x == 1).count();
        assert!(valid <= 20, "never more valid pages than logical pages ({valid})");
    }
    assert_eq!(s.step(), 60);
    let m = s.sim.state.metrics();
    assert_eq!(ops_seen as u64, m.page_programs + m.page_reads + m.erases);
    assert!(saw_gc && m.gc_runs > 0);
    // At the end, exactly the 20 logical pages are valid.
    assert_eq!(s.page_states().iter().filter(|&&x| x == 1).count(), 20);
}

#[test]
fn only_a_request_revealed_op_by_op_copies_the_state_before_it() {
    // Issue 37 item 3: a copy of a 4 M-page chip was most of an op step's time. Most
    // requests are one operation, shown complete at once: no copy (Back rebuilds the state
    // from a keyframe); a GC's operations are revealed one by one from a copy.
    let mut s = stepper("(w0-19)x3");
    let (mut one, mut several) = (0, 0);
    // Writes only: every request has an operation. One that starts and ends on one op
    // step (between requests before and after it) has exactly one.
    let mut between = true;
    while s.step_op().unwrap() {
        if s.op_cursor() < s.op_count() {
            assert!(s.holds_before(), "request {} revealed op by op without its before-state", s.step());
            several += 1;
        } else if between {
            assert!(!s.holds_before(), "request {} of one operation copied the state before it", s.step());
            one += 1;
        }
        between = s.op_count() == 0;
    }
    assert!(one > 20 && several > 0, "{one} one-operation requests, {several} revealed op by op");
}

#[test]
fn far_from_any_kept_state_a_request_copies_the_state_before_it() {
    // No keyframes and no near keyframe (a chip too large for either): a request more than
    // REBUILD_REPLAY requests into the run copies first, as a replay from step 0 would cost
    // more than the copy; one nearer step 0 does not.
    let n = ftl_sim::sim::REBUILD_REPLAY + 2_000;
    let mut s = stepper(&format!("(w0-19)x{}", n.div_ceil(20)));
    s.sim.set_keyframe_budget(0);
    s.sim.set_near_keyframe(0);
    let one_op = |s: &mut Stepper| loop {
        let between = s.op_count() == 0;
        assert!(s.step_op().unwrap());
        if between && s.op_count() == 0 {
            return s.holds_before();
        }
    };
    s.seek(1_000).unwrap();
    assert!(!one_op(&mut s), "near step 0: rebuilt when needed, not copied");
    s.seek(ftl_sim::sim::REBUILD_REPLAY + 1_000).unwrap();
    assert!(one_op(&mut s), "far from any kept state: copied first");
}

#[test]
fn back_op_returns_to_the_same_state() {
    // Random rewrites leave victims with valid pages, so some GCs copy (many ops per request).
    let mut s = stepper("(w0-19)x2 (w3 w7 w1 w15 w2 w9 w11 w0 w4 w13 w17 w5)x6");
    s.seek(40).unwrap();
    // Find a request with at least 3 ops, and stand inside it.
    let mut guard = 0;
    loop {
        assert!(s.step_op().unwrap(), "no request with 3 or more operations");
        if s.op_count() >= 3 {
            break;
        }
        guard += 1;
        assert!(guard < 1000);
    }
    let at = (s.step(), s.op_cursor(), s.page_states());
    assert!(s.op_cursor() >= 1);
    s.step_op().unwrap();
    s.back_op().unwrap();
    assert_eq!((s.step(), s.op_cursor(), s.page_states()), at);
    // Back across a request boundary and forward again lands on the same completed state.
    s.step_request().unwrap();
    let done = (s.step(), s.page_states());
    s.back_op().unwrap();
    assert_eq!(s.step(), done.0 - 1);
    s.step_op().unwrap();
    assert_eq!((s.step(), s.page_states()), done);
}

#[test]
fn narration_names_the_request_and_operation() {
    let mut s = stepper("w3 r3 r5");
    assert!(s.narration().starts_with("Ready"));
    s.step_op().unwrap();
    assert!(s.narration().contains("Write lpn 3") && s.narration().contains("program lpn 3"), "{}", s.narration());
    s.step_op().unwrap();
    assert!(s.narration().contains("Read lpn 3"), "{}", s.narration());
    s.step_op().unwrap();
    assert!(s.narration().contains("never written"), "{}", s.narration());
    assert!(!s.step_op().unwrap());
}

#[test]
fn seek_and_run_leave_no_stale_events() {
    let mut s = stepper("(w0-19)x3");
    s.step_request().unwrap();
    s.step_op().unwrap();
    assert!(!s.events().is_empty());
    s.seek(5).unwrap();
    // Request 5 (w4) is shown complete, as stepping to it shows it: its events, not stale ones.
    assert_eq!((s.step(), s.op_cursor(), s.op_count()), (5, 0, 0));
    assert!(s.narration().contains("Write lpn 4"), "{}", s.narration());
    assert!(!s.events().is_empty());
    s.step_op().unwrap();
    s.run(3).unwrap();
    assert!(s.events().is_empty());
    assert_eq!(s.step(), 9);
}

#[test]
fn a_gc_victim_keeps_its_role_until_its_erase_is_shown() {
    use ftl_sim::ftl::BlockRole;
    let mut s = stepper("(w0-19)x2 (w3 w7 w1 w15 w2 w9 w11 w0 w4 w13 w17 w5)x6");
    // Find a request whose GC copies pages before erasing its victim.
    let victim = loop {
        assert!(s.step_op().unwrap(), "no GC with copies in the workload");
        let evs = s.events();
        if s.op_cursor() == 1 && evs.iter().any(|e| e.kind == "read" && e.cause == Some("gc")) {
            break evs.iter().find(|e| e.kind == "read").and_then(|e| e.pbn).unwrap();
        }
    };
    // Mid-request, after the first copy's read: the victim still shows "data", although
    // the scheme (which ran the whole request) already erased and reused it; it is
    // marked as the victim being cleaned.
    let after = s.sim.state.ftl.block_role(victim);
    assert_ne!(after, BlockRole::Data);
    assert_eq!(s.block_roles()[victim as usize], BlockRole::Data as u8);
    assert!(s.victims().contains(&victim), "victims {:?} should mark block {victim}", s.victims());
    // Once the erase is revealed, it is what the scheme made of it at that moment: an
    // erased block back in the free pool (the old expectation, the role after the whole
    // request, was the view of the finished request).
    while !s.events().iter().any(|e| e.kind == "erase") {
        s.step_op().unwrap();
    }
    assert!(!s.victims().contains(&victim));
    if s.op_cursor() > 0 {
        assert_eq!(s.block_roles()[victim as usize], BlockRole::Free as u8);
        // The host write then opens it as the write frontier: that role shows when the
        // request completes.
        s.step_request().unwrap();
        assert_eq!(s.block_roles()[victim as usize], after as u8);
    }
}

#[test]
fn goto_lands_inside_a_request() {
    let mut s = stepper("(w0-19)x2 (w3 w7 w1 w15 w2 w9 w11 w0 w4 w13 w17 w5)x6");
    // Walk op by op, remembering (step, op_cursor, states); goto must reproduce each.
    let mut seen = Vec::new();
    for _ in 0..200 {
        s.step_op().unwrap();
        seen.push((s.step(), s.op_cursor(), s.page_states()));
    }
    for (step, ops, states) in seen.into_iter().rev().step_by(7) {
        s.goto(step, ops).unwrap();
        assert_eq!((s.step(), s.op_cursor()), (step, ops));
        assert_eq!(s.page_states(), states, "at step {step} op {ops}");
    }
}

#[test]
fn a_note_is_revealed_with_the_operation_it_explains_not_before() {
    // BAST thrashing: each merge's note precedes its copies; at every reveal, the last
    // revealed event is an operation or a note at the very end of the request.
    let sc = bast_thrashing();
    let mut s = Stepper::new(sc.build().unwrap());
    let mut checked = 0;
    while s.step_op().unwrap() {
        let evs = s.events();
        if s.op_cursor() > 0 && s.op_cursor() < s.op_count() {
            assert!(
                evs.last().unwrap().cause.is_some(),
                "a note of a later operation was revealed early: {:?}",
                evs.last().unwrap().text
            );
            checked += 1;
        }
    }
    assert!(checked > 10);
}

fn fastcheck_stepper(text: &str) -> Stepper {
    let sc = scenario("fastcheck", SchemeParams::default(), 32, 4, Workload::Pattern { text: text.into() });
    let mut s = Stepper::new(sc.build().unwrap());
    s.set_recoverer(sc.recoverer());
    s
}

/// Steps op by op until a request with at least `min` operations is half revealed.
fn into_a_long_request(s: &mut Stepper, min: usize) {
    loop {
        assert!(s.step_op().unwrap(), "no request with {min} operations");
        if s.op_count() >= min && s.op_cursor() == s.op_count() / 2 {
            return;
        }
        if s.op_count() >= min {
            while s.op_cursor() < s.op_count() / 2 {
                s.step_op().unwrap();
            }
            return;
        }
    }
}

#[test]
fn power_cuts_on_a_branch_and_inside_a_recovery_stay_on_the_branch() {
    let text = "(w0-40)x4 (w3 w9 w17 w33 w2 w21)x20";
    let mut s = fastcheck_stepper(text);
    let mut recorded = fastcheck_stepper(text);
    // First cut mid-request, then recovery: the run branches.
    s.seek(100).unwrap();
    into_a_long_request(&mut s, 4);
    let r1 = s.step();
    s.power_cut().unwrap();
    assert!(!s.narration().contains('{'), "no Rust debug text: {}", s.narration());
    // One request number everywhere: the request in play, counted from 1 (issue 35).
    let head = format!("Power cut during request {} (write of lpn", r1 + 1);
    assert!(s.narration().starts_with(&head), "{}", s.narration());
    s.recover().unwrap();
    s.step_request().unwrap();
    assert!(!s.recovering());
    assert_eq!(s.step(), r1 + 1);
    // On the branch: the interrupted write was never acknowledged.
    s.run(20).unwrap();
    let pos = s.step();
    recorded.seek(pos).unwrap();
    assert_eq!(s.view().host.writes + 1, recorded.view().host.writes, "the branch has one write fewer");
    // A second cut, mid-request on the branch: it must not seek into the recorded run.
    into_a_long_request(&mut s, 4);
    let r2 = s.step();
    let branch_before = s.cut_point().unwrap().0.host.clone();
    s.power_cut().unwrap();
    assert_eq!(s.step(), r2);
    assert_eq!(s.view().host.writes, branch_before.writes, "counters are the branch's");
    // Recover, and cut again inside the recovery being revealed.
    s.recover().unwrap();
    assert!(s.recovering());
    let n = s.op_count();
    assert!(n >= 3, "recovery needs a few operations ({n})");
    assert!(s.narration().starts_with("Power is back"), "{}", s.narration());
    while s.op_cursor() < n / 2 {
        s.step_op().unwrap();
    }
    // The recovery is revealed op-exact: the chip's counters grew by exactly k operations.
    let k = s.op_cursor() as u64;
    let m: serde_json::Value = serde_json::from_str(&s.metrics_json()).unwrap();
    let ops = |m: &serde_json::Value| {
        m["page_reads"].as_u64().unwrap()
            + m["oob_reads"].as_u64().unwrap()
            + m["page_programs"].as_u64().unwrap()
            + m["erases"].as_u64().unwrap()
    };
    s.back_op().unwrap();
    let m0: serde_json::Value = serde_json::from_str(&s.metrics_json()).unwrap();
    assert_eq!(ops(&m) - ops(&m0), 1, "one step back = one recovery operation fewer");
    s.step_op().unwrap();
    assert_eq!(s.op_cursor() as u64, k);
    assert!(s.narration().starts_with("Recovery — op"), "{}", s.narration());
    s.power_cut().unwrap();
    assert!(!s.powered());
    assert!(s.narration().contains("during the recovery"), "{}", s.narration());
    s.recover().unwrap();
    s.step_request().unwrap();
    let v: serde_json::Value = serde_json::from_str(&s.verdict_json()).unwrap();
    assert_eq!(v["ok"], true, "{v}");
    assert_eq!(s.step(), r2 + 1);
    assert_eq!(s.view().host.writes, branch_before.writes, "counters are those of the branch");
    assert!(s.sim.state.mismatches().is_empty());
    // And the session goes on from there, on its branch.
    s.run(10).unwrap();
    assert!(s.sim.state.mismatches().is_empty());
    // Stepping back inside the branch stays on it.
    let here = (s.step(), s.page_states(), s.view().host.writes);
    s.back_op().unwrap();
    s.step_request().unwrap();
    assert_eq!((s.step(), s.page_states(), s.view().host.writes), here);
}

#[test]
fn fastcheck_recovery_narrates_each_of_its_six_phases() {
    let mut s = fastcheck_stepper("(w0-40)x4 (w3 w9 w17 w33 w2 w21)x20");
    s.seek(150).unwrap();
    s.power_cut().unwrap();
    s.recover().unwrap();
    let mut said = String::new();
    while s.recovering() {
        s.step_op().unwrap();
        said.push_str(&s.narration());
        said.push('\n');
    }
    for phase in ["1. map directory", "2. map blocks", "3. ", "4. restoration", "5. consistency check", "6. merge redo"]
    {
        assert!(said.contains(phase), "phase {phase:?} never narrated:\n{said}");
    }
    assert!(!said.contains("op 0/"), "no empty op 0 line");
}

#[test]
fn bast_full_merge_counts_each_erase_when_it_is_shown() {
    // The BAST thrashing tour's request 19 (S8): a full merge, 11 operations.
    let sc = bast_thrashing();
    let mut s = Stepper::new(sc.build().unwrap());
    s.goto(18, 5).unwrap();
    let m: serde_json::Value = serde_json::from_str(&s.metrics_json()).unwrap();
    assert_eq!((s.step(), s.op_cursor()), (18, 5));
    // Mid-merge: no erase shown yet, the merge counted since its first operation (op 1, a
    // read: docs/cli.md, "When a merge or a GC run counts"), the write not acknowledged.
    assert_eq!(
        (m["erases"].as_u64(), m["merges"]["full"].as_u64(), m["host_writes"].as_u64()),
        (Some(0), Some(1), Some(18)),
        "{m}"
    );
    let mut erases = 0;
    while s.op_cursor() > 0 {
        let m: serde_json::Value = serde_json::from_str(&s.metrics_json()).unwrap();
        assert_eq!(m["erases"].as_u64(), Some(erases), "op {}", s.op_cursor());
        s.step_op().unwrap();
        erases = s.events().iter().filter(|e| e.kind == "erase").count() as u64;
    }
    let m: serde_json::Value = serde_json::from_str(&s.metrics_json()).unwrap();
    assert_eq!(
        (m["erases"].as_u64(), m["merges"]["full"].as_u64(), m["host_writes"].as_u64()),
        (Some(2), Some(1), Some(19))
    );
}

/// BAST with 2 log blocks on the 16 x 4 classroom chip, thrashing (the tour's pattern).
fn bast_thrashing() -> ftl_sim::scenario::Scenario {
    scenario(
        "bast",
        SchemeParams { log_blocks: Some(2), ..Default::default() },
        16,
        4,
        Workload::Pattern { text: "w0-15 S0 S4 S8 S12 S0 S4 S8 S12".into() },
    )
}

/// Issue 24: Back after a cut and its recovery retraces the recovery, the power-off moment
/// and the cut moment, never the uncut run's later operations of the cut request.
#[test]
fn back_after_a_recovery_retraces_it_and_the_cut() {
    let mut s = fastcheck_stepper("(w0-40)x4 (w3 w9 w17 w33 w2 w21)x20");
    s.seek(120).unwrap();
    into_a_long_request(&mut s, 6);
    let (r, k, n) = (s.step(), s.op_cursor(), s.op_count());
    assert!(k < n);
    let at_cut = s.page_states();
    s.power_cut().unwrap();
    let off_states = s.page_states();
    s.recover().unwrap();
    let rec_ops = s.op_count();
    assert!(rec_ops > 0);
    s.step_request().unwrap();
    assert!(!s.recovering() && s.powered());
    assert_eq!(s.step(), r + 1);
    let verdict = s.verdict_json();
    // The counter's data: request r (0-based) was interrupted, and what became of it.
    let survived = serde_json::from_str::<serde_json::Value>(&verdict).unwrap()["in_flight_survived"] == true;
    assert_eq!(s.cut_requests(), vec![(r, survived)]);
    // Back: the recovery's operations in reverse.
    for want in (1..rec_ops).rev() {
        s.back_op().unwrap();
        assert!(s.recovering(), "back {want}: in the recovery");
        assert_eq!(s.op_cursor(), want);
        assert_eq!(s.verdict_json(), verdict);
    }
    // Then the power-off moment, then the cut moment (powered, k operations done).
    s.back_op().unwrap();
    assert!(!s.powered(), "back to the power cut");
    assert_eq!(s.page_states(), off_states);
    s.back_op().unwrap();
    assert!(s.powered());
    assert_eq!((s.step(), s.op_cursor(), s.op_count()), (r, k, n), "the cut moment");
    assert_eq!(s.page_states(), at_cut);
    // Forward again: recover replays the same recovery.
    s.power_cut().unwrap();
    s.recover().unwrap();
    s.step_request().unwrap();
    assert_eq!(s.verdict_json(), verdict);
    assert_eq!(s.step(), r + 1);
    s.step_request().unwrap();
    assert_eq!(s.cut_requests(), vec![(r, survived)], "still said after the run goes on");
    s.seek(r).unwrap();
    assert!(s.cut_requests().is_empty(), "before the cut, on the recorded run");
}

/// What the moment shows in words: the narration and the last request's events.
fn shown(s: &Stepper) -> (usize, usize, String, Vec<String>) {
    (s.step(), s.op_cursor(), s.narration(), s.events().into_iter().map(|e| e.text).collect())
}

#[test]
fn a_moment_reached_by_seek_goto_or_back_reads_as_the_one_reached_by_stepping() {
    // Issue 25: after Back, a link or a scenario file, not "At request 19" and no operations.
    let text = "(w0-19)x2 (w3 w7 w1 w15 w2 w9 w11 w0 w4 w13 w17 w5)x3 r8 r19";
    let mut stepped = stepper(text);
    let mut by_step = vec![shown(&stepped)];
    while stepped.step_request().unwrap() {
        by_step.push(shown(&stepped));
    }
    let mut s = stepper(text);
    for (i, want) in by_step.iter().enumerate().rev() {
        s.seek(i).unwrap();
        assert_eq!(&shown(&s), want, "seek({i})");
        s.goto(i, 0).unwrap();
        assert_eq!(&shown(&s), want, "goto({i}, 0)");
    }
    // Back from the first operation of a request lands on the previous request, complete.
    for i in [1usize, 7, 30, 45] {
        s.goto(i, 1).unwrap();
        s.back_op().unwrap();
        assert_eq!(&shown(&s), &by_step[i], "back from ({i}, 1)");
    }
}

/// Back steps replay from the keyframe kept near the cursor (issue 37, item 3) and land
/// on the moment a fresh Stepper reaches by going there directly: on a chip with no
/// keyframes, every operation step back from request 1000 to 420 (past two near keyframes,
/// taken at 742 and 485), each checked against a fresh `goto` (pages, metrics).
#[test]
fn steps_back_from_the_near_keyframe_land_where_goto_does() {
    let text = "(w0-19)x2 (w3 w7 w1 w15 w2 w9 w11 w0 w4 w13 w17 w5 r3 w19 w6)x80";
    let build = || {
        let sc = scenario("page", SchemeParams::default(), 8, 4, Workload::Pattern { text: text.into() });
        let mut sim = sc.build().unwrap();
        sim.set_keyframe_budget(0);
        Stepper::new(sim)
    };
    let mut s = build();
    s.seek(1000).unwrap();
    let mut back = 0;
    while s.step() >= 420 {
        assert!(back < 100_000);
        assert!(s.back_op().unwrap());
        back += 1;
        let (step, op) = (s.step(), s.op_cursor());
        let mut fresh = build();
        fresh.goto(step, op).unwrap();
        assert_eq!(
            (s.page_states(), s.page_lpns(), s.metrics_json()),
            (fresh.page_states(), fresh.page_lpns(), fresh.metrics_json()),
            "after {back} steps back, at request {step} op {op}"
        );
        // And it reads the same: the request shown, its operations, the narration.
        assert_eq!(shown(&s), shown(&fresh), "after {back} steps back");
    }
}

/// The state made behind the moment while the app is idle (`prepare_back`, issue 37 item 3)
/// changes no moment: a walk of op steps, Backs, request steps, seeks, gotos, seeks away and
/// back, and two power cuts with their recoveries (the branch after each) reads the same,
/// move by move, on a Stepper that prepares after every move, on one that prepares in short
/// parts (`prepare_back_part`) stopped by the next move after 0, 1, 2, ... parts (every
/// point of the copy and of the replay), and on one that never prepares; the states made are
/// taken by Backs, and never held beside a before-state.
#[test]
fn the_state_made_behind_the_moment_changes_no_moment() {
    let text = "(w0-40)x4 (w3 w9 w17 w33 w2 w21)x20";
    let build = || {
        let mut s = fastcheck_stepper(text);
        s.sim.set_keyframe_budget(0);
        // A near keyframe a few requests before each long seek's target: the kept state
        // copied in parts, and replaced by seeks between parts.
        s.sim.set_near_keyframe(8);
        s
    };
    let (mut s, mut parts, mut plain) = (build(), build(), build());
    let moment = |s: &Stepper| (shown(s), s.page_states(), s.page_lpns(), s.block_roles(), s.metrics_json());
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    // 32 blocks x 4 pages of 16 bytes: the chip's pages in 6 parts, then the scheme, then the
    // reference model, then the replay a request a part.
    let part = 16 * 24;
    let (mut made, mut taken, mut made_in_parts, mut taken_in_parts, mut stopped) = (0, 0, 0, 0, 0);
    for i in 0..900 {
        let held = [s.holds_behind(), parts.holds_behind()];
        let mv = match i {
            150 | 400 => 9,
            _ => next(11),
        };
        let to = next(290) as usize;
        for t in [&mut s, &mut parts, &mut plain] {
            let _ = match mv {
                0..=2 => t.step_op(),
                3..=6 => t.back_op(),
                7 => t.step_request(),
                8 if i % 2 == 0 => t.seek(to).map(|_| true),
                8 => t.goto(to, to % 3).map(|_| true),
                10 => {
                    // To the moment's request complete, from there (the parts under way go on)
                    // or away and back (the kept states change).
                    let here = t.step();
                    let away = if i % 2 == 0 { here } else { to };
                    t.seek(away).and_then(|_| t.seek(here)).map(|_| true)
                }
                _ => {
                    // A cut mid-request (or between requests), then the recovery revealed whole.
                    t.power_cut().unwrap();
                    t.recover().unwrap();
                    t.step_request()
                }
            };
        }
        let back = (3..=6).contains(&mv);
        taken += usize::from(held[0] && back && !s.holds_behind());
        taken_in_parts += usize::from(held[1] && back && !parts.holds_behind());
        assert_eq!(moment(&s), moment(&plain), "move {i} ({mv})");
        assert_eq!(moment(&parts), moment(&plain), "move {i} ({mv}), prepared in parts");
        made += usize::from(s.prepare_back().unwrap());
        // 0, 1, 2, ... parts before the next move, and now and then all of them.
        let n = if i % 7 == 6 { usize::MAX } else { i % 43 };
        for _ in 0..n {
            match parts.prepare_back_part(part).unwrap() {
                Prepare::More => continue,
                Prepare::Done(m) => made_in_parts += usize::from(m),
            }
            break;
        }
        stopped += usize::from(parts.holds_behind() && n < usize::MAX);
        for (t, who) in [(&s, "whole"), (&parts, "in parts")] {
            assert!(
                !(t.holds_behind() && t.holds_before()),
                "move {i}: the state behind beside a before-state ({who})"
            );
        }
    }
    assert!(made >= 20 && taken >= 10, "{made} states made behind the moment, {taken} taken by Back");
    assert!(
        made_in_parts >= 20 && taken_in_parts >= 10 && stopped >= 50,
        "{made_in_parts} states made in parts, {taken_in_parts} taken by Back, {stopped} stopped by a move"
    );
}
