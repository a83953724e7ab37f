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
        let mut stepper = Stepper::new(sim);
        stepper.set_recoverer(scenario.recoverer());
        Ok(Session { stepper, info })
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
    pub fn view(&self) -> String {
        self.stepper.view_json()
    }
    /// Cuts power at the current flash operation (docs/session-api.md, "Power cut").
    pub fn power_cut(&mut self) -> Result<(), JsError> {
        self.stepper.power_cut().map_err(js_err)
    }
    pub fn powered(&self) -> bool {
        self.stepper.powered()
    }
    /// Recovers from the chip; its operations are then revealed with `step_op`.
    pub fn recover(&mut self) -> Result<(), JsError> {
        self.stepper.recover().map_err(js_err)
    }
    /// The last recovery's verdict (JSON, null before any).
    pub fn verdict(&self) -> String {
        self.stepper.verdict_json()
    }
}
