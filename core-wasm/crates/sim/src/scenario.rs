//! A scenario: scheme and parameters, chip, workload — plain data shared by the
//! app (as JSON, in the URL) and the CLI.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

use crate::ftl::{self, SchemeParams};
use crate::nand::{Chip, Flash};
use crate::sim::{Simulator, State};
use crate::trace::gen::Workload;
use crate::trace::Request;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ChipSpec {
    pub preset: String,
    pub blocks: Option<u32>,
    pub pages_per_block: Option<u32>,
}

impl Default for ChipSpec {
    fn default() -> Self {
        ChipSpec { preset: "classroom".into(), blocks: None, pages_per_block: None }
    }
}

impl ChipSpec {
    pub fn chip(&self) -> Result<Chip, String> {
        let mut chip = Chip::preset(&self.preset)?;
        if let Some(b) = self.blocks {
            chip.geometry.blocks = b;
        }
        if let Some(p) = self.pages_per_block {
            chip.geometry.pages_per_block = p;
        }
        chip.geometry.validate()?;
        Ok(chip)
    }
}

/// Unknown top-level fields are ignored (the app keeps view options beside these).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    pub scheme: String,
    #[serde(default)]
    pub params: SchemeParams,
    #[serde(default)]
    pub chip: ChipSpec,
    pub workload: Workload,
}

impl Scenario {
    pub fn from_json(json: &str) -> Result<Scenario, String> {
        serde_json::from_str(json).map_err(|e| format!("invalid scenario: {e}"))
    }

    /// A fresh chip and scheme, checked once so the factory cannot fail later.
    pub fn fresh(&self) -> Result<State, String> {
        let chip = self.chip.chip()?;
        let ftl = ftl::build_on_chip(&self.scheme, &self.params, &chip)?;
        Ok(State::new(Flash::new(chip), ftl))
    }

    pub fn requests(&self, logical_pages: u32, time_shift: bool) -> Result<Vec<Request>, String> {
        let reqs = self.workload.requests(logical_pages)?;
        if !time_shift && reqs.iter().any(|r| r.lpn().is_none()) {
            return Err(format!(
                "the workload uses freeze / unfreeze / revert, which scheme '{}' does not support",
                self.scheme
            ));
        }
        Ok(reqs)
    }

    /// Recovery from the chip alone for this scenario's scheme.
    pub fn recoverer(&self) -> crate::crash::Recover {
        let (scheme, params) = (self.scheme.clone(), self.params.clone());
        Arc::new(move |flash| ftl::recover(&scheme, &params, flash))
    }

    pub fn build(&self) -> Result<Simulator, String> {
        if matches!(self.workload, Workload::Trace { .. }) {
            return crate::trace::load::build_trace(self).map(|(sim, _)| sim);
        }
        let first = self.fresh()?;
        let reqs = self.requests(first.ftl.logical_pages(), first.ftl.time_shift())?;
        let me = self.clone();
        let fresh = Arc::new(move || me.fresh().expect("scenario was validated"));
        Ok(Simulator::with_state(first, fresh, reqs))
    }
}

/// The `Session.info()` / `ftl info` record.
pub fn info_json(scenario: &Scenario, sim: &Simulator) -> String {
    let s = &sim.state;
    let c = &s.flash.chip;
    let t = c.timing;
    let us = |ns: u64| ns as f64 / 1000.0;
    serde_json::json!({
        "scheme": s.ftl.name(),
        "scheme_label": ftl::SCHEMES.iter().find(|x| x.0 == s.ftl.name()).map(|x| x.1).unwrap_or(""),
        "chip": {
            "name": c.name,
            "blocks": c.geometry.blocks,
            "pages_per_block": c.geometry.pages_per_block,
            "page_bytes": c.geometry.page_bytes,
            "spare_bytes": c.geometry.spare_bytes,
            "timing": {"read_us": us(t.read_ns), "read_oob_us": us(t.read_oob_ns), "program_us": us(t.program_ns), "erase_us": us(t.erase_ns)},
        },
        "logical_pages": s.ftl.logical_pages(),
        "total_requests": sim.total(),
        "params": scenario.params,
        "keyframe_interval": sim.keyframe_interval(),
    })
    .to_string()
}
