//! A Session's memory budget (ftl_sim::limits, issue 34): `state_bytes` is an upper bound
//! of what a fresh state of every scheme allocates (counted by this test binary's
//! allocator), and a chip over the budget is refused with one line naming the limit.

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

use ftl_sim::limits::{session_memory, state_bytes, SESSION_MEMORY_BUDGET};
use ftl_sim::nand::{Chip, Geometry, PRESET_NAMES};

/// Counts the bytes allocated and not yet freed.
struct Counting;
static LIVE: AtomicUsize = AtomicUsize::new(0);
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        LIVE.fetch_add(l.size(), Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        LIVE.fetch_add(n, Relaxed);
        LIVE.fetch_sub(l.size(), Relaxed);
        unsafe { System.realloc(p, l, n) }
    }
}
#[global_allocator]
static A: Counting = Counting;
/// The count is the whole process's: the tests take turns.
static TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn state_bytes_bounds_every_schemes_state() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    // Shapes from 1 to 4096 pages a block.
    let mut tightest = 0f64;
    for (blocks, ppb) in [(131072u32, 1u32), (32768, 4), (16384, 16), (4096, 64), (1024, 256), (64, 4096)] {
        for id in ftl_sim::ftl::REGISTRY.iter().map(|e| e.id) {
            let sc: ftl_sim::scenario::Scenario = serde_json::from_value(serde_json::json!({
                "scheme": id,
                "chip": {"preset": "classroom", "blocks": blocks, "pages_per_block": ppb},
                "workload": {"kind": "uniform", "n": 1}
            }))
            .unwrap();
            let before = LIVE.load(Relaxed);
            let Ok(mut st) = sc.fresh() else { continue };
            let mut used = (LIVE.load(Relaxed) - before) as u64;
            if st.ftl.time_shift() {
                // A time-shifting scheme's state grows while a state is frozen: LTFTL then
                // keeps each page's death and log reference, and the intent log since the
                // epoch in RAM (reserved for one threshold at the first write).
                st.ftl.freeze(&mut st.flash).unwrap().unwrap();
                st.ftl.write(&mut st.flash, 0, 1).unwrap();
                used = used.max((LIVE.load(Relaxed) - before) as u64);
            }
            let g = *st.flash.geometry();
            drop(st);
            assert!(used <= state_bytes(&g), "{id} {blocks}x{ppb}: {used} bytes > the bound {}", state_bytes(&g));
            tightest = tightest.max(used as f64 / state_bytes(&g) as f64);
        }
    }
    // Not a bound far above every scheme: the largest comes within a factor of 1.5.
    assert!(tightest > 0.66, "the bound is loose: at most {tightest:.2} of it used");
}

#[test]
fn a_chip_over_the_session_budget_is_refused_in_one_line() {
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let largest = Geometry { blocks: 1 << 16, pages_per_block: 1024, page_bytes: 512, spare_bytes: 16 };
    largest.validate().unwrap();
    let e = session_memory(&largest).unwrap_err();
    assert!(
        !e.contains('\n') && e.contains("over the limit of 1024 MB") && e.contains("65536 blocks x 1024 pages"),
        "{e}"
    );
    // Every preset fits, the largest (FastCheck's 8 GB chip, 2 M pages) included.
    for p in PRESET_NAMES {
        let g = Chip::preset(p).unwrap().geometry;
        let need = session_memory(&g).unwrap_or_else(|e| panic!("{p}: {e}"));
        assert!(need <= SESSION_MEMORY_BUDGET);
    }
}

/// The recoveries a Session keeps on its branch (the stepper's roots, for Back and for
/// seeking inside the branch: three states, the cut's device view and the recovery's events
/// each) count in its memory budget: `roots_budget` is what `session_memory` leaves, each
/// root is charged `root_bytes` (which bounds what one takes, measured here by the
/// allocator), and a power cut that would take them past it is refused in one line, with
/// the power left on. Going back before a cut drops its root and makes room again.
#[test]
fn recoveries_a_session_keeps_count_in_its_memory_budget() {
    use ftl_sim::limits::{events_bytes, root_bytes, roots_budget};
    use ftl_sim::stepper::Stepper;
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    for p in PRESET_NAMES {
        let g = Chip::preset(p).unwrap().geometry;
        assert_eq!(session_memory(&g).unwrap() + roots_budget(&g), SESSION_MEMORY_BUDGET, "{p}");
        assert!(roots_budget(&g) >= root_bytes(&g, 0), "{p}: room for a recovery");
    }
    let sc: ftl_sim::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "scheme": "fastcheck",
        "chip": {"preset": "classroom", "blocks": 256, "pages_per_block": 64},
        "workload": {"kind": "uniform", "n": 400, "seed": 3, "read_ratio": 0.2}
    }))
    .unwrap();
    let g = *sc.fresh().unwrap().flash.geometry();
    let mut s = Stepper::new(sc.build().unwrap());
    s.set_recoverer(sc.recoverer());
    assert_eq!(s.roots_bytes(), 0);
    // A cut between requests, recovered and revealed to its end, then a request run.
    let cycle = |s: &mut Stepper| -> Result<(), String> {
        s.power_cut()?;
        s.recover().unwrap();
        if s.recovering() {
            s.step_request().unwrap();
        }
        s.step_request().unwrap();
        Ok(())
    };
    for _ in 0..3 {
        cycle(&mut s).unwrap();
    }
    // What ten more recoveries kept take, against what they are charged.
    let (live0, charged0) = (LIVE.load(Relaxed) as u64, s.roots_bytes());
    for _ in 0..10 {
        cycle(&mut s).unwrap();
    }
    let (took, charged) = (LIVE.load(Relaxed) as u64 - live0, s.roots_bytes() - charged0);
    eprintln!("10 recoveries kept: {took} bytes allocated, {charged} charged");
    assert!(took <= charged, "{took} bytes allocated > {charged} charged");
    assert!(charged >= 10 * root_bytes(&g, 0));
    // A budget of 3.5 recoveries: the fourth cut is refused, the power stays on.
    let one = s.roots_bytes() / 13;
    let mut s = Stepper::new(sc.build().unwrap());
    s.set_recoverer(sc.recoverer());
    s.set_roots_budget(one * 7 / 2);
    s.step_request().unwrap();
    let mut kept = 0;
    let e = loop {
        match cycle(&mut s) {
            Ok(()) => kept += 1,
            Err(e) => break e,
        }
        assert!(s.roots_bytes() <= one * 7 / 2);
    };
    assert_eq!(kept, 3, "{e}");
    assert!(s.powered(), "a refused cut leaves the power on");
    assert!(!e.contains('\n') && e.contains("power cut refused") && e.contains("1024 MB memory limit"), "{e}");
    // Back to the start (before every cut): the branch and its roots are gone.
    s.seek(0).unwrap();
    assert_eq!(s.roots_bytes(), 0);
    cycle(&mut s).unwrap();
    assert!(s.roots_bytes() > 0 && events_bytes(&[]) == 0);
}

/// A device stepped op by op (the app's device view) keeps a copy of its workload to plan
/// the run after a recovery, and its plan; `limits::device_memory` charges them
/// (`DeviceStepper::workload_bytes`) beside the dies' states. Measured by the allocator on
/// 8 dies of a small chip and a long workload, where they are most of what the device
/// keeps: what it keeps is within the charge, the charge is not loose, and without the
/// workload the states' charge alone would not cover it. A workload that takes the device
/// over the budget is refused in one line naming it.
#[test]
fn a_devices_workload_copy_counts_in_its_memory_budget() {
    use ftl_sim::limits::{device_memory, SESSION_KEYFRAME_BYTES};
    use ftl_sim::ssd::{Shape, Stripe};
    let _turn = TURN.lock().unwrap_or_else(|e| e.into_inner());
    let sc: ftl_sim::scenario::Scenario = serde_json::from_value(serde_json::json!({
        "scheme": "page",
        "chip": {"preset": "classroom", "blocks": 16, "pages_per_block": 8},
        "workload": {"kind": "uniform", "n": 120000, "seed": 5, "read_ratio": 0.3}
    }))
    .unwrap();
    let g = *sc.fresh().unwrap().flash.geometry();
    let shape = Shape::new(8, 1, Stripe::Page);
    let before = LIVE.load(Relaxed) as u64;
    let dev = ftl_sim::scenario::device::stepper(&sc, shape, SESSION_KEYFRAME_BYTES).unwrap();
    let kept = LIVE.load(Relaxed) as u64 - before;
    let states = 8 * 4 * state_bytes(&g);
    let charged = dev.workload_bytes();
    eprintln!("8 dies, 120,000 requests: {kept} bytes kept; charged {charged} for the workload and plan, {states} for the states");
    assert!(kept <= states + charged, "{kept} bytes kept > {} charged", states + charged);
    assert!(
        kept > states,
        "the states' charge alone covers what the device keeps: the test would not see the workload"
    );
    assert!(charged <= 2 * kept, "the workload's charge is loose: {charged} for {kept} kept");
    let need = device_memory(&g, 8, charged).unwrap();
    assert_eq!(need, states + SESSION_KEYFRAME_BYTES as u64 + charged);
    // Over the budget with its workload: refused in one line.
    let e = device_memory(&g, 8, SESSION_MEMORY_BUDGET).unwrap_err();
    assert!(
        !e.contains('\n') && e.contains("and their workload (1024 MB)") && e.contains("over the limit of 1024 MB"),
        "{e}"
    );
}
