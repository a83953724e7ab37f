//! Snapshots by change (issue 26): after random moves (op steps forward and back, whole
//! requests, seeks, full-speed runs, power cuts and recoveries) the view rebuilt from the
//! deltas (`Stepper::take_delta`) equals the full view of the same moment, in every scheme;
//! and the moment read page by page inside a request (`moment::DuringPages`) equals
//! `Display::during`.

use crate::common;

use common::scenario;
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::stepper::Stepper;
use ftl_sim::trace::gen::Workload;
use proptest::prelude::*;

/// Pages per block: 4, or the fewest the registry takes the scheme on (RFTL and GFTL need pi
/// >= 2k + j pages per block, RFTL section 4.5).
fn ppb_of(scheme: &str) -> u32 {
    common::ppb_for(scheme, &SchemeParams::default(), 32, 4)
}

/// The app's copy of the chip, kept up to date from deltas.
#[derive(Debug, PartialEq)]
struct Mirror {
    states: Vec<u8>,
    lpns: Vec<u32>,
    roles: Vec<u8>,
    owners: Vec<i32>,
    sets: Vec<(u32, Vec<u32>)>,
    erases: Vec<u32>,
}

fn full(s: &Stepper) -> Mirror {
    let sets = s.block_owner_sets();
    Mirror {
        states: s.page_states(),
        lpns: s.page_lpns(),
        roles: s.block_roles(),
        owners: s.block_owners(),
        sets,
        erases: s.erase_counts(),
    }
}

/// Takes a delta and applies it (or reads the whole moment when it asks to); returns
/// whether it was a delta.
fn follow(s: &mut Stepper, m: &mut Mirror) -> bool {
    let d = s.take_delta();
    if d.full {
        *m = full(s);
        return false;
    }
    for (i, &p) in d.pages.iter().enumerate() {
        m.states[p as usize] = d.states[i];
        m.lpns[p as usize] = d.lpns[i];
    }
    for (i, &b) in d.blocks.iter().enumerate() {
        m.roles[b as usize] = d.roles[i];
        m.owners[b as usize] = d.owners[i];
        m.erases[b as usize] = d.erase_counts[i];
        m.sets.retain(|(x, _)| *x != b);
        if d.owner_sets[i].len() > 1 {
            m.sets.push((b, d.owner_sets[i].clone()));
            m.sets.sort();
        }
    }
    true
}

fn walk(scheme: &str, w: Workload, moves: &[u8]) -> Result<(usize, usize), TestCaseError> {
    let sc = scenario(scheme, SchemeParams::default(), 32, ppb_of(scheme), w);
    let mut s = Stepper::new(sc.build().map_err(|e| TestCaseError::fail(format!("{scheme}: {e}")))?);
    s.set_recoverer(sc.recoverer());
    let mut m = full(&s);
    let (mut deltas, mut n) = (0, 0);
    for (i, &mv) in moves.iter().enumerate() {
        if !s.powered() && s.recover().is_err() {
            // A scheme without recovery: leave the power cut.
            s.seek(s.step()).map_err(TestCaseError::fail)?;
        }
        let what = match mv % 64 {
            0 => {
                s.seek((mv as usize * 7) % 300).map_err(TestCaseError::fail)?;
                "seek"
            }
            1 => {
                s.run(3).map_err(TestCaseError::fail)?;
                "run"
            }
            2 if s.powered() && !s.recovering() && s.op_cursor() > 0 => {
                s.power_cut().map_err(TestCaseError::fail)?;
                "power cut"
            }
            3..=8 => {
                let _ = s.step_request().map_err(TestCaseError::fail)?;
                "step request"
            }
            9..=27 => {
                let _ = s.back_op().map_err(TestCaseError::fail)?;
                "back op"
            }
            _ => {
                let _ = s.step_op().map_err(TestCaseError::fail)?;
                "step op"
            }
        };
        if follow(&mut s, &mut m) {
            deltas += 1;
        }
        n += 1;
        let want = full(&s);
        if m != want {
            let bad: Vec<usize> = (0..want.states.len()).filter(|&p| m.states[p] != want.states[p]).take(8).collect();
            let badb: Vec<usize> = (0..want.roles.len())
                .filter(|&b| {
                    m.roles[b] != want.roles[b] || m.owners[b] != want.owners[b] || m.erases[b] != want.erases[b]
                })
                .take(8)
                .collect();
            return Err(TestCaseError::fail(format!(
                "{scheme}: move {i} ({what}) to request {} op {}/{}: delta view differs from the full view: pages {bad:?} ({:?} vs {:?}), blocks {badb:?}, lpns equal {}, sets {:?} vs {:?}; {}",
                s.step(),
                s.op_cursor(),
                s.op_count(),
                bad.iter().map(|&p| m.states[p]).collect::<Vec<_>>(),
                bad.iter().map(|&p| want.states[p]).collect::<Vec<_>>(),
                m.lpns == want.lpns,
                m.sets,
                want.sets,
                s.narration()
            )));
        }
    }
    Ok((deltas, n))
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(6),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn delta_view_equals_full_view(
        seed in 1u64..1_000_000,
        skewed in any::<bool>(),
        moves in proptest::collection::vec(any::<u8>(), 600),
    ) {
        // DELTA_SCHEME=gftl PROPTEST_CASES=200 to hunt in one scheme.
        let only = std::env::var("DELTA_SCHEME").ok();
        for &(scheme, _) in SCHEMES.iter().filter(|s| only.as_deref().is_none_or(|o| o == s.0)) {
            let n = 400;
            let w = if skewed {
                Workload::Hotcold { n, seed, read_ratio: 0.2, hot_fraction: 0.2, hot_ratio: 0.8 }
            } else {
                Workload::Uniform { n, seed, read_ratio: 0.2 }
            };
            let (deltas, n) = walk(scheme, w, &moves)?;
            prop_assert!(deltas * 2 > n, "{}: only {} of {} moves followed by a delta", scheme, deltas, n);
        }
    }
}

/// LTFTL's time shift: freezing and reverting change pages all over the chip, so those
/// requests are followed by a full snapshot, and the view stays exact.
#[test]
fn time_shift_requests_are_followed_exactly() {
    let text = "w0-40 freeze w0-20 w5 w9 unfreeze 1 w3-30 freeze w1-12 revert 2 w0-40";
    let sc = scenario("ltftl", SchemeParams::default(), 32, 4, Workload::Pattern { text: text.into() });
    let mut s = Stepper::new(sc.build().unwrap());
    let mut m = full(&s);
    let mut i = 0;
    loop {
        let moved = if i % 7 == 3 { s.back_op().unwrap() } else { s.step_op().unwrap() };
        if !moved {
            break;
        }
        follow(&mut s, &mut m);
        assert_eq!(m, full(&s), "ltftl: move {i} at request {} op {}", s.step(), s.op_cursor());
        i += 1;
    }
    assert!(i > 100);
}
