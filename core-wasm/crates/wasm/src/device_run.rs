//! A device's whole run for the compare view (issue 40, item 5: 1 die against 8 for the
//! same scheme): what `ftl run --channels C --dies-per-channel W --json` prints under
//! `device`, computed the way the CLI does (crates/cli/src/commands/row.rs, `fill` and
//! `finish`): planned over the device's logical space (scenario::device::plan_device),
//! the request list built over it, run by `ssd::Device`, its summary. One die is a device
//! of one die too, so 1 and 8 dies are reported alike. No Session is kept. A trace runs
//! as `ftl run --trace` runs it on a device: `device_run` parses a trace workload's text,
//! `device_run_trace` takes an uploaded file parsed in the device worker (a `TraceParser`).

use ftl_sim::scenario::device::{apply, build, plan_device};
use ftl_sim::scenario::Scenario;
use ftl_sim::ssd::{Device, Shape, Stripe};
use ftl_sim::trace::fit::Fit;
use ftl_sim::trace::gen::Workload;
use ftl_sim::trace::parse::{parse_bytes, RawTrace};
use wasm_bindgen::prelude::*;

use crate::{js_err, memory_for, TraceParser};

/// Runs `scenario_json` (a generated workload; its `device`, absent = one die) to the end
/// on its device. `space`: the device's workload space in pages, the same for every run
/// of a comparison so they share one request list (0: the device's own space). Returns
/// JSON `{scenario, logical_pages, workload_pages, requests, request_hash, device}`, the
/// last the CLI's `device` object (ssd::DeviceSummary).
#[wasm_bindgen]
pub fn device_run(scenario_json: &str, space: f64) -> Result<String, JsError> {
    let sc = Scenario::from_json(scenario_json).map_err(js_err)?;
    sc.validate().map_err(js_err)?;
    memory_for(&sc).map_err(js_err)?;
    match &sc.workload {
        Workload::Trace { text, .. } => {
            let (opts, fit) = ftl_sim::scenario::load::options_for(&sc).map_err(js_err)?;
            let raw = parse_bytes(text.as_bytes(), opts).map_err(|e| js_err(format!("trace: {e}")))?;
            run(&sc, space, Some((&raw, fit)))
        }
        _ => run(&sc, space, None),
    }
}

/// `device_run` of a scenario whose workload is the trace `parser` read (an uploaded file:
/// the scenario's `workload` gives its fit; its text is not in the scenario).
#[wasm_bindgen]
pub fn device_run_trace(scenario_json: &str, space: f64, parser: &TraceParser) -> Result<String, JsError> {
    let (sc, raw, fit) = parser.scenario_and_raw(scenario_json).map_err(js_err)?;
    run(&sc, space, Some((raw, fit)))
}

/// The device run of `sc` (validated), on its trace when it has one, as `ftl run` plans it:
/// the trace's highest page is what the device must hold.
fn run(sc: &Scenario, space: f64, trace: Option<(&RawTrace, Fit)>) -> Result<String, JsError> {
    let shape = sc.run.device.unwrap_or_else(|| Shape::new(1, 1, Stripe::default_for(&sc.scheme)));
    shape.check(&sc.scheme).map_err(js_err)?;
    let space = (space >= 1.0).then_some(space.min(u32::MAX as f64) as u32);
    let fit = trace.map_or(Fit::None, |t| t.1);
    let need = trace.and_then(|t| t.0.max_page()).map(|m| m + 1);
    let plan = plan_device(sc, &shape, fit, need, space);
    if let Some(e) = &plan.error {
        return Err(js_err(e));
    }
    let planned = apply(&plan, sc, shape).map_err(js_err)?;
    let (sim, _) = build(&planned, trace.map(|t| t.0), fit).map_err(js_err)?;
    let mut dev = Device::new(shape, &planned.scheme, &**sim.fresh()).map_err(js_err)?;
    dev.run(sim.requests(), sim.schedule(), sim.arrivals()).map_err(js_err)?;
    let out = serde_json::json!({
        "scenario": planned,
        "logical_pages": plan.logical_pages,
        "workload_pages": plan.workload_pages,
        "requests": sim.total(),
        "request_hash": ftl_sim::trace::request_hash(sim.requests()),
        "device": dev.summary(),
    });
    Ok(out.to_string())
}

/// The stripe unit a scheme needs on a device of several dies (ssd::Stripe::default_for):
/// "block" for schemes that map logical blocks (block or log-block mapping: a logical
/// block must stay whole on one die), "page" for page-mapped ones. The device fields ask
/// it up front, so page striping of a block-mapped scheme is explained before Apply.
#[wasm_bindgen]
pub fn device_stripe_for(scheme: &str) -> String {
    Stripe::default_for(scheme).name().to_string()
}
