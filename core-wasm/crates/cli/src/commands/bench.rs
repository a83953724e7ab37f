//! `ftl bench`: time full-speed runs of one scenario.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::Scenario;
use ftl_sim::sim::RunMode;

use crate::output::fail;

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Scenario JSON, or @FILE.
    #[arg(long)]
    pub(crate) scenario: String,
    /// Runs to take the median of.
    #[arg(long, default_value_t = 5)]
    pub(crate) runs: usize,
}

/// Peak resident memory of this process (Linux), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

fn bench(a: &BenchArgs) -> Result<serde_json::Value, String> {
    let scenario = match a.scenario.strip_prefix('@') {
        Some(path) => {
            let f = std::fs::File::open(path).map_err(|e| format!("cannot read {path}: {e}"))?;
            let v = ftl_sim::scenario::read_json_value(f, ftl_sim::limits::MAX_SCENARIO_BYTES, path)?;
            serde_json::from_value(v).map_err(|e| format!("invalid scenario {path}: {e}"))?
        }
        None => Scenario::from_json(&a.scenario)?,
    };
    ftl_sim::limits::at_most("--runs", a.runs as u64, ftl_sim::limits::MAX_BENCH_RUNS)?;
    let mut secs = Vec::new();
    let (mut requests, mut ops) = (0, 0);
    for _ in 0..a.runs.max(1) {
        let mut sim = scenario.build()?;
        sim.set_mode(RunMode::FullSpeed);
        let total = sim.total();
        let t0 = std::time::Instant::now();
        sim.run(total)?;
        secs.push(t0.elapsed().as_secs_f64());
        let m = sim.state.metrics();
        if m.wrong_reads > 0 {
            return Err(format!("{} wrong reads", m.wrong_reads));
        }
        requests = total as u64;
        ops = sim.state.flash.total_ops();
    }
    secs.sort_by(|a, b| a.total_cmp(b));
    let median = secs[secs.len() / 2];
    Ok(serde_json::json!({
        "scheme": scenario.scheme,
        "requests": requests,
        "flash_ops": ops,
        "runs_s": secs,
        "median_s": median,
        "requests_per_s": requests as f64 / median,
        "flash_ops_per_s": ops as f64 / median,
        "peak_rss_bytes": peak_rss(),
    }))
}

pub(crate) fn execute(args: BenchArgs) -> ExitCode {
    match bench(&args) {
        Ok(v) => {
            println!("{v}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(e),
    }
}
