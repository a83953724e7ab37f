//! A scenario on a device of several dies (issue 40; ssd, docs/ssd.md): the workload is
//! planned over the device's logical space, D × a die's (whole stripe units), and each die
//! is the scenario's chip with its scheme. Beside the scenario (it needs plans, traces and
//! scenarios), so `ssd` stays below `scenario`.

use super::plan::{plan_one, PlanRun};
use super::{Scenario, WorkloadSpace};
use crate::sim::Simulator;
use crate::ssd::{device_pages, die_pages_for, Shape};
use crate::timing::Schedule;
use crate::trace::fit::{Fit, Space, TraceSummary};
use crate::trace::gen::Workload;
use crate::trace::parse::{parse_bytes, RawTrace};

/// As `plan_one` for a device of `shape`: the trace's `need` and the workload `space`
/// given are the device's; each die must hold its share (`die_pages_for`). The plan's
/// chip is a die's; its `logical_pages` and `workload_pages` are the device's.
pub fn plan_device(sc: &Scenario, shape: &Shape, fit: Fit, need: Option<u64>, space: Option<u32>) -> PlanRun {
    let ppb = sc.chip.chip().map(|c| c.geometry.pages_per_block).unwrap_or(1);
    let (d, unit) = (shape.dies(), shape.unit(ppb));
    let die_need = need.map(|n| die_pages_for(n, d, unit));
    let die_space = space.map(|s| die_pages_for(s as u64, d, unit).min(u32::MAX as u64) as u32);
    let mut run = plan_one(sc, fit, die_need, die_space);
    if let Some(e) = run.error.take() {
        run.error = Some(format!("on each of the {d} dies: {e}"));
        return run;
    }
    let Some(die) = run.logical_pages else { return run };
    let dev = device_pages(die, d, unit);
    if dev > u32::MAX as u64 {
        run.error = Some(format!("the device exports {dev} logical pages, more than a 32-bit page number holds"));
        return run;
    }
    run.logical_pages = Some(dev as u32);
    run.workload_pages = Some(space.unwrap_or(dev as u32));
    run
}

/// The device's request list for `sc` (`sc.run.device` set; `workload_space` the
/// device's, as `plan_device` gave it): a simulator holding die 0's fresh state and its
/// factory, with the device's requests, host requests and arrivals. Never run it (its
/// LPNs are the device's): hand `requests`, `schedule` and `arrivals` to `Device::run`.
pub fn build(sc: &Scenario, raw: Option<&RawTrace>, fit: Fit) -> Result<(Simulator, Option<TraceSummary>), String> {
    let shape = sc.run.device.ok_or("the scenario has no device")?;
    let mut die = sc.clone();
    die.run.workload_space = None;
    if let Workload::Trace { text, .. } = &mut die.workload {
        // The dies need scheme and chip only.
        *text = String::new();
    }
    let first = die.fresh()?;
    let g = *first.flash.geometry();
    let unit = shape.unit(g.pages_per_block);
    let dev = device_pages(first.ftl.logical_pages(), shape.dies(), unit);
    let ws = sc.run.workload_space.map(|w| w.logical_pages as u64).unwrap_or(dev);
    if ws > dev {
        return Err(format!(
            "the device exports {dev} logical pages ({} dies of {}), fewer than the workload space of {ws} pages",
            shape.dies(),
            first.ftl.logical_pages()
        ));
    }
    let ws = u32::try_from(ws).map_err(|_| format!("a workload space of {ws} pages exceeds 32-bit page numbers"))?;
    let parsed;
    let raw = match (&sc.workload, raw) {
        (_, Some(r)) => Some(r),
        (Workload::Trace { text, .. }, None) => {
            let (opts, _) = super::load::options_for(sc)?;
            parsed = parse_bytes(text.as_bytes(), opts).map_err(|e| format!("trace: {e}"))?;
            Some(&parsed)
        }
        _ => None,
    };
    let (reqs, schedule, summary) = match raw {
        Some(raw) => {
            if raw.page_bytes != g.page_bytes {
                return Err(format!(
                    "the trace was split into {}-byte pages but the chip has {}-byte pages",
                    raw.page_bytes, g.page_bytes
                ));
            }
            let space = Space { logical_pages: ws, pages_per_block: g.pages_per_block };
            let (reqs, summary) = raw.fit(Some(space), fit)?;
            (reqs, raw.schedule(), Some(summary))
        }
        None => {
            let reqs = sc.workload.requests(ws)?;
            let n = reqs.len();
            (reqs, Schedule::per_page(n), None)
        }
    };
    let fresh = die.factory(&first);
    let mut sim = Simulator::with_state(first, fresh, reqs);
    sim.set_schedule(schedule)?;
    if let Some(t) = sc.run.timing {
        sim.set_timing(t)?;
    }
    Ok((sim, summary))
}

/// `sc` planned for a device: the die's chip, the device's workload space and the shape.
pub fn apply(run: &PlanRun, sc: &Scenario, shape: Shape) -> Result<Scenario, String> {
    let mut out = run.apply(sc)?;
    out.run.workload_space =
        run.workload_pages.map(|n| WorkloadSpace { logical_pages: n, pages_per_block: run.pages_per_block });
    out.run.device = Some(shape);
    Ok(out)
}

/// The device of `shape` running `sc`, stepped op by op (the app's `DeviceSession`): its
/// workload planned as `ftl run --channels ...` plans it (`plan_device` over the device's
/// logical space, `apply`, `build`), so the two run the same requests on the same dies.
/// `sc.run.workload_space`, when set, is the device's (the CLI's `--space`). One die is
/// the one chip's scenario as it is (today's Stepper exactly, ssd_step.rs). A trace
/// workload's text is parsed here; an uploaded trace comes parsed (`stepper_on_trace`).
pub fn stepper(sc: &Scenario, shape: Shape, keyframe_bytes: usize) -> Result<crate::ssd_step::DeviceStepper, String> {
    match &sc.workload {
        Workload::Trace { text, .. } if shape.dies() > 1 => {
            let (opts, fit) = super::load::options_for(sc)?;
            let raw = parse_bytes(text.as_bytes(), opts).map_err(|e| format!("trace: {e}"))?;
            stepper_on_trace(sc, shape, Some((&raw, fit)), keyframe_bytes)
        }
        _ => stepper_on_trace(sc, shape, None, keyframe_bytes),
    }
}

/// `stepper` on a trace already parsed (`trace`: an uploaded file the app's device worker
/// read; the scenario's workload gives its fit, its text is not used), planned as `ftl run
/// --trace FILE --channels ...` plans it: the trace's highest page is what the device must
/// hold. `None`: the scenario's own workload (a trace workload's text, one die).
pub fn stepper_on_trace(
    sc: &Scenario,
    shape: Shape,
    trace: Option<(&RawTrace, Fit)>,
    keyframe_bytes: usize,
) -> Result<crate::ssd_step::DeviceStepper, String> {
    if shape.dies() == 1 {
        let sim = match trace {
            Some((raw, fit)) => super::load::build_with_raw(sc, raw, fit)?.0,
            None => sc.build()?,
        };
        let mut dev = crate::ssd_step::DeviceStepper::new(shape, &sc.scheme, &sim, keyframe_bytes)?;
        dev.set_recoverer(sc.recoverer());
        return Ok(dev);
    }
    let fit = trace.map_or(Fit::None, |t| t.1);
    let need = trace.and_then(|t| t.0.max_page()).map(|m| m + 1);
    let ws = sc.run.workload_space.map(|w| w.logical_pages);
    let plan = plan_device(sc, &shape, fit, need, ws);
    let planned = apply(&plan, sc, shape)?;
    let (sim, _) = build(&planned, trace.map(|t| t.0), fit)?;
    let mut dev = crate::ssd_step::DeviceStepper::new(shape, &planned.scheme, &sim, keyframe_bytes)?;
    dev.set_recoverer(planned.recoverer());
    Ok(dev)
}

#[cfg(test)]
mod tests;
