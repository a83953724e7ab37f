//! Power cuts on a device (ssd/cut.rs, docs/ssd.md "Power cuts"): chains of cuts on
//! devices of 2-4 dies, several schemes. A cut stops every die; every die recovers from its
//! chip alone; no acknowledged write is lost, nothing wrong is mapped, and no die is stuck
//! (the run goes on to the end with every later read right and every die's map agreeing
//! with its reference model).

mod common;

use common::scenario;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::ssd::cut::{run_with_cuts, DeviceCut};
use ftl_sim::ssd::{device_pages, Shape, Stripe};
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
    let sc = scenario(scheme, params(scheme), 24, 8, ftl_sim::trace::gen::Workload::Sequential { n: 1 });
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
        }
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
