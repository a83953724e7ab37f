//! What a moment shows is what a chip can hold (issue 24; docs/architecture.md, "What a
//! moment shows"). Walking every scheme op by op — through merges, GC, power cuts, cuts
//! inside recoveries and recoveries — each moment is checked against the one before it
//! with rules a chip obeys, read from the chip's own erase counts rather than from the
//! derivation under test:
//! - no page becomes valid (or retractable) from invalid, and no page looks erased, or
//!   metadata turns into data, without an erase of its block in between — except at the
//!   end of a recovery, which rebuilds the map from the chip: a copy the lost RAM had
//!   forgotten is valid again when the recovered map points to it with the acknowledged
//!   version (docs/architecture.md, "What a moment shows");
//! - every LPN with an acknowledged version has a valid page holding that version (or the
//!   write in flight);
//! - a page a merge or GC just programmed is valid;
//! - a block holding pages keeps a role until it is erased (metadata blocks never read
//!   FREE while they hold metadata), and a block just erased has no role before it is
//!   programmed.

use crate::common;

use common::scenario;
use ftl_sim::ftl::panel::DedicatedLog;
use ftl_sim::ftl::{BlockRole, PageState, PanelData, SchemeParams, SCHEMES};
use ftl_sim::nand::PageKind;
use ftl_sim::stepper::Stepper;
use ftl_sim::trace::gen::Workload;
use proptest::prelude::*;

/// Pages per block: 4, or the fewest the registry takes the scheme on (RFTL and GFTL need pi
/// >= 2k + j pages per block, RFTL section 4.5).
fn ppb_of(scheme: &str) -> u32 {
    common::ppb_for(scheme, &SchemeParams::default(), 32, 4)
}

const PAGE: [PageState; 6] = [
    PageState::Erased,
    PageState::Valid,
    PageState::Invalid,
    PageState::Retractable,
    PageState::Metadata,
    PageState::Torn,
];

/// One moment as the screen reads it, plus the chip facts the rules need.
struct Moment {
    where_: String,
    states: Vec<u8>,
    roles: Vec<u8>,
    erases: Vec<u32>,
}

fn moment(s: &Stepper, what: &str) -> Moment {
    Moment {
        where_: format!("{what} at request {} op {}/{}", s.step(), s.op_cursor(), s.op_count()),
        states: s.page_states(),
        roles: s.block_roles(),
        erases: s.erase_counts(),
    }
}

const META_ROLES: [BlockRole; 4] =
    [BlockRole::Metadata, BlockRole::MapBlock, BlockRole::Checkpoint, BlockRole::MapDirectory];

fn role_is(r: u8, set: &[BlockRole]) -> bool {
    set.iter().any(|&x| x as u8 == r)
}

/// The rules between two consecutive moments, and those of the later one alone.
fn check(s: &Stepper, a: &Moment, b: &Moment, scheme: &str) -> Result<(), TestCaseError> {
    let st = s.view();
    let ppb = st.flash.ppb() as usize;
    let at = || format!("{scheme}: {} -> {}", a.where_, b.where_);
    let recovered = b.where_.starts_with("recovery") && !s.recovering();
    let lpns_now = s.page_lpns();
    let regained = |p: usize| {
        let l = lpns_now[p];
        recovered
            && l != ftl_sim::nand::NONE
            && st.ftl.locate(l) == Some(p as u32)
            && st.oracle.latest().get(l as usize) == Some(&st.flash.peek(p as u32).version)
    };
    for p in 0..b.states.len() {
        let blk = p / ppb;
        if b.erases[blk] != a.erases[blk] || regained(p) {
            continue;
        }
        let (x, y) = (PAGE[a.states[p] as usize], PAGE[b.states[p] as usize]);
        let bad = match (x, y) {
            (PageState::Invalid, PageState::Valid | PageState::Retractable) => true,
            (PageState::Metadata, PageState::Valid | PageState::Retractable) => true,
            (PageState::Erased, _) => false,
            (_, PageState::Erased) => true,
            _ => false,
        };
        prop_assert!(
            !bad,
            "{}: page {} (block {}, offset {}) went {:?} -> {:?} with no erase",
            at(),
            p,
            blk,
            p % ppb,
            x,
            y
        );
    }
    for blk in 0..b.roles.len() {
        let held = st.flash.block_pages(blk as u32).iter().any(|pg| !pg.is_erased());
        // Inside a request (or with power off, or in a recovery), a block erased or still
        // empty gets its role at its first program, and a block holding pages keeps its
        // role until its erase; between requests a scheme may release a block to erase
        // later (LTFTL's erase-on-allocate), but never a metadata block.
        let inside = !s.powered() || s.recovering() || (s.op_cursor() > 0 && s.op_cursor() < s.op_count());
        if inside && b.erases[blk] == a.erases[blk] && held && b.roles[blk] == BlockRole::Free as u8 {
            prop_assert!(
                a.roles[blk] == BlockRole::Free as u8,
                "{}: block {} holds pages and went from role {} to FREE with no erase",
                at(),
                blk,
                a.roles[blk]
            );
        }
        if role_is(a.roles[blk], &META_ROLES) && held && b.erases[blk] == a.erases[blk] {
            prop_assert!(b.roles[blk] != BlockRole::Free as u8, "{}: metadata block {} reads FREE", at(), blk);
        }
        if inside && !held && (b.erases[blk] != a.erases[blk] || a.roles[blk] == BlockRole::Free as u8) {
            prop_assert_eq!(
                b.roles[blk],
                BlockRole::Free as u8,
                "{}: erased block {} has a role before it is programmed",
                at(),
                blk
            );
        }
    }
    // Every acknowledged LPN is readable from a valid page.
    let lpns = s.page_lpns();
    let in_flight = st.next_version.saturating_sub(1);
    for (lpn, &want) in st.oracle.latest().iter().enumerate() {
        if want == 0 {
            continue;
        }
        let found = (0..lpns.len()).any(|p| {
            lpns[p] == lpn as u32 && b.states[p] == PageState::Valid as u8 && {
                let v = st.flash.peek(p as u32).version;
                v == want || v == in_flight
            }
        });
        // Inside a recovery (no map yet), the copy the lost RAM had forgotten that recovery
        // returns to (a merge or GC undone) is on the chip, valid again at the recovery's end;
        // so after a cut inside the recovery (the next recovery's end, e.g. RFTL's GC source,
        // forgotten at its copy).
        let unmapped = s.recovering() || b.where_.starts_with("power off in recovery");
        let on_chip =
            unmapped && (0..lpns.len()).any(|p| lpns[p] == lpn as u32 && st.flash.peek(p as u32).version == want);
        prop_assert!(found || on_chip, "{}: lpn {} (version {}) has no valid page", at(), lpn, want);
    }
    // The page a merge or GC just programmed is valid.
    if s.op_cursor() > 0 {
        if let Some(e) = s.events().iter().rev().find(|e| e.cause.is_some()) {
            if e.kind == "program" && e.cause != Some("host") && e.lpn.is_some() {
                let g = st.flash.geometry();
                let p = (e.pbn.unwrap() * g.pages_per_block + e.page.unwrap()) as usize;
                if st.flash.peek(p as u32).kind == PageKind::Data {
                    let y = PAGE[b.states[p] as usize];
                    prop_assert!(
                        matches!(y, PageState::Valid | PageState::Retractable),
                        "{}: page {} copied by {:?} shows {:?}",
                        at(),
                        p,
                        e.cause,
                        y
                    );
                }
            }
        }
    }
    Ok(())
}

/// Walks `requests` requests op by op; `cuts` says after which steps power fails (and,
/// when odd, fails again inside the recovery).
fn walk(scheme: &str, w: Workload, blocks: u32, requests: usize, cuts: &[(usize, u8)]) -> Result<usize, TestCaseError> {
    let sc = scenario(scheme, SchemeParams::default(), blocks, ppb_of(scheme), w);
    let mut s = Stepper::new(sc.build().map_err(|e| TestCaseError::fail(format!("{scheme}: {e}")))?);
    s.set_recoverer(sc.recoverer());
    let mut prev = moment(&s, "start");
    let mut steps = 0;
    let mut moments = 0;
    while s.step() < requests {
        if !s.step_op().map_err(TestCaseError::fail)? {
            break;
        }
        steps += 1;
        let m = moment(&s, "step");
        check(&s, &prev, &m, scheme)?;
        prev = m;
        moments += 1;
        if let Some(&(_, twice)) = cuts.iter().find(|c| c.0 == steps) {
            if s.op_cursor() == 0 || s.op_cursor() >= s.op_count() {
                continue;
            }
            s.power_cut().map_err(TestCaseError::fail)?;
            let m = moment(&s, "power off");
            check(&s, &prev, &m, scheme)?;
            prev = m;
            s.recover().map_err(TestCaseError::fail)?;
            let mut cut_again = twice % 2 == 1;
            while s.recovering() {
                s.step_op().map_err(TestCaseError::fail)?;
                let m = moment(&s, "recovery");
                check(&s, &prev, &m, scheme)?;
                prev = m;
                if cut_again && s.recovering() && s.op_cursor() * 2 >= s.op_count() {
                    cut_again = false;
                    s.power_cut().map_err(TestCaseError::fail)?;
                    let m = moment(&s, "power off in recovery");
                    check(&s, &prev, &m, scheme)?;
                    prev = m;
                    s.recover().map_err(TestCaseError::fail)?;
                }
            }
            let v: serde_json::Value = serde_json::from_str(&s.verdict_json()).unwrap();
            prop_assert_eq!(&v["ok"], true, "{}: recovery verdict {}", scheme, v);
        }
    }
    Ok(moments)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(4),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn every_moment_is_one_a_chip_can_hold(
        seed in 1u64..1_000_000,
        skewed in any::<bool>(),
        cuts in proptest::collection::vec((1usize..3000, any::<u8>()), 6),
    ) {
        // MOMENTS_SCHEME=gftl PROPTEST_CASES=200 to hunt in one scheme.
        let only = std::env::var("MOMENTS_SCHEME").ok();
        for &(scheme, _) in SCHEMES.iter().filter(|s| only.as_deref().is_none_or(|o| o == s.0)) {
            let n = 400;
            let w = if skewed {
                Workload::Hotcold { n, seed, read_ratio: 0.2, hot_fraction: 0.2, hot_ratio: 0.8 }
            } else {
                Workload::Uniform { n, seed, read_ratio: 0.2 }
            };
            let moments = walk(scheme, w, 32, 300, &cuts)?;
            prop_assert!(moments > 300, "{}: only {} moments", scheme, moments);
        }
    }
}

/// A cut inside RFTL's recovery, then the next recovery's compaction (proptest found it):
/// the RAM lost at the first cut maps lpn 26 to page 73, which the interrupted recovery had
/// erased and programmed with lpn 25 (v211); the copy of lpn 26 (v106, its acknowledged
/// version) was drawn invalid against that page's version.
#[test]
fn a_recovery_copy_is_valid_when_the_lost_map_points_to_a_reused_page() {
    let w = Workload::Uniform { n: 400, seed: 956_735, read_ratio: 0.2 };
    let cuts = [(973, 19), (824, 0), (77, 175), (2476, 202), (812, 208), (223, 199)];
    let moments = walk("rftl", w, 32, 300, &cuts).unwrap_or_else(|e| panic!("{e}"));
    assert!(moments > 300, "only {moments} moments");
}

fn stepper_at(scheme: &str, params: SchemeParams, blocks: u32, ppb: u32, text: &str, at: usize) -> Stepper {
    let sc = scenario(scheme, params, blocks, ppb, Workload::Pattern { text: text.into() });
    let mut s = Stepper::new(sc.build().unwrap());
    s.set_recoverer(sc.recoverer());
    s.seek(at).unwrap();
    s
}

/// The BAST thrash (2 log blocks, 16 x 4, `&at=18`): request 19's full merge of
/// LBN 0 copies into block 6. The copies are valid as they are programmed, block 0's stale
/// page 0 is invalid throughout, block 6 is LBN 0's merge destination until the old blocks
/// are erased, and no block is labelled with another's role.
#[test]
fn bast_full_merge_op_by_op() {
    let text = "w0-15 S0 S4 S8 S12 S0 S4 S8 S12";
    let mut s = stepper_at("bast", SchemeParams { log_blocks: Some(2), ..Default::default() }, 16, 4, text, 18);
    assert!(s.step_op().unwrap());
    let n = s.op_count();
    assert!(n >= 8, "a full merge: {n} ops");
    let mut dest: Option<u32> = None;
    let mut switched = false;
    let mut victim: Option<DedicatedLog> = None;
    loop {
        // Between requests (the request done) the cursor reads 0.
        let k = if s.step() == 19 { n } else { s.op_cursor() };
        let states = s.page_states();
        let roles = s.block_roles();
        let owners = s.block_owners();
        let evs = s.events();
        let last = evs.iter().rev().find(|e| e.cause.is_some()).unwrap();
        if last.kind == "program" && last.cause == Some("full_merge") {
            let d = last.pbn.unwrap();
            dest = Some(d);
            let p = (d * 4 + last.page.unwrap()) as usize;
            assert_eq!(
                states[p],
                PageState::Valid as u8,
                "op {k}: copy into block {d} page {} is valid",
                last.page.unwrap()
            );
        }
        if last.kind == "erase" {
            switched = true;
        }
        let want0 = if switched { PageState::Erased } else { PageState::Invalid };
        assert_eq!(states[0], want0 as u8, "op {k}: block 0's stale page 0 is invalid until block 0 is erased");
        if let Some(d) = dest {
            let want = if switched { BlockRole::Data } else { BlockRole::GcDestination };
            assert_eq!(roles[d as usize], want as u8, "op {k}: block {d}'s role");
            assert_eq!(owners[d as usize], 0, "op {k}: block {d} serves LBN 0");
            if !switched {
                assert_eq!(roles[0], BlockRole::Data as u8, "op {k}: block 0 stays LBN 0's data block until its erase");
            }
        }
        // The sector map keeps the victim's entries until the merge is done.
        if k < n && k >= 1 {
            // The victim (LBN 0's log block) lists the same entries while its slot holds it.
            let view = s.scheme_view();
            let slots = view.panels.iter().find_map(|p| match &p.data {
                PanelData::DedicatedLogBlocks { slots, .. } => Some(slots.clone()),
                _ => None,
            });
            let victim_now = slots.unwrap().into_iter().find(|l| {
                l.pbn.is_some() && victim.as_ref().map_or(l.lbn == Some(0), |v: &DedicatedLog| l.pbn == v.pbn)
            });
            if let (Some(v), Some(now)) = (&victim, &victim_now) {
                assert_eq!(v.lsns, now.lsns, "op {k}: the log slot reads empty mid-merge: {}", s.view_json());
            }
            victim = victim.or(victim_now);
        }
        if k == n {
            break;
        }
        s.step_op().unwrap();
    }
    assert_eq!(dest, Some(6), "the issue's destination block");
}

/// The FastCheck request 109: the map directory (blocks 0, 1), the map block and
/// the checkpoint block never read FREE while they hold metadata.
#[test]
fn fastcheck_metadata_blocks_keep_their_roles_through_request_109() {
    // The tour "fastcheck-power-cut" (FIG4 in web/src/tour/tours.ts).
    let fig4 = "w0-67 w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25 w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33 w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5 w9 w10 w11 w13 w18";
    {
        let scheme = "fastcheck";
        let mut s = stepper_at(
            scheme,
            SchemeParams { log_blocks: Some(7), checkpoint_lpns: Some(12), ..Default::default() },
            32,
            4,
            fig4,
            108,
        );
        assert!(s.step_op().unwrap());
        let mut seen_meta = [false; 32];
        loop {
            let roles = s.block_roles();
            let chip = &s.view().flash;
            for b in 0..32u32 {
                let holds_meta = chip.block_pages(b).iter().any(|p| p.kind == ftl_sim::nand::PageKind::Meta);
                if holds_meta {
                    seen_meta[b as usize] = true;
                    assert_ne!(
                        roles[b as usize],
                        BlockRole::Free as u8,
                        "{scheme} op {}: block {b} holds metadata and reads FREE",
                        s.op_cursor()
                    );
                }
            }
            if s.step() == 109 {
                break;
            }
            s.step_op().unwrap();
        }
        assert!(seen_meta[0] || seen_meta[1], "{scheme}: the map directory holds metadata by request 109");
    }
}
