//! A trace streamed into its run (`sim::StreamRun`, `ftl run`'s path; issue 37) against
//! the same trace parsed whole, fitted and run (`load::build_with_raw_owned`): the same
//! summary, metrics, request count and hash, or the same error, whatever the batches.

use crate::common;

use common::{lb, scenario, trace_workload};
use ftl_sim::ftl::SchemeParams;
use ftl_sim::metrics::Metrics;
use ftl_sim::scenario::{load, Scenario};
use ftl_sim::sim::RunMode;
use ftl_sim::trace::fit::{Fit, TraceSummary};
use ftl_sim::trace::parse::{parse_bytes, TraceOptions, TraceParser};

type Outcome = Result<(TraceSummary, Metrics, String, usize), String>;

fn options(sc: &Scenario) -> TraceOptions {
    let (mut o, _) = load::options_for(sc).unwrap();
    o.drop_times = true;
    o
}

/// The trace parsed whole, fitted, then run at full speed.
fn held(sc: &Scenario, bytes: &[u8], fit: Fit) -> Outcome {
    let raw = parse_bytes(bytes, options(sc)).map_err(|e| format!("parse: {e}"))?;
    let (mut sim, summary) = load::build_with_raw_owned(sc, raw, fit)?;
    sim.set_mode(RunMode::FullSpeed);
    sim.run(usize::MAX)?;
    Ok((summary, sim.state.metrics(), sim.request_hash(), sim.total()))
}

/// The trace fed in chunks of `chunk` bytes, each chunk's batch run as it is parsed.
fn streamed(sc: &Scenario, bytes: &[u8], fit: Fit, chunk: usize) -> Outcome {
    let mut run = load::stream_run(sc, fit)?;
    let mut parser = TraceParser::new(options(sc));
    for c in bytes.chunks(chunk) {
        parser.feed(c);
        run.push(parser.take_batch());
    }
    let raw = parser.finish().map_err(|e| format!("parse: {e}"))?;
    let s = run.finish(raw);
    let summary = s.summary?;
    if s.refused_time_shift {
        return Err(load::time_shift_refused(sc));
    }
    if let Some(e) = s.run_error {
        return Err(e);
    }
    Ok((load::streamed_summary(summary), s.sim.state.metrics(), s.request_hash, s.sim.total()))
}

/// The repo's sample traces (every format, gzip, zstd, binary), the crash-chain pattern of
/// docs/traces (freeze and revert) and the shared MQSim trace when it is there.
fn test_traces() -> Vec<(String, Vec<u8>)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let mut files = Vec::new();
    for dir in [root.join("traces"), root.join("docs/traces"), root.join("../shared/traces")] {
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        for e in rd.flatten() {
            let p = e.path();
            if p.extension().is_some_and(|x| x != "md") {
                files.push((p.display().to_string(), std::fs::read(&p).unwrap()));
            }
        }
    }
    files.sort();
    files
}

/// Every test trace, fold and none (none refuses most of them: the same error), on a
/// page-mapped, a hybrid and a time-shifting scheme, whole and in odd chunks (a batch per
/// chunk: batches of one line, of many, and one batch), gives what the whole trace gives.
#[test]
fn a_streamed_trace_runs_as_the_held_one() {
    let files = test_traces();
    assert!(files.len() >= 14, "the sample traces are found: {}", files.len());
    let schemes: [(&str, SchemeParams); 3] =
        [("page", SchemeParams::default()), ("bast", lb(4)), ("ltftl", SchemeParams::default())];
    let mut ran = 0;
    for (name, bytes) in &files {
        for (scheme, params) in &schemes {
            for fit in [Fit::Fold, Fit::None] {
                let sc = scenario(scheme, params.clone(), 256, 32, trace_workload(fit));
                let want = held(&sc, bytes, fit);
                ran += want.is_ok() as usize;
                for chunk in [bytes.len(), 4093, 97] {
                    let got = streamed(&sc, bytes, fit, chunk);
                    assert!(got == want, "{name}, {scheme}, {fit:?}, chunks of {chunk}:\n{got:?}\nheld:\n{want:?}");
                }
            }
        }
    }
    // Not every pair is an error: most traces run under fold.
    assert!(ran >= files.len() * 3, "{ran} runs");
}

/// A DiskSim trace of 30,000 lines in 1 MB-like chunks, large enough to cross the bitmap's
/// growth and the sample's step doubling, folded into a small chip, with a bad line deep in
/// it: skipped, it is listed with its own line number, as the whole trace lists it; not
/// skipped, the streamed parse fails naming it.
#[test]
fn a_bad_line_deep_in_a_streamed_trace_names_its_line() {
    let mut text = String::new();
    let mut x = 7u64;
    for i in 0..30_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if i == 23_456 {
            text.push_str("23456.0 0 not-a-number 8 1\n");
        } else {
            text.push_str(&format!(
                "{i}.0 0 {} {} {}\n",
                (x >> 33) % 5_000_000 * 8,
                8 << ((x >> 60) % 3),
                (x >> 20) & 1
            ));
        }
    }
    let mut sc = scenario("page", SchemeParams::default(), 256, 32, trace_workload(Fit::Fold));
    let ftl_sim::trace::gen::Workload::Trace { skip_bad_lines, .. } = &mut sc.workload else { unreachable!() };
    *skip_bad_lines = true;
    let want = held(&sc, text.as_bytes(), Fit::Fold);
    let (summary, ..) = want.as_ref().expect("runs with the bad line skipped");
    assert_eq!(summary.skipped_lines, 1);
    assert_eq!(summary.errors[0].line, 23_457, "{:?}", summary.errors);
    assert!(summary.sample.len() <= 1000 && summary.sample.len() > 500, "{}", summary.sample.len());
    for chunk in [text.len(), 65_536, 4093] {
        assert!(streamed(&sc, text.as_bytes(), Fit::Fold, chunk) == want, "chunks of {chunk}");
    }
    *match &mut sc.workload {
        ftl_sim::trace::gen::Workload::Trace { skip_bad_lines, .. } => skip_bad_lines,
        _ => unreachable!(),
    } = false;
    let e = streamed(&sc, text.as_bytes(), Fit::Fold, 65_536).unwrap_err();
    assert!(e.starts_with("parse: ") && e.contains("line 23457,"), "{e}");
    assert_eq!(Err(e), held(&sc, text.as_bytes(), Fit::Fold));
}
