//! A power cut on a device stepped op by op (ssd_step/power.rs): every die stops at the
//! moment shown, every die recovers from its own chip with no acknowledged write lost
//! and nothing wrong; the recovery's operations come in time order from the cut; Back
//! retraces them to the cut and to the moment before it; `goto` leaves the cut for the
//! recorded run. After the recovery the run goes on, on every die, with the chips' invariants
//! holding; cuts chain.

use crate::common;

use common::scenario;
use ftl_sim::ftl::SchemeParams;
use ftl_sim::sim::Simulator;
use ftl_sim::ssd::{Shape, Stripe};
use ftl_sim::ssd_step::{DevicePower, DeviceStepper};
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;

const KEYFRAMES: usize = 16 << 20;

/// The workload planned over the device's logical space (scenario::device), as the CLI and
/// the app do.
fn workload(scheme: &str, n: u64, shape: Shape) -> (Simulator, ftl_sim::scenario::Scenario) {
    let wl = Workload::Uniform { n, seed: 11, read_ratio: 0.3 };
    let mut sc = scenario(scheme, SchemeParams::default(), 64, 16, wl);
    sc.run.device = Some(shape);
    let (sim, _) = ftl_sim::scenario::device::build(&sc, None, Fit::None).unwrap();
    (sim, sc)
}

/// Every die's chip and place, for comparing two moments of the device.
fn chips(dev: &DeviceStepper) -> Vec<(usize, usize, Vec<u8>, Vec<u32>)> {
    dev.dies().iter().map(|s| (s.step(), s.op_cursor(), s.page_states(), s.page_lpns())).collect()
}

fn device(scheme: &str, stripe: Stripe, n: u64) -> DeviceStepper {
    let sh = Shape::new(2, 2, stripe);
    let (sim, sc) = workload(scheme, n, sh);
    let mut dev = DeviceStepper::new(sh, scheme, &sim, KEYFRAMES).unwrap();
    dev.set_recoverer(sc.recoverer());
    dev
}

#[test]
fn a_cut_stops_every_die_and_each_recovers() {
    for (scheme, stripe) in
        [("page", Stripe::Page), ("dftl", Stripe::Page), ("fast", Stripe::Block), ("bast", Stripe::Block)]
    {
        let mut dev = device(scheme, stripe, 12_000);
        // Cuts at several moments, some inside a die's page request.
        let total = dev.total();
        // The first moment inside a page request of several operations.
        let mut mid_at = 1;
        while dev.step_op().unwrap() {
            let c = dev.current().unwrap();
            if c.span.op >= 1 && c.span.op < c.span.ops {
                mid_at = dev.cursor();
                break;
            }
        }
        let mut inside = 0;
        for at in [1, mid_at, total / 5, total / 3 + 1, total / 2 + 3, total - 2] {
            dev.goto(at).unwrap();
            let before = dev.moment(12);
            let before_chips = chips(&dev);
            let mid = dev.dies().iter().filter(|s| s.op_cursor() > 0 && s.op_cursor() < s.op_count()).count();
            inside += mid;
            if at == mid_at && mid_at > 1 {
                assert!(mid > 0);
            }
            dev.power_cut().unwrap();
            assert_eq!(dev.power(), DevicePower::Off);
            assert!(dev.dies().iter().all(|s| !s.powered()), "{scheme} at {at}: every die is off");
            assert!(dev.step_op().is_err(), "power off: no step before recovery");
            assert!(dev.power_cut().is_err());
            dev.recover().unwrap();
            assert_eq!(dev.power(), DevicePower::Recovering);
            let mut last = 0;
            let mut steps = 0;
            while dev.step_op().unwrap() {
                let op = dev.recovery_current().unwrap();
                assert!(op.start_ns >= last, "{scheme}: recovery steps in time order");
                assert!(op.start_ns >= before.now_ns, "{scheme}: a recovery starts at the cut");
                last = op.start_ns;
                steps += 1;
                if dev.power() == DevicePower::Recovered {
                    break;
                }
            }
            assert_eq!(dev.power(), DevicePower::Recovered, "{scheme} at {at}");
            let rec = dev.recoveries();
            assert_eq!(rec.len(), 4);
            assert_eq!(steps, rec.iter().map(|r| r.op_count as usize).sum::<usize>());
            for r in &rec {
                let v = r.verdict.as_ref().unwrap_or_else(|| panic!("{scheme} at {at}: die {} has a verdict", r.die));
                assert!(v.ok, "{scheme} at {at}, die {}: {v:?}", r.die);
                assert_eq!((v.lost, v.wrong, v.torn_mapped), (0, 0, 0));
                assert_eq!(r.op_cursor, r.op_count);
                assert_eq!(r.ns, r.total_ns);
            }
            // Each die's verdict names its request in flight exactly when it was inside one.
            for (d, r) in rec.iter().enumerate() {
                let was_inside = before.dies[d].op_cursor > 0 && before.dies[d].op_cursor < before.dies[d].op_count;
                assert_eq!(r.verdict.as_ref().unwrap().in_flight.is_some(), was_inside, "{scheme} at {at} die {d}");
            }
            // Step goes on with the run after the recovery; Back returns to the recovery.
            let more = dev.next().is_some() || dev.total() > dev.cursor();
            if dev.step_op().unwrap() {
                assert_eq!(dev.power(), DevicePower::On, "{scheme} at {at}: the run goes on");
                assert_eq!(dev.moment(0).recovered_cuts, 1);
                dev.back_op().unwrap();
            }
            let _ = more;
            assert_eq!(dev.power(), DevicePower::Recovered, "{scheme} at {at}: Back to the recovered moment");
            // Back through every recovery operation, to power off, to the moment before.
            for _ in 0..steps {
                dev.back_op().unwrap();
            }
            assert_eq!(dev.power(), DevicePower::Recovering);
            assert!(dev.recoveries().iter().all(|r| r.op_cursor == 0));
            dev.back_op().unwrap();
            assert_eq!(dev.power(), DevicePower::Off);
            dev.back_op().unwrap();
            assert_eq!(dev.power(), DevicePower::On);
            assert_eq!(dev.moment(12), before, "{scheme} at {at}: back to the moment of the cut");
            assert_eq!(chips(&dev), before_chips);
            // And the run goes on as recorded.
            let next = dev.moment(0).next;
            if next.is_some() {
                assert!(dev.step_op().unwrap());
                assert_eq!(dev.current(), next);
                dev.back_op().unwrap();
            }
        }
        assert!(inside > 0, "{scheme}: some cut fell inside a page request");
    }
}

#[test]
fn recover_whole_and_goto_leave_the_cut() {
    let mut dev = device("page", Stripe::Page, 600);
    let mut plain = device("page", Stripe::Page, 600);
    let at = dev.total() / 2 + 1;
    dev.goto(at).unwrap();
    dev.power_cut().unwrap();
    dev.recover_whole().unwrap();
    assert_eq!(dev.power(), DevicePower::Recovered);
    assert!(dev.recoveries().iter().all(|r| r.verdict.as_ref().is_some_and(|v| v.ok)));
    assert!(dev.recovery_next().is_none());
    // goto leaves the cut: the device is the recorded run's, there and after.
    for n in [at, at + 7, at / 2, 0] {
        dev.goto(n).unwrap();
        plain.goto(n).unwrap();
        assert_eq!(dev.power(), DevicePower::On);
        assert_eq!(dev.moment(12), plain.moment(12), "after the cut, goto {n}");
        assert_eq!(chips(&dev), chips(&plain));
    }
    // A cut before any operation: every die blank, every recovery verdict clean.
    dev.power_cut().unwrap();
    dev.recover_whole().unwrap();
    assert!(dev.recoveries().iter().all(|r| r.verdict.as_ref().is_some_and(|v| v.ok && v.in_flight.is_none())));
    dev.goto(5).unwrap();
    plain.goto(5).unwrap();
    assert_eq!(chips(&dev), chips(&plain));
}

#[test]
fn no_recoverer_no_cut() {
    let sh = Shape::new(2, 1, Stripe::Page);
    let (sim, _) = workload("page", 50, sh);
    let mut dev = DeviceStepper::new(sh, "page", &sim, KEYFRAMES).unwrap();
    dev.goto(3).unwrap();
    assert!(dev.power_cut().is_err());
    assert_eq!(dev.power(), DevicePower::On);
}

/// Every die's chip agrees with its reference model: every LPN written reads its latest
/// acknowledged version (none lost, none wrong), and no read so far returned a wrong one.
fn dies_agree(dev: &DeviceStepper, what: &str) {
    for (d, s) in dev.dies().iter().enumerate() {
        let st = s.view();
        assert!(st.mismatches().is_empty(), "{what}, die {d}: LPNs {:?} disagree", &st.mismatches()[..]);
        assert_eq!(st.host.wrong_reads, 0, "{what}, die {d}: a read returned a wrong version");
    }
}

/// Steps to the end: operations in time order, none before `from_ns`; returns the steps.
fn run_on(dev: &mut DeviceStepper, from_ns: u64, what: &str) -> usize {
    let mut last = (from_ns, 0);
    let mut steps = 0;
    while dev.step_op().unwrap_or_else(|e| panic!("{what}: {e}")) {
        let op = dev.current().unwrap();
        assert!((op.span.start_ns, op.span.die) >= last, "{what}: step {} out of time order", dev.cursor());
        last = (op.span.start_ns, op.span.die);
        steps += 1;
        // The die's own Stepper is at this operation of this request: the plan is what the
        // recovered die runs.
        let s = &dev.dies()[op.span.die as usize];
        let want = if op.span.op < op.span.ops {
            (op.local_request as usize, op.span.op as usize)
        } else {
            (op.local_request as usize + 1, 0)
        };
        assert_eq!((s.step(), s.op_cursor()), want, "{what}: step {}", dev.cursor());
        assert_eq!(dev.cursor(), dev.moment(0).cursor as usize);
    }
    steps
}

#[test]
fn the_run_goes_on_after_a_recovery() {
    for (scheme, stripe, shape) in [
        ("page", Stripe::Page, Shape::new(2, 2, Stripe::Page)),
        ("dftl", Stripe::Page, Shape::new(2, 2, Stripe::Page)),
        ("fast", Stripe::Block, Shape::new(2, 2, Stripe::Block)),
        ("bast", Stripe::Block, Shape::new(2, 2, Stripe::Block)),
        ("page", Stripe::Page, Shape::new(8, 1, Stripe::Page)),
    ] {
        let what = format!("{scheme} on {} dies", shape.dies());
        let (sim, sc) = workload(scheme, 12_000, shape);
        let mut dev = DeviceStepper::new(shape, scheme, &sim, KEYFRAMES).unwrap();
        dev.set_recoverer(sc.recoverer());
        let _ = stripe;
        // A cut a third of the way in, inside a page request of several operations.
        dev.goto(dev.total() / 3).unwrap();
        while dev.dies().iter().all(|s| s.op_cursor() == 0 || s.op_cursor() == s.op_count()) {
            assert!(dev.step_op().unwrap(), "{what}: a request of several operations");
        }
        let before = dev.moment(12);
        let before_chips = chips(&dev);
        dev.power_cut().unwrap();
        dev.recover_whole().unwrap();
        let rec = dev.recoveries();
        assert!(rec.iter().all(|r| r.verdict.as_ref().is_some_and(|v| v.ok)), "{what}: {rec:?}");
        assert!(rec.iter().any(|r| r.verdict.as_ref().unwrap().in_flight.is_some()), "{what}: a request in flight");
        let recovered_chips = chips(&dev);
        let rec_end = before.now_ns + rec.iter().map(|r| r.total_ns).max().unwrap();
        let steps_at_cut: Vec<usize> = dev.dies().iter().map(|s| s.step()).collect();

        // Step on to the end: every die takes requests, from the end of the recovery.
        let steps = run_on(&mut dev, rec_end, &what);
        let end = dev.moment(12);
        assert_eq!(end.power, DevicePower::On);
        assert_eq!(end.recovered_cuts, 1);
        assert_eq!(end.cursor, end.total, "{what}: at the end");
        assert_eq!(end.cursor as usize, before.cursor as usize + steps);
        assert!(end.now_ns > rec_end);
        for (d, (s, m)) in dev.dies().iter().zip(&end.dies).enumerate() {
            assert!(s.step() > steps_at_cut[d] + 10, "{what}: die {d} took requests after the recovery");
            assert_eq!(m.step, m.requests, "{what}: die {d} ran its share to the end");
            assert!(m.queue.is_empty() || m.queue.iter().all(|q| q.running));
        }
        // Host requests: all done but those whose page was lost in flight (never acknowledged).
        let lost = rec.iter().filter(|r| r.verdict.as_ref().unwrap().in_flight.is_some()).count() as u32;
        assert!(
            end.hosts_done < end.hosts && end.hosts_done + lost >= end.hosts,
            "{what}: {} of {}",
            end.hosts_done,
            end.hosts
        );
        dies_agree(&dev, &what);

        // Back through the whole run after the recovery: the recovered moment again.
        for _ in 0..steps {
            assert!(dev.back_op().unwrap());
        }
        assert_eq!(dev.power(), DevicePower::Recovered, "{what}");
        assert_eq!(chips(&dev), recovered_chips, "{what}: Back to the recovered chips");
        // Stepping again runs the same operations.
        assert_eq!(run_on(&mut dev, rec_end, &what), steps);
        assert_eq!(dev.moment(12), end, "{what}: the same end");

        // A second cut in the run after the recovery, recovered, and on to the end.
        dev.goto(0).unwrap();
        dev.goto(before.cursor as usize).unwrap();
        assert_eq!(dev.moment(12), before, "{what}: goto is the recorded run");
        assert_eq!(chips(&dev), before_chips);
        dev.power_cut().unwrap();
        dev.recover_whole().unwrap();
        for _ in 0..steps / 2 {
            dev.step_op().unwrap();
        }
        let second = dev.moment(12);
        dev.power_cut().unwrap();
        assert_eq!(dev.power(), DevicePower::Off);
        dev.recover_whole().unwrap();
        assert!(dev.recoveries().iter().all(|r| r.verdict.as_ref().is_some_and(|v| v.ok)), "{what}: second cut");
        let rec2_end = second.now_ns + dev.recoveries().iter().map(|r| r.total_ns).max().unwrap();
        run_on(&mut dev, rec2_end, &what);
        let end2 = dev.moment(12);
        assert_eq!((end2.recovered_cuts, end2.cursor), (2, end2.total), "{what}");
        dies_agree(&dev, &format!("{what}, two cuts"));
        // Back all the way through both cuts: the moment before the first.
        while dev.cursor() > before.cursor as usize
            || dev.power() != DevicePower::On
            || dev.moment(0).recovered_cuts > 0
        {
            assert!(dev.back_op().unwrap(), "{what}");
        }
        assert_eq!(dev.moment(12), before, "{what}: Back to the moment before the first cut");
        assert_eq!(chips(&dev), before_chips);
    }
}
