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
            let Ok(st) = sc.fresh() else { continue };
            let used = (LIVE.load(Relaxed) - before) as u64;
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
