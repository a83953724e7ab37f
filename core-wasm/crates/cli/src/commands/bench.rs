//! `ftl bench`: time full-speed runs of one scenario (or, with `--player`, its runs on the
//! player's path as the app's "Run to end" takes them).

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::Scenario;
use ftl_sim::sim::RunMode;
use ftl_sim::stepper::Stepper;

use crate::output::fail;

#[derive(Args)]
pub(crate) struct BenchArgs {
    /// Scenario JSON, or @FILE.
    #[arg(long)]
    pub(crate) scenario: String,
    /// Runs to take the median of.
    #[arg(long, default_value_t = 5)]
    pub(crate) runs: usize,
    /// The player's path instead, as the app's Session runs "Run to end" (keyframes within
    /// the Session's budget, the run log: `Stepper::run_ahead`): the native figure the wasm
    /// player path is compared with (issue 37 item 5).
    #[arg(long)]
    pub(crate) player: bool,
}

/// Peak resident memory of this process (Linux), in bytes.
fn peak_rss() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
}

/// CPU seconds this thread has run (CLOCK_THREAD_CPUTIME_ID): a run's CPU time, without the
/// time it waited for a core behind another process (the bench's wasm / native ratios by CPU,
/// scripts/bench-wasm-rounds.mjs). None where the clock is missing.
#[cfg(unix)]
fn thread_cpu_s() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the one timespec it is given.
    let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    (r == 0).then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}
#[cfg(not(unix))]
fn thread_cpu_s() -> Option<f64> {
    None
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
    let mut cpu = Vec::new();
    let (mut requests, mut ops, mut keyframes) = (0, 0, 0);
    for _ in 0..a.runs.max(1) {
        let mut sim = scenario.build()?;
        let total = sim.total();
        let sim = if a.player {
            // As the wasm crate's `Session::new` sets it up.
            sim.set_keyframe_budget(ftl_sim::limits::SESSION_KEYFRAME_BYTES);
            let mut stepper = Stepper::new(sim);
            stepper.set_recoverer(scenario.recoverer());
            let (t0, c0) = (std::time::Instant::now(), thread_cpu_s());
            stepper.run_ahead(total)?;
            secs.push(t0.elapsed().as_secs_f64());
            cpu.push(thread_cpu_s().zip(c0).map(|(c1, c0)| c1 - c0));
            stepper.sim
        } else {
            sim.set_mode(RunMode::FullSpeed);
            let (t0, c0) = (std::time::Instant::now(), thread_cpu_s());
            sim.run(total)?;
            secs.push(t0.elapsed().as_secs_f64());
            cpu.push(thread_cpu_s().zip(c0).map(|(c1, c0)| c1 - c0));
            sim
        };
        let m = sim.state.metrics();
        if m.wrong_reads > 0 {
            return Err(format!("{} wrong reads", m.wrong_reads));
        }
        requests = total as u64;
        ops = sim.state.flash.total_ops();
        keyframes = sim.keyframe_steps().len();
    }
    // The CPU of the run whose wall clock is the median.
    let mid = {
        let mut order: Vec<usize> = (0..secs.len()).collect();
        order.sort_by(|&i, &j| secs[i].total_cmp(&secs[j]));
        order[order.len() / 2]
    };
    let (median, cpu_s) = (secs[mid], cpu[mid]);
    secs.sort_by(|a, b| a.total_cmp(b));
    Ok(serde_json::json!({
        "scheme": scenario.scheme,
        "requests": requests,
        "flash_ops": ops,
        "path": if a.player { "player" } else { "full_speed" },
        // Keyframes the run kept (the player's path takes them within the Session's budget).
        "keyframes": keyframes,
        "runs_s": secs,
        "median_s": median,
        // The thread's CPU seconds in the median run (null where not measured).
        "cpu_s": cpu_s,
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
