//! The device of C channels × W dies (ssd.rs, docs/ssd.md): one die is today's chip and
//! clock exactly; every scheme on 4 dies reads back what it was given; W page-striped dies
//! under Poisson arrivals and a fixed service are W M/D/1 queues at rate λ/W.

mod common;

use common::scenario;
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::sim::RunMode;
use ftl_sim::ssd::{place, Device, Shape, Stripe};
use ftl_sim::timing::{Model, Schedule, Spacing, TimingConfig};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::rng::SplitMix64;
use ftl_sim::trace::Request;

fn shape(c: u32, w: u32, stripe: Stripe) -> Shape {
    Shape { channels: c, dies_per_channel: w, stripe }
}

fn stripe_for(scheme: &str) -> Stripe {
    if shape(2, 1, Stripe::Page).check(scheme).is_ok() {
        Stripe::Page
    } else {
        Stripe::Block
    }
}

#[test]
fn placing_keeps_stripe_units_whole_and_is_a_bijection() {
    let mut seen = std::collections::HashSet::new();
    for lpn in 0..256 {
        let (die, local) = place(lpn, 4, 8);
        assert_eq!((die, local / 8), ((lpn / 8) % 4, lpn / 32), "a block of 8 stays on one die, in one local block");
        assert!(seen.insert((die, local)));
    }
    assert_eq!(place(5, 1, 1), (0, 5), "one die: the identity");
    assert_eq!(place(5, 4, 1), (1, 1));
}

#[test]
fn page_striping_is_refused_for_schemes_that_map_blocks() {
    for s in ["bast", "fast", "nftl", "rftl", "gftl"] {
        let e = shape(2, 2, Stripe::Page).check(s).unwrap_err();
        assert!(e.contains("--stripe block"), "{e}");
        shape(2, 2, Stripe::Block).check(s).unwrap();
    }
    shape(2, 2, Stripe::Page).check("page").unwrap();
    assert!(shape(0, 2, Stripe::Block).check("page").is_err());
}

/// One die: the device's host requests in time and its chip are the simulator's (open
/// model, Poisson arrivals, requests of several pages).
#[test]
fn one_die_is_the_simulator() {
    for scheme in ["page", "bast", "fast", "nftl"] {
        let wl = Workload::Uniform { n: 3000, seed: 3, read_ratio: 0.3 };
        let sc = scenario(scheme, SchemeParams::default(), 64, 16, wl);
        let mut sim = sc.build().unwrap();
        // Host requests of 1..4 pages.
        let mut starts = vec![0u64; sim.total().div_ceil(64)];
        for i in (0..sim.total()).filter(|i| i % 3 != 1 && i % 7 != 2) {
            starts[i / 64] |= 1 << (i % 64);
        }
        sim.set_schedule(Schedule::new(starts, sim.total(), None)).unwrap();
        let t =
            TimingConfig { model: Model::Open, rate: Some(4000.0), spacing: Spacing::Poisson, ..Default::default() };
        sim.set_timing(t).unwrap();
        sim.set_mode(RunMode::FullSpeed);
        sim.record_timeline(true);
        let mut dev = Device::new(shape(1, 1, Stripe::Page), scheme, &**sim.fresh()).unwrap();
        dev.run(sim.requests(), sim.schedule(), sim.arrivals()).unwrap();
        sim.run(sim.total()).unwrap();
        let want: Vec<_> = sim.host_timeline().unwrap().iter().map(|h| (h.arrival_ns, h.start_ns, h.done_ns)).collect();
        let got: Vec<_> = dev.hosts.iter().map(|h| (h.arrival_ns, h.start_ns, h.done_ns)).collect();
        assert!(want.len() > 1000 && want.iter().any(|w| w.1 > w.0), "{scheme}: some requests wait");
        assert_eq!(got, want, "{scheme}");
        let (a, b) = (sim.state.metrics(), dev.dies[0].metrics());
        assert_eq!((a.erases, a.page_programs, a.page_reads), (b.erases, b.page_programs, b.page_reads), "{scheme}");
        assert_eq!(dev.wrong_reads(), 0);
        // Closed model too: each request starts when the previous one ends.
        let mut closed = Device::new(shape(1, 1, Stripe::Page), scheme, &**sim.fresh()).unwrap();
        closed.run(sim.requests(), sim.schedule(), None).unwrap();
        let busy: u64 = closed.hosts.iter().map(|h| h.done_ns - h.start_ns).sum();
        assert_eq!(closed.hosts.last().unwrap().done_ns, busy, "{scheme}: closed, no gaps");
    }
}

/// Every scheme on 4 dies (2 channels × 2): 0 wrong reads, every die used, and every
/// die's mapping agrees with its reference model at the end.
#[test]
fn every_scheme_on_four_dies_reads_back_what_it_wrote() {
    for &(scheme, _) in SCHEMES {
        let wl = Workload::Uniform { n: 6000, seed: 5, read_ratio: 0.4 };
        let sc = scenario(scheme, SchemeParams::default(), 64, 16, wl);
        let sim = sc.build().unwrap();
        let mut dev = Device::new(shape(2, 2, stripe_for(scheme)), scheme, &**sim.fresh()).unwrap();
        dev.run(sim.requests(), sim.schedule(), None).unwrap();
        assert_eq!(dev.wrong_reads(), 0, "{scheme}");
        for (i, d) in dev.dies.iter().enumerate() {
            assert!(d.host.writes > 0 && d.host.reads > 0, "{scheme}: die {i} used");
            assert!(d.mismatches().is_empty(), "{scheme}: die {i} agrees with its reference model");
        }
        let s = dev.summary();
        assert_eq!(s.per_die.len(), 4);
        assert!(s.per_die.iter().all(|d| d.utilisation > 0.0 && d.utilisation <= 1.0), "{scheme}");
    }
}

/// W dies, page striping, Poisson arrivals of single-page reads at uniformly random LPNs
/// (so each die sees a Poisson stream at λ/W), fixed service S (a page read): each die is
/// M/D/1, mean wait ρS / (2(1 − ρ)) with ρ = λS/W (Pollaczek-Khinchine), within 3 %.
#[test]
fn page_striped_dies_are_md1_queues() {
    let w = 4u32;
    let sc = scenario("page", SchemeParams::default(), 64, 8, Workload::Sequential { n: 1 });
    let sim = sc.build().unwrap();
    let fresh = sim.fresh().clone();
    let space = fresh().ftl.logical_pages() * w;
    // Every LPN written first (arrivals far apart), then the reads.
    let mut reqs: Vec<Request> = (0..space).map(|lpn| Request::Write { lpn }).collect();
    let writes = reqs.len();
    let n = 400_000usize;
    let mut rng = SplitMix64::new(11);
    reqs.extend((0..n).map(|_| Request::Read { lpn: rng.below(space as u64) as u32 }));
    let s_ns = fresh().flash.timing().read_ns;
    let rho = 0.5;
    let lambda = rho * w as f64 / s_ns as f64; // per ns, device-wide
    let mut arrivals: Vec<u64> = (0..writes as u64).map(|k| k * 10_000_000).collect();
    let mut t = writes as f64 * 1e7;
    for _ in 0..n {
        t += -(1.0 - rng.unit()).ln() / lambda;
        arrivals.push(t.round() as u64);
    }
    let mut dev = Device::new(shape(2, 2, Stripe::Page), "page", &*fresh).unwrap();
    // Per-page schedule: every request is one host request.
    dev.run(&reqs, &Schedule::per_page(reqs.len()), Some(&arrivals)).unwrap();
    assert_eq!(dev.wrong_reads(), 0);
    let reads = &dev.hosts[writes..];
    assert!(reads.iter().all(|h| h.done_ns - h.start_ns == s_ns), "fixed service: one page read");
    let want = rho * s_ns as f64 / (2.0 * (1.0 - rho));
    for die in 0..w {
        let waits: Vec<u64> = reads
            .iter()
            .zip(&reqs[writes..])
            .filter(|(_, r)| place(r.lpn().unwrap(), w, 1).0 == die)
            .map(|(h, _)| h.start_ns - h.arrival_ns)
            .collect();
        let mean = waits.iter().sum::<u64>() as f64 / waits.len() as f64;
        let err = (mean - want).abs() / want;
        assert!(
            err < 0.03,
            "die {die}: mean wait {mean:.0} ns, Pollaczek-Khinchine {want:.0} ns ({:.1} %)",
            err * 100.0
        );
    }
}
