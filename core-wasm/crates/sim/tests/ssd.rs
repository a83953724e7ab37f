//! The device of C channels × W dies (ssd.rs, docs/ssd.md): one die is today's chip and
//! clock exactly; every scheme on 4 dies reads back what it was given; W page-striped dies
//! under Poisson arrivals and a fixed service are W M/D/1 queues at rate λ/W.

use crate::common;

use common::scenario;
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::sim::RunMode;
use ftl_sim::ssd::{place, Device, Shape, Stripe};
use ftl_sim::timing::{Model, Schedule, Spacing, TimingConfig};
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::rng::SplitMix64;
use ftl_sim::trace::Request;

fn shape(c: u32, w: u32, stripe: Stripe) -> Shape {
    Shape::new(c, w, stripe)
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
        assert!(e.contains("needs block striping") && !e.contains("--"), "{e}");
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
        // Delayed by GC on one die is timing.rs's count (same definition).
        let s = dev.summary();
        let (tr, tw) = (&a.timing.read, &a.timing.write);
        assert_eq!((s.read.count, s.write.count), (tr.requests, tw.requests), "{scheme}");
        assert_eq!((s.read.delayed_by_gc, s.write.delayed_by_gc), (tr.delayed_by_gc, tw.delayed_by_gc), "{scheme}");
        assert!(tw.delayed_by_gc + tr.delayed_by_gc > 0 || scheme == "page", "{scheme}: some request waits behind GC");
        assert_eq!(s.per_die[0].mean_channel_wait_us, 0.0, "one die never waits for its channel");
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
    // One die per channel: no die waits for another's transfer, the service stays fixed.
    let mut dev = Device::new(shape(4, 1, Stripe::Page), "page", &*fresh).unwrap();
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

/// Channels (docs/ssd.md): two dies on one channel receive a two-page write at once; the
/// second die's data waits for the first's transfer, then programs. On two channels both
/// go at once. A read's data goes out at the end of its service.
#[test]
fn dies_on_one_channel_wait_for_each_others_transfer() {
    let sc = scenario("page", SchemeParams::default(), 64, 8, Workload::Sequential { n: 1 });
    let sim = sc.build().unwrap();
    let fresh = sim.fresh().clone();
    let t = *fresh().flash.timing();
    let mb_s = 40; // a 512-byte page: 12.8 us on the bus, inside the 15 us read
    let x = 512 * 1000 / mb_s as u64;
    // One host request of two pages (LPN 0 on die 0, LPN 1 on die 1), then a read of each
    // at once, long after.
    let reqs =
        [Request::Write { lpn: 0 }, Request::Write { lpn: 1 }, Request::Read { lpn: 0 }, Request::Read { lpn: 1 }];
    let schedule = Schedule::new(vec![0b0101], 4, None);
    let arrivals = [0u64, 10_000_000];
    let run = |c: u32, w: u32| {
        let mut s = shape(c, w, Stripe::Page);
        s.bus_mb_s = Some(mb_s);
        let mut dev = Device::new(s, "page", &*fresh).unwrap();
        dev.run(&reqs, &schedule, Some(&arrivals)).unwrap();
        assert_eq!(dev.wrong_reads(), 0);
        assert_eq!(dev.transfer_ns, x);
        dev
    };
    let one = run(1, 2);
    assert_eq!(one.hosts[0].done_ns, x + t.program_ns, "die 1's data waited for die 0's");
    assert_eq!(one.hosts[1].done_ns - 10_000_000, t.read_ns + x, "both read, then out one after the other");
    assert_eq!(one.die_stats[0].channel_wait_ns, 0);
    assert_eq!(one.die_stats[1].channel_wait_ns, 2 * x, "die 1 waited one transfer in each request");
    let two = run(2, 1);
    assert_eq!(two.hosts[0].done_ns, t.program_ns, "own channels: no wait");
    assert_eq!(two.hosts[1].done_ns - 10_000_000, t.read_ns);
    // A rate whose transfer would not fit in a read is refused, naming the least rate.
    let mut slow = shape(1, 2, Stripe::Page);
    slow.bus_mb_s = Some(1);
    let e = Device::new(slow, "page", &*fresh).err().unwrap();
    assert!(e.contains("at least 35 MB/s"), "{e}");
}

/// GC on one die delays only the requests that need that die: every request delayed by
/// GC waited on a die where GC work finished during its wait, and a die with no GC never
/// delays anyone by GC.
#[test]
fn gc_delays_only_requests_of_the_die_that_does_it() {
    let wl = Workload::Uniform { n: 1, seed: 1, read_ratio: 0.0 };
    let sc = scenario("page", SchemeParams::default(), 64, 8, wl);
    let sim = sc.build().unwrap();
    let fresh = sim.fresh().clone();
    let space = fresh().ftl.logical_pages();
    // Die 0 (even LPNs) gets writes in a small hot range until it collects garbage; die 1
    // (odd LPNs) only reads, each arriving while die 0 is busy.
    let mut reqs = vec![Request::Write { lpn: 1 }];
    let mut arrivals = vec![0u64];
    let mut rng = SplitMix64::new(7);
    for k in 0..4000u64 {
        reqs.push(Request::Write { lpn: 2 * rng.below(space as u64 / 4) as u32 });
        arrivals.push(1_000_000 + k * 150_000);
        reqs.push(Request::Read { lpn: 1 });
        arrivals.push(1_000_000 + k * 150_000 + 1);
    }
    let mut dev = Device::new(shape(2, 1, Stripe::Page), "page", &*fresh).unwrap();
    dev.run(&reqs, &Schedule::per_page(reqs.len()), Some(&arrivals)).unwrap();
    assert_eq!(dev.wrong_reads(), 0);
    let (d0, d1) = (&dev.die_stats[0], &dev.die_stats[1]);
    assert!(d0.gc_ns > 0 && d0.delayed_by_gc > 0, "die 0 collects garbage and delays its own queue");
    assert_eq!((d1.gc_ns, d1.delayed_by_gc), (0, 0), "die 1 does no GC: nobody waits on it behind GC");
    let s = dev.summary();
    assert_eq!(s.read.delayed_by_gc, 0, "the reads need die 1 only");
    assert_eq!(s.write.delayed_by_gc, d0.delayed_by_gc);
}
