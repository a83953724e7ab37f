//! The app's fit preview (`TraceParser::fit` in crates/wasm) asks `load::summary_with_raw`
//! for the summary without building the chip or keeping the fitted requests (issue 37).
//! It must say what building the run says: the same summary, or the same refusal.

use crate::common;

use common::{lb, parse_text, scenario as scenario_on, trace_workload};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::scenario::load;
use ftl_sim::scenario::Scenario;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::parse::RawTrace;

/// DiskSim text, 512 B pages (the classroom chip's): writes and reads spread over far more pages than a small
/// chip holds (so every fit does something and `none` refuses), then a hot range.
fn trace() -> RawTrace {
    let mut text = String::new();
    let mut x: u64 = 12345;
    for i in 0..4000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let sector = if i % 3 == 0 { (x >> 20) % 2_000_000 } else { (x >> 24) % 512 };
        let sectors = 1 + (x >> 60) % 8;
        let read = (x >> 40).is_multiple_of(4);
        text.push_str(&format!("{}.{:03} 0 {sector} {sectors} {}\n", i / 10, i % 10, u8::from(read)));
    }
    parse_text(&text, 512)
}

/// The uploaded trace on a 64 x 16 classroom chip (4 log blocks for the hybrid schemes).
fn scenario(scheme: &str, fit: Fit) -> Scenario {
    let params = if scheme == "page" { SchemeParams::default() } else { lb(4) };
    scenario_on(scheme, params, 64, 16, trace_workload(fit))
}

#[test]
fn the_fit_preview_says_what_building_the_run_says() {
    let raw = trace();
    let mut fitted = 0;
    for scheme in ["page", "bast", "fast", "nftl", "ltftl"] {
        for fit in [Fit::None, Fit::Fold, Fit::Compact, Fit::Scale] {
            let sc = scenario(scheme, fit);
            let built = load::build_with_raw(&sc, &raw, fit).map(|(_, s)| s);
            let preview = load::summary_with_raw(&sc, &raw, fit);
            assert_eq!(preview, built, "{scheme} {fit:?}");
            if let Ok(s) = preview {
                assert_eq!(s.records, 4000);
                assert!(s.fit_touched > 0 || fit == Fit::Scale, "{scheme} {fit:?}: {}", s.fit_note);
                fitted += 1;
            }
        }
        // Out of range and not fitted: both refuse, with the same message (checked above).
        assert!(load::summary_with_raw(&scenario(scheme, Fit::None), &raw, Fit::None).is_err());
    }
    assert!(fitted >= 8, "only {fitted} scenarios fitted: the comparison checks little");
}
