//! `ftl trace`: parse a trace file and print its summary as JSON.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::load;

use crate::output::{fail, print_json};
use crate::setup::Setup;

#[derive(Args)]
pub(crate) struct TraceArgs {
    /// Scheme whose logical space the trace is fitted into.
    #[arg(long, default_value = "page")]
    pub(crate) scheme: String,
    #[command(flatten)]
    pub(crate) setup: Setup,
}

/// User + system CPU seconds of this process (Linux /proc; 0 elsewhere), 10 ms ticks.
fn cpu_seconds() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else { return 0.0 };
    // Fields after the command name (which is in parentheses and may hold spaces).
    let rest = stat.rsplit_once(')').map(|x| x.1).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    // utime and stime are fields 14 and 15 of stat: 12 and 13 after the ')'.
    (ticks(11) + ticks(12)) / 100.0
}

pub(crate) fn execute(args: TraceArgs) -> ExitCode {
    if args.setup.trace.is_empty() {
        return fail("give the trace with --trace FILE");
    }
    match summary(&args) {
        Ok(s) => {
            print_json(&s);
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

/// The summary, fitted into the scheme's logical space (or of the trace alone, with the
/// reason in `warnings`, when the fit fails).
fn summary(args: &TraceArgs) -> Result<serde_json::Value, String> {
    let scenario = args.setup.scenario(&args.scheme)?;
    let path = args.setup.trace.first().expect("checked");
    let t0 = std::time::Instant::now();
    let c0 = cpu_seconds();
    // The summary reads the timestamps only to check the open model's arrivals.
    let open = scenario.run.timing.is_some_and(|t| t.model == ftl_sim::timing::Model::Open);
    let streamed = streamed(args, &scenario, path, open, t0)?;
    let (raw, s, parse_s, c1) = match streamed {
        Some((raw, s, parse_s, c1)) => (raw, s, parse_s, c1),
        None => {
            let (raw, fit, _) = args.setup.parse_trace(&scenario, path, open)?;
            let parse_s = t0.elapsed().as_secs_f64();
            let c1 = cpu_seconds();
            let s = match load::summary_with_raw(&scenario, &raw, fit) {
                Ok(s) => s,
                // The fit failed (e.g. addresses out of range and no --fit):
                // still show the trace, with the reason as a warning.
                Err(e) => {
                    let ppb = scenario.chip.chip()?.geometry.pages_per_block;
                    let mut s = raw.summary(ppb);
                    s.warnings.push(e);
                    s
                }
            };
            (raw, s, parse_s, c1)
        }
    };
    let file_bytes = if raw.compression.is_some() { raw.compressed_bytes } else { raw.bytes };
    // CPU seconds as well as wall time: on a busy machine the wall clock
    // measures the neighbours.
    let c2 = cpu_seconds();
    eprintln!(
        "trace: read {:.1} MB{} in {:.3} s wall, {:.2} s CPU ({:.0} MB/s of text per CPU second); summary and fit {:.3} s wall, {:.2} s CPU",
        file_bytes as f64 / 1e6,
        raw.compression.as_deref().map(|c| format!(" ({c}, {:.1} MB of text)", raw.bytes as f64 / 1e6)).unwrap_or_default(),
        parse_s,
        c1 - c0,
        raw.bytes as f64 / 1e6 / (c1 - c0).max(0.01),
        t0.elapsed().as_secs_f64() - parse_s,
        c2 - c1
    );
    let mut v = serde_json::to_value(&s).expect("summary serialises");
    // How the CSV columns were read, and the compression: not in the
    // scheme-independent summary, but what a user checks first.
    if !raw.csv_columns.is_empty() {
        v["columns"] = serde_json::json!(raw.csv_columns.iter().cloned().collect::<std::collections::BTreeMap<_, _>>());
    }
    if let Some(c) = &raw.compression {
        v["compression"] = c.clone().into();
    }
    Ok(v)
}

/// The trace, its summary, the parse's wall seconds and the CPU seconds at its end, the
/// summary counted batch by batch on this thread while another parses (issue 37: the fit
/// and the counts were 45 % of `ftl trace`'s instructions, all after the parse), the file
/// read without the SHA-256 that `parse_trace` computes and `ftl trace` does not show.
/// `None`: the held path (`parse_trace`, `summary_with_raw`) gives the answer, as where
/// the summary cannot be streamed (`load::summary_stream`), or the fit or the scheme
/// refuses the trace (the held path shows the trace's own summary with the reason: the
/// file is read again then). `FTL_TRACE_HELD=1` takes the held path (to compare the two).
type Streamed = (ftl_sim::trace::parse::RawTrace, ftl_sim::trace::fit::TraceSummary, f64, f64);

fn streamed(
    args: &TraceArgs,
    scenario: &ftl_sim::scenario::Scenario,
    path: &std::path::Path,
    open: bool,
    t0: std::time::Instant,
) -> Result<Option<Streamed>, String> {
    use ftl_sim::trace::parse::{Batch, TraceParser};
    if std::env::var_os("FTL_TRACE_HELD").is_some_and(|v| v == "1") {
        return Ok(None);
    }
    let (opts, fit) = args.setup.trace_options(scenario, open)?;
    let Ok(mut stream) = load::summary_stream(scenario, fit) else { return Ok(None) };
    let parsed = std::thread::scope(|s| {
        // A few batches (a chunk of text each) in flight: bounded memory, as `ftl run`'s.
        let (to_count, batches) = std::sync::mpsc::sync_channel::<Batch>(2);
        let parse = s.spawn(move || {
            let mut parser = TraceParser::new(opts);
            crate::setup::read_trace_unhashed(path, |chunk| {
                let p = parser.feed(chunk);
                let batch = parser.take_batch();
                if !batch.is_empty() {
                    let _ = to_count.send(batch);
                }
                p
            })?;
            Ok::<_, String>(parser.finish())
        });
        for batch in batches {
            stream.push(&batch);
        }
        parse.join().expect("the parsing thread does not panic")
    })?;
    let mut raw = parsed.map_err(|e| format!("trace {}: {e}", path.display()))?;
    let parse_s = t0.elapsed().as_secs_f64();
    let c1 = cpu_seconds();
    Ok(stream.finish(&mut raw).ok().map(|s| (raw, s, parse_s, c1)))
}
