//! One configuration run to the end: what `ftl run` prints and what each `ftl sweep` row
//! is. Both go through `run_point`, so a sweep row and the same configuration run alone
//! are the same computation (issue 27): the chip and workload space come from the
//! configuration and the workload alone (`scenario::plan::plan_one`), never from the other
//! rows. The JSON of a row carries its whole setup (docs/cli.md, "What a result records").

use ftl_sim::metrics::Metrics;
use ftl_sim::scenario::device::plan_device;
use ftl_sim::scenario::load;
use ftl_sim::scenario::plan::{plan_one, PlanRun};
use ftl_sim::scenario::Scenario;
use ftl_sim::sim::{RunMode, Simulator};
use ftl_sim::trace::fit::{Fit, TraceSummary};
use serde_json::{json, Value};

use crate::setup::{Point, Setup, TraceFile};

/// How a configuration is run.
#[derive(Clone, Copy, Default)]
pub(crate) struct RowOptions {
    /// The workload space given (`--space`); None: the scheme's own.
    pub(crate) space: Option<u32>,
    /// Cut power and recover at `recovery_samples` points (FastCheck Figures 7, 8).
    pub(crate) recovery: bool,
    pub(crate) recovery_samples: usize,
    /// Record every request's response time (`ftl run --timeline`).
    pub(crate) timeline: bool,
    /// Keep the simulator in the row (for the timeline).
    pub(crate) keep: bool,
    /// The timing model (docs/timing.md); None: closed.
    pub(crate) timing: Option<ftl_sim::timing::TimingConfig>,
    /// The one configuration of the process (`ftl run`): the parsed trace is not cached
    /// for other rows but handed to the build, which frees it once fitted.
    pub(crate) own_trace: bool,
    /// A device of several dies (ssd.rs); None or one die: the one chip of today.
    pub(crate) device: Option<ftl_sim::ssd::Shape>,
}

/// Metadata writes of the run and the cost of one recovery at its end.
pub(crate) struct RecoveryCost {
    pub(crate) map_pages: u64,
    pub(crate) log_pages: u64,
    /// Every page and spare-area read of the recovery.
    pub(crate) pages_read: u64,
    /// Those restoring the log-page-mapping table (FastCheck equations 5-6: checkpoints or
    /// dump + log records, and the restoration scan); the whole scan for scan-based schemes.
    pub(crate) mapping_pages_read: u64,
    /// A device: the most pages one die read (the dies recover in parallel); None on one chip.
    pub(crate) slowest_die_pages_read: Option<u64>,
}

/// Nearest-rank percentiles of the exact latency histograms, in µs.
#[derive(Clone, Copy, Default, serde::Serialize)]
pub(crate) struct Tail {
    pub(crate) p99: f64,
    pub(crate) p99_9: f64,
}

/// One configuration and its outcome.
pub(crate) struct Row {
    pub(crate) point: Point,
    /// The scenario as run (chip and workload space applied): `ftl run --scenario` takes it.
    pub(crate) scenario: Option<Scenario>,
    pub(crate) plan: Option<PlanRun>,
    pub(crate) fit: Fit,
    pub(crate) trace: Option<TraceFile>,
    pub(crate) summary: Option<TraceSummary>,
    pub(crate) requests: u64,
    pub(crate) request_hash: Option<String>,
    pub(crate) metrics: Option<Metrics>,
    pub(crate) read_tail: Tail,
    pub(crate) write_tail: Tail,
    pub(crate) rec: Option<RecoveryCost>,
    pub(crate) error: Option<String>,
    pub(crate) sim: Option<Simulator>,
    /// The workload space given to the run (`--space`, or a sweep's common space).
    pub(crate) space_given: Option<u32>,
    /// A run on several dies: the device's summary instead of one chip's metrics.
    pub(crate) device: Option<ftl_sim::ssd::DeviceSummary>,
    /// The device run itself, kept with `keep` (its timelines; `sim` then holds its
    /// request list).
    pub(crate) dev: Option<ftl_sim::ssd::Device>,
}

impl Row {
    fn new(point: &Point) -> Row {
        Row {
            point: point.clone(),
            scenario: None,
            plan: None,
            fit: Fit::None,
            trace: None,
            summary: None,
            requests: 0,
            request_hash: None,
            metrics: None,
            read_tail: Tail::default(),
            write_tail: Tail::default(),
            rec: None,
            error: None,
            sim: None,
            space_given: None,
            device: None,
            dev: None,
        }
    }
}

/// Runs one configuration; a configuration that cannot run keeps its error (named by the
/// caller), never another workload.
pub(crate) fn run_point(setup: &Setup, point: &Point, o: &RowOptions) -> Row {
    let mut row = Row::new(point);
    row.space_given = o.space;
    if let Err(e) = fill(setup, point, o, &mut row) {
        row.error = Some(e);
    }
    row
}

/// Runs a scenario given whole (`ftl run --scenario FILE`): its chip and workload space as
/// recorded, a trace from `trace`.
/// `check` sees the trace file before anything runs (`ftl run --scenario` refuses another
/// trace than the row's).
pub(crate) fn run_scenario(
    setup: &Setup,
    sc: Scenario,
    trace: Option<&std::path::Path>,
    o: &RowOptions,
    check: &dyn Fn(&TraceFile) -> Result<(), String>,
) -> Row {
    let point = Point {
        scheme: sc.scheme.clone(),
        chip: sc.chip.clone(),
        params: sc.params.clone(),
        trace: trace.map(|p| p.to_path_buf()),
        timing: sc.run.timing,
        space: None,
    };
    let mut row = Row::new(&point);
    row.space_given = o.space;
    let go = || -> Result<(), String> {
        sc.validate()?;
        let (fit, raw) = parse(setup, &sc, trace, o, &mut row)?;
        if let Some(f) = &row.trace {
            check(f)?;
        }
        let ws = sc.run.workload_space.map(|w| w.logical_pages);
        let need = raw.as_ref().and_then(|r| r.max_page()).map(|m| m + 1);
        // The recorded chip (scaled, if it was), space and device are planned again: the
        // same plan.
        let device = sc.run.device.filter(|d| d.dies() > 1);
        let plan = match &device {
            Some(shape) => plan_device(&sc, shape, fit, need, ws),
            None => plan_one(&sc, fit, need, ws),
        };
        finish(sc, raw, fit, plan, device, o, &mut row)
    };
    if let Err(e) = go() {
        row.error = Some(e);
    }
    row
}

type Raw = Option<std::rc::Rc<ftl_sim::trace::parse::RawTrace>>;

fn parse(
    setup: &Setup,
    sc: &Scenario,
    trace: Option<&std::path::Path>,
    o: &RowOptions,
    row: &mut Row,
) -> Result<(Fit, Raw), String> {
    match trace {
        Some(path) => {
            let (_, fit) = load::options_for(sc)?;
            // The row's model (`finish` puts `o.timing` in the scenario): a closed run never
            // reads the timestamps; a preconditioned one is built keeping its arrivals.
            let open = o.timing.or(sc.run.timing).is_some_and(|t| t.model == ftl_sim::timing::Model::Open);
            let (raw, file) = setup.parsed_trace(sc, path, open || sc.run.precondition.is_some())?;
            if o.own_trace {
                // The only reference left is this row's (`finish` takes it).
                setup.parsed.borrow_mut().take();
            }
            row.trace = Some(file);
            Ok((fit, Some(raw)))
        }
        None if matches!(sc.workload, ftl_sim::trace::gen::Workload::Trace { .. }) => {
            Err("the scenario's workload is a trace: give the file with --trace FILE".into())
        }
        None => Ok((Fit::None, None)),
    }
}

fn fill(setup: &Setup, point: &Point, o: &RowOptions, row: &mut Row) -> Result<(), String> {
    let sc = setup.scenario_for(point)?;
    if let Some(path) = point.trace.as_deref().filter(|_| streams(&sc, o)) {
        return fill_streamed(setup, sc, path, o, row);
    }
    let (fit, raw) = parse(setup, &sc, point.trace.as_deref(), o, row)?;
    let need = raw.as_ref().and_then(|r| r.max_page()).map(|m| m + 1);
    let device = o.device.filter(|d| d.dies() > 1);
    let plan = match &device {
        Some(shape) => plan_device(&sc, shape, fit, need, o.space),
        None => plan_one(&sc, fit, need, o.space),
    };
    finish(sc, raw, fit, plan, device, o, row)
}

fn finish(
    sc: Scenario,
    raw: Raw,
    fit: Fit,
    plan: PlanRun,
    device: Option<ftl_sim::ssd::Shape>,
    o: &RowOptions,
    row: &mut Row,
) -> Result<(), String> {
    row.fit = fit;
    row.plan = Some(plan.clone());
    let mut planned = match device {
        Some(shape) => ftl_sim::scenario::device::apply(&plan, &sc, shape)?,
        None => plan.apply(&sc)?,
    };
    if o.timing.is_some() {
        // In the scenario, so the row records it and `ftl run --scenario` replays it.
        planned.run.timing = o.timing;
    }
    row.scenario = Some(planned.clone());
    if let Some(shape) = device {
        // Each die built as the one chip would be (same chip, scheme, preconditioning);
        // the workload over the device's logical space (scenario::device).
        let (sim, summary) = ftl_sim::scenario::device::build(&planned, raw.as_deref(), fit)?;
        drop(raw);
        row.summary = summary;
        row.requests = sim.total() as u64;
        row.request_hash = Some(ftl_sim::trace::request_hash(sim.requests()));
        let mut dev = ftl_sim::ssd::Device::new(shape, &planned.scheme, &**sim.fresh())?;
        dev.record_pages(o.timeline);
        // As one chip: --recovery recovers every die at K points spread over the run.
        let (total, k) = (sim.total(), if o.recovery { o.recovery_samples.max(1) } else { 1 });
        let mut samples = Vec::new();
        for i in 1..=k {
            dev.run_to(sim.requests(), sim.schedule(), sim.arrivals(), total * i / k)?;
            if o.recovery {
                samples.push(device_recovery_cost(&planned, &dev)?);
            }
        }
        row.rec = mean_cost(&samples);
        row.device = Some(dev.summary());
        if o.keep {
            row.dev = Some(dev);
            row.sim = Some(sim);
        }
        return Ok(());
    }
    let mut sim = match raw {
        Some(raw) => {
            let (sim, summary) = match std::rc::Rc::try_unwrap(raw) {
                Ok(owned) => load::build_with_raw_owned(&planned, owned, fit)?,
                Err(shared) => load::build_with_raw(&planned, &shared, fit)?,
            };
            row.summary = Some(summary);
            sim
        }
        None => planned.build()?,
    };
    row.requests = sim.total() as u64;
    // From the store: a fitted trace's requests stay packed (no 8-byte copy).
    row.request_hash = Some(sim.request_hash());
    // Nothing seeks here: no keyframes, no run log, metrics by counters.
    sim.set_mode(RunMode::FullSpeed);
    sim.record_timeline(o.timeline);
    let total = sim.total();
    let k = if o.recovery { o.recovery_samples.max(1) } else { 1 };
    let mut samples = Vec::new();
    for i in 1..=k {
        let upto = total * i / k;
        sim.run(upto - sim.pos())?;
        if o.recovery {
            samples.push(recovery_cost(&planned, &sim.state)?);
        }
    }
    conclude(sim, samples, o, row);
    Ok(())
}

/// The row's metrics and tails from the run `sim`, and its recovery `samples`.
fn conclude(sim: Simulator, samples: Vec<RecoveryCost>, o: &RowOptions, row: &mut Row) {
    row.rec = mean_cost(&samples);
    let tail = |h: &ftl_sim::metrics::LatencyHist| {
        let us = |p: f64| h.percentile(p).map(|ns| ns as f64 / 1000.0).unwrap_or(0.0);
        Tail { p99: us(99.0), p99_9: us(99.9) }
    };
    row.read_tail = tail(&sim.state.host.read_latency);
    row.write_tail = tail(&sim.state.host.write_latency);
    row.metrics = Some(sim.state.metrics());
    if o.keep {
        row.sim = Some(sim);
    }
}

/// Whether the one run of the process (`ftl run`) streams its trace into the run
/// (`fill_streamed`): a closed-model run on one chip, fitted by none or fold, not
/// preconditioned, without the per-request timeline (which names each request) or
/// recovery points spread over the run (which need its length). `FTL_TRACE_HELD=1` holds
/// the trace as before (to compare the two).
fn streams(sc: &Scenario, o: &RowOptions) -> bool {
    let open = o.timing.or(sc.run.timing).is_some_and(|t| t.model == ftl_sim::timing::Model::Open);
    let fit = match &sc.workload {
        ftl_sim::trace::gen::Workload::Trace { fit, .. } => *fit,
        _ => return false,
    };
    o.own_trace
        && !open
        && !o.timeline
        && o.device.is_none_or(|d| d.dies() <= 1)
        && (!o.recovery || o.recovery_samples <= 1)
        && sc.run.precondition.is_none()
        && matches!(fit, Fit::None | Fit::Fold)
        && std::env::var_os("FTL_TRACE_HELD").is_none_or(|v| v != "1")
}

/// `fill` with the trace parsed on a second thread while this one fits and runs each
/// batch (issue 37: the whole process in bounded memory, the parse overlapped with the
/// run). Same row as `fill`'s: the errors come in the same order (the parse's, the
/// plan's, the fit's, the scheme's refusal of freeze, the run's), the summary after the
/// run.
fn fill_streamed(
    setup: &Setup,
    sc: Scenario,
    path: &std::path::Path,
    o: &RowOptions,
    row: &mut Row,
) -> Result<(), String> {
    use ftl_sim::trace::fit::StreamCounts;
    use ftl_sim::trace::parse::{Batch, RawTrace, TraceParser};
    let (opts, fit) = setup.trace_options(&sc, false)?;
    // The highest page, counted here only when the run could not be built (its plan's
    // error then needs it).
    let mut need = None;
    let (parsed, file, counts, run, first_plan) = std::thread::scope(|s| {
        // A few batches (a 256 KB chunk of text each, `setup::READ_CHUNK`) in flight at most:
        // bounded memory.
        let (to_run, batches) = std::sync::mpsc::sync_channel::<Batch>(2);
        // The run's counter, once its chip is built (None: the run could not be built).
        let (give_counter, counter) = std::sync::mpsc::sync_channel::<Option<StreamCounts>>(1);
        // The parse (and the file's hash) starts first, while this thread plans the run and
        // builds its chip (issue 37: `plan_one`'s scheme and `Flash::new`'s page faults were
        // ~10 ms of CPU before the first read).
        let parse = s.spawn(move || {
            let mut parser = TraceParser::new(opts);
            let mut early = Early::new(counter);
            let file = crate::setup::read_trace(path, |chunk| {
                let p = parser.feed(chunk);
                early.pass(parser.take_batch(), &to_run);
                p
            });
            let counts = early.finish(&to_run);
            (parser.finish(), file, counts)
        });
        // The plan without the trace's highest page: fold does not read it, and none's check
        // of it comes at the end (`plan_one` again, with it).
        let plan = plan_one(&sc, fit, None, o.space);
        let mut planned = plan.apply(&sc);
        if let (Ok(p), Some(t)) = (&mut planned, o.timing) {
            p.run.timing = Some(t);
        }
        let mut run = planned.as_ref().map_err(Clone::clone).and_then(|p| load::stream_run(p, fit));
        // The summary's counts are taken on the parse thread (issue 37: they were ~7 % of the
        // process's CPU on the run thread, which is the critical path; the parse thread waits
        // for it).
        let _ = give_counter.send(run.as_ref().ok().map(|r| r.counter()));
        for batch in batches {
            match &mut run {
                Ok(r) => r.push_counted(batch),
                Err(_) => need = need.max(batch.max_page().map(|m| m + 1)),
            }
        }
        let (parsed, file, counts) = parse.join().expect("the parsing thread does not panic");
        (parsed, file, counts, run, plan)
    });
    let file = file?;
    let mut raw: RawTrace = parsed.map_err(|e| format!("trace {}: {e}", path.display()))?;
    row.trace = Some(file);
    row.fit = fit;
    let streamed = match run {
        Ok(r) => Ok(r.finish_counted(raw, counts.expect("a built run's batches are counted"))),
        Err(e) => {
            need = need.max(raw.take_batch().max_page().map(|m| m + 1));
            Err(e)
        }
    };
    let need = streamed.as_ref().map_or(need, |s| s.need);
    // Fold's plan does not read the trace's highest page: the first plan stands (issue 37:
    // planning again built the scheme once more, after the run, on no other thread's time).
    let plan = if fit == Fit::Fold { first_plan } else { plan_one(&sc, fit, need, o.space) };
    row.plan = Some(plan.clone());
    let mut planned = plan.apply(&sc)?;
    if o.timing.is_some() {
        planned.run.timing = o.timing;
    }
    row.scenario = Some(planned.clone());
    let streamed = streamed?;
    let summary = streamed.summary?;
    if streamed.refused_time_shift {
        return Err(load::time_shift_refused(&planned));
    }
    row.summary = Some(load::streamed_summary(summary));
    if let Some(e) = streamed.run_error {
        return Err(e);
    }
    let sim = streamed.sim;
    row.requests = sim.total() as u64;
    row.request_hash = Some(streamed.request_hash);
    let samples = if o.recovery { vec![recovery_cost(&planned, &sim.state)?] } else { Vec::new() };
    conclude(sim, samples, o, row);
    Ok(())
}

/// Batches parsed before the run's chip is built that the parse thread holds at most
/// (`Early`): about 2 MB of batches, several milliseconds of parsing.
const EARLY_MAX: usize = 24;

/// The parse thread's side of `fill_streamed`: each batch is counted in the run's
/// `StreamCounts` and handed to the run, in order. Until the run is built (its counter
/// comes) the batches are held here, `EARLY_MAX` at most (then it waits), so that the
/// parse overlaps the chip's build instead of waiting for it.
struct Early {
    counter: std::sync::mpsc::Receiver<Option<ftl_sim::trace::fit::StreamCounts>>,
    /// The run's counter once it came (Some(None): the run could not be built).
    counts: Option<Option<ftl_sim::trace::fit::StreamCounts>>,
    held: Vec<ftl_sim::trace::parse::Batch>,
}

impl Early {
    fn new(counter: std::sync::mpsc::Receiver<Option<ftl_sim::trace::fit::StreamCounts>>) -> Early {
        Early { counter, counts: None, held: Vec::new() }
    }

    /// The next batch: counted and sent, or held while the run is being built.
    fn pass(
        &mut self,
        batch: ftl_sim::trace::parse::Batch,
        to_run: &std::sync::mpsc::SyncSender<ftl_sim::trace::parse::Batch>,
    ) {
        use std::sync::mpsc::TryRecvError;
        if self.counts.is_none() {
            let came = if self.held.len() < EARLY_MAX {
                match self.counter.try_recv() {
                    Ok(c) => Some(c),
                    Err(TryRecvError::Empty) => None,
                    Err(TryRecvError::Disconnected) => Some(None),
                }
            } else {
                Some(self.counter.recv().unwrap_or(None))
            };
            let Some(c) = came else {
                if !batch.is_empty() {
                    self.held.push(batch);
                }
                return;
            };
            self.counts = Some(c);
            for b in std::mem::take(&mut self.held) {
                self.send(b, to_run);
            }
        }
        self.send(batch, to_run);
    }

    fn send(
        &mut self,
        batch: ftl_sim::trace::parse::Batch,
        to_run: &std::sync::mpsc::SyncSender<ftl_sim::trace::parse::Batch>,
    ) {
        if let Some(Some(c)) = &mut self.counts {
            c.add(&batch);
        }
        // The run stopped taking batches: only the summary is left to count.
        if !batch.is_empty() {
            let _ = to_run.send(batch);
        }
    }

    /// The end of the read: the held batches sent (the run built first), the counts.
    fn finish(
        mut self,
        to_run: &std::sync::mpsc::SyncSender<ftl_sim::trace::parse::Batch>,
    ) -> Option<ftl_sim::trace::fit::StreamCounts> {
        if self.counts.is_none() {
            self.counts = Some(self.counter.recv().unwrap_or(None));
            for b in std::mem::take(&mut self.held) {
                self.send(b, to_run);
            }
        }
        self.counts.flatten()
    }
}

/// The samples' metadata writes at the last point and mean recovery reads.
fn mean_cost(samples: &[RecoveryCost]) -> Option<RecoveryCost> {
    let last = samples.last()?;
    let n = samples.len() as u64;
    Some(RecoveryCost {
        map_pages: last.map_pages,
        log_pages: last.log_pages,
        pages_read: samples.iter().map(|c| c.pages_read).sum::<u64>() / n,
        mapping_pages_read: samples.iter().map(|c| c.mapping_pages_read).sum::<u64>() / n,
        slowest_die_pages_read: last
            .slowest_die_pages_read
            .map(|_| samples.iter().filter_map(|c| c.slowest_die_pages_read).sum::<u64>() / n),
    })
}

/// A power cut between requests on a device: every die recovers from its own chip (in
/// parallel). Metadata writes and pages read summed over the dies; the slowest die's
/// pages read beside them (docs/ssd.md, "Power cuts").
fn device_recovery_cost(scenario: &Scenario, dev: &ftl_sim::ssd::Device) -> Result<RecoveryCost, String> {
    let mut sum = RecoveryCost {
        map_pages: 0,
        log_pages: 0,
        pages_read: 0,
        mapping_pages_read: 0,
        slowest_die_pages_read: Some(0),
    };
    for st in &dev.dies {
        let c = recovery_cost(scenario, st)?;
        sum.map_pages += c.map_pages;
        sum.log_pages += c.log_pages;
        sum.pages_read += c.pages_read;
        sum.mapping_pages_read += c.mapping_pages_read;
        sum.slowest_die_pages_read = sum.slowest_die_pages_read.max(Some(c.pages_read));
    }
    Ok(sum)
}

fn recovery_cost(scenario: &Scenario, state: &ftl_sim::sim::State) -> Result<RecoveryCost, String> {
    use ftl_sim::nand::{Cause, OpKind};
    let f = &state.flash;
    let mut flash = f.clone();
    let reads =
        |f: &ftl_sim::nand::Flash| f.count(OpKind::Read, Cause::Recovery) + f.count(OpKind::ReadOob, Cause::Recovery);
    let r0 = reads(&flash);
    let ftl = ftl_sim::ftl::recover(&scenario.scheme, &scenario.params, &mut flash)
        .map_err(|e| format!("recovery failed: {e}"))??;
    let pages_read = reads(&flash) - r0;
    let lr = &ftl.scheme_metrics()["recovery_logging"]["last_recovery"];
    let mapping = if lr.is_null() {
        pages_read
    } else {
        lr["checkpoints"].as_u64().unwrap_or(0) + lr["restoration"].as_u64().unwrap_or(0)
    };
    Ok(RecoveryCost {
        map_pages: f.count(OpKind::Program, Cause::Map),
        log_pages: f.count(OpKind::Program, Cause::Log),
        pages_read,
        mapping_pages_read: mapping,
        slowest_die_pages_read: None,
    })
}

/// "bast log_blocks=8 on fast2007 16384x32": names a configuration in messages.
pub(crate) fn describe(p: &Point) -> String {
    let mut s = p.scheme.clone();
    for key in ftl_sim::ftl::SchemeParams::KEYS {
        if let Some(v) = p.params.get(key) {
            s.push_str(&format!(" {key}={v}"));
        }
    }
    s.push_str(&format!(" on {}", p.chip.preset));
    if p.chip.blocks.is_some() || p.chip.pages_per_block.is_some() {
        let d = |v: Option<u32>| v.map(|n| n.to_string()).unwrap_or_else(|| "·".into());
        s.push_str(&format!(" {}x{}", d(p.chip.blocks), d(p.chip.pages_per_block)));
    }
    if let Some(t) = &p.trace {
        s.push_str(&format!(" with {}", t.display()));
    }
    s
}

/// A parameter's value as JSON: integers as integers (log_blocks 16, not 16.0).
fn num(key: &str, v: f64) -> Value {
    let real = matches!(key, "op" | "utilisation");
    if !real && v.fract() == 0.0 && v >= 0.0 {
        json!(v as u64)
    } else {
        json!(v)
    }
}

impl Row {
    /// The row's whole setup: chip, every parameter (defaults resolved), logical space,
    /// workload space, fit, preconditioning, trace file, request count and hash.
    pub(crate) fn setup_json(&self, setup: &Setup) -> Value {
        let sc = self.scenario.as_ref();
        // A row that could not run states the chip it was given.
        let chip = sc.map_or(&self.point.chip, |s| &s.chip).chip().ok();
        let params: serde_json::Map<String, Value> = match &chip {
            Some(c) => ftl_sim::ftl::registry::resolved_params(&self.point.scheme, &self.point.params, &c.geometry)
                .into_iter()
                .map(|(k, v)| (k.to_string(), num(k, v)))
                .collect(),
            None => Default::default(),
        };
        let given: serde_json::Map<String, Value> = ftl_sim::ftl::SchemeParams::KEYS
            .iter()
            .filter_map(|k| self.point.params.get(k).map(|v| (k.to_string(), num(k, v))))
            .collect();
        let t = chip.as_ref().map(|c| c.timing);
        let us = |ns: u64| ns as f64 / 1000.0;
        json!({
            "chip": chip.as_ref().map(|c| json!({
                "preset": self.point.chip.preset,
                "name": c.name,
                "blocks": c.geometry.blocks,
                "pages_per_block": c.geometry.pages_per_block,
                "page_bytes": c.geometry.page_bytes,
                "spare_bytes": c.geometry.spare_bytes,
                "timing_us": t.map(|t| json!({"read": us(t.read_ns), "read_oob": us(t.read_oob_ns), "program": us(t.program_ns), "erase": us(t.erase_ns)})),
            })),
            "params": params,
            "params_given": given,
            "logical_pages": self.plan.as_ref().and_then(|p| p.logical_pages),
            "workload_space": self.plan.as_ref().and_then(|p| p.workload_pages),
            "space_given": self.space_given,
            "workload": sc.map(|s| &s.workload),
            "fit": self.fit,
            "fit_note": self.summary.as_ref().map(|s| &s.fit_note),
            "precondition": sc.and_then(|s| s.run.precondition.as_ref()),
            "trace": self.trace.as_ref().map(|f| json!({
                "name": f.name, "path": f.path, "bytes": f.bytes, "sha256": f.sha256,
                "format": self.summary.as_ref().and_then(|s| s.format.map(|f| f.name())),
                "columns": setup.columns, "write_ops": setup.write_ops, "read_ops": setup.read_ops,
                "id_unit": setup.id_unit,
            })),
            "requests": self.requests,
            "request_hash": self.request_hash,
        })
    }

    /// The row as one JSON object: the metrics' stable fields at the top level (as
    /// `ftl run --json` always printed them), then `latency_tail_us`, `setup`,
    /// `scenario` (give it back with `ftl run --scenario`), `recovery` and `error`.
    pub(crate) fn to_json(&self, setup: &Setup) -> Value {
        let mut v = match &self.metrics {
            Some(m) => serde_json::to_value(m).expect("metrics serialise"),
            None => json!({"scheme": self.point.scheme}),
        };
        let o = v.as_object_mut().expect("an object");
        if self.metrics.is_some() {
            o.insert("latency_tail_us".into(), json!({"read": self.read_tail, "write": self.write_tail}));
        }
        if let Some(d) = &self.device {
            // Only a device of several dies adds it: one die prints today's bytes.
            o.insert("wrong_reads".into(), json!(d.wrong_reads));
            o.insert("device".into(), json!(d));
        }
        o.insert("setup".into(), self.setup_json(setup));
        o.insert("scenario".into(), json!(self.scenario));
        o.insert(
            "recovery".into(),
            json!(self.rec.as_ref().map(|c| {
                let mut r = json!({
                    "map_pages": c.map_pages, "log_pages": c.log_pages,
                    "pages_read": c.pages_read, "mapping_pages_read": c.mapping_pages_read,
                });
                if let Some(n) = c.slowest_die_pages_read {
                    // Only a device of several dies adds it: one die prints today's bytes.
                    r["slowest_die_pages_read"] = json!(n);
                }
                r
            })),
        );
        o.insert("error".into(), json!(self.error));
        v
    }
}
