//! The full-speed loop timed by the CPU it got (issue 37): `ftl bench`'s run, with the
//! thread's on-CPU nanoseconds beside the wall clock. On a shared machine a run that
//! waits behind another process shows it in wall time, not in CPU time, so two builds
//! compared by CPU time tell the code apart at a load where wall times cannot
//! (docs/performance.md, "Issue 37 (session 11, p-loop)"). Linux only (/proc).
//!
//!   cargo bench -p ftlscope-sim --bench loop_cpu -- SCENARIO_JSON [RUNS]
//!
//! Prints one JSON line per run: requests, flash ops, wall_s, cpu_s, waited_s (time the
//! thread was runnable but not running), M req/s by wall and by CPU.

use ftl_sim::scenario::Scenario;
use ftl_sim::sim::RunMode;

/// (on-CPU ns, runnable-but-waiting ns) of this thread so far (/proc/thread-self/schedstat).
fn schedstat() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").expect("/proc/thread-self/schedstat (Linux)");
    let mut f = s.split_whitespace().map(|x| x.parse::<u64>().expect("schedstat field"));
    (f.next().unwrap_or(0), f.next().unwrap_or(0))
}

fn main() {
    // `cargo bench` passes `--bench` after the user's arguments; skip flags.
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let Some(json) = args.first() else {
        eprintln!("usage: cargo bench -p ftlscope-sim --bench loop_cpu -- SCENARIO_JSON [RUNS]");
        std::process::exit(2);
    };
    let runs: usize = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
    let scenario = Scenario::from_json(json).unwrap_or_else(|e| panic!("scenario: {e}"));
    for _ in 0..runs {
        let mut sim = scenario.build().unwrap_or_else(|e| panic!("build: {e}"));
        sim.set_mode(RunMode::FullSpeed);
        let total = sim.total();
        let (c0, w0) = schedstat();
        let t0 = std::time::Instant::now();
        sim.run(total).unwrap_or_else(|e| panic!("run: {e}"));
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
