//! Power cuts on a device (ssd/cut.rs, ssd/crash.rs, docs/ssd.md "Power cuts"): chains of
//! cuts on devices of 2-8 dies. A cut stops every die; every die recovers from its chip
//! alone; no acknowledged write is lost, nothing wrong is mapped, no die is stuck (the run
//! goes on to the end with every later read right and every die's map agreeing with its
//! reference model), and every die's pools (free blocks; log, map, checkpoint blocks) stay
//! within their bound in a run without cuts after every recovery (crash/health.rs).

use crate::common;

use common::scenario;
use ftl_sim::crash::{ChainOptions, ChainReport, CutVerdict};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::ssd::crash::{chain, Dies};
use ftl_sim::ssd::cut::{run_with_cuts, DeviceCut};
use ftl_sim::ssd::{device_pages, Shape, Stripe};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::rng::SplitMix64;
use ftl_sim::trace::Request;
use proptest::prelude::*;

const SCHEMES: [&str; 6] = ["page", "bast", "fast", "fastcheck", "nftl", "ltftl"];

fn params(scheme: &str) -> SchemeParams {
    match scheme {
        "bast" | "fast" | "fastcheck" => SchemeParams { log_blocks: Some(4), ..Default::default() },
        _ => SchemeParams::default(),
    }
}

/// Runs `n` requests (a hot quarter of the device's space, 30 % reads) on `c` × `w` dies
/// with cuts at `cuts`; asserts the device invariants; returns how many cuts interrupted
/// a request.
fn check(scheme: &str, c: u32, w: u32, n: usize, seed: u64, cuts: &[DeviceCut]) -> usize {
    let sc = scenario(scheme, params(scheme), 24, 8, Workload::Sequential { n: 1 });
    let shape = Shape::new(c, w, Stripe::default_for(scheme));
    let fresh = sc.factory(&sc.fresh().unwrap());
    let mut dies: Vec<_> = (0..shape.dies()).map(|_| fresh()).collect();
    let unit = shape.unit(8);
    let space = device_pages(dies[0].ftl.logical_pages(), shape.dies(), unit);
    let mut rng = SplitMix64::new(seed);
    let hot = (space / 4).max(1);
    let reqs: Vec<Request> = (0..n)
        .map(|_| {
            let lpn = if rng.below(4) == 0 { rng.below(space) } else { rng.below(hot) } as u32;
            if rng.below(10) < 3 {
                Request::Read { lpn }
            } else {
                Request::Write { lpn }
            }
        })
        .collect();
    let reports = run_with_cuts(&mut dies, &shape, unit, &reqs, cuts, &sc.recoverer())
        .unwrap_or_else(|e| panic!("{scheme} {c}x{w}: a die is stuck: {e}"));
    assert!(!reports.is_empty() || cuts.is_empty());
    for r in &reports {
        assert_eq!(r.dies.len(), shape.dies() as usize, "every die recovers");
        for (k, o) in r.dies.iter().enumerate() {
            assert!(o.ok, "{scheme} {c}x{w} cut {:?} (die {}): die {k}: {o:?}", r.cut, r.die);
            assert!(r.pools[k].is_none(), "{scheme} {c}x{w} cut {:?}: die {k}: pools {:?}", r.cut, r.pools[k]);
        }
        assert!(r.ok());
    }
    for (k, d) in dies.iter().enumerate() {
        assert_eq!(d.host.wrong_reads, 0, "{scheme} {c}x{w}: die {k} read wrong data");
        assert!(d.mismatches().is_empty(), "{scheme} {c}x{w}: die {k} disagrees with its reference model");
    }
    reports.iter().filter(|r| r.interrupted).count()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]
    #[test]
    fn chains_of_cuts_on_a_device_lose_nothing(
        scheme in 0..SCHEMES.len(),
        shape in prop_oneof![Just((2u32, 1u32)), Just((1, 2)), Just((3, 1)), Just((2, 2)), Just((1, 4))],
        seed in 0u64..1_000_000,
        cuts in proptest::collection::vec((0usize..1200, 0u64..40), 1..6),
    ) {
        let cuts: Vec<DeviceCut> = cuts.into_iter().map(|(request, ops)| DeviceCut { request, ops }).collect();
        check(SCHEMES[scheme], shape.0, shape.1, 1200, seed, &cuts);
    }
}

/// Every scheme of the list, 4 dies, a chain of 12 cuts spread over the run, each cut
/// falling inside a request for most of them (the chain is not vacuous).
#[test]
fn every_scheme_survives_a_chain_of_cuts_on_four_dies() {
    for s in SCHEMES {
        let cuts: Vec<DeviceCut> =
            (1..=12).map(|k| DeviceCut { request: k * 150, ops: u64::from(k % 3 == 0) }).collect();
        let interrupted = check(s, 2, 2, 2000, 7, &cuts);
        assert!(interrupted >= 6, "{s}: only {interrupted} of 12 cuts fell inside a request");
    }
}

/// A device chain (`ftl crash-sweep --chain` with device flags) of `scheme` on `c` × `w`
/// dies, each die a `blocks` × `ppb` classroom chip, over `workload` (None: the chain's
/// own, half uniform over the device's space, half in its hot eighth).
fn device_chain(scheme: &str, blocks: u32, ppb: u32, c: u32, w: u32, o: &ChainOptions) -> ChainReport {
    device_chain_with(scheme, blocks, ppb, c, w, o, |_| {})
}

/// `device_chain`, with `on_cut` shown every cut's verdict.
fn device_chain_with(
    scheme: &str,
    blocks: u32,
    ppb: u32,
    c: u32,
    w: u32,
    o: &ChainOptions,
    on_cut: impl FnMut(&CutVerdict),
) -> ChainReport {
    let sc = scenario(scheme, common::cut_params(scheme), blocks, ppb, Workload::Pattern { text: String::new() });
    let first = sc.fresh().unwrap_or_else(|e| panic!("{scheme} {blocks} x {ppb}: {e}"));
    let shape = Shape::new(c, w, Stripe::default_for(scheme));
    let unit = shape.unit(ppb);
    let space = device_pages(first.ftl.logical_pages(), shape.dies(), unit);
    let fresh = sc.factory(&first);
    let dies: Vec<_> = (0..shape.dies()).map(|_| fresh()).collect();
    chain(&dies, &Dies { shape: &shape, unit }, space, &sc.recoverer(), o, on_cut)
}

fn assert_chain_clean(r: &ChainReport, cuts: u64, what: &str) {
    let failures = &r.first_failures;
    assert!(r.stopped.is_none() && !r.stuck, "{what}: stopped {:?}: {failures:#?}", r.stopped);
    assert_eq!(r.cuts, cuts, "{what}");
    assert_eq!(r.recovered_correctly, cuts, "{what}: {failures:#?}");
    assert_eq!((r.acked_writes_lost, r.wrong_reads, r.torn_mapped), (0, 0, 0), "{what}: {failures:#?}");
    assert_eq!((r.errors, r.pool_excess), (0, 0), "{what}: {failures:#?}");
    // The pools were checked (each pool either run had, with its bound).
    assert!(!r.pools.is_empty(), "{what}: no pool checked");
}

/// Issue 40 item 6: every scheme of the registry on 2 × 2 and 8 × 1 dies, each die the
/// scheme's smallest chip (`fit::min_blocks`) of its fewest pages per block, and of the
/// fewest pages per block that is not a power of two: a chain of 120 cuts that cut,
/// recover, go on and cut again, inside a recovery too (every die's recovery cut again,
/// each at an operation of its own). No acknowledged write lost, no wrong read, never
/// stuck, and after every recovery every die's pools within its cut-free bound.
#[test]
fn every_scheme_chains_cuts_on_2x2_and_8x1_dies_within_its_pools() {
    const CUTS: u64 = 120;
    for e in ftl_sim::ftl::REGISTRY {
        let p = common::cut_params(e.id);
        let builds = |ppb: u32| common::wide_chip(e.id, &p, ppb, 0).map(|b| (b, ppb));
        let lo = (2..=32).find_map(builds).unwrap_or_else(|| panic!("{}: no chip", e.id));
        let odd = (lo.1 + 1..=48).filter(|n: &u32| !n.is_power_of_two()).find_map(builds);
        for (blocks, ppb) in [Some(lo), odd].into_iter().flatten() {
            for (c, w) in [(2, 2), (8, 1)] {
                let what = format!("{} {c}x{w}, {blocks} x {ppb} a die", e.id);
                let r = device_chain(e.id, blocks, ppb, c, w, &ChainOptions::new(CUTS, 1));
                assert_chain_clean(&r, CUTS, &what);
                assert!(r.recut_inside_recovery > 10, "{what}: {} recoveries cut", r.recut_inside_recovery);
                assert!(r.between > 0 && r.mid_request + r.mid_merge + r.mid_checkpoint > 50, "{what}: {r:?}");
            }
        }
    }
}

/// A generated workload (sequential writes, block striping keeps each die's sequential):
/// a write cut in flight and not done is offered again, so each die's run stays the
/// cut-free run's and FAST takes no RW log block (as the one-chip sequential chains).
#[test]
fn a_sequential_device_chain_keeps_fasts_pools() {
    for scheme in ["fast", "bast"] {
        let mut o = ChainOptions::new(600, 3);
        o.workload = Some((0..4 * 8 * 3).map(|lpn| Request::Write { lpn }).collect::<Vec<_>>().into());
        let r = device_chain(scheme, 16, 8, 2, 2, &o);
        assert_chain_clean(&r, 600, scheme);
        let rw = r.pools.iter().find(|p| p.role == ftl_sim::ftl::BlockRole::RwLog);
        assert!(rw.is_none_or(|p| p.after_recovery == 0), "{scheme}: {rw:?}");
    }
}

/// The pool check bites: held to the pools of a cut-free run of one request (the fresh
/// dies'), recoveries after many writes have fewer free blocks, and the chain says so.
#[test]
fn a_device_chain_reports_pools_beyond_a_short_baseline() {
    let mut o = ChainOptions::new(60, 2);
    o.pool_baseline = 1;
    let r = device_chain("page", 24, 8, 2, 2, &o);
    assert!(r.pool_excess > 0, "{:?}", r.pools);
    assert!(r.recovered_correctly < r.cuts);
    assert!(r.first_failures.iter().any(|f| f.contains("pools: die") && f.contains("Free")), "{:#?}", r.first_failures);
}

/// A device chain cuts a recovery up to 3 times in a row, as the one-chip chain does
/// (`ChainOptions::max_recuts`, chance `recut_chance` each time): each time the power
/// fails inside every die's recovery attempt. Every cut is still recovered correctly;
/// some recoveries are cut 2 and 3 times, none more; the report counts every power
/// failure inside a recovery. With chance 1 every recovery is cut exactly 3 times, with
/// `max_recuts` 1 never more than once.
#[test]
fn a_device_chain_cuts_a_recovery_up_to_three_times_in_a_row() {
    const CUTS: u64 = 150;
    for scheme in ["page", "fast", "nftl", "dftl", "ltftl"] {
        for (chance, max) in [(0.6, 3), (1.0, 3), (1.0, 1)] {
            let what = format!("{scheme} 2x2, chance {chance}, max {max}");
            let mut o = ChainOptions::new(CUTS, 5);
            (o.recut_chance, o.max_recuts) = (chance, max);
            let mut by_recuts = [0u64; 5];
            let r = device_chain_with(scheme, 24, 8, 2, 2, &o, |v| by_recuts[(v.recuts as usize).min(4)] += 1);
            assert_chain_clean(&r, CUTS, &what);
            let inside: u64 = by_recuts.iter().enumerate().map(|(k, n)| k as u64 * n).sum();
            assert_eq!(r.recut_inside_recovery, inside, "{what}: {by_recuts:?}");
            assert_eq!(r.recut_points, inside, "{what}: every power failure drawn fell inside a recovery");
            assert_eq!(by_recuts[4], 0, "{what}: {by_recuts:?}");
            match (chance == 1.0, max) {
                (true, 3) => assert_eq!(by_recuts[3], CUTS, "{what}: {by_recuts:?}"),
                (true, _) => assert_eq!(by_recuts[1], CUTS, "{what}: {by_recuts:?}"),
                _ => {
                    // 0.6² · 0.4 ≈ 14 % cut exactly twice, 0.6³ ≈ 22 % three times.
                    assert!(by_recuts[2] > CUTS / 20 && by_recuts[3] > CUTS / 10, "{what}: {by_recuts:?}");
                    assert!(by_recuts[0] > CUTS / 5, "{what}: {by_recuts:?}");
                }
            }
        }
    }
}

/// Each cut inside the recovery falls inside the attempt it cuts: the draw is given that
/// attempt's own operation count, attempt after attempt from the chip the cut before it
/// left (`Recut::Drawn`), and the whole recovery after three cuts rebuilds what an uncut
/// one does (the idempotence check would say otherwise) with nothing lost.
#[test]
fn each_recut_falls_inside_the_attempt_it_cuts() {
    use ftl_sim::crash::{crash_once_with, Recut};
    for scheme in ["page", "fast", "nftl", "dftl", "bast"] {
        let sc = scenario(scheme, common::cut_params(scheme), 24, 8, Workload::Pattern { text: String::new() });
        let mut st = sc.fresh().unwrap();
        let n = st.ftl.logical_pages();
        let mut rng = SplitMix64::new(3);
        for _ in 0..4 * n {
            st.exec(Request::Write { lpn: rng.below(n as u64) as u32 }).unwrap();
        }
        let mut draws = Vec::new();
        let mut draw = |k: u32, ops: u64| {
            let at = rng.below(ops);
            draws.push((k, ops, at));
            at
        };
        let (o, after, recuts) =
            crash_once_with(&st, Request::Write { lpn: 1 }, 0, Some(Recut::Drawn(&mut draw)), 3, &sc.recoverer(), &[])
                .expect("the write needs more than one operation");
        assert!(o.ok, "{scheme}: {o:?}");
        assert_eq!(recuts, 3, "{scheme}");
        assert_eq!(draws.iter().map(|d| d.0).collect::<Vec<_>>(), [0, 1, 2], "{scheme}: {draws:?}");
        assert!(draws.iter().all(|&(_, ops, at)| ops > 0 && at < ops), "{scheme}: {draws:?}");
        assert!(after.mismatches().is_empty(), "{scheme}");
    }
}

/// `--reads-erased` and `--paired-pages` on a device (issue 40, session 10): the cut die's
/// program tears as a model drawn per cut among the enabled ones, as on one chip. Reads
/// erased: every scheme recovers every cut (docs/schemes/recovery.md: an erased page is a
/// page never written). Paired pages: the lower page on the cut die tears too, which no
/// scheme survives (recovery.md), so acknowledged writes are lost, only at cuts of the
/// paired model: the model reaches the die (with the default model alone nothing is lost).
#[test]
fn a_device_chain_tears_the_cut_die_as_the_torn_page_models_say() {
    const CUTS: u64 = 200;
    for scheme in ["page", "fast", "nftl", "dftl"] {
        for (c, w) in [(2, 2), (8, 1)] {
            let what = format!("{scheme} {c}x{w}");
            let mut o = ChainOptions::new(CUTS, 9);
            o.reads_erased = true;
            let mut models = std::collections::BTreeMap::<&str, u64>::new();
            let r = device_chain_with(scheme, 24, 8, c, w, &o, |v| *models.entry(v.torn_model).or_default() += 1);
            assert_chain_clean(&r, CUTS, &format!("{what} reads erased"));
            assert_eq!(models.keys().copied().collect::<Vec<_>>(), ["erased", "torn"], "{what}");
            assert!(models["erased"] > CUTS / 4, "{what}: {models:?}");

            o.reads_erased = false;
            o.paired_pages = true;
            // Per model: cuts, cuts that failed, writes lost.
            let mut by_model = std::collections::BTreeMap::<&str, (u64, u64, u64)>::new();
            let r = device_chain_with(scheme, 24, 8, c, w, &o, |v| {
                let m = by_model.entry(v.torn_model).or_default();
                (m.0, m.1, m.2) = (m.0 + 1, m.1 + !v.ok() as u64, m.2 + v.lost);
            });
            assert!(r.stopped.is_none(), "{what} paired: {:?}", r.stopped);
            assert!(by_model["paired"].0 > CUTS / 4, "{what}: {by_model:?}");
            assert!(r.acked_writes_lost > 0, "{what}: the paired lower page never tore: {r:?}");
            // Only the paired model's cuts fail (the chain goes on from what each recovered).
            assert_eq!(by_model["torn"].1, 0, "{what}: {by_model:?}: {:#?}", r.first_failures);
            assert_eq!(by_model["paired"].2, r.acked_writes_lost, "{what}");
            assert_eq!(r.torn_mapped, 0, "{what} paired: {:#?}", r.first_failures);
        }
    }
}

/// The torn model a cut die carries tears its cut program only (crash_once_with): reads
/// erased leaves the page erased, paired pages tears the lower page too, the default tears
/// the page; the recovered die carries the default model again.
#[test]
fn the_cut_program_tears_as_the_dies_model_says() {
    use ftl_sim::crash::crash_once_with;
    use ftl_sim::nand::{PageKind, TornModel};
    let sc = scenario("page", SchemeParams::default(), 24, 8, Workload::Pattern { text: String::new() });
    let mut st = sc.fresh().unwrap();
    for lpn in 0..5 {
        st.exec(Request::Write { lpn }).unwrap();
    }
    // The sixth write programs the active block's offset 5 (an upper page, paired with 4).
    let torn = |model: TornModel| {
        let mut s = st.clone();
        s.flash.torn_model = model;
        let (o, after, _) =
            crash_once_with(&s, Request::Write { lpn: 5 }, 0, None, 0, &sc.recoverer(), &[]).expect("a cut");
        assert_eq!(after.flash.torn_model, TornModel::default());
        (after.flash.pages().iter().filter(|p| p.kind == PageKind::Torn).count(), o.lost)
    };
    assert_eq!(torn(TornModel::default()), (1, 0));
    assert_eq!(torn(TornModel { reads_erased: true, paired_pages: false }), (0, 0));
    assert_eq!(torn(TornModel { reads_erased: false, paired_pages: true }), (2, 1));
}

/// `--targeted` on a device: half the cuts aim at a target the request in flight offers on
/// its die (right after a map page, checkpoint ..., in a GC destination, at the last free
/// block), as the one-chip chain aims; the cut lands on that operation (a cut right after a
/// request's last program falls after it, between requests) and every cut recovers.
#[test]
fn a_targeted_device_chain_aims_at_the_dies_flash_ops() {
    const CUTS: u64 = 300;
    for (scheme, want) in [
        ("dftl", "after_map_page"),
        ("page", "in_gc_destination"),
        ("fast", "in_gc_destination"),
        ("nftl", "in_gc_destination"),
    ] {
        let mut o = ChainOptions::new(CUTS, 4);
        o.targeted = true;
        let mut aimed = std::collections::BTreeMap::<&str, u64>::new();
        let r = device_chain_with(scheme, 24, 8, 2, 2, &o, |v| {
            if let Some(t) = v.target {
                *aimed.entry(t).or_default() += 1;
                let cause = v.op_cause.unwrap_or("none");
                match t {
                    "after_map_page" | "after_checkpoint" | "after_map_directory" | "after_intent_log" => {
                        assert!(matches!(cause, "map" | "log"), "{scheme}: aimed {t}, cut a {cause} op: {v:?}")
                    }
                    "in_gc_destination" => assert!(
                        matches!(cause, "gc" | "switch" | "partial_merge" | "full_merge" | "fill"),
                        "{scheme}: aimed {t}, cut a {cause} op: {v:?}"
                    ),
                    _ => {}
                }
                if v.in_flight.is_none() {
                    assert_eq!(v.at, ftl_sim::crash::CutAt::Between, "{scheme}: {v:?}");
                }
            }
        });
        assert_chain_clean(&r, CUTS, &format!("{scheme} targeted"));
        let total: u64 = aimed.values().sum();
        assert!(aimed.get(want).is_some_and(|&n| n > 0), "{scheme}: nothing aimed {want}: {aimed:?}");
        let counted: u64 = r.targets.iter().map(|t| t.cut).sum();
        assert_eq!(counted, total, "{scheme}: {:?}", r.targets);
    }
}
