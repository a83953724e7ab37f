//! The full-speed loop timed by the CPU it got (issue 37): `ftl bench`'s run, with the
//! thread's on-CPU nanoseconds beside the wall clock. On a shared machine a run that
//! waits behind another process shows it in wall time, not in CPU time, so two builds
//! compared by CPU time tell the code apart at a load where wall times cannot
//! (docs/performance.md, "Issue 37 (session 11, p-loop)"). Linux only (/proc).
//!
//!   cargo bench -p ftlscope-sim --bench loop_cpu -- SCENARIO_JSON [RUNS] [player]
//!
//! `player`: the player's path as the app's "Run to end" takes it instead (a Session:
//! `Stepper` with the Session's keyframe budget, `run_ahead` of the whole workload): the
//! native figure the wasm player row is a ratio of (issue 37 item 5).
//!
//! Prints one JSON line per run: requests, flash ops, wall_s, cpu_s, waited_s (time the
//! thread was runnable but not running), M req/s by wall and by CPU.

use ftl_sim::scenario::Scenario;
use ftl_sim::sim::RunMode;
use ftl_sim::stepper::Stepper;

/// (on-CPU ns, runnable-but-waiting ns) of this thread so far (/proc/thread-self/schedstat).
fn schedstat() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("/proc/thread-self/schedstat (Linux)");
    let mut f = s.split_whitespace().map(|x| x.parse::<u64>().expect("schedstat field"));
    (f.next().unwrap_or(0), f.next().unwrap_or(0))
}

fn main() {
    // `cargo bench` passes `--bench` after the user's arguments; skip flags.
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let player = args.last().is_some_and(|a| a == "player");
    if player {
        args.pop();
    }
    let Some(json) = args.first() else {
        eprintln!("usage: cargo bench -p ftlscope-sim --bench loop_cpu -- SCENARIO_JSON [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("scenario: {e}"));
    for _ in 0..runs {
        let mut sim = scenario.build().unwrap_or_else(|e| panic!("build: {e}"));
        let total = sim.total();
        let (c0, w0, t0, sim) = if player {
            // As `Session::new` (crates/wasm) sets it up, and "Run to end" runs it.
            sim.set_keyframe_budget(ftl_sim::limits::SESSION_KEYFRAME_BYTES);
            let mut stepper = Stepper::new(sim);
            stepper.set_recoverer(scenario.recoverer());
            let (c0, w0) = schedstat();
            let t0 = std::time::Instant::now();
            stepper.run_ahead(total).unwrap_or_else(|e| panic!("run: {e}"));
            (c0, w0, t0, stepper.sim)
        } else {
            sim.set_mode(RunMode::FullSpeed);
            let (c0, w0) = schedstat();
            let t0 = std::time::Instant::now();
            sim.run(total).unwrap_or_else(|e| panic!("run: {e}"));
            (c0, w0, t0, sim)
        };
        let wall = t0.elapsed().as_secs_f64();
        let (c1, w1) = schedstat();
        let cpu = (c1 - c0) as f64 / 1e9;
        assert_eq!(sim.state.metrics().wrong_reads, 0, "wrong reads");
        println!(
            "{{\"requests\":{total},\"flash_ops\":{},\"wall_s\":{wall:.6},\"cpu_s\":{cpu:.6},\"waited_s\":{:.6},\"m_req_s_wall\":{:.3},\"m_req_s_cpu\":{:.3}}}",
            sim.state.flash.total_ops(),
            (w1 - w0) as f64 / 1e9,
            total as f64 / wall / 1e6,
            total as f64 / cpu / 1e6,
        );
    }
}
