//! One workload and one chip for every run of a comparison or sweep (issue 16): `plan`
//! decides them once from the runs' scenarios. Above `scenario` and `fit` (it needs
//! both), so `fit` stays free of scenarios.

use serde::Serialize;

use super::fit::Fit;
use super::load::blocks_needed;
use crate::ftl;
use crate::nand::Geometry;
use crate::scenario::{Scenario, WorkloadSpace};

/// One run of a comparison or sweep, as `plan` decided it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlanRun {
    /// The chip the run gets.
    pub blocks: u32,
    pub pages_per_block: u32,
    /// The scheme's own logical space on that chip (None when it cannot be built).
    pub logical_pages: Option<u32>,
    /// Why this configuration cannot run the comparison's workload.
    pub error: Option<String>,
}

/// One workload and one chip for every run of a comparison or sweep (issue 16): decided
/// once, so that no run gets another workload. Fold, compact and the synthetic
/// generators use the smallest logical space of the runs (every run can hold it); scale
/// grows one chip for all, the largest any run needs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    /// The logical space every run's workload is generated or fitted in.
    pub logical_pages: u32,
    /// The unit compact renumbers in (the first runnable configuration's).
    pub pages_per_block: u32,
    pub fit: Fit,
    /// Every runnable configuration has the same geometry (false only when the runs
    /// differ in pages per block).
    pub one_chip: bool,
    pub runs: Vec<PlanRun>,
    /// One sentence for the UI, exports and `ftl sweep`.
    pub note: String,
}

impl Plan {
    /// `scenarios` with the plan applied (chip and common space); a run that cannot
    /// hold the workload keeps its error.
    pub fn apply(&self, scenarios: &[Scenario]) -> Vec<Result<Scenario, String>> {
        scenarios
            .iter()
            .zip(&self.runs)
            .map(|(sc, r)| match &r.error {
                Some(e) => Err(e.clone()),
                None => {
                    let mut sc = sc.clone();
                    sc.chip.blocks = Some(r.blocks);
                    sc.chip.pages_per_block = Some(r.pages_per_block);
                    sc.run.workload_space = Some(WorkloadSpace {
                        logical_pages: self.logical_pages,
                        pages_per_block: self.pages_per_block,
                    });
                    Ok(sc)
                }
            })
            .collect()
    }
}

/// Decides the chip and the workload space of every run of a comparison or sweep.
/// `need`: for a trace, the logical pages that hold it unchanged (highest page + 1);
/// `fit`: the trace's fit (ignored for generated workloads).
pub fn plan(scenarios: &[Scenario], fit: Fit, need: Option<u64>) -> Result<Plan, String> {
    let mut runs: Vec<PlanRun> = Vec::with_capacity(scenarios.len());
    for sc in scenarios {
        let mut run = PlanRun { blocks: 0, pages_per_block: 0, logical_pages: None, error: None };
        match sc.chip.chip() {
            Ok(chip) => {
                let g = chip.geometry;
                run.blocks = g.blocks;
                run.pages_per_block = g.pages_per_block;
                if fit == Fit::Scale {
                    if let Some(n) = need {
                        match blocks_needed(sc, g, n) {
                            Ok(b) => run.blocks = b,
                            Err(e) => run.error = Some(e),
                        }
                    }
                }
            }
            Err(e) => run.error = Some(e),
        }
        runs.push(run);
    }
    // Scale: one chip per page size, the largest any run needs.
    if fit == Fit::Scale {
        for i in 0..runs.len() {
            let ppb = runs[i].pages_per_block;
            let most = runs.iter().filter(|r| r.error.is_none() && r.pages_per_block == ppb).map(|r| r.blocks).max();
            if let Some(b) = most {
                runs[i].blocks = runs[i].blocks.max(b);
            }
        }
    }
    for (sc, run) in scenarios.iter().zip(runs.iter_mut()) {
        if run.error.is_some() {
            continue;
        }
        let g = Geometry { blocks: run.blocks, pages_per_block: run.pages_per_block, ..sc.chip.chip()?.geometry };
        match g.validate().and_then(|_| ftl::build(&sc.scheme, &sc.params, &g)) {
            Ok(f) => run.logical_pages = Some(f.logical_pages()),
            Err(e) => run.error = Some(e),
        }
    }
    let ok: Vec<&PlanRun> = runs.iter().filter(|r| r.error.is_none()).collect();
    let Some(first) = ok.first() else {
        let why = runs.iter().filter_map(|r| r.error.as_deref()).next().unwrap_or("no runs");
        return Err(format!("no configuration can run: {why}"));
    };
    let logical_pages = ok.iter().filter_map(|r| r.logical_pages).min().unwrap_or(0);
    let pages_per_block = first.pages_per_block;
    let one_chip = ok.iter().all(|r| r.blocks == first.blocks && r.pages_per_block == first.pages_per_block);
    if let (Fit::None | Fit::Scale, Some(n)) = (fit, need) {
        if (logical_pages as u64) < n {
            // Every run whose space is too small is reported (scale could not grow it).
            for r in runs.iter_mut().filter(|r| r.error.is_none()) {
                if (r.logical_pages.unwrap_or(0) as u64) < n {
                    r.error = Some(format!(
                        "exports {} logical pages; the trace needs {n} unchanged: choose fold, compact or scale",
                        r.logical_pages.unwrap_or(0)
                    ));
                }
            }
            return Err(format!(
                "the trace needs {n} logical pages unchanged but the smallest space of the runs has {logical_pages}: choose fold, compact or scale"
            ));
        }
    }
    let chip = if one_chip {
        format!("one chip for every run: {} blocks × {} pages", first.blocks, first.pages_per_block)
    } else {
        "chips differ only in pages per block (the swept parameter)".to_string()
    };
    let how = match (fit, need) {
        (Fit::Scale, Some(_)) => "scaled once for all runs, addresses unchanged",
        (Fit::Fold, Some(_)) => "trace folded once into the smallest logical space of the runs",
        (Fit::Compact, Some(_)) => "trace compacted once into the smallest logical space of the runs",
        (_, Some(_)) => "trace addresses unchanged",
        (_, None) => "workload generated once in the smallest logical space of the runs",
    };
    let note = format!("{chip}; {how}: {logical_pages} logical pages");
    Ok(Plan { logical_pages, pages_per_block, fit, one_chip, runs, note })
}
