//! The wasm boundary of a device stepped op by op (issue 40, item 4): a thin
//! `DeviceSession` over ftl_sim::ssd_step::DeviceStepper. Typed values only: the moment
//! through serde-wasm-bindgen (`DeviceMoment`, generated TypeScript), each die's chip
//! arrays as typed arrays (as `Session`'s getters).

use ftl_sim::limits::device_memory;
use ftl_sim::scenario::Scenario;
use ftl_sim::ssd::{Shape, Stripe};
use ftl_sim::ssd_step::DeviceStepper;
use ftl_sim::stepper::Stepper;
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::parse::RawTrace;
use wasm_bindgen::prelude::*;

use crate::types::to_js;
use crate::{js_err, TraceParser};

/// Page requests listed per die in the moment's queues (the queue strip shows a few).
const QUEUE_LIMIT: usize = 12;

#[wasm_bindgen]
pub struct DeviceSession {
    dev: DeviceStepper,
}

#[wasm_bindgen]
impl DeviceSession {
    /// The scenario's workload on `channels` x `dies_per_channel` dies of its chip, striped
    /// by `stripe` ("page" or "block"; page striping is refused for schemes that map
    /// logical blocks, with the core's message).
    #[wasm_bindgen(constructor)]
    pub fn new(
        scenario_json: &str,
        channels: u32,
        dies_per_channel: u32,
        stripe: &str,
    ) -> Result<DeviceSession, JsError> {
        let scenario = Scenario::from_json(scenario_json).map_err(js_err)?;
        scenario.validate().map_err(js_err)?;
        Self::open(&scenario, channels, dies_per_channel, stripe, None)
    }

    /// The device running a trace uploaded in the app and read through `parser` (after
    /// `finish()`; the device worker reads the file again): the scenario's workload is
    /// `{kind: "trace", fit?, ...}` without its text, as `Session::from_trace` takes it.
    /// Planned as `ftl run --trace FILE --channels ...` (the trace's highest page is what
    /// the device must hold).
    pub fn from_trace(
        scenario_json: &str,
        channels: u32,
        dies_per_channel: u32,
        stripe: &str,
        parser: &TraceParser,
    ) -> Result<DeviceSession, JsError> {
        let (scenario, raw, fit) = parser.scenario_and_raw(scenario_json).map_err(js_err)?;
        Self::open(&scenario, channels, dies_per_channel, stripe, Some((raw, fit)))
    }

    fn open(
        scenario: &Scenario,
        channels: u32,
        dies_per_channel: u32,
        stripe: &str,
        trace: Option<(&RawTrace, Fit)>,
    ) -> Result<DeviceSession, JsError> {
        let stripe = Stripe::from_name(stripe).map_err(js_err)?;
        let shape = Shape::new(channels, dies_per_channel, stripe);
        shape.check(&scenario.scheme).map_err(js_err)?;
        // The device's simulation memory, held to the Session's budget (ftl_sim::limits):
        // its chips first, then with the workload's copy and the plan once planned.
        let g = scenario.chip.chip().map_err(js_err)?.geometry;
        device_memory(&g, shape.dies(), 0).map_err(js_err)?;
        // The workload over the device's logical space, as `ftl run --channels ...` plans it.
        let keyframes = ftl_sim::limits::SESSION_KEYFRAME_BYTES;
        let dev = match trace {
            Some(t) => ftl_sim::scenario::device::stepper_on_trace(scenario, shape, Some(t), keyframes),
            None => ftl_sim::scenario::device::stepper(scenario, shape, keyframes),
        }
        .map_err(js_err)?;
        // A trace can scale each die's chip until the device holds it (plan_device).
        let g = dev.die(0).map_or(g, |d| *d.sim.state.flash.geometry());
        device_memory(&g, shape.dies(), dev.workload_bytes()).map_err(js_err)?;
        Ok(DeviceSession { dev })
    }

    pub fn dies(&self) -> u32 {
        self.dev.dies().len() as u32
    }
    pub fn cursor(&self) -> u32 {
        self.dev.cursor() as u32
    }
    pub fn total(&self) -> u32 {
        self.dev.total() as u32
    }
    /// The next operation in time, on whichever die. False at the end.
    pub fn step_op(&mut self) -> Result<bool, JsError> {
        self.dev.step_op().map_err(js_err)
    }
    /// Back one operation in time. False at the start.
    pub fn back_op(&mut self) -> Result<bool, JsError> {
        self.dev.back_op().map_err(js_err)
    }
    /// The moment after `n` operations of the device.
    pub fn goto(&mut self, n: u32) -> Result<(), JsError> {
        self.dev.goto(n as usize).map_err(js_err)
    }

    /// Cuts power at the moment shown: every die stops after the operations it has
    /// revealed (ssd_step/power.rs; docs/ssd.md, "Power cuts"). While the power is off
    /// `step_op` refuses, `back_op` returns to the moment of the cut, `goto` leaves it.
    pub fn power_cut(&mut self) -> Result<(), JsError> {
        self.dev.power_cut().map_err(js_err)
    }
    /// "on" | "off" | "recovering" | "recovered" (the moment's `power`).
    #[wasm_bindgen(unchecked_return_type = "DevicePower")]
    pub fn power(&self) -> Result<JsValue, JsError> {
        to_js(&self.dev.power())
    }
    /// Power back on every die: each recovers from its own chip; `step_op` reveals the
    /// recovery operations of all dies in time order, `back_op` takes them back.
    pub fn recover(&mut self) -> Result<(), JsError> {
        self.dev.recover().map_err(js_err)
    }
    /// Recovers every die and reveals the whole recovery (from power off or mid-recovery).
    pub fn recover_whole(&mut self) -> Result<(), JsError> {
        self.dev.recover_whole().map_err(js_err)
    }

    #[wasm_bindgen(unchecked_return_type = "DeviceMoment")]
    pub fn moment(&self) -> Result<JsValue, JsError> {
        to_js(&self.dev.moment(QUEUE_LIMIT))
    }

    fn die(&self, d: u32) -> Result<&Stepper, JsError> {
        self.dev.die(d as usize).ok_or_else(|| JsError::new(&format!("no die {d}")))
    }
    pub fn page_states(&self, die: u32) -> Result<Vec<u8>, JsError> {
        Ok(self.die(die)?.page_states())
    }
    pub fn page_lpns(&self, die: u32) -> Result<Vec<u32>, JsError> {
        Ok(self.die(die)?.page_lpns())
    }
    pub fn block_roles(&self, die: u32) -> Result<Vec<u8>, JsError> {
        Ok(self.die(die)?.block_roles())
    }
    pub fn block_erase_counts(&self, die: u32) -> Result<Vec<u32>, JsError> {
        Ok(self.die(die)?.erase_counts())
    }
    pub fn block_owners(&self, die: u32) -> Result<Vec<i32>, JsError> {
        Ok(self.die(die)?.block_owners())
    }
}
