//! `ftl run`: one scheme on one workload, its metrics and its whole setup. A sweep row is
//! the same computation (row.rs), and `--scenario FILE` runs an app scenario file, a
//! `ftl run --json` output or a `ftl sweep --json` row again.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::Scenario;

use super::row::{run_point, run_scenario, Row, RowOptions};
use crate::output::{fail, print_human, print_json, print_trace_summary, EXIT_FAILED_CHECK};
use crate::setup::Setup;
use crate::timing::{print_timing, TimingArgs};

#[derive(Args)]
pub(crate) struct RunArgs {
    /// Scheme: see `ftl list` (not with --scenario, which names it).
    #[arg(long, required_unless_present = "scenario")]
    pub(crate) scheme: Option<String>,
    /// Run a scenario given whole: an app scenario file (JSON), or one line of `ftl sweep
    /// --json` / the output of `ftl run --json` (its `scenario` and trace file are used).
    /// The chip, parameters, workload space and preconditioning come from the file; a
    /// trace comes from --trace, else from the row's `setup.trace.path`.
    #[arg(long, conflicts_with_all = ["scheme", "gen", "pattern"])]
    pub(crate) scenario: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Print one JSON object with stable field names (docs/cli.md).
    #[arg(long)]
    pub(crate) json: bool,
    /// Write every request's response time to this CSV file
    /// (`request,op,lpn,total_us,gc_us`; gc_us = GC / merge work carried by the request).
    #[arg(long)]
    pub(crate) timeline: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub(crate) timing: TimingArgs,
}

pub(crate) fn execute(args: RunArgs) -> ExitCode {
    let row = match run(&args) {
        Ok(r) => r,
        Err(e) => return fail(e),
    };
    if let Some(e) = &row.error {
        return fail(e);
    }
    if let Some(s) = &row.summary {
        print_trace_summary(s);
    }
    let m = row.metrics.as_ref().expect("a row without error has metrics");
    if args.json {
        print_json(&row.to_json(&args.setup));
    } else {
        print_human(m);
        print_setup(&row);
        print_timing(&m.timing);
    }
    if m.wrong_reads > 0 {
        eprintln!("error: {} reads disagreed with the reference model", m.wrong_reads);
        return ExitCode::from(EXIT_FAILED_CHECK);
    }
    ExitCode::SUCCESS
}

/// What the human output adds under the metrics: space, fit, request-list hash (give
/// them back with --space and --fit to reproduce the run).
fn print_setup(row: &Row) {
    let p = row.plan.as_ref();
    println!(
        "  logical space      {} pages exported, workload in {} pages",
        p.and_then(|p| p.logical_pages).unwrap_or(0),
        p.and_then(|p| p.workload_pages).unwrap_or(0)
    );
    println!("  request list       {} requests, hash {}", row.requests, row.request_hash.as_deref().unwrap_or("-"));
    if let Some(f) = &row.trace {
        println!("  trace              {} ({} bytes, sha256 {}), fit {}", f.name, f.bytes, f.sha256, fit_name(row));
    }
}

fn fit_name(row: &Row) -> String {
    serde_json::to_value(row.fit).ok().and_then(|v| v.as_str().map(String::from)).unwrap_or_default()
}

fn run(args: &RunArgs) -> Result<Row, String> {
    let opts = RowOptions {
        space: args.setup.space,
        timeline: args.timeline.is_some() || args.timing.request_timeline.is_some(),
        keep: true,
        timing: args.timing.option()?,
        ..Default::default()
    };
    let mut row = match &args.scenario {
        Some(file) => {
            let (sc, trace, hash) = read_scenario(file)?;
            let trace = args.setup.trace.first().cloned().or(trace);
            let mut sc = sc;
            if let Some(n) = args.setup.space {
                let ppb = sc.chip.chip()?.geometry.pages_per_block;
                sc.run.workload_space =
                    Some(ftl_sim::scenario::WorkloadSpace { logical_pages: n, pages_per_block: ppb });
            }
            let row = run_scenario(&args.setup, sc, trace.as_deref(), &opts);
            if let (Some(want), Some(got)) = (hash, &row.request_hash) {
                if args.setup.space.is_none() && &want != got {
                    eprintln!(
                        "warning: the request list differs from the recorded one (hash {got}, recorded {want}): give the same trace flags (--column, --write-op, --read-op) as the row"
                    );
                }
            }
            row
        }
        None => {
            let point = args.setup.point(args.scheme.as_deref().expect("clap requires --scheme"))?;
            run_point(&args.setup, &point, &opts)
        }
    };
    if let (Some(path), Some(sim)) = (&args.timeline, &row.sim) {
        use std::fmt::Write as _;
        let mut out = String::from("request,op,lpn,total_us,gc_us\n");
        for (i, (r, t)) in sim.requests().iter().zip(sim.timeline().unwrap_or(&[])).enumerate() {
            let (op, lpn) = match r {
                ftl_sim::trace::Request::Read { lpn } => ("r", lpn.to_string()),
                ftl_sim::trace::Request::Write { lpn } => ("w", lpn.to_string()),
                other => {
                    (if matches!(other, ftl_sim::trace::Request::Freeze) { "freeze" } else { "state" }, String::new())
                }
            };
            let _ = writeln!(out, "{},{op},{lpn},{},{}", i + 1, t.total_ns as f64 / 1000.0, t.gc_ns as f64 / 1000.0);
        }
        std::fs::write(path, out).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(sim) = &row.sim {
        args.timing.write_request_timeline(sim)?;
    }
    row.sim = None;
    Ok(row)
}

/// A scenario file: an app scenario, or a row (`{"scenario": ..., "setup": {"trace": {"path"}}}`).
type Recorded = (Scenario, Option<std::path::PathBuf>, Option<String>);

fn read_scenario(file: &std::path::Path) -> Result<Recorded, String> {
    let f = std::fs::File::open(file).map_err(|e| format!("cannot read scenario {}: {e}", file.display()))?;
    // Streamed, at most MAX_SCENARIO_BYTES; a file of sweep rows holds one per line: the
    // first value is taken.
    let name = file.display().to_string();
    let v = ftl_sim::scenario::read_json_value(f, ftl_sim::limits::MAX_SCENARIO_BYTES, &name)?;
    if let Some(sc) = v.get("scenario") {
        if sc.is_null() {
            return Err(format!("{}: the row did not run (its error: {})", file.display(), v["error"]));
        }
        let trace = v["setup"]["trace"]["path"].as_str().map(std::path::PathBuf::from);
        let hash = v["setup"]["request_hash"].as_str().map(String::from);
        let sc =
            serde_json::from_value(sc.clone()).map_err(|e| format!("invalid scenario in {}: {e}", file.display()))?;
        return Ok((sc, trace, hash));
    }
    let sc = serde_json::from_value(v).map_err(|e| format!("invalid scenario {}: {e}", file.display()))?;
    Ok((sc, None, None))
}
