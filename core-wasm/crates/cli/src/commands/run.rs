//! `ftl run`: one scheme on one workload, its metrics.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::metrics::Metrics;
use ftl_sim::sim::RunMode;
use ftl_sim::trace::load;

use crate::output::{fail, print_human, print_json, print_trace_summary, EXIT_FAILED_CHECK};
use crate::setup::Setup;

#[derive(Args)]
pub(crate) struct RunArgs {
    /// Scheme: see `ftl list`.
    #[arg(long)]
    pub(crate) scheme: String,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Print one JSON object with stable field names (docs/cli.md).
    #[arg(long)]
    pub(crate) json: bool,
    /// Write every request's response time to this CSV file
    /// (`request,op,lpn,total_us,gc_us`; gc_us = GC / merge work carried by the request).
    #[arg(long)]
    pub(crate) timeline: Option<std::path::PathBuf>,
}

pub(crate) fn execute(args: RunArgs) -> ExitCode {
    match run(&args) {
        Ok(m) => {
            if args.json {
                print_json(&m);
            } else {
                print_human(&m);
            }
            if m.wrong_reads > 0 {
                eprintln!("error: {} reads disagreed with the reference model", m.wrong_reads);
                return ExitCode::from(EXIT_FAILED_CHECK);
            }
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}

fn run(args: &RunArgs) -> Result<Metrics, String> {
    // One scheme: the parsed trace is not cached (its records are dropped once fitted).
    let scenario = args.setup.scenario(&args.scheme)?;
    let (mut sim, summary) = match &args.setup.trace {
        Some(path) => {
            let (raw, fit) = args.setup.parse_trace(&scenario, path)?;
            let (sim, summary) = load::build_with_raw(&scenario, &raw, fit)?;
            (sim, Some(summary))
        }
        None => (scenario.build()?, None),
    };
    if let Some(s) = &summary {
        print_trace_summary(s);
    }
    // Nothing seeks here: no keyframes, no run log, metrics by counters.
    sim.set_mode(RunMode::FullSpeed);
    sim.record_timeline(args.timeline.is_some());
    let total = sim.total();
    sim.run(total)?;
    if let Some(path) = &args.timeline {
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
    Ok(sim.state.metrics())
}
