//! The wasm boundary: a thin `Session` handle over the simulator's `Stepper`.
//! No simulation logic lives here (docs/session-api.md).

use ftl_sim::scenario::Scenario;
use ftl_sim::stepper::Stepper;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct Session {
    stepper: Stepper,
    info: String,
}

fn js_err(e: impl std::fmt::Display) -> JsError {
    JsError::new(&e.to_string())
}

#[wasm_bindgen]
impl Session {
    #[wasm_bindgen(constructor)]
    pub fn new(scenario_json: &str) -> Result<Session, JsError> {
        let scenario = Scenario::from_json(scenario_json).map_err(js_err)?;
        let mut sim = scenario.build().map_err(js_err)?;
        // wasm memory is small: keyframes get a quarter of the 64 MB the largest chip may use.
        sim.set_keyframe_budget(16 << 20);
        let info = ftl_sim::scenario::info_json(&scenario, &sim);
        Ok(Session { stepper: Stepper::new(sim), info })
    }

    pub fn info(&self) -> String {
        self.info.clone()
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
        self.stepper.sim.state.flash.erase_counts().to_vec()
    }
    pub fn block_owners(&self) -> Vec<i32> {
        self.stepper.block_owners()
    }
    pub fn metrics(&self) -> String {
        serde_json::to_string(&self.stepper.sim.state.metrics()).unwrap_or_default()
    }
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
    /// Cumulative counts sampled over the run: JSON `[{step, host_writes, page_programs, erases, elapsed_us}]`.
    pub fn series(&self) -> String {
        serde_json::to_string(self.stepper.sim.log.samples()).unwrap_or_default()
    }
    /// Exact latency distributions: JSON `{read: [[us, count], ...], write: [...]}`.
    pub fn latency_histogram(&self) -> String {
        let h = &self.stepper.sim.state.host;
        let pairs = |l: &ftl_sim::metrics::LatencyHist| l.buckets().map(|(ns, c)| (ns as f64 / 1000.0, c)).collect::<Vec<_>>();
        serde_json::json!({ "read": pairs(&h.read_latency), "write": pairs(&h.write_latency) }).to_string()
    }
    /// Records each request's response time from now on (RFTL Figure 8).
    pub fn record_timeline(&mut self, on: bool) {
        self.stepper.sim.record_timeline(on);
    }
    /// Per request (by index) [total_ns, gc_ns, ...] flat, for the requests recorded.
    pub fn timeline(&self) -> Vec<u32> {
        self.stepper.sim.timeline().unwrap_or(&[]).iter().flat_map(|t| [t.total_ns, t.gc_ns]).collect()
    }

    pub fn view(&self) -> String {
        self.stepper.view_json()
    }
}

/// Schemes, chip presets and the parameters each scheme reads:
/// `{schemes: [{id, label, params: [...]}], chips: [...]}`.
#[wasm_bindgen]
pub fn catalog() -> String {
    let schemes: Vec<_> = ftl_sim::ftl::SCHEMES
        .iter()
        .map(|(id, label)| serde_json::json!({"id": id, "label": label, "params": ftl_sim::ftl::scheme_params(id)}))
        .collect();
    serde_json::json!({"schemes": schemes, "chips": ftl_sim::nand::PRESET_NAMES}).to_string()
}

/// Checks a pattern-language text: `{ok: true, requests: n}` or
/// `{ok: false, line, column, message}` (the same parser the Session uses).
#[wasm_bindgen]
pub fn check_pattern(text: &str) -> String {
    match ftl_sim::trace::pattern::parse(text) {
        Ok(r) => serde_json::json!({"ok": true, "requests": r.len()}).to_string(),
        Err(e) => serde_json::json!({"ok": false, "line": e.line, "column": e.column, "message": e.message}).to_string(),
    }
}
