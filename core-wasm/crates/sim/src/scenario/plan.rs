//! The chip and workload space of each run of a comparison or sweep (issues 16, 27):
//! `plan` decides them for every configuration from that configuration and the workload
//! alone, never from the other members of the set, so that a row of a sweep, the same
//! configuration run alone (`ftl run`) and the same row in another order give identical
//! figures. One workload for every run is had by giving the space (`space`, `ftl
//! --space N`, the app's "Workload space" field): then every configuration that can
//! hold it gets the same request list, and one that cannot fails alone, named. Part of
//! `scenario` (it needs scenarios and `trace::fit`), so `trace` stays free of scenarios.

use serde::Serialize;
use ts_rs::TS;

use super::load::blocks_needed;
use super::{Scenario, WorkloadSpace};
use crate::ftl;
use crate::nand::Chip;
use crate::trace::fit::Fit;
use crate::trace::gen::Workload;

/// One run of a comparison or sweep, as `plan` decided it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct PlanRun {
    /// The chip the run gets (grown by `scale` when the trace needs it).
    pub blocks: u32,
    pub pages_per_block: u32,
    /// The scheme's own logical space on that chip (None when it cannot be built).
    pub logical_pages: Option<u32>,
    /// The logical space the run's workload is generated or fitted in: the space given,
    /// or the scheme's own (None when the run cannot run).
    pub workload_pages: Option<u32>,
    /// Why this configuration cannot run the workload.
    pub error: Option<String>,
}

/// The chip and workload space of every run of a comparison or sweep.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Plan {
    pub fit: Fit,
    /// The workload space given for every run (None: each run's own space).
    pub space: Option<u32>,
    pub runs: Vec<PlanRun>,
    /// One sentence for the UI, exports and `ftl sweep`.
    pub note: String,
}

impl Plan {
    /// `scenarios` with the plan applied (chip and workload space); a run that cannot
    /// hold the workload keeps its error.
    pub fn apply(&self, scenarios: &[Scenario]) -> Vec<Result<Scenario, String>> {
        scenarios.iter().zip(&self.runs).map(|(sc, r)| r.apply(sc)).collect()
    }

    /// How many runs can run.
    pub fn runnable(&self) -> usize {
        self.runs.iter().filter(|r| r.error.is_none()).count()
    }
}

impl PlanRun {
    /// `sc` on this run's chip with its workload space, or the run's error.
    pub fn apply(&self, sc: &Scenario) -> Result<Scenario, String> {
        if let Some(e) = &self.error {
            return Err(e.clone());
        }
        let mut sc = sc.clone();
        sc.chip.blocks = Some(self.blocks);
        sc.chip.pages_per_block = Some(self.pages_per_block);
        sc.run.workload_space = self
            .workload_pages
            .map(|logical_pages| WorkloadSpace { logical_pages, pages_per_block: self.pages_per_block });
        Ok(sc)
    }
}

/// Decides one configuration's chip and workload space from itself and the workload.
/// `need`: for a trace, the logical pages that hold it unchanged (highest page + 1);
/// `fit`: the trace's fit (ignored for generated workloads); `space`: the workload space
/// given (None: the scheme's own). A configuration that cannot hold the workload gets an
/// error that names why (never another workload).
pub fn plan_one(sc: &Scenario, fit: Fit, need: Option<u64>, space: Option<u32>) -> PlanRun {
    let mut run = PlanRun { blocks: 0, pages_per_block: 0, logical_pages: None, workload_pages: None, error: None };
    let chip = match sc.chip.chip() {
        Ok(c) => c,
        Err(e) => {
            run.error = Some(e);
            return run;
        }
    };
    run.blocks = chip.geometry.blocks;
    run.pages_per_block = chip.geometry.pages_per_block;
    // The pages the run's scheme must export: the trace unchanged (none, scale) and the
    // space given.
    let unchanged = matches!(fit, Fit::None | Fit::Scale).then_some(need).flatten();
    let must = unchanged.unwrap_or(0).max(space.unwrap_or(0) as u64);
    if fit == Fit::Scale && must > 0 {
        match blocks_needed(sc, &chip, must) {
            Ok(b) => run.blocks = b,
            Err(e) => {
                run.error = Some(e);
                return run;
            }
        }
    }
    let mut chip: Chip = chip;
    chip.geometry.blocks = run.blocks;
    let own = match chip.geometry.validate().and_then(|_| ftl::build_on_chip(&sc.scheme, &sc.params, &chip)) {
        Ok(f) => f.logical_pages(),
        Err(e) => {
            run.error = Some(e);
            return run;
        }
    };
    run.logical_pages = Some(own);
    if let Some(s) = space {
        if s == 0 {
            run.error = Some("the workload space must be at least 1 page".into());
            return run;
        }
        if s > own {
            run.error = Some(format!(
                "exports {own} logical pages, fewer than the workload space of {s} pages: it cannot hold the workload"
            ));
            return run;
        }
    }
    let ws = space.unwrap_or(own);
    if let Some(n) = unchanged {
        if (ws as u64) < n {
            run.error = Some(format!(
                "{} {ws} logical pages; the trace needs {n} unchanged: choose --fit fold, compact or scale",
                if space.is_some() { "the workload space has" } else { "exports" }
            ));
            return run;
        }
    }
    run.workload_pages = Some(ws);
    run
}

/// Does the request list depend on the workload space? Generated workloads are made in
/// it and folded or compacted traces fitted into it; a trace run unchanged (or on a
/// scaled chip) and a pattern are the same requests in any space.
pub fn space_shapes_requests(w: &Workload) -> bool {
    match w {
        Workload::Pattern { .. } => false,
        Workload::Trace { fit, .. } => matches!(fit, Fit::Fold | Fit::Compact),
        _ => true,
    }
}

/// The one workload space for a set of runs that compare schemes on one chip (issue 38,
/// item 2: "fair by default"): the smallest logical space among them, so every run can
/// hold it and all replay one request list. Runs that cannot be built are left out (they
/// fail alone when run); None when none can be built. Each run is then planned alone
/// with this space given (`plan_one`), as `ftl run --space N` would.
pub fn common_space(scenarios: &[Scenario]) -> Option<u32> {
    scenarios.iter().filter_map(|sc| plan_one(sc, Fit::None, None, None).logical_pages).min()
}

/// Decides the chip and workload space of every run, each from itself alone
/// (`plan_one`); `Err` only when no run can run.
pub fn plan(scenarios: &[Scenario], fit: Fit, need: Option<u64>, space: Option<u32>) -> Result<Plan, String> {
    let runs: Vec<PlanRun> = scenarios.iter().map(|sc| plan_one(sc, fit, need, space)).collect();
    if !runs.iter().any(|r| r.error.is_none()) {
        let why = runs.iter().filter_map(|r| r.error.as_deref()).next().unwrap_or("no runs");
        return Err(format!("no configuration can run: {why}"));
    }
    let where_ = match space {
        Some(s) => format!("the workload space given, {s} logical pages, for every run"),
        None => "each run's own logical space (give a workload space for one request list across runs)".into(),
    };
    let how = match (fit, need) {
        (Fit::Scale, Some(_)) => {
            format!("trace addresses unchanged, each chip scaled until its scheme holds them; {where_}")
        }
        (Fit::Fold, Some(_)) => format!("trace folded into {where_}"),
        (Fit::Compact, Some(_)) => format!("trace compacted into {where_}"),
        (_, Some(_)) => format!("trace addresses unchanged; {where_}"),
        (_, None) => format!("workload generated in {where_}"),
    };
    let note = format!("each run is planned alone (never from the other runs): {how}");
    Ok(Plan { fit, space, runs, note })
}
