//! The full-speed loop runs each stretch of one-page host requests in the closed model's
//! own loop and the rest request by request (`Schedule::one_page_stretch`; issue 37). A
//! trace of one-page records with longer ones among them, streamed in batches of any size
//! (`sim::StreamRun`, `ftl run`'s path) or held and run in uneven chunks, must leave
//! exactly what stepping it request by request leaves, for every scheme: a request
//! dropped, reordered or run twice changes the chip page by page.

use crate::common;

use common::{assert_same, scenario, trace_workload};
use ftl_sim::ftl::{SchemeParams, SCHEMES};
use ftl_sim::scenario::{load, Scenario};
use ftl_sim::sim::{RunMode, Simulator};
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::parse::{parse_bytes, TraceOptions, TraceParser};

/// DiskSim lines of one page each, with a longer record every few lines (2 to 9 pages,
/// some at the end of a 64-request word of the schedule, some at its start), and a run of
/// longer ones; the last record is one page.
fn trace_text(spp: u64) -> String {
    let mut text = String::new();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for t in 0..3000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let pages = if t % 37 == 5 || t % 64 == 63 || (1000..1040).contains(&t) { 2 + (x >> 60) % 8 } else { 1 };
        let page = (x >> 33) % 700;
        text.push_str(&format!("{t}.0 0 {} {} {}\n", page * spp, pages * spp, (x >> 20) & 1));
    }
    text
}

fn options(sc: &Scenario) -> TraceOptions {
    let (mut o, _) = load::options_for(sc).unwrap();
    o.drop_times = true;
    o
}

fn held(sc: &Scenario, text: &str) -> Simulator {
    let raw = parse_bytes(text.as_bytes(), options(sc)).unwrap();
    load::build_with_raw_owned(sc, raw, Fit::Fold).unwrap().0
}

#[test]
fn one_page_stretches_at_full_speed_run_as_stepping_runs_them() {
    let mut checked = 0;
    for &(scheme, _) in SCHEMES {
        let sc = scenario(scheme, SchemeParams::default(), 64, 16, trace_workload(Fit::Fold));
        let spp = (sc.chip.chip().unwrap().geometry.page_bytes / 512).max(1) as u64;
        let text = trace_text(spp);
        let mut stepped = held(&sc, &text);
        let total = stepped.total();
        assert!(total > 3300, "{scheme}: {total} page requests");
        while stepped.step().unwrap_or_else(|e| panic!("{scheme} (stepped): {e}")) {}

        // Held, at full speed, in uneven chunks (a chunk may end inside a stretch or a
        // longer host request).
        let mut run = held(&sc, &text);
        run.set_mode(RunMode::FullSpeed);
        let mut chunk = 1;
        while run.pos() < total {
            let before = run.pos();
            assert_eq!(run.run(chunk).unwrap(), chunk.min(total - before), "{scheme}: ran");
            chunk = chunk * 3 % 1001 + 1;
        }
        assert_same(&format!("{scheme} (held, full speed)"), &run, &stepped);

        // Streamed in batches of one line to the whole trace.
        for bytes in [7, 997, 4093, text.len()] {
            let mut s = load::stream_run(&sc, Fit::Fold).unwrap();
            let mut parser = TraceParser::new(options(&sc));
            for c in text.as_bytes().chunks(bytes) {
                parser.feed(c);
                s.push(parser.take_batch());
            }
            let done = s.finish(parser.finish().unwrap());
            assert!(done.run_error.is_none() && !done.refused_time_shift, "{scheme}: {:?}", done.run_error);
            assert_eq!(done.request_hash, stepped.request_hash(), "{scheme}: the requests fitted");
            assert_same(&format!("{scheme} (streamed, chunks of {bytes} bytes)"), &done.sim, &stepped);
        }
        checked += 1;
    }
    assert_eq!(checked, SCHEMES.len());
}
