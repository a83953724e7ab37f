//! The wasm boundary: a thin `Session` handle over the simulator's `Stepper`.
//! No simulation logic lives here (docs/session-api.md).

use ftl_sim::scenario::load;
use ftl_sim::scenario::Scenario;
use ftl_sim::stepper::Stepper;
use ftl_sim::trace::fit::{Fit, SummaryCounter};
use ftl_sim::trace::parse::{self, RawTrace, TraceOptions};
use wasm_bindgen::prelude::*;

mod device;
mod device_run;
mod fit;
// Used only where it is the global allocator (and by its own test).
#[cfg(any(test, all(target_arch = "wasm32", not(target_feature = "atomics"))))]
mod small_alloc;
mod types;

#[cfg(all(target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOC: small_alloc::SmallAlloc = small_alloc::SmallAlloc::new();
use types::{to_js, CrashHere, Prediction};

// The generated types the exports' TypeScript names (web/src/sim/generated/, written by
// scripts/gen-types.mjs): wasm-bindgen copies this into the package's .d.ts, so the
// classes and functions it declares are typed end to end.
#[wasm_bindgen(typescript_custom_section)]
const TS_IMPORTS: &str = r#"
import type { Catalog } from "../generated/Catalog";
import type { ChipFit } from "../generated/ChipFit";
import type { CrashHere } from "../generated/CrashHere";
import type { CrashOutcome } from "../generated/CrashOutcome";
import type { DeviceMoment } from "../generated/DeviceMoment";
import type { LatencyHistogram } from "../generated/LatencyHistogram";
import type { ParamRange } from "../generated/ParamRange";
import type { PatternCheck } from "../generated/PatternCheck";
import type { Plan } from "../generated/Plan";
import type { Prediction } from "../generated/Prediction";
import type { QueueView } from "../generated/QueueView";
import type { SeriesPoint } from "../generated/SeriesPoint";
import type { SchemeView } from "../generated/SchemeView";
import type { SessionInfo } from "../generated/SessionInfo";
import type { SweepReport } from "../generated/SweepReport";
import type { TraceCatalog } from "../generated/TraceCatalog";
import type { TraceFinish } from "../generated/TraceFinish";
import type { TraceFitPreview } from "../generated/TraceFitPreview";
import type { TracePreview } from "../generated/TracePreview";
import type { TraceProgress } from "../generated/TraceProgress";
"#;

#[wasm_bindgen]
pub struct Session {
    stepper: Stepper,
    info: ftl_sim::scenario::SessionInfo,
    /// The scenario's recovery from the chip alone (`crash_here`).
    recover: ftl_sim::crash::Recover,
}

pub(crate) fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

/// A Session's chip within the memory budget (ftl_sim::limits::session_memory), and that
/// much memory to be had now: an allocation that fails aborts a wasm module
/// ("unreachable"), so it is tried first, fallibly, and given back for the build to use
/// (issue 34: a second Session of the largest chip trapped the module).
pub(crate) fn memory_for(scenario: &Scenario) -> Result<(), String> {
    let g = scenario.chip.chip()?.geometry;
    let need = ftl_sim::limits::session_memory(&g)?;
    let mut probe: Vec<u8> = Vec::new();
    probe.try_reserve_exact(need as usize).map_err(|_| {
        format!(
            "not enough memory for this chip now: it needs about {} MB (close other runs or reload the page)",
            need >> 20
        )
    })?;
    Ok(())
}

/// Chips whose state is at least this large (by `limits::state_bytes`) have their heap
/// touched in advance (`prefault`): below it a first touch costs a few ms at most.
const PREFAULT_FROM: u64 = 32 << 20;

/// Touches `bytes` of heap once and gives it back, so the states stepping copies later
/// (the near keyframe, the state a Back restores, the state before a request) land on
/// pages the OS has already mapped. Why (issue 37 item 3): wasm memory grown but never
/// written is mapped on first write, page by page; on 65,536 × 64 the first Back's copy
/// of the near state took 76-92 ms of CPU in Node, the next ones 13-14 ms, and 14 ms
/// once the memory had been touched. Here it costs the opening instead, where a chip
/// this large already takes seconds. dlmalloc gives the freed block back to the top of
/// the heap, where the next large allocations are made.
fn prefault(bytes: u64) {
    let mut v: Vec<u8> = Vec::new();
    if v.try_reserve_exact(bytes as usize).is_err() {
        return;
    }
    let p = v.as_mut_ptr();
    for i in (0..v.capacity()).step_by(4096) {
        // SAFETY: within the reserved capacity; volatile so the writes are not elided
        // with the allocation they are in.
        unsafe { p.add(i).write_volatile(0) };
    }
}

/// `prefault` for a Session of this chip: room for the copies stepping makes.
fn prefault_for(scenario: &Scenario) {
    let Ok(chip) = scenario.chip.chip() else { return };
    let bytes = ftl_sim::limits::state_bytes(&chip.geometry);
    if bytes >= PREFAULT_FROM {
        prefault(bytes);
    }
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Session, JsError> {
        let scenario = Scenario::from_json(scenario_json).map_err(js_err)?;
        scenario.validate().map_err(js_err)?;
        memory_for(&scenario).map_err(js_err)?;
        let mut sim = scenario.build().map_err(js_err)?;
        prefault_for(&scenario);
        // wasm memory is small (ftl_sim::limits: the Session's budget counts these).
        sim.set_keyframe_budget(ftl_sim::limits::SESSION_KEYFRAME_BYTES);
        let info = ftl_sim::scenario::info(&scenario, &sim);
        let mut stepper = Stepper::new(sim);
        stepper.set_recoverer(scenario.recoverer());
        Ok(Session { stepper, info, recover: scenario.recoverer() })
    }

    /// A session running a trace streamed through `parser` (after `finish()`), on the
    /// scenario's scheme and chip; the scenario's workload must be
    /// `{kind: "trace", fit?, ...}` (its `text` is ignored). docs/session-api.md.
    pub fn from_trace(scenario_json: &str, parser: &TraceParser) -> Result<Session, JsError> {
        let (scenario, raw, fit) = parser.scenario_and_raw(scenario_json).map_err(js_err)?;
        let (mut sim, _) = load::build_with_raw(&scenario, raw, fit).map_err(js_err)?;
        prefault_for(&scenario);
        sim.set_keyframe_budget(ftl_sim::limits::SESSION_KEYFRAME_BYTES);
        let info = ftl_sim::scenario::info(&scenario, &sim);
        let mut stepper = Stepper::new(sim);
        stepper.set_recoverer(scenario.recoverer());
        Ok(Session { stepper, info, recover: scenario.recoverer() })
    }

    #[wasm_bindgen(unchecked_return_type = "SessionInfo")]
    pub fn info(&self) -> Result<JsValue, JsError> {
        to_js(&self.info)
    }
    pub fn step(&self) -> u32 {
        self.stepper.step() as u32
    }
    pub fn total(&self) -> u32 {
        self.stepper.sim.total() as u32
    }
    pub fn op_cursor(&self) -> u32 {
        self.stepper.op_cursor() as u32
    }
    pub fn op_count(&self) -> u32 {
        self.stepper.op_count() as u32
    }
    pub fn step_op(&mut self) -> Result<bool, JsError> {
        self.stepper.step_op().map_err(js_err)
    }
    pub fn step_request(&mut self) -> Result<bool, JsError> {
        self.stepper.step_request().map_err(js_err)
    }
    pub fn run(&mut self, n: u32) -> Result<u32, JsError> {
        self.stepper.run(n as usize).map(|d| d as u32).map_err(js_err)
    }
    /// "Run to end" (issue 37 item 4): `run` with the run log taken a stretch at a time
    /// while the run is quiet, not probed a request (ftl_sim stepper/ahead.rs); the same
    /// state, log, keyframes and timeline as `run`.
    pub fn run_ahead(&mut self, n: u32) -> Result<u32, JsError> {
        self.stepper.run_ahead(n as usize).map(|d| d as u32).map_err(js_err)
    }
    /// The full-speed path (`RunMode::FullSpeed`: no keyframes, no run log) for `run`, or
    /// back to the player (keyframes are then made again as the run passes; issue 26).
    pub fn set_full_speed(&mut self, on: bool) {
        use ftl_sim::sim::RunMode;
        self.stepper.sim.set_mode(if on { RunMode::FullSpeed } else { RunMode::Player });
    }
    pub fn seek(&mut self, step: u32) -> Result<(), JsError> {
        self.stepper.seek(step as usize).map_err(js_err)
    }
    /// The state after `step` requests and `ops` flash operations of the next one.
    pub fn goto(&mut self, step: u32, ops: u32) -> Result<(), JsError> {
        self.stepper.goto(step as usize, ops as usize).map_err(js_err)
    }
    pub fn back_op(&mut self) -> Result<bool, JsError> {
        self.stepper.back_op().map_err(js_err)
    }
    /// While the app is idle after a move: makes the state the next `back_op` replays from,
    /// so that Back takes it instead of copying a kept state (ftl_sim stepper/back.rs; a
    /// copy of a chip of millions of pages). True when one was made.
    pub fn prepare_back(&mut self) -> Result<bool, JsError> {
        self.stepper.prepare_back().map_err(js_err)
    }
    /// `prepare_back` in parts, for the worker's idle tasks: one part (a few ms of copying,
    /// `ftl_sim::stepper::PREPARE_PART_BYTES`) a call, so a key pressed meanwhile waits at
    /// most one part, not the whole copy (issue 37 item 3). True while parts are left.
    pub fn prepare_back_part(&mut self) -> Result<bool, JsError> {
        use ftl_sim::stepper::{Prepare, PREPARE_PART_BYTES};
        let part = self.stepper.prepare_back_part(PREPARE_PART_BYTES).map_err(js_err)?;
        Ok(part == Prepare::More)
    }
    pub fn page_states(&self) -> Vec<u8> {
        self.stepper.page_states()
    }
    pub fn page_lpns(&self) -> Vec<u32> {
        self.stepper.page_lpns()
    }
    pub fn block_roles(&self) -> Vec<u8> {
        self.stepper.block_roles()
    }
    pub fn block_erase_counts(&self) -> Vec<u32> {
        self.stepper.erase_counts()
    }
    pub fn block_owners(&self) -> Vec<i32> {
        self.stepper.block_owners()
    }
    /// What changed since the last call (snapshots by change, docs/session-api.md): the
    /// pages and blocks the moves since touched, as the moment shows them; `full()` asks
    /// for the whole moment instead (read it with the getters above).
    pub fn take_delta(&mut self) -> Delta {
        Delta(self.stepper.take_delta())
    }
    /// Every getter reads the state at this moment: (request, flash operation) exact
    /// (docs/architecture.md, "Op-exact moments").
    ///
    /// JSON text of `Metrics` (web/src/sim/generated/Metrics.ts), read with JSON.parse:
    /// on the per-step path this is faster than a typed value through serde-wasm-bindgen
    /// (issue 36, measured: 1.05-1.23x slower typed for FAST/KRAFT, whose scheme_metrics
    /// is large; docs/session-api.md).
    pub fn metrics(&self) -> String {
        self.stepper.metrics_json()
    }
    /// Blocks the merge or GC under way will erase (its victims), while it runs.
    pub fn victims(&self) -> Vec<u32> {
        self.stepper.victims()
    }
    /// JSON text of `SimEvent[]` (web/src/sim/generated/SimEvent.ts): JSON.parse of a
    /// request's events is faster than a typed value (issue 36, measured: 1.1-1.8x slower
    /// typed for requests of 100-200 events).
    pub fn events(&self) -> String {
        serde_json::to_string(&self.stepper.events()).unwrap_or_default()
    }
    pub fn narration(&self) -> String {
        self.stepper.narration()
    }
    /// Notable requests as flat pairs [request index, MARK_* bits, ...] (src/runlog.rs),
    /// complete up to `log_upto()`.
    pub fn markers(&self) -> Vec<u32> {
        self.stepper.sim.log.markers().iter().flat_map(|&(i, b)| [i, b as u32]).collect()
    }
    pub fn log_upto(&self) -> u32 {
        self.stepper.sim.log.upto() as u32
    }
    /// Cumulative counts sampled over the run.
    #[wasm_bindgen(unchecked_return_type = "SeriesPoint[]")]
    pub fn series(&self) -> Result<JsValue, JsError> {
        to_js(self.stepper.sim.log.samples())
    }
    /// Exact latency distributions: `{read: [[us, count], ...], write: [...], requests}`.
    #[wasm_bindgen(unchecked_return_type = "LatencyHistogram")]
    pub fn latency_histogram(&self) -> Result<JsValue, JsError> {
        let h = &self.stepper.view().host;
        let pairs =
            |l: &ftl_sim::metrics::LatencyHist| l.buckets().map(|(ns, c)| (ns as f64 / 1000.0, c)).collect::<Vec<_>>();
        // Host requests (a record of several pages once) by the run's timing model
        // (docs/timing.md): response times, values kept to 5 significant digits.
        let c = &self.stepper.view().clock;
        let tpairs =
            |t: &ftl_sim::metrics::TimeHist| t.buckets().map(|(ns, c)| (ns as f64 / 1000.0, c)).collect::<Vec<_>>();
        to_js(&types::LatencyHistogram {
            read: pairs(&h.read_latency),
            write: pairs(&h.write_latency),
            requests: Some(types::RequestLatency {
                model: c.config.model.name(),
                read: tpairs(&c.read.response),
                write: tpairs(&c.write.response),
            }),
        })
    }
    /// The request queue at this moment (docs/timing.md).
    #[wasm_bindgen(unchecked_return_type = "QueueView")]
    pub fn queue(&self) -> Result<JsValue, JsError> {
        to_js(&self.stepper.queue())
    }
    /// Records each request's response time from now on (RFTL Figure 8); not the host
    /// requests in time, which nothing here reads (issue 37: 56 bytes a request).
    pub fn record_timeline(&mut self, on: bool) {
        self.stepper.sim.record_times(on, false);
    }
    /// Per request (by index) [total_ns, gc_ns, ...] flat, for the requests recorded.
    pub fn timeline(&self) -> Vec<u32> {
        self.stepper.sim.timeline().unwrap_or(&[]).iter().flat_map(|t| [t.total_ns, t.gc_ns]).collect()
    }

    /// The scheme panels of this moment (ftl/panel.rs), typed: through serde-wasm-bindgen
    /// this is as fast as JSON text plus JSON.parse or faster (issue 36, measured in one run,
    /// docs/session-api.md: FAST 4096 x 64 0.81-0.89x, RFTL 0.82-0.93x, KRAFT 1.00x).
    #[wasm_bindgen(unchecked_return_type = "SchemeView")]
    pub fn view(&self) -> Result<JsValue, JsError> {
        to_js(&self.stepper.scheme_view())
    }

    /// Power cut "here": after the flash operations revealed so far of the request in progress
    /// (or before the next request), on a copy of the state, then recovery from the chip alone
    /// and verification (ftl_sim::crash::crash_once, as `ftl crash-sweep` does per point). The
    /// session itself is left as it was.
    #[wasm_bindgen(unchecked_return_type = "CrashHere")]
    pub fn crash_here(&mut self) -> Result<JsValue, JsError> {
        let (step, ops) = (self.stepper.step(), self.stepper.op_cursor());
        let Some((before, k)) = self.stepper.cut_point() else {
            return Err(js_err("power is off or a recovery is being shown: finish it first"));
        };
        let reqs = self.stepper.sim.requests();
        let Some(&req) = reqs.get(before.pos) else {
            return Err(js_err("the workload is finished: there is no operation left to cut"));
        };
        let after = reqs[before.pos + 1..(before.pos + 33).min(reqs.len())].to_vec();
        // On a copy of the state before the request (the session's own, on a branch too).
        let r = ftl_sim::crash::crash_once(before, req, k as u64, None, &self.recover, &after);
        let Some((outcome, _)) = r else {
            return Err(js_err("the request completed before that operation: nothing to cut"));
        };
        to_js(&CrashHere { step, op: ops, outcome })
    }

    /// Requests `from..to` of the workload as inline-pattern text (`w3 r7 freeze ...`), so the
    /// app can issue freeze / unfreeze / revert at the current step by re-running the workload
    /// with the request inserted (docs/session-api.md, "Time shift").
    pub fn workload_pattern(&self, from: u32, to: u32) -> Result<String, JsError> {
        let reqs = self.stepper.sim.requests();
        let to = (to as usize).min(reqs.len());
        let from = (from as usize).min(to);
        ftl_sim::trace::write::write_trace(&reqs[from..to], ftl_sim::trace::parse::Format::Pattern, 512).map_err(js_err)
    }

    /// Cuts power at the current flash operation (docs/session-api.md, "Power cut").
    pub fn power_cut(&mut self) -> Result<(), JsError> {
        self.stepper.power_cut().map_err(js_err)
    }
    pub fn powered(&self) -> bool {
        self.stepper.powered()
    }
    /// A recovery's operations are being revealed (step_op shows the next one).
    pub fn recovering(&self) -> bool {
        self.stepper.recovering()
    }
    /// Recovers from the chip; its operations are then revealed with `step_op`.
    pub fn recover(&mut self) -> Result<(), JsError> {
        self.stepper.recover().map_err(js_err)
    }
    /// Requests interrupted by the power cuts recovered from, before the moment shown:
    /// flat [request index, survived (0/1), ...] (Stepper::cut_requests).
    pub fn cut_requests(&self) -> Vec<u32> {
        self.stepper.cut_requests().into_iter().flat_map(|(i, ok)| [i as u32, u32::from(ok)]).collect()
    }
    /// The last recovery's verdict (null before any).
    #[wasm_bindgen(unchecked_return_type = "CrashOutcome | null")]
    pub fn verdict(&self) -> Result<JsValue, JsError> {
        to_js(&self.stepper.verdict())
    }

    /// Blocks serving more than one logical block (a KRAFT/KAST log block shared by up to
    /// K): `{"pbn": [lbn, ...]}`; block_owners() gives only the first.
    #[wasm_bindgen(unchecked_return_type = "Record<string, number[]>")]
    pub fn block_owner_sets(&self) -> Result<JsValue, JsError> {
        let sets: std::collections::BTreeMap<String, _> =
            self.stepper.block_owner_sets().into_iter().map(|(b, o)| (b.to_string(), o)).collect();
        to_js(&sets)
    }

    /// "What happens next?": runs the next request on a copy of the state (the session does
    /// not move) and classifies what it did, so a prediction's answer is the core's own.
    /// Only between requests (`Prediction`); `copies` are programs done for
    /// GC/merges/fills (not the host's, not metadata).
    #[wasm_bindgen(unchecked_return_type = "Prediction")]
    pub fn predict_next(&self) -> Result<JsValue, JsError> {
        use ftl_sim::nand::{Cause, Event, OpKind};
        let sim = &self.stepper.sim;
        if !self.stepper.powered() || self.stepper.recovering() {
            return Err(js_err("no prediction while the power is off or a recovery is shown"));
        }
        if self.stepper.op_cursor() > 0 || self.stepper.step() != sim.pos() {
            return Err(js_err("predictions are asked between requests: finish this request first"));
        }
        let Some(req) = sim.next_request() else { return Err(js_err("the workload has no next request")) };
        let mut st = sim.state.clone();
        st.flash.set_recording(true);
        st.flash.take_events();
        let c0 = st.flash.counters.clone();
        st.exec(req).map_err(|e| js_err(format!("the next request fails: {e}")))?;
        let c1 = st.flash.counters.clone();
        let (mut erased, mut copies, mut programs, mut reads) = (Vec::new(), 0u32, 0u32, 0u32);
        for e in st.flash.take_events() {
            if let Event::Op { kind, pbn, cause, .. } = e {
                match kind {
                    OpKind::Erase => erased.push(pbn),
                    OpKind::Program => {
                        programs += 1;
                        if !matches!(cause, Cause::Host | Cause::Map | Cause::Log | Cause::Recovery) {
                            copies += 1;
                        }
                    }
                    OpKind::Read | OpKind::ReadOob => reads += 1,
                }
            }
        }
        let d = |a: u64, b: u64| a.saturating_sub(b);
        let (sw, pm, fm, gc) = (
            d(c1.switch_merges, c0.switch_merges),
            d(c1.partial_merges, c0.partial_merges),
            d(c1.full_merges, c0.full_merges),
            d(c1.gc_runs, c0.gc_runs),
        );
        // The costliest thing it did names it (a full merge may follow a switch).
        let kind = if fm > 0 {
            "full"
        } else if pm > 0 {
            "partial"
        } else if sw > 0 {
            "switch"
        } else if gc > 0 {
            "gc"
        } else {
            "none"
        };
        to_js(&Prediction {
            request: req,
            lpn: req.lpn(),
            kind,
            switches: sw,
            partials: pm,
            full_merges: fm,
            gc_runs: gc,
            erases: erased.len(),
            erased,
            copies,
            programs,
            reads,
        })
    }
}

/// The change since the last `take_delta` (ftl_sim::stepper::Delta): parallel arrays of
/// pages (index, state, LPN) and of blocks (index, role, first owner, erase count).
#[wasm_bindgen]
pub struct Delta(ftl_sim::stepper::Delta);

#[wasm_bindgen]
impl Delta {
    /// Read the whole moment instead: the arrays are empty.
    pub fn full(&self) -> bool {
        self.0.full
    }
    pub fn pages(&self) -> Vec<u32> {
        self.0.pages.clone()
    }
    pub fn page_states(&self) -> Vec<u8> {
        self.0.states.clone()
    }
    pub fn page_lpns(&self) -> Vec<u32> {
        self.0.lpns.clone()
    }
    pub fn blocks(&self) -> Vec<u32> {
        self.0.blocks.clone()
    }
    pub fn block_roles(&self) -> Vec<u8> {
        self.0.roles.clone()
    }
    pub fn block_owners(&self) -> Vec<i32> {
        self.0.owners.clone()
    }
    pub fn block_erase_counts(&self) -> Vec<u32> {
        self.0.erase_counts.clone()
    }
    /// Blocks of the delta serving several logical blocks: `{pbn: [lbn, ...]}` (as
    /// `Session.block_owner_sets`); a delta block absent here serves at most one.
    #[wasm_bindgen(unchecked_return_type = "Record<string, number[]>")]
    pub fn owner_sets(&self) -> Result<JsValue, JsError> {
        let out: std::collections::BTreeMap<String, _> = (self.0.blocks.iter().zip(&self.0.owner_sets))
            .filter(|(_, o)| o.len() > 1)
            .map(|(b, o)| (b.to_string(), o))
            .collect();
        to_js(&out)
    }
}

/// Streams an uploaded trace in chunks (docs/session-api.md, "Traces"): `feed` returns
/// progress JSON, `finish` the summary or the errors; cancel = stop feeding and `free()`.
#[wasm_bindgen]
pub struct TraceParser {
    parser: Option<parse::TraceParser>,
    /// The summary's counts, added after each piece fed (issue 37 item 6: in the browser
    /// they run between the Blob reads, and `finish` only takes the sample).
    counter: SummaryCounter,
    raw: Option<RawTrace>,
    pages_per_block: u32,
}

#[wasm_bindgen]
impl TraceParser {
    /// `options_json`: TraceOptions (`{format?, page_bytes, device?, skip_bad_lines?, ...}`)
    /// plus an optional `pages_per_block` for the summary's footprint.
    #[wasm_bindgen(constructor)]
    pub fn new(options_json: &str) -> Result<TraceParser, JsError> {
        let mut v: serde_json::Value =
            serde_json::from_str(options_json).map_err(|e| js_err(format!("invalid trace options: {e}")))?;
        let ppb =
            v.as_object_mut().and_then(|o| o.remove("pages_per_block")).and_then(|p| p.as_u64()).unwrap_or(1) as u32;
        let opts: TraceOptions =
            serde_json::from_value(v).map_err(|e| js_err(format!("invalid trace options: {e}")))?;
        Ok(TraceParser {
            parser: Some(parse::TraceParser::new(opts)),
            counter: SummaryCounter::new(),
            raw: None,
            pages_per_block: ppb,
        })
    }

    /// Feeds the next chunk (in `TIER_UP_PIECE` pieces); returns the progress.
    #[wasm_bindgen(unchecked_return_type = "TraceProgress")]
    pub fn feed(&mut self, bytes: &[u8]) -> Result<JsValue, JsError> {
        let p = self.parser.as_mut().ok_or_else(|| js_err("the parser is finished"))?;
        for piece in bytes.chunks(TIER_UP_PIECE) {
            p.feed(piece);
            // Piece by piece: a small loop called often gets V8's optimised code soon.
            self.counter.count(p.raw());
        }
        to_js(&p.progress())
    }

    /// Ends the input: `{ok: true, summary}` or `{ok: false, error: {message, errors, bad_lines}}`.
    #[wasm_bindgen(unchecked_return_type = "TraceFinish")]
    pub fn finish(&mut self) -> Result<JsValue, JsError> {
        use types::TraceFinish;
        let p = self.parser.take().ok_or_else(|| js_err("the parser is finished"))?;
        let r = match p.finish() {
            Ok(raw) => {
                // The counts stay held for the fit previews (`fit`).
                let summary = self.counter.summary(&raw, self.pages_per_block);
                // How CSV columns were read and the compression, beside the summary.
                let r = TraceFinish::Parsed {
                    ok: true,
                    summary: Box::new(summary),
                    columns: raw.csv_columns.clone(),
                    compression: raw.compression.clone(),
                };
                self.raw = Some(raw);
                r
            }
            Err(error) => TraceFinish::Failed { ok: false, error },
        };
        to_js(&r)
    }

    /// Preview of the fit on a scenario (scheme, chip, `workload.fit`):
    /// `{ok: true, summary}` or `{ok: false, message}` (e.g. addresses out of range).
    /// The summary alone: no chip, scheme state or fitted requests are built (issue 37;
    /// `load::summary_with_raw`, the same checks and errors as building the run), from the
    /// counts the feeds made (no whole-trace pass of them again; issue 37 item 6).
    #[wasm_bindgen(unchecked_return_type = "TraceFitPreview")]
    pub fn fit(&self, scenario_json: &str) -> Result<JsValue, JsError> {
        use types::TraceFitPreview;
        let r = self
            .scenario_and_raw(scenario_json)
            .and_then(|(sc, raw, fit)| load::summary_with_counts(&sc, raw, fit, Some(&self.counter)));
        to_js(&match r {
            Ok(summary) => TraceFitPreview::Fitted { ok: true, summary: Box::new(summary) },
            Err(message) => TraceFitPreview::Refused { ok: false, message },
        })
    }
}

impl TraceParser {
    fn scenario_and_raw(&self, scenario_json: &str) -> Result<(Scenario, &RawTrace, Fit), String> {
        let raw = self.raw.as_ref().ok_or("the trace is not parsed yet: call finish() first")?;
        let scenario = Scenario::from_json(scenario_json)?;
        scenario.validate()?;
        memory_for(&scenario)?;
        let (_, fit) = load::options_for(&scenario)?;
        Ok((scenario, raw, fit))
    }
}

/// The first rows of a file for the upload dialog's mapping (`head`: its first bytes,
/// `whole`: they are the whole file): `{format, compression, delimiter, header, rows,
/// guessed: [[role, column]], op_values, note}` (crates/sim trace/parse.rs `Preview`).
#[wasm_bindgen(unchecked_return_type = "TracePreview")]
pub fn trace_preview(head: &[u8], rows: u32, whole: bool) -> Result<JsValue, JsError> {
    to_js(&parse::preview(head, rows as usize, whole))
}

/// The trace formats and generators with their one-sentence descriptions, for the UI.
#[wasm_bindgen(unchecked_return_type = "TraceCatalog")]
pub fn trace_catalog() -> Result<JsValue, JsError> {
    use types::{GeneratorInfo, TraceFormatInfo};
    to_js(&types::TraceCatalog {
        formats: parse::FORMATS.iter().map(|f| TraceFormatInfo { name: f.1, description: f.2 }).collect(),
        generators: ftl_sim::trace::gen::GENERATORS
            .iter()
            .map(|&(kind, description)| GeneratorInfo { kind, description })
            .collect(),
    })
}

/// The scheme registry (ftl_sim::ftl::REGISTRY), chip presets and the workload
/// generators with their defaults. docs/session-api.md.
#[wasm_bindgen(unchecked_return_type = "Catalog")]
pub fn catalog() -> Result<JsValue, JsError> {
    use types::{CatalogGenerator, CatalogParamSpec, CatalogScheme};
    let schemes = ftl_sim::ftl::REGISTRY
        .iter()
        .map(|e| CatalogScheme {
            id: e.id,
            label: e.label,
            short_label: e.short_label,
            description: e.description,
            params: e.params.iter().map(|p| p.key).collect(),
            param_specs: e.params.iter().map(CatalogParamSpec::from).collect(),
            cleaning: e.cleaning,
            panels: e.panels.to_vec(),
        })
        .collect();
    let generators = ftl_sim::trace::gen::GENERATORS
        .iter()
        .map(|&(kind, description)| {
            // The generator's defaults (the serde defaults the CLI's --gen gets too): one set
            // for app and CLI (issue 27). `n` has none; the app sets it.
            let mut d =
                serde_json::from_value::<ftl_sim::trace::gen::Workload>(serde_json::json!({"kind": kind, "n": 1}))
                    .ok()
                    .and_then(|w| serde_json::to_value(w).ok())
                    .unwrap_or_default();
            if let Some(o) = d.as_object_mut() {
                o.remove("kind");
                o.remove("n");
            }
            CatalogGenerator { kind, description, defaults: d }
        })
        .collect();
    to_js(&types::Catalog { schemes, chips: ftl_sim::nand::PRESET_NAMES.to_vec(), generators })
}

/// A scheme's parameters resolved on a chip (`chip_json`: a scenario's `chip`, `{preset,
/// blocks?, pages_per_block?}`): `{key: {min, max, default}}`, the numbers the core uses
/// when the parameter is left out and the range `Scenario::validate` accepts.
#[wasm_bindgen(unchecked_return_type = "Record<string, ParamRange>")]
pub fn scheme_defaults(scheme: &str, chip_json: &str) -> Result<JsValue, JsError> {
    let entry = ftl_sim::ftl::entry(scheme).ok_or_else(|| js_err(format!("unknown scheme '{scheme}'")))?;
    let spec: ftl_sim::scenario::ChipSpec =
        serde_json::from_str(chip_json).map_err(|e| js_err(format!("invalid chip: {e}")))?;
    let g = spec.chip().map_err(js_err)?.geometry;
    let out: std::collections::BTreeMap<&str, types::ParamRange> = entry
        .params
        .iter()
        .map(|p| {
            let r =
                types::ParamRange { min: p.min.resolve(&g), max: p.max.resolve(&g), default: p.default.resolve(&g) };
            (p.key, r)
        })
        .collect();
    to_js(&out)
}

/// Checks a pattern-language text: `{ok: true, requests: n}` or
/// `{ok: false, line, column, message}` (the same parser the Session uses).
#[wasm_bindgen(unchecked_return_type = "PatternCheck")]
pub fn check_pattern(text: &str) -> Result<JsValue, JsError> {
    use types::PatternCheck;
    to_js(&match ftl_sim::trace::pattern::parse(text) {
        Ok(r) => PatternCheck { ok: true, requests: Some(r.len()), line: None, column: None, message: None },
        Err(e) => PatternCheck {
            ok: false,
            requests: None,
            line: Some(e.line),
            column: Some(e.column),
            message: Some(e.message),
        },
    })
}

/// A crash sweep of a scenario from step 0, as `ftl crash-sweep` does it (ftl_sim::crash::sweep):
/// `options_json` = `{"all": true} | {"every": n} | {"random": n, "seed"?: s}` plus `"recut"?: bool`
/// (also cut each point once more inside its recovery, seeded by `seed`); `progress(done, total)`
/// is called after each cut point. Returns the SweepReport. docs/session-api.md.
#[wasm_bindgen(unchecked_return_type = "SweepReport")]
pub fn crash_sweep(scenario_json: &str, options_json: &str, progress: &js_sys::Function) -> Result<JsValue, JsError> {
    use ftl_sim::crash::sweep;
    let o: serde_json::Value =
        serde_json::from_str(options_json).map_err(|e| js_err(format!("invalid sweep options: {e}")))?;
    let seed = o["seed"].as_u64().unwrap_or(1);
    // The CLI's caps and messages (ftl_sim::limits), so no count traps the module.
    let count = |k: &str| -> Result<Option<u64>, JsError> {
        match &o[k] {
            serde_json::Value::Null => Ok(None),
            v => v.as_u64().map(Some).ok_or_else(|| js_err(format!("{k}: a whole number, got {v}"))),
        }
    };
    let points = ftl_sim::limits::cut_points(o["all"].as_bool() == Some(true), count("every")?, count("random")?, seed)
        .map_err(js_err)?;
    let scenario = Scenario::from_json(scenario_json).map_err(js_err)?;
    scenario.validate().map_err(js_err)?;
    memory_for(&scenario).map_err(js_err)?;
    let sim = scenario.build().map_err(js_err)?;
    let recut = o["recut"].as_bool().unwrap_or(false).then_some(seed);
    let report = sweep(&sim.state, sim.requests(), &scenario.recoverer(), points, recut, |done, total| {
        let _ = progress.call2(&JsValue::NULL, &JsValue::from_f64(done as f64), &JsValue::from_f64(total as f64));
    });
    to_js(&report)
}

/// The chip and workload space of every run of a comparison or sweep (ftl_sim::scenario::plan::plan,
/// issue 27: each run planned from itself alone): `scenarios_json` = a JSON array of scenarios
/// (their workloads are not read), `fit` = the trace's fit ("" or "none" for a generated
/// workload), `need` = the trace's highest page + 1 (0: no trace), `space` = the workload space
/// given for every run (0: each run's own). Returns the Plan (the page applies it).
#[wasm_bindgen(unchecked_return_type = "Plan")]
pub fn plan_runs(scenarios_json: &str, fit: &str, need: f64, space: f64) -> Result<JsValue, JsError> {
    let raw: Vec<serde_json::Value> =
        serde_json::from_str(scenarios_json).map_err(|e| js_err(format!("invalid runs: {e}")))?;
    let scenarios = raw
        .into_iter()
        .map(|mut v| {
            v["workload"] = serde_json::json!({"kind": "sequential", "n": 1});
            serde_json::from_value::<Scenario>(v).map_err(|e| js_err(format!("invalid run: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let fit = Fit::from_name(fit).map_err(js_err)?;
    let need = (need >= 1.0).then_some(need as u64);
    let space = (space >= 1.0).then_some(space.min(u32::MAX as f64) as u32);
    let plan = ftl_sim::scenario::plan::plan(&scenarios, fit, need, space).map_err(js_err)?;
    to_js(&plan)
}

/// Long loops over an upload's bytes (the parse, the SHA-256) run a piece at a time. V8 runs
/// a wasm function's first calls in its baseline tier (Liftoff) and cannot switch a call
/// already running to the optimised code (no on-stack replacement for wasm), so one call
/// over a whole 4 MB chunk stays in the slow tier: in Chromium the first chunk's SHA-256
/// took 308 ms against ~25 ms for the next ones, the first parse chunk 75 ms against ~27
/// (issue 37, docs/performance.md "session 11, p-wasm"). After a few 64 KB pieces the
/// optimised code is there for the next call.
const TIER_UP_PIECE: usize = 64 << 10;

/// SHA-256 of an uploaded file, fed in chunks as the worker reads it (the file is never
/// copied whole: issue 26). `hex()` ends it.
#[wasm_bindgen]
pub struct Sha256Stream(sha2::Sha256);

#[wasm_bindgen]
impl Sha256Stream {
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Sha256Stream {
        use sha2::Digest;
        Sha256Stream(sha2::Sha256::new())
    }
    /// Hashes the next chunk, in `TIER_UP_PIECE` pieces.
    pub fn update(&mut self, bytes: &[u8]) {
        use sha2::Digest;
        for piece in bytes.chunks(TIER_UP_PIECE) {
            self.0.update(piece);
        }
    }
    /// The digest in lower-case hex (the hash starts again after it).
    pub fn hex(&mut self) -> String {
        use sha2::Digest;
        self.0.finalize_reset().iter().map(|b| format!("{b:02x}")).collect()
    }
}
