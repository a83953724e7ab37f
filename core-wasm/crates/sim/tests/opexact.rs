//! Op-exact moments (docs/architecture.md): at every flash-operation boundary of a request,
//! the chip, counters and scheme tables the stepper shows equal the state reached
//! independently — a second simulator of the same scenario, the state before the request
//! cloned, power cut after k operations on the copy — and stepping forward then back
//! lands on the same view. Page states, roles and owners mid-request follow the chip's
//! rules instead (tests/moments.rs); at request boundaries they are the scheme's own.
//! Every scheme of ftl::SCHEMES, random workloads.

use crate::common;

use common::scenario;
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::nand::{FlashError, PageKind, NONE};
use ftl_sim::sim::State;
use ftl_sim::stepper::{SchemeView, Stepper};
use ftl_sim::trace::gen::Workload;
use proptest::prelude::*;

/// Everything a screen reads (the Session getters).
#[derive(Debug, PartialEq, Clone)]
struct View {
    states: Vec<u8>,
    lpns: Vec<u32>,
    roles: Vec<u8>,
    owners: Vec<i32>,
    erases: Vec<u32>,
    metrics: String,
    tables: String,
}

impl View {
    /// Without what src/moment.rs derives (page states, roles, owners).
    fn chip_and_ram(&self) -> View {
        View { states: Vec::new(), roles: Vec::new(), owners: Vec::new(), ..self.clone() }
    }
}

fn stepper_view(s: &Stepper) -> View {
    View {
        states: s.page_states(),
        lpns: s.page_lpns(),
        roles: s.block_roles(),
        owners: s.block_owners(),
        erases: s.erase_counts(),
        metrics: s.metrics_json(),
        tables: s.view_json(),
    }
}

/// The same getters read straight from a state (no stepper involved).
fn state_view(st: &State) -> View {
    let g = st.flash.geometry();
    View {
        states: (0..g.pages()).map(|p| st.ftl.page_state(&st.flash, p) as u8).collect(),
        lpns: st.flash.pages().iter().map(|p| if p.kind == PageKind::Data { p.lpn } else { NONE }).collect(),
        roles: (0..st.flash.blocks()).map(|b| st.ftl.block_role(b) as u8).collect(),
        owners: (0..st.flash.blocks()).map(|b| st.ftl.block_owner(b).map_or(-1, |l| l as i32)).collect(),
        erases: st.flash.erase_counts().to_vec(),
        metrics: serde_json::to_string(&st.metrics()).unwrap(),
        tables: serde_json::to_string(&SchemeView { panels: st.ftl.panels(&st.flash), powered: true }).unwrap(),
    }
}

/// Field by field, so a failure names what differs.
fn same(a: &View, b: &View, at: &str) -> Result<(), TestCaseError> {
    let diff = |x: &[u32], y: &[u32]| {
        x.iter().zip(y).enumerate().find(|(_, (p, q))| p != q).map(|(i, (p, q))| format!("[{i}]: {p} vs {q}"))
    };
    let up = |v: &[u8]| v.iter().map(|&x| x as u32).collect::<Vec<_>>();
    let ip = |v: &[i32]| v.iter().map(|&x| x as u32).collect::<Vec<_>>();
    let checks = [
        ("page states", diff(&up(&a.states), &up(&b.states))),
        ("page lpns", diff(&a.lpns, &b.lpns)),
        ("roles", diff(&up(&a.roles), &up(&b.roles))),
        ("owners", diff(&ip(&a.owners), &ip(&b.owners))),
        ("erase counts", diff(&a.erases, &b.erases)),
        ("metrics", (a.metrics != b.metrics).then(|| format!("{} vs {}", a.metrics, b.metrics))),
        ("tables", (a.tables != b.tables).then(|| "differ".to_string())),
    ];
    for (what, d) in checks {
        if let Some(d) = d {
            return Err(TestCaseError::fail(format!("{at}: {what} {d}")));
        }
    }
    Ok(())
}

/// Checks requests `at` (each walked op by op) of one scheme's random run.
fn check_scheme(scheme: &str, seed: u64, n: u64, at: &[usize]) -> Result<usize, TestCaseError> {
    let w = Workload::Uniform { n, seed, read_ratio: 0.2 };
    // 4 pages per block, or the fewest the registry takes (RFTL and GFTL need pi >= 2k + j
    // pages per block, RFTL section 4.5). The parameters are the registry's defaults.
    let ppb = common::ppb_for(scheme, &SchemeParams::default(), 32, 4);
    let sc = scenario(scheme, SchemeParams::default(), 32, ppb, w);
    let mut s = Stepper::new(sc.build().map_err(|e| TestCaseError::fail(format!("{scheme}: {e}")))?);
    let mut ind = sc.build().unwrap();
    let mut checked = 0;
    for &r in at {
        let r = r % ind.total();
        s.seek(r).unwrap();
        ind.seek(r).unwrap();
        let before = ind.state.clone();
        let req = ind.requests()[r];
        prop_assert!(s.step_op().unwrap());
        let n_ops = s.op_count();
        loop {
            let k = s.op_cursor();
            if !(s.op_cursor() > 0 && k < n_ops) {
                break;
            }
            let got = stepper_view(&s);
            // Independent 1: power cut after k operations on a copy (a program or erase
            // under way is torn there; elsewhere the chip is the same).
            let mut cut = before.clone();
            cut.flash.set_power_budget(Some(k as u64));
            prop_assert_eq!(cut.exec(req), Err(FlashError::PowerLoss), "{} request {} cut at op {}", scheme, r, k);
            cut.flash.power_on();
            let want = state_view(&cut);
            let torn: Vec<usize> = cut
                .flash
                .pages()
                .iter()
                .enumerate()
                .filter(|(_, p)| p.kind == PageKind::Torn)
                .map(|(i, _)| i)
                .collect();
            // Page states, roles and owners inside a request are not the paused RAM's
            // (src/moment.rs; tests/moments.rs checks them against a chip's rules).
            for i in 0..want.states.len() {
                if !torn.contains(&i) {
                    prop_assert_eq!(
                        got.lpns[i],
                        want.lpns[i],
                        "{} request {} op {}/{}: page {} lpn",
                        scheme,
                        r,
                        k,
                        n_ops,
                        i
                    );
                }
            }
            prop_assert_eq!(&got.erases, &want.erases, "{} request {} op {}/{}: erase counts", scheme, r, k, n_ops);
            prop_assert_eq!(&got.metrics, &want.metrics, "{} request {} op {}/{}: metrics", scheme, r, k, n_ops);
            if torn.is_empty() {
                prop_assert_eq!(&got.tables, &want.tables, "{} request {} op {}/{}: tables", scheme, r, k, n_ops);
            }
            // Independent 2: the same moment as a pause (nothing torn): equal in full.
            let mut paused = before.clone();
            paused.flash.pause_after(k as u64);
            prop_assert!(paused.exec(req).is_err());
            paused.flash.power_on();
            same(
                &got.chip_and_ram(),
                &state_view(&paused).chip_and_ram(),
                &format!("{scheme} request {r} op {k}/{n_ops}"),
            )?;
            // Host requests count when they complete.
            prop_assert_eq!(s.view().host.writes + s.view().host.reads, before.host.writes + before.host.reads);
            // Forward then back, and a goto, land on the same view.
            let at = (s.step(), s.op_cursor(), s.narration());
            s.step_op().unwrap();
            s.back_op().unwrap();
            prop_assert_eq!((s.step(), s.op_cursor(), s.narration()), at.clone());
            same(&stepper_view(&s), &got, &format!("{scheme} request {r} op {k}: forward then back"))?;
            s.goto(r, k).unwrap();
            same(&stepper_view(&s), &got, &format!("{scheme} request {r} op {k}: goto"))?;
            checked += 1;
            s.step_op().unwrap();
        }
        // The request complete: the simulator's own state after it.
        if s.op_count() > 0 {
            s.step_request().unwrap();
        }
        prop_assert_eq!(s.step(), r + 1);
        ind.seek(r + 1).unwrap();
        same(&stepper_view(&s), &state_view(&ind.state), &format!("{scheme} request {r} complete"))?;
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_op_boundary_shows_the_state_of_that_moment(
        seed in 1u64..1_000_000,
        at in proptest::collection::vec(0usize..400, 4),
    ) {
        let mut total = 0;
        for &(scheme, _) in SCHEMES {
            // Late requests first, then early ones: seeking both ways is covered too.
            let mut at = at.clone();
            at.sort_unstable_by(|a, b| b.cmp(a));
            total += check_scheme(scheme, seed, 400, &at)?;
        }
        prop_assert!(total > 0);
    }
}

/// The walk above reaches merges and GCs: a fixed seed checks many operations.
#[test]
fn a_long_walk_covers_merges_of_every_scheme() {
    for &(scheme, _) in SCHEMES {
        let at: Vec<usize> = (150..400).step_by(9).collect();
        let checked = check_scheme(scheme, 7, 400, &at).unwrap();
        assert!(checked >= 10, "{scheme}: only {checked} inner operations checked");
    }
}

/// Not a timed test: prints what one op-exact step costs on the 65,536 x 64 chip natively
/// (`cargo test --release -p ftlscope-sim --test opexact -- --ignored --nocapture`).
#[test]
#[ignore]
fn cost_of_a_step_on_a_large_chip() {
    use std::time::Instant;
    let sc = ftl_sim::scenario::Scenario {
        scheme: "page".into(),
        params: SchemeParams::default(),
        chip: ftl_sim::scenario::ChipSpec {
            preset: "classroom".into(),
            blocks: Some(65536),
            pages_per_block: Some(64),
        },
        workload: Workload::Uniform { n: 5_000_100, seed: 7, read_ratio: 0.0 },
        run: Default::default(),
    };
    let mut s = Stepper::new(sc.build().unwrap());
    s.run(5_000_000).unwrap();
    let med = |mut v: Vec<f64>| {
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    let clones: Vec<f64> = (0..9)
        .map(|_| {
            let t = Instant::now();
            let c = s.sim.state.clone();
            let dt = t.elapsed().as_secs_f64() * 1e3;
            drop(c);
            dt
        })
        .collect();
    let mut steps = Vec::new();
    let mut getters = Vec::new();
    for _ in 0..60 {
        let t = Instant::now();
        s.step_op().unwrap();
        steps.push(t.elapsed().as_secs_f64() * 1e3);
        let t = Instant::now();
        let _ = (
            s.page_states(),
            s.block_roles(),
            s.erase_counts(),
            s.block_owners(),
            s.metrics_json(),
            s.view_json(),
            s.narration(),
        );
        getters.push(t.elapsed().as_secs_f64() * 1e3);
    }
    println!(
        "state clone {:.1} ms, step_op {:.1} ms, getters {:.1} ms (medians)",
        med(clones),
        med(steps),
        med(getters)
    );
}
