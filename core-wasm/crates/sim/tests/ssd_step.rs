//! The device stepped op by op (ssd_step.rs): run to the end by steps it is `Device::run`
//! (same chips, counters and completions); its steps come in time order with each die's
//! operations in that die's order; Back retraces them; one die is today's Stepper exactly.

use crate::common;

use common::scenario;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::sim::Simulator;
use ftl_sim::ssd::{Device, Shape, Stripe};
use ftl_sim::ssd_step::DeviceStepper;
use ftl_sim::stepper::Stepper;
use ftl_sim::timing::{Model, Schedule, Spacing, TimingConfig};
use ftl_sim::trace::gen::Workload;

const KEYFRAMES: usize = 16 << 20;

/// A workload of `n` page requests on the classroom chip, grouped into host requests of
/// 1..4 pages, open model with Poisson arrivals at `rate` per second.
fn workload(scheme: &str, n: u32, rate: f64) -> Simulator {
    let wl = Workload::Uniform { n: n as u64, seed: 7, read_ratio: 0.3 };
    let mut sim = scenario(scheme, SchemeParams::default(), 64, 16, wl).build().unwrap();
    let mut starts = vec![0u64; sim.total().div_ceil(64)];
    for i in (0..sim.total()).filter(|i| i % 3 != 1 && i % 7 != 2) {
        starts[i / 64] |= 1 << (i % 64);
    }
    sim.set_schedule(Schedule::new(starts, sim.total(), None)).unwrap();
    let t = TimingConfig { model: Model::Open, rate: Some(rate), spacing: Spacing::Poisson, ..Default::default() };
    sim.set_timing(t).unwrap();
    sim
}

fn shape(c: u32, w: u32, stripe: Stripe) -> Shape {
    Shape::new(c, w, stripe)
}

/// What one die shows: requests done, operations revealed, every page's state.
fn die_moment(s: &Stepper) -> (usize, usize, Vec<u8>) {
    (s.step(), s.op_cursor(), s.page_states())
}

#[test]
fn stepped_to_the_end_it_is_device_run() {
    // 8 x 1: no die waits for another's transfer. 2 x 4 and 4 x 2: dies share a channel,
    // a write waits for it before its program, a read before its data-out (ssd/device.rs):
    // the steps' times are still DeviceClock's (busy, makespan, every completion).
    let cases = [
        ("page", Stripe::Page, 8, 1),
        ("dftl", Stripe::Page, 8, 1),
        ("fast", Stripe::Block, 8, 1),
        ("page", Stripe::Page, 2, 4),
        ("page", Stripe::Page, 4, 2),
        ("fast", Stripe::Block, 4, 2),
    ];
    for (scheme, stripe, c, dpc) in cases {
        let sim = workload(scheme, 1500, 20_000.0);
        let mut sh = shape(c, dpc, stripe);
        if dpc > 1 {
            // A slow bus (12.8 us a 512-byte page), so reads often wait for their data-out.
            sh.bus_mb_s = Some(40);
        }
        let mut dev = DeviceStepper::new(sh, scheme, &sim, KEYFRAMES).unwrap();
        let mut want = Device::new(sh, scheme, &**sim.fresh()).unwrap();
        want.run(sim.requests(), sim.schedule(), sim.arrivals()).unwrap();

        let mut last = (0u64, 0u32);
        let mut per_die_ops = [0usize; 8];
        let mut die_end = [0u64; 8];
        let mut host_done = vec![0u64; want.hosts.len()];
        let mut switches = 0;
        let mut prev_die = None;
        while dev.step_op().unwrap() {
            let op = dev.current().unwrap();
            let d = op.span.die as usize;
            // Time order: (start, die) never goes back.
            assert!((op.span.start_ns, op.span.die) >= last, "{scheme}: step {} out of order", dev.cursor());
            last = (op.span.start_ns, op.span.die);
            // The die's own Stepper is at this operation of this request.
            let s = &dev.dies()[d];
            if op.span.op < op.span.ops {
                assert_eq!((s.step(), s.op_cursor()), (op.local_request as usize, op.span.op as usize), "{scheme}");
            } else {
                assert_eq!((s.step(), s.op_cursor()), (op.local_request as usize + 1, 0), "{scheme}");
            }
            per_die_ops[d] += 1;
            die_end[d] = op.span.end_ns;
            host_done[op.host as usize] = host_done[op.host as usize].max(op.span.end_ns);
            if prev_die.is_some_and(|p| p != op.span.die) {
                switches += 1;
            }
            prev_die = Some(op.span.die);
            assert!(dev.utilisation().iter().all(|&u| (0.0..=1.0).contains(&u)), "{scheme}");
        }
        assert_eq!(dev.cursor(), dev.total());
        assert!(per_die_ops.iter().all(|&n| n > 0), "{scheme}: every die worked");
        assert!(switches > dev.total() / 10, "{scheme}: the dies' operations interleave ({switches} switches)");
        // Same chips, counters and completions as Device::run.
        for (i, (s, w)) in dev.dies().iter().zip(&want.dies).enumerate() {
            let (a, b) = (s.view().metrics(), w.metrics());
            assert_eq!(
                (a.erases, a.page_programs, a.page_reads, s.view().host.writes, s.view().host.reads),
                (b.erases, b.page_programs, b.page_reads, w.host.writes, w.host.reads),
                "{scheme}: die {i}"
            );
            assert_eq!(s.view().host.wrong_reads, 0);
            assert!(s.view().mismatches().is_empty(), "{scheme}: die {i} agrees with its reference model");
            let (x, y) = (&dev.die_stats[i], &want.die_stats[i]);
            assert_eq!(
                (x.page_requests, x.jobs, x.busy_ns, x.wait_ns_sum),
                (y.page_requests, y.jobs, y.busy_ns, y.wait_ns_sum),
                "{scheme}: die {i}"
            );
            assert_eq!(dev.busy_ns()[i], y.busy_ns, "{scheme}: the steps' busy time is the run's");
            // The die's last operation ends when its last page request does in the device.
            assert_eq!(die_end[i], y.end_ns, "{scheme} {c}x{dpc}: die {i}'s last step ends with its last page");
            if dpc == 1 {
                // The die's own clock (what its narration of waits reads) is its queue in
                // the device; on a shared channel it does not see the bus (docs/ssd.md).
                assert_eq!(s.view().clock.free_at(), die_end[i], "{scheme}: die {i}'s clock");
            }
        }
        if dpc > 1 {
            let waited: u64 = want.die_stats.iter().map(|s| s.channel_wait_ns).sum();
            assert!(waited > 0, "{scheme} {c}x{dpc}: dies waited for their channel");
        }
        assert_eq!(dev.hosts, want.hosts, "{scheme}: same host requests in time");
        // Every host request's last step ends when the device completes it (a read that
        // waited for its data-out too).
        for (h, (&got, w)) in host_done.iter().zip(&want.hosts).enumerate() {
            assert_eq!(got, w.done_ns, "{scheme} {c}x{dpc}: host request {h} completes with its last step");
        }
        let end = want.hosts.iter().map(|h| h.done_ns).max().unwrap();
        assert_eq!(dev.now_ns(), end, "{scheme}: the last step ends at the makespan");
    }
}

/// Back retraces the steps: every moment reached by Back is the moment reached by going
/// forward to it (on a device built afresh), die by die.
#[test]
fn back_retraces_the_steps() {
    let sim = workload("page", 400, 30_000.0);
    let sh = shape(2, 2, Stripe::Page);
    let mut dev = DeviceStepper::new(sh, "page", &sim, KEYFRAMES).unwrap();
    dev.goto(dev.total()).unwrap();
    let mut fwd = DeviceStepper::new(sh, "page", &sim, KEYFRAMES).unwrap();
    let mut moments = Vec::new();
    moments.push((fwd.current(), fwd.dies().iter().map(die_moment).collect::<Vec<_>>()));
    while fwd.step_op().unwrap() {
        moments.push((fwd.current(), fwd.dies().iter().map(die_moment).collect::<Vec<_>>()));
    }
    assert_eq!(moments.len(), dev.total() + 1);
    for n in (0..dev.total()).rev() {
        assert!(dev.back_op().unwrap());
        assert_eq!(dev.cursor(), n);
        let got = (dev.current(), dev.dies().iter().map(die_moment).collect::<Vec<_>>());
        assert_eq!(got, moments[n], "moment {n}");
    }
    assert!(!dev.back_op().unwrap(), "nothing before the start");
    // A jump lands where stepping does.
    for n in [dev.total() / 2, 3, dev.total() - 1] {
        dev.goto(n).unwrap();
        let got = (dev.current(), dev.dies().iter().map(die_moment).collect::<Vec<_>>());
        assert_eq!(got, moments[n], "goto {n}");
    }
}

/// One die: every step is the one-chip Stepper's step (same moment, same operations and
/// notes), and the device's times are the simulator's.
#[test]
fn one_die_is_todays_stepper() {
    for scheme in ["page", "bast", "nftl"] {
        let sim = workload(scheme, 600, 4000.0);
        let mut dev = DeviceStepper::new(shape(1, 1, Stripe::Page), scheme, &sim, KEYFRAMES).unwrap();
        let mut one = Stepper::new(workload(scheme, 600, 4000.0));
        let mut steps = 0;
        loop {
            let (a, b) = (dev.step_op().unwrap(), one.step_op().unwrap());
            assert_eq!(a, b, "{scheme}: both end together");
            if !a {
                break;
            }
            steps += 1;
            let d = &dev.dies()[0];
            assert_eq!(die_moment(d), die_moment(&one), "{scheme}: step {steps}");
            assert_eq!(
                serde_json::to_string(&d.events()).unwrap(),
                serde_json::to_string(&one.events()).unwrap(),
                "{scheme}: step {steps}"
            );
            assert_eq!(d.narration(), one.narration(), "{scheme}: step {steps}");
        }
        assert_eq!(steps, dev.total());
        // The device's host requests in time are the one chip's.
        let mut sim = workload(scheme, 600, 4000.0);
        sim.record_timeline(true);
        sim.run(sim.total()).unwrap();
        let want: Vec<_> = sim.host_timeline().unwrap().iter().map(|h| (h.arrival_ns, h.start_ns, h.done_ns)).collect();
        let got: Vec<_> = dev.hosts.iter().map(|h| (h.arrival_ns, h.start_ns, h.done_ns)).collect();
        assert_eq!(got, want, "{scheme}");
    }
}

#[test]
fn refusals() {
    let sim = workload("bast", 50, 1000.0);
    let e = DeviceStepper::new(shape(2, 1, Stripe::Page), "bast", &sim, KEYFRAMES).err().unwrap();
    assert!(e.contains("needs block striping") && !e.contains("--"), "{e}");
}

/// The moment the app reads: the die of the step shown runs the page request at its
/// queue's head; host requests count as done when all their pages are.
#[test]
fn the_moment_names_the_die_at_work() {
    let sim = workload("page", 300, 40_000.0);
    let mut dev = DeviceStepper::new(shape(2, 4, Stripe::Page), "page", &sim, KEYFRAMES).unwrap();
    let m = dev.moment(4);
    assert_eq!((m.cursor, m.hosts_done, m.current), (0, 0, None));
    assert_eq!(m.dies.len(), 8);
    let mut waited = false;
    while dev.step_op().unwrap() {
        let m = dev.moment(4);
        let cur = m.current.unwrap();
        let die = &m.dies[cur.span.die as usize];
        if cur.span.op > 0 && cur.span.op < cur.span.ops {
            let head = die.queue[0];
            assert!(head.running && head.request == cur.request, "step {}: {head:?} {cur:?}", m.cursor);
        }
        assert!(die.queue.len() <= 4);
        waited |= m.dies.iter().any(|d| d.queue.len() > 1 || d.queue_more > 0);
        let steps: u32 = m.dies.iter().map(|d| d.step).sum();
        assert!(steps as usize <= m.cursor as usize);
    }
    assert!(waited, "at 40,000 requests/s some page requests wait for their die");
    let m = dev.moment(4);
    assert_eq!((m.cursor, m.hosts_done), (m.total, m.hosts));
    // At the start of the last operation the others' last operations may still run;
    // nothing waits.
    assert!(m.dies.iter().all(|d| d.step == d.requests && d.queue.iter().all(|q| q.running)), "{:?}", m.dies);
}
