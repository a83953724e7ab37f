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
    streamed_as(sc, bytes, fit, chunk, false)
}

/// `streamed`; `counted`: the summary's counts taken apart from the run, batch by batch
/// (`StreamRun::counter`, `push_counted`, `finish_counted`: `ftl run` counts on its parse
/// thread), else by the run's own `push`.
fn streamed_as(sc: &Scenario, bytes: &[u8], fit: Fit, chunk: usize, counted: bool) -> Outcome {
    let mut run = load::stream_run(sc, fit)?;
    let mut counts = run.counter();
    let mut parser = TraceParser::new(options(sc));
    for c in bytes.chunks(chunk) {
        parser.feed(c);
        let batch = parser.take_batch();
        if counted {
            counts.add(&batch);
            run.push_counted(batch);
        } else {
            run.push(batch);
        }
    }
    let raw = parser.finish().map_err(|e| format!("parse: {e}"))?;
    let s = if counted { run.finish_counted(raw, counts) } else { run.finish(raw) };
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
                    for counted in [false, true] {
                        let got = streamed_as(&sc, bytes, fit, chunk, counted);
                        let at = format!("{name}, {scheme}, {fit:?}, chunks of {chunk}, counted apart {counted}");
                        assert!(got == want, "{at}:\n{got:?}\nheld:\n{want:?}");
                    }
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
        assert!(streamed_as(&sc, text.as_bytes(), Fit::Fold, chunk, true) == want, "chunks of {chunk}, counted apart");
    }
    *match &mut sc.workload {
        ftl_sim::trace::gen::Workload::Trace { skip_bad_lines, .. } => skip_bad_lines,
        _ => unreachable!(),
    } = false;
    let e = streamed(&sc, text.as_bytes(), Fit::Fold, 65_536).unwrap_err();
    assert!(e.starts_with("parse: ") && e.contains("line 23457,"), "{e}");
    assert_eq!(Err(e), held(&sc, text.as_bytes(), Fit::Fold));
}

/// `ftl trace`'s summary counted batch by batch (`load::summary_stream`; issue 37) is
/// `summary_with_raw`'s of the held trace wherever it is given, and it is refused exactly
/// where the held summary is an error (there `ftl trace` takes the held path): the test
/// traces and DiskSim texts with bad lines early and late (skipped), CR LF, no newline at
/// the end, one line and none, pages beyond the space, on 4 fits, 2 chips (512 B and 4 KB
/// pages), 3 schemes, in chunks of the whole text, 4093 and 97 bytes.
#[test]
fn a_streamed_summary_is_the_held_one() {
    let mut files = test_traces();
    let mut text = String::new();
    let mut x = 11u64;
    for i in 0..20_000u64 {
        x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        match i {
            3 | 19_990 => text.push_str("not a line 1 2\n"),
            _ => text.push_str(&format!(
                "{i}.5 0 {} {} {}\n",
                (x >> 33) % 400_000 * 8,
                8 << ((x >> 60) % 3),
                (x >> 20) & 1
            )),
        }
    }
    files.push(("bad lines".into(), text.clone().into_bytes()));
    files.push(("CR LF, no newline at the end".into(), text.replace('\n', "\r\n").trim_end().as_bytes().to_vec()));
    files.push(("one line".into(), b"0.0 0 8 8 1".to_vec()));
    files.push(("empty".into(), Vec::new()));
    files.push(("beyond".into(), b"0.0 0 0 8 1\n1.0 0 900000000 8 0\n2.0 0 16 8 1\n".to_vec()));
    let schemes: [(&str, SchemeParams); 3] =
        [("page", SchemeParams::default()), ("bast", lb(4)), ("ltftl", SchemeParams::default())];
    let (mut same, mut refused) = (0, 0);
    for (name, bytes) in &files {
        for (scheme, params) in &schemes {
            for fit in [Fit::Fold, Fit::None, Fit::Compact, Fit::Scale] {
                for (preset, skip) in [("classroom", false), ("fast2007", true)] {
                    let mut sc = scenario(scheme, params.clone(), 256, 32, trace_workload(fit));
                    sc.chip.preset = preset.into();
                    if let ftl_sim::trace::gen::Workload::Trace { skip_bad_lines, .. } = &mut sc.workload {
                        *skip_bad_lines = skip;
                    }
                    let want = parse_bytes(bytes, options(&sc))
                        .map_err(|e| format!("parse: {e}"))
                        .map(|raw| load::summary_with_raw(&sc, &raw, fit));
                    if load::summary_stream(&sc, fit).is_err() {
                        assert!(matches!(fit, Fit::Compact | Fit::Scale), "{name}, {scheme}, {fit:?}");
                        continue;
                    }
                    for chunk in [bytes.len().max(1), 4093, 97] {
                        let mut stream = load::summary_stream(&sc, fit).unwrap();
                        let mut parser = TraceParser::new(options(&sc));
                        for c in bytes.chunks(chunk) {
                            parser.feed(c);
                            stream.push(&parser.take_batch());
                        }
                        let got =
                            parser.finish().map_err(|e| format!("parse: {e}")).map(|mut raw| stream.finish(&mut raw));
                        let at = format!("{name}, {scheme}, {fit:?}, {preset}, chunks of {chunk}");
                        match (&got, &want) {
                            (Ok(Err(_)), Ok(Err(_))) => refused += 1,
                            _ => {
                                assert!(got == want, "{at}:\n{got:?}\nheld:\n{want:?}");
                                same += 1;
                            }
                        }
                    }
                }
            }
        }
    }
    // Most are summaries, some refusals (none beyond the space, page's freeze), some parse errors.
    assert!(same > files.len() * 6 && refused > 0, "{same} same, {refused} refused");
}
