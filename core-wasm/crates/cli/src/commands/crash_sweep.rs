//! `ftl crash-sweep`: power cuts at chosen flash-operation boundaries (or a chain of
//! cuts, `--chain N`), recovery from the chip alone, verification.

use std::process::ExitCode;

use clap::Args;
use ftl_sim::scenario::Scenario;
use ftl_sim::sim::State;
use ftl_sim::ssd::Shape;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::Request;

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
    /// The device: channels, dies per channel, stripe, bus rate (docs/ssd.md, "Power cuts").
    #[command(flatten)]
    pub(crate) ssd: crate::device::DeviceArgs,
}

pub(crate) fn execute(a: CrashArgs) -> ExitCode {
    let shape = match a.ssd.shape(&a.scheme) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(n) = a.chain {
        return crash_chain(&a, n, shape);
    }
    let run = match shape {
        Some(shape) => device_sweep(&a, shape),
        None => crash_sweep(&a),
    };
    match run {
        Ok(r) => {
            if a.json {
                print_report(&r, shape);
            } else {
                print_device_line(shape);
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

/// The cut points asked for (`--all`, `--every N`, `--random N`), with the same caps and
/// messages as the app's crash_sweep (ftl_sim::limits).
fn cut_points(a: &CrashArgs) -> Result<ftl_sim::crash::Points, String> {
    if !a.all && a.every.is_none() && a.random.is_none() {
        return Err("choose the cut points: --all, --every N or --random N [--seed X]".into());
    }
    ftl_sim::limits::cut_points(a.all, a.every, a.random, a.seed).map_err(|e| format!("--{e}"))
}

/// A sweep's progress line on stderr, at most twice a second.
fn sweep_progress() -> impl FnMut(u64, u64) {
    let mut last = std::time::Instant::now();
    move |done, total| {
        if last.elapsed().as_millis() > 500 {
            eprint!("\r{done}/{total} cut points");
            last = std::time::Instant::now();
        }
    }
}

fn crash_sweep(a: &CrashArgs) -> Result<ftl_sim::crash::SweepReport, String> {
    use ftl_sim::crash::sweep;
    let points = cut_points(a)?;
    let scenario = a.setup.scenario(&a.scheme)?;
    let (sim, _) = a.setup.sim_for(&scenario, a.setup.trace.first().map(|p| p.as_path()))?;
    let recut = (!a.no_recut).then_some(a.seed);
    let report = sweep(&sim.state, sim.requests(), &scenario.recoverer(), points, recut, sweep_progress());
    eprint!("\r{:40}\r", "");
    Ok(report)
}

/// A report's JSON, with the device's shape (`device`) on several dies; one die: the
/// report's bytes as ever (a JSON value would sort its keys).
fn print_report(r: &impl serde::Serialize, shape: Option<Shape>) {
    let Some(s) = shape else { return print_json(r) };
    let mut v = serde_json::to_value(r).expect("the report serialises");
    v["device"] = serde_json::json!(s);
    print_json(&v);
}

fn print_device_line(shape: Option<Shape>) {
    if let Some(s) = shape {
        println!(
            "device: {} channels x {} dies = {} dies, stripe {}; every cut stops every die, each recovers from its own chip",
            s.channels,
            s.dies_per_channel,
            s.dies(),
            s.stripe.name()
        );
    }
}

/// A device's fresh dies and its request list (device LPNs), planned as `ftl run` with
/// the device flags plans it (over the device's logical space, `scenario::device`).
fn device_workload(a: &CrashArgs, shape: Shape) -> Result<(Vec<State>, Vec<Request>, Scenario), String> {
    use ftl_sim::scenario::device::{apply, build, plan_device};
    let st = &a.setup;
    let sc = st.scenario(&a.scheme)?;
    let (fit, raw) = match st.trace.first() {
        Some(path) => {
            let (_, fit) = ftl_sim::scenario::load::options_for(&sc)?;
            let (raw, _) = st.parsed_trace(&sc, path, false)?;
            (fit, Some(raw))
        }
        None => (ftl_sim::trace::fit::Fit::None, None),
    };
    let need = raw.as_ref().and_then(|r| r.max_page()).map(|m| m + 1);
    let plan = plan_device(&sc, &shape, fit, need, st.space);
    if let Some(e) = &plan.error {
        return Err(e.clone());
    }
    let planned = apply(&plan, &sc, shape)?;
    let (sim, _) = build(&planned, raw.as_deref(), fit)?;
    let dies = (0..shape.dies()).map(|_| sim.fresh()()).collect();
    Ok((dies, sim.requests().to_vec(), planned))
}

fn device_sweep(a: &CrashArgs, shape: Shape) -> Result<ftl_sim::crash::SweepReport, String> {
    let points = cut_points(a)?;
    let (dies, reqs, sc) = device_workload(a, shape)?;
    let unit = shape.unit(dies[0].flash.geometry().pages_per_block);
    let at = ftl_sim::ssd::crash::Dies { shape: &shape, unit };
    let recut = (!a.no_recut).then_some(a.seed);
    let r = ftl_sim::ssd::crash::sweep(&dies, &at, &reqs, &sc.recoverer(), points, recut, sweep_progress());
    eprint!("\r{:40}\r", "");
    r
}

/// A chain's scenario, validated: the workload given (`--gen`, `--pattern`; true), or the
/// point's chip and parameters with no workload of their own (false: the chain's own).
fn chain_scenario(a: &CrashArgs) -> Result<(Scenario, bool), String> {
    let st = &a.setup;
    let given = st.gen.is_some() || st.pattern.is_some();
    let sc = if given {
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
    sc.validate()?;
    Ok((sc, given))
}

/// What a chain does with each cut's verdict: a JSON line in `--verdicts FILE`, and the
/// progress line on stderr at most once a second.
fn on_cut(a: &CrashArgs, n: u64) -> Result<impl FnMut(&ftl_sim::crash::CutVerdict), String> {
    let mut out = match &a.verdicts {
        Some(p) => Some(std::io::BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot write {}: {e}", p.display()))?,
        )),
        None => None,
    };
    let mut last = std::time::Instant::now();
    Ok(move |v: &ftl_sim::crash::CutVerdict| {
        if let Some(w) = &mut out {
            use std::io::Write;
            let _ = writeln!(w, "{}", serde_json::to_string(v).expect("verdict serialises"));
        }
        if last.elapsed().as_millis() > 1000 {
            eprint!("\r{}/{n} cuts", v.cut);
            last = std::time::Instant::now();
        }
    })
}

/// `--chain N` on a device of several dies (ssd::crash::chain).
fn device_chain(a: &CrashArgs, n: u64, shape: Shape) -> Result<ftl_sim::crash::ChainReport, String> {
    use ftl_sim::crash::ChainOptions;
    use ftl_sim::limits::{at_most, MAX_POOL_BASELINE};
    use ftl_sim::ssd::crash::{chain, Dies};
    if a.time_shift {
        return Err("--time-shift is not available with a chain on a device of several dies (docs/ssd.md)".into());
    }
    at_most("--chain", n, ftl_sim::limits::MAX_CHAIN_CUTS)?;
    let (sc, given) = chain_scenario(a)?;
    let first = sc.fresh()?;
    let unit = shape.unit(first.flash.geometry().pages_per_block);
    let space = ftl_sim::ssd::device_pages(first.ftl.logical_pages(), shape.dies(), unit);
    let mut o = ChainOptions::new(n, a.seed);
    if given {
        let reqs =
            sc.workload.requests(u32::try_from(space).map_err(|_| "the device's space exceeds 32-bit pages")?)?;
        if reqs.is_empty() {
            return Err("the workload has no requests".into());
        }
        o.workload = Some(reqs.into());
    }
    if let Some(b) = a.pool_baseline {
        o.pool_baseline = at_most("--pool-baseline", b, MAX_POOL_BASELINE)?;
    }
    if a.no_recut {
        o.recut_chance = 0.0;
    }
    (o.paired_pages, o.reads_erased, o.targeted) = (a.paired_pages, a.reads_erased, a.targeted);
    let fresh = sc.factory(&first);
    let dies: Vec<State> = (0..shape.dies()).map(|_| fresh()).collect();
    let r = chain(&dies, &Dies { shape: &shape, unit }, space, &sc.recoverer(), &o, on_cut(a, n)?);
    eprint!("\r{:40}\r", "");
    Ok(r)
}

fn crash_chain(a: &CrashArgs, n: u64, shape: Option<Shape>) -> ExitCode {
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
        if let Some(shape) = shape {
            return device_chain(a, n, shape);
        }
        let (scenario, given) = chain_scenario(a)?;
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
        let r = chain(&state, &scenario.recoverer(), &o, on_cut(a, n)?);
        eprint!("\r{:40}\r", "");
        Ok(r)
    };
    match run() {
        Ok(r) => {
            if a.json {
                print_report(&r, shape);
            } else {
                print_device_line(shape);
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
