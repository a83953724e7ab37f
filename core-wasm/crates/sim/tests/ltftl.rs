//! LTFTL (time-shift FTL): the paper's worked example (Figure 2), the Figure 6
//! session, retractable pages under GC, reference-model property tests with random
//! freeze / unfreeze / revert, power-loss recovery sweeps, space accounting (Figure 8)
//! and the reliability experiment of section 5.2 (Table 1).

use crate::common;

use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};

use common::{run_checked, scenario};
use ftl_sim::ftl::ltftl::{LtFtl, Section};
use ftl_sim::ftl::panel::FrozenStateRow;
use ftl_sim::ftl::{Ftl, PageState, PanelData, SchemeParams};
use ftl_sim::nand::{Cause, Chip, Flash, FlashError, Lpn, OpKind, PageKind, Ppn};
use ftl_sim::oracle::Oracle;
use ftl_sim::sim::State;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::rng::SplitMix64;
use ftl_sim::trace::Request;
use proptest::prelude::*;

fn chip(blocks: u32, ppb: u32, page_bytes: u32) -> Chip {
    let mut c = Chip::preset("classroom").unwrap();
    c.geometry.blocks = blocks;
    c.geometry.pages_per_block = ppb;
    c.geometry.page_bytes = page_bytes;
    c
}

fn params(op: f64, log_blocks: Option<u32>) -> SchemeParams {
    SchemeParams { op: Some(op), log_blocks, ..Default::default() }
}

fn version_at(flash: &Flash, ppn: Ppn, lpn: Lpn) -> u32 {
    let p = flash.peek(ppn);
    if p.kind == PageKind::Data && p.lpn == lpn {
        p.version
    } else {
        0
    }
}

/// Versions a forward map (or a state's image) shows for every sector.
fn versions(flash: &Flash, map: &[Ppn]) -> Vec<u32> {
    map.iter().enumerate().map(|(l, &p)| if p == u32::MAX { 0 } else { version_at(flash, p, l as u32) }).collect()
}

/// A run of LTFTL against the reference model, with direct access to the scheme.
#[derive(Clone)]
struct Run {
    flash: Flash,
    ftl: LtFtl,
    oracle: Oracle,
    next_version: u32,
    /// State ids handed out so far (the scheme may have released some).
    ids: Vec<u32>,
}

impl Run {
    fn new(chip: Chip, p: &SchemeParams) -> Run {
        let ftl = LtFtl::new(&chip.geometry, p).unwrap();
        let oracle = Oracle::new(ftl.logical_pages());
        Run { flash: Flash::new(chip), ftl, oracle, next_version: 1, ids: Vec::new() }
    }

    /// Executes one request like `State::exec` (the oracle changes only on success).
    fn exec(&mut self, r: Request) -> Result<(), FlashError> {
        match r {
            Request::Write { lpn } => {
                let v = self.next_version;
                self.next_version += 1;
                self.ftl.write(&mut self.flash, lpn, v)?;
                self.oracle.ack(lpn, v);
            }
            Request::Read { lpn } => {
                let got = self.ftl.read(&mut self.flash, lpn)?.map(|p| version_at(&self.flash, p, lpn)).unwrap_or(0);
                assert_eq!(got, self.oracle.expected(lpn), "read of lpn {lpn}");
            }
            Request::Freeze => {
                let id = self.ftl.freeze(&mut self.flash)?.unwrap();
                self.oracle.freeze(id);
                self.ids.push(id);
            }
            Request::Unfreeze { state } => {
                if self.ftl.unfreeze(&mut self.flash, state)?.is_ok() {
                    self.oracle.unfreeze(state);
                }
            }
            Request::Revert { state } => {
                if self.ftl.revert(&mut self.flash, state)?.is_ok() {
                    self.oracle.revert(state);
                }
            }
        }
        Ok(())
    }

    fn write(&mut self, lpn: Lpn) {
        self.exec(Request::Write { lpn }).unwrap();
    }

    /// The current map and every live state's image agree with the model.
    fn check(&self, when: &str) {
        let cur = versions(&self.flash, self.ftl.forward_map());
        let bad: Vec<usize> = (0..cur.len()).filter(|&l| cur[l] != self.oracle.latest()[l]).collect();
        assert!(
            bad.is_empty(),
            "{when}: {} sectors disagree with the model, e.g. {:?}",
            bad.len(),
            &bad[..bad.len().min(8)]
        );
        for s in self.ftl.states() {
            let img = versions(&self.flash, &self.ftl.image_of(s.id).unwrap());
            let want = self.oracle.frozen(s.id).expect("a live state the model knows");
            let bad: Vec<usize> = (0..img.len()).filter(|&l| img[l] != want[l]).collect();
            assert!(
                bad.is_empty(),
                "{when}: state {} image differs from its frozen versions at {:?}",
                s.id,
                &bad[..bad.len().min(8)]
            );
        }
        if let Err(e) = self.ftl.check_counters(&self.flash) {
            panic!("{when}: {e}");
        }
        for ppn in 0..self.flash.geometry().pages() {
            if self.flash.peek(ppn).kind == PageKind::Torn {
                assert_ne!(self.ftl.page_state(&self.flash, ppn), PageState::Valid);
            }
        }
    }

    fn state_count(&self, st: PageState) -> usize {
        (0..self.flash.geometry().pages()).filter(|&p| self.ftl.page_state(&self.flash, p) == st).count()
    }

    fn live_ids(&self) -> Vec<u32> {
        self.ftl.states().iter().map(|s| s.id).collect()
    }
}

// ---- Figure 2 ---------------------------------------------------------------------

/// Figure 2 / section 3.1: writes to sectors 0 1 2 3 0 1 4 5 3 4 5 6 at t = 0..11 on
/// 4-page blocks. S8 = {P0^4, P1^5, P2^2, P3^3, P4^6, P5^7} and S12 = {P0^4, P1^5,
/// P2^2, P3^8, P4^9, P5^10, P6^11}; U(8-12) = {(3,8), (6,9), (7,10), (φ,11)}; the
/// retractable pages at t = 12 are S8 ∩ Domain(U) = {3, 6, 7} (equation 2); reverting
/// S12 → S8 gives S8 (equation 1).
#[test]
fn figure2_states_s8_s12_and_revert() {
    let mut r = Run::new(chip(16, 4, 512), &params(0.25, None));
    let base = r.ftl.sections()[2][0] * 4; // page 0 of the paper = first data page
    let page = |j: u32| base + j;
    let writes = [0, 1, 2, 3, 0, 1, 4, 5, 3, 4, 5, 6];
    for &s in &writes[..8] {
        r.write(s);
    }
    r.exec(Request::Freeze).unwrap();
    let id = r.ids[0];
    assert_eq!(r.ftl.states()[0].epoch, 8, "the state frozen after t = 0..7 is S8");
    for &s in &writes[8..] {
        r.write(s);
    }
    let s12: Vec<Ppn> = [4, 5, 2, 8, 9, 10, 11].iter().map(|&j| page(j)).collect();
    assert_eq!(&r.ftl.forward_map()[..7], &s12[..], "S12");
    let s8: Vec<Ppn> = [4, 5, 2, 3, 6, 7].iter().map(|&j| page(j)).collect();
    let img = r.ftl.image_of(id).unwrap();
    assert_eq!(&img[..6], &s8[..], "S8 as the log computes it");
    assert_eq!(img[6], u32::MAX, "sector 6 is not in S8");
    // U(8-12): the entries after the epoch.
    let u: Vec<(Lpn, Ppn, Ppn, u32)> =
        r.ftl.log_entries().iter().filter(|e| e.gt >= 8).map(|e| (e.sector(), e.old, e.new, e.gt)).collect();
    assert_eq!(
        u,
        vec![
            (3, page(3), page(8), 8),
            (4, page(6), page(9), 9),
            (5, page(7), page(10), 10),
            (6, u32::MAX, page(11), 11)
        ]
    );
    let st = |j: u32| r.ftl.page_state(&r.flash, page(j));
    for j in [3, 6, 7] {
        assert_eq!(st(j), PageState::Retractable, "page {j} is in S8 ∩ Domain(U)");
    }
    for j in [0, 1] {
        assert_eq!(st(j), PageState::Invalid, "page {j} is needed by no state");
    }
    for j in [2, 4, 5, 8, 9, 10, 11] {
        assert_eq!(st(j), PageState::Valid);
    }
    r.check("at t = 12");
    // The UI's revert diff lists exactly U(8-12)'s sectors with their old pages.
    let panels = r.ftl.panels(&r.flash);
    let diff = panels
        .iter()
        .find_map(|p| match &p.data {
            PanelData::RevertDiff { rows } => Some(rows),
            _ => None,
        })
        .unwrap();
    let rows: Vec<(u32, Option<Ppn>)> = diff.iter().map(|row| (row.sector, row.after)).collect();
    // "-": sector 6 had no page in S8.
    assert_eq!(rows, [(3, Some(page(3))), (4, Some(page(6))), (5, Some(page(7))), (6, None)]);
    let states = panels
        .iter()
        .find_map(|p| match &p.data {
            PanelData::FrozenStates { states } => Some(states),
            _ => None,
        })
        .unwrap();
    assert_eq!(states, &[FrozenStateRow { id, epoch: 8, pinned: 3 }], "state 1 is S8 and pins 3 pages");
    // Revert S12 → S8.
    r.exec(Request::Revert { state: id }).unwrap();
    assert_eq!(&r.ftl.forward_map()[..6], &s8[..], "after revert the map is S8");
    assert_eq!(r.ftl.forward_map()[6], u32::MAX);
    for j in [8, 9, 10, 11, 0, 1] {
        assert_eq!(r.ftl.page_state(&r.flash, page(j)), PageState::Invalid, "page {j} after revert");
    }
    for j in [2, 3, 4, 5, 6, 7] {
        assert_eq!(r.ftl.page_state(&r.flash, page(j)), PageState::Valid, "page {j} after revert");
    }
    r.check("after revert");
    // The state survives the revert and can be reverted to again.
    r.write(0);
    r.exec(Request::Revert { state: id }).unwrap();
    r.check("after a second revert");
    assert_eq!(&r.ftl.forward_map()[..6], &s8[..]);
}

// ---- Figure 6 and the pattern language -----------------------------------------------

/// Figure 6: write a file, freeze, modify it, read the modified string, revert, read the
/// original — as an inline pattern through the simulator (the reference model snapshots
/// the versions at freeze and restores them at revert; reads are checked against it).
#[test]
fn figure6_session_through_the_pattern_language() {
    let text = "w0-3 freeze w1 w2 r1 r2 revert 1 r0 r1 r2 r3 w1 r1 unfreeze 1 w2 r2";
    let w = Workload::Pattern { text: text.into() };
    let mut sim = scenario("ltftl", SchemeParams::default(), 16, 4, w).build().unwrap();
    run_checked(&mut sim, 1);
    let s = &sim.state;
    assert_eq!(s.host.wrong_reads, 0);
    assert_eq!(s.host.reads, 8);
    // After revert 1, sectors 1 and 2 show the versions written before the freeze.
    let m = sim.state.metrics();
    assert_eq!(m.scheme_metrics["frozen_states"], 0);
    assert!(m.scheme_metrics["map_dumps"].as_u64().unwrap() >= 1, "revert writes the map");
    // The state table is a panel of the UI.
    let t = sim.state.ftl.panels(&sim.state.flash);
    assert!(t.iter().any(|t| matches!(t.data, PanelData::FrozenStates { .. })));
    assert!(t.iter().any(|t| matches!(t.data, PanelData::LogBuffer { .. })));
}

#[test]
fn revert_and_unfreeze_of_unknown_states_are_refused() {
    let mut r = Run::new(chip(16, 4, 512), &params(0.25, None));
    r.write(0);
    assert!(r.ftl.revert(&mut r.flash, 7).unwrap().is_err());
    assert!(r.ftl.unfreeze(&mut r.flash, 7).unwrap().is_err());
    let a = r.ftl.freeze(&mut r.flash).unwrap().unwrap();
    let b = r.ftl.freeze(&mut r.flash).unwrap().unwrap();
    assert_ne!(a, b, "several states at once");
    assert_eq!(r.ftl.states().len(), 2);
}

// ---- space: unfreeze, GC and retractable pages ---------------------------------------

#[test]
fn unfreeze_turns_retractable_pages_invalid_and_gc_reclaims_them() {
    let mut r = Run::new(chip(32, 8, 512), &params(0.5, None));
    let n = r.ftl.logical_pages();
    for l in 0..n {
        r.write(l);
    }
    r.exec(Request::Freeze).unwrap();
    let id = r.ids[0];
    for l in 0..n / 2 {
        r.write(l);
    }
    assert_eq!(r.state_count(PageState::Retractable), (n / 2) as usize);
    let invalid_before = r.state_count(PageState::Invalid);
    r.exec(Request::Unfreeze { state: id }).unwrap();
    assert_eq!(r.state_count(PageState::Retractable), 0);
    assert_eq!(r.state_count(PageState::Invalid), invalid_before + (n / 2) as usize);
    r.check("after unfreeze");
    // The released pages are garbage now: a GC can reclaim them.
    let gc0 = r.flash.counters.gc_runs;
    for i in 0..4 * n {
        r.write(i % n);
    }
    assert!(r.flash.counters.gc_runs > gc0);
    r.check("after GC");
}

/// GC picks victims holding retractable pages and copies those pages (they are never
/// reclaimed while a state needs them): after heavy overwriting with two live states,
/// both states still revert exactly, and GC did copy retractable pages.
#[test]
fn gc_never_destroys_a_page_a_live_state_needs() {
    let mut r = Run::new(chip(48, 8, 512), &params(0.7, Some(8)));
    let n = r.ftl.logical_pages();
    let mut rng = SplitMix64::new(5);
    for l in 0..n {
        r.write(l);
    }
    r.exec(Request::Freeze).unwrap();
    for _ in 0..n {
        r.write(rng.below(n as u64) as u32);
    }
    r.exec(Request::Freeze).unwrap();
    for i in 0..20 * n {
        // Mostly a hot half, so cold blocks holding retractable pages get picked too.
        let l = if i % 4 == 0 { rng.below(n as u64) } else { rng.below(n as u64 / 4) };
        r.write(l as u32);
        if i % 97 == 0 {
            r.check("during overwrites");
        }
    }
    let m = r.ftl.scheme_metrics();
    assert_eq!(m["states_released_automatically"], 0, "the chip has room for both states");
    assert!(m["retractable_pages_copied_by_gc"].as_u64().unwrap() > 0, "GC copied retractable pages: {m}");
    assert!(r.flash.counters.gc_runs > 50);
    r.check("before revert");
    let (a, b) = (r.ids[0], r.ids[1]);
    let mut r2 = r.clone();
    r.exec(Request::Revert { state: b }).unwrap();
    r.check("after revert to the newer state");
    r.exec(Request::Revert { state: a }).unwrap();
    r.check("after revert to the older state");
    r2.exec(Request::Revert { state: a }).unwrap();
    r2.check("after revert straight to the older state");
    assert!(r2.ftl.states().iter().all(|s| s.id != b), "a revert drops the states frozen after it");
}

/// When retractable pages leave no reclaimable page, the oldest state is released
/// (documented choice) rather than failing the write.
#[test]
fn out_of_space_releases_the_oldest_state() {
    let mut r = Run::new(chip(24, 4, 512), &params(0.1, None));
    let n = r.ftl.logical_pages();
    for round in 0..6 {
        for l in 0..n {
            r.write(l);
        }
        r.exec(Request::Freeze).unwrap();
        r.check(&format!("round {round}"));
    }
    assert!(r.ftl.released_states() > 0);
    assert!(!r.ftl.states().is_empty());
    r.check("end");
}

// ---- reference model, random time shift ---------------------------------------------

fn random_requests(
    rng: &mut SplitMix64,
    n: usize,
    space: u32,
    kind: u8,
    read_ratio: f64,
    live: &[u32],
    last_id: u32,
) -> Vec<Request> {
    let mut out = Vec::with_capacity(n);
    let mut seq = 0u32;
    for _ in 0..n {
        let u = rng.unit();
        let r = if u < 0.003 {
            Request::Freeze
        } else if u < 0.0045 && last_id > 0 {
            // Ids the scheme may or may not still have: refused ones change nothing.
            let pick = if !live.is_empty() && rng.unit() < 0.7 {
                live[rng.below(live.len() as u64) as usize]
            } else {
                1 + rng.below(last_id as u64) as u32
            };
            Request::Unfreeze { state: pick }
        } else if u < 0.006 && last_id > 0 {
            let pick = if !live.is_empty() && rng.unit() < 0.8 {
                live[rng.below(live.len() as u64) as usize]
            } else {
                1 + rng.below(last_id as u64) as u32
            };
            Request::Revert { state: pick }
        } else {
            let lpn = match kind {
                0 => rng.below(space as u64) as u32,
                1 => {
                    let hot = (space / 5).max(1);
                    if rng.unit() < 0.8 {
                        rng.below(hot as u64) as u32
                    } else {
                        hot + rng.below((space - hot).max(1) as u64) as u32 % space
                    }
                }
                _ => {
                    seq = (seq + 1) % space;
                    seq
                }
            };
            if rng.unit() < read_ratio {
                Request::Read { lpn }
            } else {
                Request::Write { lpn }
            }
        };
        out.push(r);
    }
    out
}

#[allow(clippy::too_many_arguments)]
fn run_random(blocks: u32, ppb: u32, page_bytes: u32, op: f64, seed: u64, kind: u8, read_ratio: f64, n: usize) -> Run {
    let mut r = Run::new(chip(blocks, ppb, page_bytes), &params(op, None));
    let mut rng = SplitMix64::new(seed);
    let space = r.ftl.logical_pages();
    let mut done = 0;
    while done < n {
        let live = r.live_ids();
        let last = r.ids.last().copied().unwrap_or(0);
        let batch = random_requests(&mut rng, 50.min(n - done), space, kind, read_ratio, &live, last);
        for q in batch {
            let is_ts = q.lpn().is_none();
            r.exec(q).unwrap_or_else(|e| panic!("request {done} ({q:?}) failed: {e}"));
            done += 1;
            if is_ts {
                r.check(&format!("after {q:?} at request {done}"));
            }
        }
        if done % 1000 < 50 {
            r.check(&format!("after {done} requests"));
        }
    }
    r.check("at the end");
    assert_shares_match_chip(&r);
    r
}

static REQUESTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Random geometries (page sizes change log and map page capacities) and
    /// workloads (uniform, hot/cold, sequential; with reads) with random freeze /
    /// unfreeze / revert: the map and every live state's image match the model.
    /// 96 cases × ≥ 5,000 requests = ≥ 480,000 requests.
    #[test]
    fn ltftl_matches_reference_model_with_time_shift(
        blocks in 24u32..160,
        ppb in 2u32..24,
        pb in 0usize..3,
        op in 0.15f64..0.5,
        seed in any::<u64>(),
        kind in 0u8..3,
        read_ratio in 0.0f64..0.4,
        n in 5_000usize..6_000,
    ) {
        let page_bytes = [64, 128, 512][pb];
        prop_assume!(LtFtl::new(&chip(blocks, ppb, page_bytes).geometry, &params(op, None)).is_ok());
        let r = run_random(blocks, ppb, page_bytes, op, seed, kind, read_ratio, n);
        prop_assert!(r.flash.total(OpKind::Program) > 0);
        let total = REQUESTS.fetch_add(n, std::sync::atomic::Ordering::Relaxed) + n;
        let m = r.ftl.scheme_metrics();
        eprintln!("case {blocks}x{ppb}x{page_bytes}B op {op:.2} kind {kind}: {n} requests (total so far {total}); states made {}, live {}, released {}, dumps {}, GC {}", r.ids.len(), m["frozen_states"], m["states_released_automatically"], m["map_dumps"], r.flash.counters.gc_runs);
    }
}

// ---- recovery (section 4) -------------------------------------------------------------

/// Cuts power inside the request at `req`, recovers from the chip alone and checks:
/// no acknowledged write lost, the interrupted request fully old or fully new, every
/// surviving state's image intact, torn pages never mapped. Optionally cuts again
/// during recovery. Returns the recovered run and the recovery's flash operations.
fn cut_and_recover(
    base: &Run,
    req: Request,
    rng: &mut SplitMix64,
    p: &SchemeParams,
    cut_recovery: bool,
    to_frozen: bool,
) -> (Run, [u64; 4]) {
    // Operations this request needs without a cut.
    let mut probe = base.clone();
    let before = probe.flash.total_ops();
    probe.exec(req).unwrap();
    let ops = probe.flash.total_ops() - before;
    let mut r = base.clone();
    let budget = rng.below(ops + 1);
    r.flash.set_power_budget(Some(budget));
    let acked = r.exec(req).is_ok();
    r.flash.power_on();
    let kinds = [OpKind::Read, OpKind::ReadOob, OpKind::Program, OpKind::Erase];
    let rec_before = kinds.map(|k| r.flash.count(k, Cause::Recovery));
    let ftl = loop {
        if cut_recovery && rng.unit() < 0.3 {
            r.flash.set_power_budget(Some(rng.below(80)));
        }
        match LtFtl::recover(&mut r.flash, p, to_frozen) {
            Ok(f) => break f,
            Err(FlashError::PowerLoss) => r.flash.power_on(),
            Err(e) => panic!("recovery after a cut in {req:?} (budget {budget} of {ops}) failed: {e}"),
        }
    };
    r.flash.power_on();
    let rec_ops = [0, 1, 2, 3].map(|i| r.flash.count(kinds[i], Cause::Recovery) - rec_before[i]);
    r.ftl = ftl;
    // The interrupted request took effect entirely (the probe's outcome) or not at all
    // (the base's): the current image and the surviving states must fit one of them.
    // Rebooting to the frozen state means reverting to the latest surviving state.
    let got = versions(&r.flash, r.ftl.forward_map());
    let ids: Vec<u32> = r.live_ids();
    let expect = |c: &Run| {
        let mut o = c.oracle.clone();
        if to_frozen {
            if let Some(&last) = ids.last() {
                o.revert(last);
            }
        }
        o
    };
    let fits = |c: &Run| got == expect(c).latest() && ids.iter().all(|i| c.ftl.states().iter().any(|s| s.id == *i));
    let outcome = if fits(&probe) && (!fits(base) || ids.iter().any(|i| !base.live_ids().contains(i))) {
        &probe
    } else if fits(base) {
        base
    } else {
        panic!("after a cut in {req:?} (budget {budget} of {ops}, acked {acked}), the recovered image fits neither the old nor the new state")
    };
    r.oracle = expect(outcome);
    r.ids = probe.ids.clone();
    r.next_version = probe.next_version;
    r.check(&format!("after recovering from a cut in {req:?} (budget {budget} of {ops})"));
    assert_shares_match_chip(&r);
    (r, rec_ops)
}

static CUTS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Power cut inside every request of a random workload with time shift (and, in
    /// a third of the cases, again during recovery): recovery from the chip alone keeps
    /// every acknowledged write, makes the interrupted request all-or-nothing, keeps every
    /// surviving state's image, never maps a torn page, and the recovered FTL keeps
    /// working. Half the cases reboot to the latest frozen state.
    #[test]
    fn power_cut_sweep_recovers_every_acknowledged_write_and_state(
        blocks in 24u32..64,
        ppb in 2u32..16,
        pb in 0usize..3,
        seed in any::<u64>(),
        kind in 0u8..3,
        to_frozen in any::<bool>(),
    ) {
        let page_bytes = [64, 128, 512][pb];
        let p = params(0.3, None);
        prop_assume!(LtFtl::new(&chip(blocks, ppb, page_bytes).geometry, &p).is_ok());
        let mut r = Run::new(chip(blocks, ppb, page_bytes), &p);
        let mut rng = SplitMix64::new(seed);
        let mut cut_rng = SplitMix64::new(seed ^ 0x5555);
        let space = r.ftl.logical_pages();
        let (mut cuts, mut rec) = (0u64, [0u64; 4]);
        for i in 0..1500u32 {
            let live = r.live_ids();
            let last = r.ids.last().copied().unwrap_or(0);
            let q = random_requests(&mut rng, 1, space, kind, 0.1, &live, last)[0];
            let q = if i % 300 == 0 { Request::Freeze } else { q };
            let (mut after, ops) = cut_and_recover(&r, q, &mut cut_rng, &p, i % 3 == 0, to_frozen);
            cuts += 1;
            for k in 0..4 {
                rec[k] += ops[k];
            }
            if i % 10 == 0 {
                // The recovered FTL keeps working.
                for k in 0..10 {
                    after.write((i + k * 7) % space);
                }
                after.check("after writes on the recovered FTL");
            }
            r.exec(q).unwrap();
        }
        let total = CUTS.fetch_add(cuts as usize, std::sync::atomic::Ordering::Relaxed) + cuts as usize;
        let c = cuts as f64;
        eprintln!(
            "power-cut sweep {blocks}x{ppb}x{page_bytes}B to_frozen {to_frozen}: {cuts} cuts (total {total}); mean recovery cost: {:.1} reads, {:.1} OOB reads, {:.1} programs, {:.1} erases",
            rec[0] as f64 / c, rec[1] as f64 / c, rec[2] as f64 / c, rec[3] as f64 / c
        );
    }
}

/// The clean-shutdown flag: after `shutdown`, recovery finds the log complete and
/// rebuilds nothing from spare areas; without it, the log tail comes from the spares.
#[test]
fn clean_shutdown_flag_and_spare_area_tail() {
    let p = params(0.25, None);
    let mut r = Run::new(chip(16, 4, 512), &p);
    for l in [0, 1, 2, 3, 0, 1] {
        r.write(l);
    }
    r.exec(Request::Freeze).unwrap();
    for l in [2, 3, 4] {
        r.write(l);
    }
    assert_eq!(r.ftl.log_buffer().len(), 3, "three entries only in the RAM buffer");
    // Unclean: power simply goes away; the RAM buffer is lost.
    let mut dirty = r.clone();
    let f = LtFtl::recover(&mut dirty.flash, &p, false).unwrap();
    dirty.ftl = f;
    dirty.check("after unclean recovery");
    assert_eq!(dirty.ftl.states().len(), 1);
    // Back to the frozen state on reboot.
    let mut back = r.clone();
    back.ftl = LtFtl::recover(&mut back.flash, &p, true).unwrap();
    back.oracle.revert(r.ids[0]);
    back.check("after reboot to the frozen state");
    // Clean.
    let mut clean = r.clone();
    clean.ftl.shutdown(&mut clean.flash).unwrap();
    let oob0 = clean.flash.count(OpKind::ReadOob, Cause::Recovery);
    clean.ftl = LtFtl::recover(&mut clean.flash, &p, false).unwrap();
    clean.check("after clean recovery");
    assert!(clean.flash.count(OpKind::ReadOob, Cause::Recovery) > oob0);
}

/// With no frozen state RAM keeps only the log buffer (flushed entries live in the log
/// section alone), yet the intent-log panel still lists the last 64 flushed entries, read
/// back from the log pages: each names the write it records (sector, old and new page,
/// global time), and the buffer panel the entries not flushed yet.
#[test]
fn intent_log_panel_reads_flushed_entries_from_the_log_pages() {
    // 512-byte pages: 32 entries a log page; 200 writes, no GC on 64 x 16.
    let mut r = Run::new(chip(64, 16, 512), &params(0.25, None));
    let mut pages = Vec::new();
    let mut last: Vec<Option<Ppn>> = vec![None; 50];
    for n in 0..200u32 {
        let l = n % 50;
        r.write(l);
        let new = r.ftl.forward_map()[l as usize];
        pages.push((l, last[l as usize], new));
        last[l as usize] = Some(new);
    }
    assert_eq!(r.ftl.log_entries().len(), 8, "RAM holds the buffer only: 200 - 6 x 32");
    let panels = r.ftl.panels(&r.flash);
    let (first, logged) = panels
        .iter()
        .find_map(|p| match &p.data {
            PanelData::IntentLog { first, entries } => Some((*first, entries)),
            _ => None,
        })
        .unwrap();
    let buffer = panels
        .iter()
        .find_map(|p| match &p.data {
            PanelData::LogBuffer { entries } => Some(entries),
            _ => None,
        })
        .unwrap();
    assert_eq!((first, logged.len(), buffer.len()), (128, 64, 8));
    for e in logged.iter().chain(buffer) {
        let (l, old, new) = pages[e.n as usize];
        assert_eq!((e.moved, e.sector, e.old, e.new, e.global_time), (false, l, old, Some(new), e.n), "entry {}", e.n);
    }
    r.check("after 200 writes");
}

// ---- wear levelling (section 5.1) ---------------------------------------------------

#[test]
fn wear_levelling_swaps_blocks_between_sections() {
    let mut r = Run::new(chip(40, 8, 512), &params(0.3, None));
    let first = r.ftl.sections();
    let n = r.ftl.logical_pages();
    let mut rng = SplitMix64::new(3);
    for _ in 0..30 * n {
        r.write(rng.below(n as u64 / 3) as u32);
    }
    r.check("end");
    let m = r.ftl.scheme_metrics();
    assert!(m["wear_level_swaps"].as_u64().unwrap() > 0, "{m}");
    let now = r.ftl.sections();
    assert_eq!(now[0], first[0], "the metadata section never moves");
    for k in 1..4 {
        assert_eq!(now[k].len(), first[k].len(), "section sizes stay");
    }
    assert!(now[1] != first[1] || now[3] != first[3], "some mapping or log block moved to the data section");
}

// ---- Figure 8: space accounting ------------------------------------------------------

/// The RAM-side shares (what `scheme_metrics` reports) agree with the chip's pages as
/// `page_state` classifies them.
fn assert_shares_match_chip(r: &Run) {
    let s = r.ftl.space_shares();
    let n = r.flash.geometry().pages();
    let (mut valid, mut invalid, mut retr, mut log, mut free) = (0, 0, 0, 0, 0);
    for ppn in 0..n {
        let sec = r.ftl.section_of(ppn / r.flash.ppb());
        match (sec, r.flash.peek(ppn).kind) {
            (Section::Map | Section::Meta, _) => {}
            (_, PageKind::Erased) => free += 1,
            (Section::Log, _) => log += 1,
            _ => match r.ftl.page_state(&r.flash, ppn) {
                PageState::Valid => valid += 1,
                PageState::Retractable => retr += 1,
                _ => invalid += 1,
            },
        }
    }
    let f = |k: u32| k as f64 / n as f64;
    assert_eq!((s.valid, s.invalid, s.retractable, s.log, s.free), (f(valid), f(invalid), f(retr), f(log), f(free)));
}

/// LTFTL(n): a fill then random overwrites with n freezes spread evenly and no
/// unfreeze; the shares of valid / invalid / log / map / retractable pages (Figure 8).
fn figure8(n_states: u32) -> ftl_sim::ftl::ltftl::SpaceShares {
    let p = params(0.25, Some(12));
    let mut r = Run::new(chip(128, 32, 512), &p);
    // Like the paper's Postmark run, part of the logical space holds data.
    let used = r.ftl.logical_pages() * 2 / 5;
    let mut rng = SplitMix64::new(8);
    for l in 0..used {
        r.write(l);
    }
    let total = 2 * used;
    for i in 0..total {
        if (1..=n_states).any(|k| i == total * k / (n_states + 1)) {
            r.exec(Request::Freeze).unwrap();
        }
        r.write(rng.below(used as u64) as u32);
    }
    assert_eq!(r.ftl.states().len() as u32, n_states, "no state had to be released");
    r.check("figure 8 run");
    let s = r.ftl.space_shares();
    assert_shares_match_chip(&r);
    eprintln!(
        "LTFTL({n_states}): valid {:.2}% invalid {:.2}% log {:.2}% map {:.2}% retractable {:.2}% (meta {:.2}%, free {:.2}%), states kept {}",
        100.0 * s.valid,
        100.0 * s.invalid,
        100.0 * s.log,
        100.0 * s.map,
        100.0 * s.retractable,
        100.0 * s.meta,
        100.0 * s.free,
        r.ftl.states().len()
    );
    s
}

#[test]
fn figure8_space_shares_for_0_1_2_5_states() {
    let s: Vec<_> = [0, 1, 2, 5].iter().map(|&n| figure8(n)).collect();
    assert_eq!(s[0].retractable, 0.0);
    for w in s.windows(2) {
        assert!(w[1].retractable > w[0].retractable, "more states pin more pages");
        assert!(w[1].invalid < w[0].invalid + 1e-9, "retractable pages come out of the invalid share");
    }
    for x in &s {
        let sum = x.valid + x.invalid + x.log + x.map + x.retractable + x.meta + x.free;
        assert!((sum - 1.0).abs() < 1e-9);
        assert!(x.map > 0.0);
    }
    assert!(s[3].log >= s[0].log, "the log grows with the states it keeps");
}

// ---- section 5.2: reliability (Table 1) ----------------------------------------------

fn hash_versions(v: &[u32]) -> u64 {
    let mut h = DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// Transactions of 1..8 writes; "freeze after every 25 KB written, at a transaction
/// boundary, and unfreeze the previous state"; a power cut inside every single write;
/// reboot to the latest frozen state. Every recovered image must equal the image at
/// some transaction boundary. The page-mapping FTL recovered by a naive spare-area scan
/// (the chip's latest page of every LPN) is not transaction-consistent.
#[test]
fn reliability_table1_transaction_consistency_after_power_cuts() {
    let (blocks, ppb, page_bytes) = (64, 16, 512);
    let p = params(0.25, None);
    let mut r = Run::new(chip(blocks, ppb, page_bytes), &p);
    let page_chip = chip(blocks, ppb, page_bytes);
    let page_ftl =
        ftl_sim::ftl::build("page", &SchemeParams { op: Some(0.25), ..Default::default() }, &page_chip.geometry)
            .unwrap();
    let mut pg = State::new(Flash::new(page_chip), page_ftl);
    let space = r.ftl.logical_pages().min(pg.ftl.logical_pages());
    let mut rng = SplitMix64::new(2026);
    let mut cut_rng = SplitMix64::new(99);
    let mut boundaries: HashSet<u64> = HashSet::new();
    boundaries.insert(hash_versions(r.oracle.latest()));
    r.exec(Request::Freeze).unwrap();
    // The image of the latest frozen state: what "reboot to the latest frozen state" must
    // give. (Before, any transaction boundary was accepted, the empty initial image too,
    // so an LTFTL that rebooted to its first state passed.)
    let mut frozen = hash_versions(r.oracle.latest());
    let mut frozen_nonempty = 0u32;
    let per_freeze = 25 * 1024 / page_bytes; // pages in 25 KB
    let mut since_freeze = 0;
    let (mut lt_ok, mut pg_ok, mut cuts, mut rec_ops) = (0u32, 0u32, 0u32, 0u64);
    let writes_total = 5060; // the paper's number of sector writes
    let mut writes = 0;
    while writes < writes_total {
        let len = 1 + rng.below(8) as u32;
        let start = rng.below(space as u64) as u32;
        for k in 0..len {
            let lpn = (start + k * 3) % space;
            // LTFTL: cut inside this write, reboot to the latest frozen state.
            let (ok, ops) = {
                let mut probe = r.clone();
                let before = probe.flash.total_ops();
                probe.write(lpn);
                let ops = probe.flash.total_ops() - before;
                let mut c = r.clone();
                c.flash.set_power_budget(Some(cut_rng.below(ops)));
                assert!(c.exec(Request::Write { lpn }).is_err());
                c.flash.power_on();
                let o0 = c.flash.total_ops();
                let f = LtFtl::recover(&mut c.flash, &p, true).unwrap();
                let img = versions(&c.flash, f.forward_map());
                (hash_versions(&img) == frozen, c.flash.total_ops() - o0)
            };
            lt_ok += ok as u32;
            frozen_nonempty += (frozen != hash_versions(&vec![0u32; r.oracle.latest().len()])) as u32;
            rec_ops += ops;
            // Page mapping: the same cut, then the chip's latest page per LPN.
            {
                let mut c = pg.clone();
                let before = c.flash.total_ops();
                let mut probe = pg.clone();
                probe.exec(Request::Write { lpn }).unwrap();
                let ops = probe.flash.total_ops() - before;
                c.flash.set_power_budget(Some(cut_rng.below(ops)));
                assert!(c.exec(Request::Write { lpn }).is_err());
                let mut img = vec![0u32; space as usize];
                for page in c.flash.pages() {
                    if page.kind == PageKind::Data && page.lpn < space {
                        let v = &mut img[page.lpn as usize];
                        *v = (*v).max(page.version);
                    }
                }
                pg_ok += boundaries.contains(&hash_versions(&img)) as u32;
            }
            cuts += 1;
            r.write(lpn);
            pg.exec(Request::Write { lpn }).unwrap();
            writes += 1;
            since_freeze += 1;
        }
        // Transaction boundary.
        boundaries.insert(hash_versions(r.oracle.latest()));
        if since_freeze >= per_freeze {
            let prev = *r.ids.last().unwrap();
            r.exec(Request::Freeze).unwrap();
            frozen = hash_versions(r.oracle.latest());
            r.exec(Request::Unfreeze { state: prev }).unwrap();
            since_freeze = 0;
        }
        assert_eq!(r.oracle.latest()[..space as usize], pg.oracle.latest()[..space as usize]);
    }
    let pct = |k: u32| 100.0 * k as f64 / cuts as f64;
    eprintln!("Table 1 (ours): transaction-consistent after a power cut: LTFTL {:.2}% ({lt_ok}/{cuts}), page mapping {:.2}% ({pg_ok}/{cuts}); LTFTL mean recovery cost {:.0} flash ops", pct(lt_ok), pct(pg_ok), rec_ops as f64 / cuts as f64);
    assert_eq!(lt_ok, cuts, "LTFTL always rolls back to its latest frozen state");
    // Most cuts happen after the first 25 KB, when the latest frozen state is not the empty image.
    assert!(frozen_nonempty > cuts * 9 / 10, "{frozen_nonempty} of {cuts}");
    assert!(pg_ok < cuts * 9 / 10, "page mapping without roll-back is often inconsistent");
}

// ---- misc ---------------------------------------------------------------------------

#[test]
fn bad_parameters_and_registration() {
    let w = Workload::Sequential { n: 10 };
    let e = scenario("ltftl", params(1.5, None), 16, 4, w.clone()).build().err().unwrap();
    assert!(e.contains("over-provisioning"), "{e}");
    let e = scenario("ltftl", params(0.2, None), 8, 4, w.clone()).build().err().unwrap();
    assert!(e.contains("at least"), "{e}");
    let mut sim = scenario("ltftl", params(0.2, None), 16, 4, w).build().unwrap();
    run_checked(&mut sim, 1);
    let m = sim.state.metrics();
    assert_eq!(m.scheme, "ltftl");
    assert!(ftl_sim::ftl::SCHEMES.iter().any(|s| s.0 == "ltftl"));
}

/// Figure 9 in our terms: a hot workload with a freeze / unfreeze of the previous state
/// every 4 × (logical pages) writes; the erase counts of the non-metadata blocks are more
/// even with section 5.1's wear levelling than without.
#[test]
fn figure9_wear_levelling_evens_erase_counts() {
    let spread = |wl: bool| {
        let mut r = Run::new(chip(64, 16, 512), &params(0.3, None));
        r.ftl.set_wear_levelling(wl);
        let n = r.ftl.logical_pages();
        let mut rng = SplitMix64::new(4);
        r.exec(Request::Freeze).unwrap();
        for i in 0..60 * n {
            let l = if rng.unit() < 0.9 { rng.below(n as u64 / 10) } else { rng.below(n as u64) };
            r.write(l as u32);
            if i % (4 * n) == 0 {
                let prev = *r.ids.last().unwrap();
                r.exec(Request::Freeze).unwrap();
                r.exec(Request::Unfreeze { state: prev }).unwrap();
            }
        }
        r.check("end");
        let ec: Vec<u32> = (2..64).map(|b| r.flash.erase_count(b)).collect();
        let (min, max) = (*ec.iter().min().unwrap(), *ec.iter().max().unwrap());
        let mean = ec.iter().sum::<u32>() as f64 / ec.len() as f64;
        let map: Vec<u32> = r.ftl.sections()[1].iter().map(|&b| r.flash.erase_count(b)).collect();
        eprintln!("wear levelling {wl}: erase counts of blocks 2..63 min {min} max {max} mean {mean:.1}; mapping blocks now {map:?}");
        (min, max)
    };
    let (off, on) = (spread(false), spread(true));
    assert!(on.1 - on.0 < off.1 - off.0, "spread with wear levelling {on:?} vs without {off:?}");
    assert!(on.1 < off.1);
}

// ---- simulator integration -----------------------------------------------------------

/// A time-shift pattern through the simulator: the model agrees throughout, keyframe
/// seeks equal fresh replays, and the stepper shows retractable pages.
#[test]
fn simulator_seek_and_stepper_with_time_shift() {
    let mut text = String::new();
    for k in 1..=30 {
        text += &format!("w0-40 freeze (w5-25)x2 r7 revert {k} r7 w30-35 ");
        if k > 1 {
            text += &format!("unfreeze {} ", k - 1);
        }
    }
    let sc = scenario("ltftl", params(0.3, None), 32, 8, Workload::Pattern { text });
    let mut sim = sc.build().unwrap();
    let total = sim.total();
    run_checked(&mut sim, 7);
    assert_eq!(sim.state.host.wrong_reads, 0);
    for &k in &[total / 2, 3, total - 1, 1000, total] {
        sim.seek(k).unwrap();
        let mut fresh = sc.build().unwrap();
        fresh.run(k).unwrap();
        assert_eq!(sim.state.metrics(), fresh.state.metrics(), "metrics differ at step {k}");
        assert_eq!(sim.state.oracle, fresh.state.oracle);
        assert!(sim.state.flash.pages().iter().zip(fresh.state.flash.pages()).all(|(a, b)| a == b));
    }
    // Stop right after a freeze and some overwrites: the stepper's page states show
    // retractable pages (3).
    let mut st = ftl_sim::stepper::Stepper::new(sc.build().unwrap());
    st.run(41 + 1 + 21).unwrap();
    let states = st.page_states();
    assert_eq!(states.iter().filter(|&&x| x == PageState::Retractable as u8).count(), 21);
    assert!(st.block_roles().contains(&(ftl_sim::ftl::BlockRole::Log as u8)));
}

/// A chain of power cuts on LTFTL with the pools of every recovery held to a cut-free
/// run's (crash::chain): (cuts recovered correctly, recoveries beyond a pool's bound).
fn pool_chain(blocks: u32, ppb: u32, w: Workload, cuts: u64, seed: u64, time_shift: bool) -> (u64, u64) {
    use ftl_sim::crash::{chain, ChainOptions};
    let sc = scenario("ltftl", SchemeParams::default(), blocks, ppb, w);
    let sim = sc.build().unwrap();
    let mut o = ChainOptions::new(cuts, seed);
    o.time_shift = time_shift;
    if !sim.requests().is_empty() {
        o.workload = Some(sim.requests().to_vec().into());
    }
    let r = chain(&sim.state, &sc.recoverer(), &o, |_| {});
    assert!(r.stopped.is_none() && r.acked_writes_lost == 0, "{:?} {:#?}", r.stopped, r.first_failures);
    (r.recovered_correctly, r.pool_excess)
}

/// Issue 34: recovery took the least-worn spare blocks for the other map slot and the
/// rest of the log section, and left the blocks those sections had before the cut, still
/// holding map and log pages, in the data pool (shown as mapping blocks): 24 x 8 had 9
/// mapping blocks after recovery against 3 in a cut-free run, 16 recoveries beyond in
/// 2,000 cuts. Now recovery gives the sections back the blocks that hold their pages.
#[test]
fn recovery_keeps_the_mapping_and_log_sections_at_their_size() {
    let none = || Workload::Pattern { text: String::new() };
    assert_eq!(pool_chain(24, 8, none(), 2000, 1, false), (2000, 0));
    assert_eq!(pool_chain(24, 8, none(), 2000, 1, true), (2000, 0));
}

/// Issue 34: recovery closed the write frontiers (host and GC) half empty, so the next
/// write took a fresh block: on 11 x 15 (LTFTL's smallest chip of 15-page blocks), hot/cold,
/// the free pool after recovery ran one block below the cut-free run's fewest (1 against
/// 2, cut 70). Now the frontiers resume where they stopped (a GC copy is tagged so the GC
/// frontier is told from the host's), and a cut inside a GC is finished by recovery.
#[test]
fn recovery_resumes_the_write_frontiers_and_keeps_the_free_pool() {
    let w = Workload::Hotcold { n: 400, seed: 460933, read_ratio: 0.288, hot_fraction: 0.2, hot_ratio: 0.8 };
    assert_eq!(pool_chain(11, 15, w, 1000, 460933, false), (1000, 0));
    // A chain that got stuck ("ltftl ran out of free data blocks") when a GC frontier was
    // taken for the host frontier.
    assert_eq!(pool_chain(24, 8, Workload::Pattern { text: String::new() }, 6000, 1, false), (6000, 0));
}
