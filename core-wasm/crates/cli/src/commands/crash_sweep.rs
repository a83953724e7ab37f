//! `ftl crash-sweep`: power cuts at chosen flash-operation boundaries (or a chain of
//! cuts, `--chain N`), recovery from the chip alone, verification.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::Scenario;
use ftl_sim::trace::gen::Workload;

use crate::output::{fail, print_chain_report, print_json, print_sweep_report, EXIT_FAILED_CHECK};
use crate::setup::Setup;

#[derive(Args)]
pub(crate) struct CrashArgs {
    #[arg(long)]
    pub(crate) scheme: String,
    #[command(flatten)]
    pub(crate) setup: Setup,
    /// Cut at every operation boundary of the run.
    #[arg(long, conflicts_with_all = ["every", "random"])]
    pub(crate) all: bool,
    /// Cut at every N-th operation boundary.
    #[arg(long, conflicts_with = "random")]
    pub(crate) every: Option<u64>,
    /// Cut at N random operation boundaries.
    #[arg(long)]
    pub(crate) random: Option<u64>,
    /// Seed of the random cut points and of the cuts inside recovery.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Do not cut again inside each recovery.
    #[arg(long)]
    pub(crate) no_recut: bool,
    #[arg(long)]
    pub(crate) json: bool,
    /// One run that cuts power N times (between requests, mid-request, mid-merge,
    /// mid-checkpoint, inside a recovery, right after one), recovers, verifies and goes on
    /// from the recovered state. The workload: --gen or --pattern, run in order and from its
    /// start again after its last request; without them the chain's own (half uniform,
    /// half in a hot eighth, 20 % reads; seed --seed). docs/schemes/recovery.md.
    #[arg(long, conflicts_with_all = ["all", "every", "random"])]
    pub(crate) chain: Option<u64>,
    /// Chain: freeze / unfreeze / revert in the workload (time-shifting schemes: ltftl).
    #[arg(long, requires = "chain")]
    pub(crate) time_shift: bool,
    /// Chain: also cut programs with the MLC paired-page model (the lower page tears too).
    #[arg(long, requires = "chain")]
    pub(crate) paired_pages: bool,
    /// Chain: also cut programs so early that the page reads as erased.
    #[arg(long, requires = "chain")]
    pub(crate) reads_erased: bool,
    /// Chain: aim half the cuts right after each kind of metadata program (checkpoint, map
    /// page, map directory, intent log), inside GC destinations and at the last free block.
    #[arg(long, requires = "chain")]
    pub(crate) targeted: bool,
    /// Chain: requests of the cut-free run whose pools bound every recovered state's (default
    /// as many as the chain runs, at least 2,000; at most 10,000,000; 0: no pool check).
    #[arg(long, requires = "chain")]
    pub(crate) pool_baseline: Option<u64>,
    /// Chain: write every cut's verdict to this file, one JSON object a line.
    #[arg(long, requires = "chain")]
    pub(crate) verdicts: Option<std::path::PathBuf>,
}

pub(crate) fn execute(a: CrashArgs) -> ExitCode {
    if let Some(n) = a.chain {
        return crash_chain(&a, n);
    }
    match crash_sweep(&a) {
        Ok(r) => {
            if a.json {
                print_json(&r);
            } else {
                print_sweep_report(&r);
            }
            if r.recovered_correctly == r.points_tried {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_FAILED_CHECK)
            }
        }
        Err(e) => fail(e),
    }
}

fn crash_sweep(a: &CrashArgs) -> Result<ftl_sim::crash::SweepReport, String> {
    use ftl_sim::crash::sweep;
    // The same caps and messages as the app's crash_sweep (ftl_sim::limits).
    if !a.all && a.every.is_none() && a.random.is_none() {
        return Err("choose the cut points: --all, --every N or --random N [--seed X]".into());
    }
    let points = ftl_sim::limits::cut_points(a.all, a.every, a.random, a.seed).map_err(|e| format!("--{e}"))?;
    let scenario = a.setup.scenario(&a.scheme)?;
    let (sim, _) = a.setup.sim_for(&scenario, a.setup.trace.first().map(|p| p.as_path()))?;
    let recut = (!a.no_recut).then_some(a.seed);
    let mut last = std::time::Instant::now();
    let report = sweep(&sim.state, sim.requests(), &scenario.recoverer(), points, recut, |done, total| {
        if last.elapsed().as_millis() > 500 {
            eprint!("\r{done}/{total} cut points");
            last = std::time::Instant::now();
        }
    });
    eprint!("\r{:40}\r", "");
    Ok(report)
}

fn crash_chain(a: &CrashArgs, n: u64) -> ExitCode {
    use ftl_sim::crash::{chain, ChainOptions};
    let run = || -> Result<ftl_sim::crash::ChainReport, String> {
        let st = &a.setup;
        if !st.trace.is_empty() {
            return Err(
                "a chain runs a generated workload (--gen or --pattern) or its own (--seed): drop --trace".into()
            );
        }
        if st.precondition.is_some() {
            return Err("a chain starts from an empty chip: drop --precondition".into());
        }
        let given = st.gen.is_some() || st.pattern.is_some();
        let scenario = if given {
            st.scenario(&a.scheme)?
        } else {
            let point = st.point(&a.scheme)?;
            Scenario {
                scheme: a.scheme.clone(),
                params: point.params,
                chip: point.chip,
                workload: Workload::Pattern { text: String::new() },
                run: Default::default(),
            }
        };
        scenario.validate()?;
        let state = scenario.fresh()?;
        use ftl_sim::limits::{at_most, MAX_CHAIN_CUTS, MAX_POOL_BASELINE};
        at_most("--chain", n, MAX_CHAIN_CUTS)?;
        let mut o = ChainOptions::new(n, a.seed);
        if given {
            let reqs = scenario.requests(state.ftl.logical_pages(), state.ftl.time_shift())?;
            if reqs.is_empty() {
                return Err("the workload has no requests".into());
            }
            o.workload = Some(reqs.into());
        }
        o.time_shift = a.time_shift;
        o.paired_pages = a.paired_pages;
        o.reads_erased = a.reads_erased;
        o.targeted = a.targeted;
        if let Some(b) = a.pool_baseline {
            o.pool_baseline = at_most("--pool-baseline", b, MAX_POOL_BASELINE)?;
        }
        if a.time_shift && !state.ftl.time_shift() {
            return Err(format!("scheme '{}' has no time shift", a.scheme));
        }
        if a.no_recut {
            o.recut_chance = 0.0;
        }
        let mut out = match &a.verdicts {
            Some(p) => Some(std::io::BufWriter::new(
                std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
            )),
            None => None,
        };
        let mut last = std::time::Instant::now();
        let r = chain(&state, &scenario.recoverer(), &o, |v| {
            if let Some(w) = &mut out {
                use std::io::Write;
                let _ = writeln!(w, "{}", serde_json::to_string(v).expect("verdict serialises"));
            }
            if last.elapsed().as_millis() > 1000 {
                eprint!("\r{}/{n} cuts", v.cut);
                last = std::time::Instant::now();
            }
        });
        eprint!("\r{:40}\r", "");
        Ok(r)
    };
    match run() {
        Ok(r) => {
            if a.json {
                print_json(&r);
            } else {
                print_chain_report(&r);
            }
            let clean = r.recovered_correctly == r.cuts && r.wrong_reads == 0 && r.stopped.is_none();
            if clean {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(EXIT_FAILED_CHECK)
            }
        }
        Err(e) => fail(e),
    }
}
