//! Free functions the app's scenario form asks on the page (web/src/sim/schemeFit.ts):
//! whether a scheme runs on a chip and on which chip it does, answered by the registry
//! (ftl_sim::fit), and the whole scenario's check before Apply. No Session is made.

use ftl_sim::scenario::{ChipSpec, Scenario};
use wasm_bindgen::prelude::*;

use crate::types::to_js;
use crate::{js_err, memory_for};

/// The chip to run the scenario's scheme on (ftl_sim::fit::fit_chip): the scenario's own
/// chip when the scheme runs on it, else the first of `candidates_json` (`[ChipSpec]`,
/// nearest first) it runs on: `{chip, refused}` (`refused`: why the scenario's chip was
/// not kept, null when it was); an error with the core's message when none fits.
/// The workload is not looked at; preconditioning and timing no chip mends are refused.
#[wasm_bindgen(unchecked_return_type = "ChipFit")]
pub fn fit_chip(scenario_json: &str, candidates_json: &str) -> Result<JsValue, JsError> {
    let s = Scenario::from_json(scenario_json).map_err(js_err)?;
    let candidates: Vec<ChipSpec> =
        serde_json::from_str(candidates_json).map_err(|e| js_err(format!("invalid candidate chips: {e}")))?;
    let fit = ftl_sim::fit::fit_scenario(&s, &candidates).map_err(js_err)?;
    to_js(&fit)
}

/// Why the scenario cannot run, or None. `geometry_only`: scheme, parameters and chip from
/// the registry's rules (ftl_sim::fit::check_geometry, cheap: the form asks on every
/// edit); otherwise the whole scenario as a Session would take it (its workload generated
/// on the scheme's logical space), built once here and dropped.
#[wasm_bindgen]
pub fn scenario_error(scenario_json: &str, geometry_only: bool) -> Option<String> {
    let check = || -> Result<(), String> {
        let s = Scenario::from_json(scenario_json)?;
        if geometry_only {
            return ftl_sim::fit::check_geometry(&s);
        }
        s.validate()?;
        memory_for(&s)?;
        s.build().map(|_| ())
    };
    check().err()
}
