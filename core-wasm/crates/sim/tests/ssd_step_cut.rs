//! A power cut on a device stepped op by op (ssd_step/power.rs): every die stops at the
//! moment shown, every die recovers from its own chip with no acknowledged write lost
//! and nothing wrong; the recovery's operations come in time order from the cut; Back
//! retraces them to the cut and to the moment before it; `goto` leaves the cut for the
//! recorded run.

mod common;

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
    dev.dies.iter().map(|s| (s.step(), s.op_cursor(), s.page_states(), s.page_lpns())).collect()
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
            let mid = dev.dies.iter().filter(|s| s.op_cursor() > 0 && s.op_cursor() < s.op_count()).count();
            inside += mid;
            if at == mid_at && mid_at > 1 {
                assert!(mid > 0);
            }
            dev.power_cut().unwrap();
            assert_eq!(dev.power(), DevicePower::Off);
            assert!(dev.dies.iter().all(|s| !s.powered()), "{scheme} at {at}: every die is off");
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
            assert!(dev.step_op().is_err(), "the run after a device's recovery is not stepped");
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
