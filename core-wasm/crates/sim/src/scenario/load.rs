//! Running a trace: a scenario whose workload is `{kind: "trace", ...}`, or a trace
//! parsed separately (the browser worker streams it in chunks) plus a scenario.

use super::Scenario;
use crate::ftl;
use crate::nand::{Chip, Geometry};
use crate::sim::Simulator;
use crate::trace::fit::{Fit, Space, SummaryCounter, TraceSummary};
use crate::trace::gen::Workload;
use crate::trace::parse::{parse_bytes, RawTrace, TraceOptions};

impl Scenario {
    /// The simulator for this scenario: its workload generated, or its trace parsed and
    /// fitted (beside the scenario, above `trace`, which never imports scenarios).
    pub fn build(&self) -> Result<Simulator, String> {
        if matches!(self.workload, Workload::Trace { .. }) {
            return build_trace(self).map(|(sim, _)| sim);
        }
        let first = self.fresh()?;
        let space = self.workload_pages(first.ftl.logical_pages())?;
        let reqs = self.requests(space, first.ftl.time_shift())?;
        let fresh = self.factory(&first);
        let mut sim = Simulator::with_state(first, fresh, reqs);
        if let Some(t) = self.run.timing {
            sim.set_timing(t)?;
        }
        Ok(sim)
    }
}

/// Parser options for a trace workload on the scenario's chip.
pub fn options_for(scenario: &Scenario) -> Result<(TraceOptions, Fit), String> {
    let chip = scenario.chip.chip()?;
    match &scenario.workload {
        Workload::Trace { format, fit, device, skip_bad_lines, blkparse_action, .. } => Ok((
            TraceOptions {
                format: *format,
                page_bytes: chip.geometry.page_bytes,
                device: device.clone(),
                skip_bad_lines: *skip_bad_lines,
                blkparse_action: blkparse_action.clone().unwrap_or_else(|| "D".into()),
                ..TraceOptions::default()
            },
            *fit,
        )),
        _ => Err("the scenario's workload is not a trace".into()),
    }
}

/// Builds a scenario whose workload is `Workload::Trace`: parse, fit, simulate.
pub fn build_trace(scenario: &Scenario) -> Result<(Simulator, TraceSummary), String> {
    let (opts, fit) = options_for(scenario)?;
    let Workload::Trace { text, .. } = &scenario.workload else { unreachable!() };
    let raw = parse_bytes(text.as_bytes(), opts).map_err(|e| format!("trace: {e}"))?;
    build_with_raw(scenario, &raw, fit)
}

/// Builds a simulator for `scenario`'s scheme and chip running the parsed trace `raw`,
/// fitted with `fit`. With `Fit::Scale` the chip's block count is raised to the
/// smallest one whose scheme exports enough logical pages (the summary's
/// `logical_pages` and the returned simulator show the size chosen).
pub fn build_with_raw(scenario: &Scenario, raw: &RawTrace, fit: Fit) -> Result<(Simulator, TraceSummary), String> {
    let (sc, scaled) = scaled(scenario, raw, fit)?;
    let first = sc.fresh()?;
    let (reqs, summary) = fit_into(&sc, raw, fit, first.ftl.logical_pages(), first.flash.ppb(), scaled)?;
    // The arrivals are kept whatever the model: `Simulator::set_timing` may open it later.
    finish(&sc, first, reqs.into(), raw.schedule(), summary)
}

/// As `build_with_raw`, taking the parsed trace to free it as soon as it is fitted: the
/// trace, its fitted requests and the chip are never all in memory at once (`ftl run`;
/// issue 37). In the closed model it also drops the trace's timestamps before the fit,
/// so the simulator cannot be switched to the open model afterwards (`set_timing`
/// refuses: no arrival times); otherwise the same simulator and summary as
/// `build_with_raw`.
pub fn build_with_raw_owned(
    scenario: &Scenario,
    mut raw: RawTrace,
    fit: Fit,
) -> Result<(Simulator, TraceSummary), String> {
    let (sc, scaled) = scaled(scenario, &raw, fit)?;
    if sc.run.precondition.is_some() {
        // The preconditioned state is built once and kept (`factory`): no cheaper probe.
        return build_with_raw(scenario, &raw, fit);
    }
    let schedule = raw.schedule_timed(is_open(&sc));
    if !is_open(&sc) {
        raw.times = Default::default();
    }
    // The scheme's space from the scheme alone (as `fresh` builds it), not the whole chip.
    let chip = sc.chip.chip()?;
    super::check_params(&sc.scheme, &sc.params, &chip.geometry)?;
    let logical = ftl::build_on_chip(&sc.scheme, &sc.params, &chip)?.logical_pages();
    // As runs of pages, 4 bytes a one-page run: the run loop expands them (issue 37).
    let space = space_of(&sc, logical, chip.geometry.pages_per_block)?;
    let (reqs, summary) = raw.fit_packed(Some(space), fit)?;
    let summary = finish_summary(summary, scaled);
    drop(raw);
    let first = sc.fresh()?;
    debug_assert_eq!(first.ftl.logical_pages(), logical);
    finish(&sc, first, reqs, schedule, summary)
}

/// A run of `scenario` (closed model, no preconditioning, fit none or fold) fed its trace
/// batch by batch as it is parsed (`sim::StreamRun`; issue 37): the trace is never held
/// whole. The chip is the scenario's (scale needs the whole trace first).
pub fn stream_run(scenario: &Scenario, fit: Fit) -> Result<crate::sim::StreamRun, String> {
    if is_open(scenario) || scenario.run.precondition.is_some() || !matches!(fit, Fit::None | Fit::Fold) {
        return Err("a streamed run is closed-model, not preconditioned, fitted by none or fold".into());
    }
    let first = scenario.fresh()?;
    let space = space_of(scenario, first.ftl.logical_pages(), first.flash.ppb())?;
    let fresh = scenario.factory(&first);
    let mut run = crate::sim::StreamRun::new(first, fresh, space, fit)?;
    if let Some(t) = scenario.run.timing {
        run.sim_mut().set_timing(t)?;
    }
    Ok(run)
}

/// A streamed run's summary (`sim::Streamed::summary`) as `build_with_raw` gives it: with
/// the unwritten-reads warning (a streamed chip is never scaled).
pub fn streamed_summary(summary: TraceSummary) -> TraceSummary {
    finish_summary(summary, None)
}

/// The summary `build_with_raw` returns, without building the chip or keeping the
/// fitted requests (`ftl trace`; issue 37): the same checks and the same errors, from the
/// scheme's space alone as `build_with_raw_owned` takes it.
pub fn summary_with_raw(scenario: &Scenario, raw: &RawTrace, fit: Fit) -> Result<TraceSummary, String> {
    summary_with_counts(scenario, raw, fit, None)
}

/// `summary_with_raw` of an upload whose counts `counter` holds (the browser's fit preview:
/// no whole-trace pass of the counts again after the parse; issue 37 item 6). The same
/// summary or error.
pub fn summary_with_counts(
    scenario: &Scenario,
    raw: &RawTrace,
    fit: Fit,
    counter: Option<&SummaryCounter>,
) -> Result<TraceSummary, String> {
    let (sc, scaled) = scaled_to(scenario, raw, fit, || match counter {
        Some(c) if c.counted() => c.max_page(),
        _ => raw.max_page(),
    })?;
    if sc.run.precondition.is_some() {
        return build_with_raw(scenario, raw, fit).map(|(_, s)| s);
    }
    let chip = sc.chip.chip()?;
    super::check_params(&sc.scheme, &sc.params, &chip.geometry)?;
    let ftl = ftl::build_on_chip(&sc.scheme, &sc.params, &chip)?;
    let (logical, time_shift) = (ftl.logical_pages(), ftl.time_shift());
    drop(ftl);
    let space = space_of(&sc, logical, chip.geometry.pages_per_block)?;
    let summary = match counter {
        Some(c) => raw.fit_summary_counted(Some(space), fit, c)?,
        None => raw.fit_summary(Some(space), fit)?,
    };
    let summary = finish_summary(summary, scaled);
    if !time_shift && raw.has_time_shift() {
        return Err(time_shift_refused(&sc));
    }
    // `Simulator::set_timing`'s refusal (e.g. trace arrivals without timestamps).
    if let Some(t) = sc.run.timing {
        let mut rng = crate::trace::rng::SplitMix64::new(t.seed);
        t.arrivals(&raw.schedule_timed(is_open(&sc)), || rng.unit())?;
    }
    Ok(summary)
}

/// `summary_with_raw`'s summary counted batch by batch while the trace is parsed (`ftl
/// trace`; issue 37: the fit and the counts were 45 % of its instructions, all after the
/// parse): the `FitStream` a streamed run uses. Only where `summary_with_raw` would fit
/// the held trace the same way: no precondition, no timing, fit none or fold (no
/// scaling); the scheme's space is built before the parse, with `summary_with_raw`'s
/// checks. Any error from here (or from `finish`) means: take the held path.
pub fn summary_stream(scenario: &Scenario, fit: Fit) -> Result<SummaryStream, String> {
    if scenario.run.precondition.is_some() || scenario.run.timing.is_some() || !matches!(fit, Fit::None | Fit::Fold) {
        return Err("a streamed summary is untimed, not preconditioned, fitted by none or fold".into());
    }
    let chip = scenario.chip.chip()?;
    super::check_params(&scenario.scheme, &scenario.params, &chip.geometry)?;
    let ftl = ftl::build_on_chip(&scenario.scheme, &scenario.params, &chip)?;
    let (logical, time_shift) = (ftl.logical_pages(), ftl.time_shift());
    drop(ftl);
    let space = space_of(scenario, logical, chip.geometry.pages_per_block)?;
    Ok(SummaryStream {
        fit: crate::trace::fit::FitStream::new(space, fit)?,
        page_bytes: chip.geometry.page_bytes,
        time_shift,
        shifted: false,
        scratch: Vec::new(),
        hash: Default::default(),
        refused: time_shift_refused(scenario),
    })
}

/// A summary counted batch by batch (`summary_stream`).
pub struct SummaryStream {
    fit: crate::trace::fit::FitStream,
    page_bytes: u32,
    /// The scheme runs freeze / unfreeze / revert.
    time_shift: bool,
    /// A freeze, unfreeze or revert came.
    shifted: bool,
    /// `FitStream::push`'s fitted requests and their hash, which a summary does not keep.
    scratch: Vec<crate::trace::Request>,
    hash: crate::trace::RequestHash,
    refused: String,
}

impl SummaryStream {
    /// Counts and fits one batch (`TraceParser::take_batch`).
    pub fn push(&mut self, batch: &crate::trace::parse::Batch) {
        self.scratch.clear();
        self.shifted |= self.fit.push(batch, &mut self.scratch, &mut self.hash);
    }

    /// The summary `summary_with_raw` gives for the whole trace: `raw` is the parse's end
    /// (`TraceParser::finish`), its last requests not yet taken. An error is `summary_with_raw`'s
    /// (the held path tells which, and shows the trace's own summary beside it).
    pub fn finish(mut self, raw: &mut RawTrace) -> Result<TraceSummary, String> {
        self.push(&raw.take_batch());
        if raw.page_bytes != self.page_bytes {
            return Err("the trace's page size is not the chip's".into());
        }
        let summary = finish_summary(self.fit.finish(raw)?, None);
        if !self.time_shift && self.shifted {
            return Err(self.refused);
        }
        Ok(summary)
    }
}

fn is_open(sc: &Scenario) -> bool {
    sc.run.timing.is_some_and(|t| t.model == crate::timing::Model::Open)
}

/// The chip's block count and why, when `Fit::Scale` grows it.
type Scaled = Option<(u32, String)>;

/// The scenario with the chip `Fit::Scale` needs for `raw`.
fn scaled(scenario: &Scenario, raw: &RawTrace, fit: Fit) -> Result<(Scenario, Scaled), String> {
    scaled_to(scenario, raw, fit, || raw.max_page())
}

/// `scaled`, the trace's highest page given by `max_page` (held counts, or a pass of `raw`).
fn scaled_to(
    scenario: &Scenario,
    raw: &RawTrace,
    fit: Fit,
    max_page: impl FnOnce() -> Option<u64>,
) -> Result<(Scenario, Scaled), String> {
    let mut sc = scenario.clone();
    let chip = sc.chip.chip()?;
    if chip.geometry.page_bytes != raw.page_bytes {
        return Err(format!(
            "the trace was split into {}-byte pages but the chip has {}-byte pages: parse it again with page_bytes {}",
            raw.page_bytes, chip.geometry.page_bytes, chip.geometry.page_bytes
        ));
    }
    let mut scaled = None;
    // A comparison's runs share one chip and space decided once (plan::plan): no scaling here.
    if fit == Fit::Scale && sc.run.workload_space.is_none() {
        if let Some(max) = max_page() {
            let blocks = blocks_needed(&sc, &chip, max + 1)?;
            if blocks != chip.geometry.blocks {
                scaled = Some((blocks, format!(
                    "scaled the chip from {} to {} blocks so the scheme exports at least {} logical pages; no request changed",
                    chip.geometry.blocks,
                    blocks,
                    max + 1
                )));
                sc.chip.blocks = Some(blocks);
            }
        }
    }
    Ok((sc, scaled))
}

/// The trace's requests fitted into the space of a scheme exporting `logical` pages in
/// blocks of `ppb`, and the summary.
fn fit_into(
    sc: &Scenario,
    raw: &RawTrace,
    fit: Fit,
    logical: u32,
    ppb: u32,
    scaled: Scaled,
) -> Result<(Vec<crate::trace::Request>, TraceSummary), String> {
    let space = space_of(sc, logical, ppb)?;
    let (reqs, summary) = raw.fit(Some(space), fit)?;
    Ok((reqs, finish_summary(summary, scaled)))
}

/// The space the trace is fitted into: the scheme's `logical` pages in blocks of `ppb`,
/// or the comparison's shared workload space.
fn space_of(sc: &Scenario, logical: u32, ppb: u32) -> Result<Space, String> {
    Ok(match sc.run.workload_space {
        Some(ws) => Space { logical_pages: sc.workload_pages(logical)?, pages_per_block: ws.pages_per_block },
        None => Space { logical_pages: logical, pages_per_block: ppb },
    })
}

/// The fit's summary with the scaling note and the unwritten-reads warning.
fn finish_summary(mut summary: TraceSummary, scaled: Scaled) -> TraceSummary {
    if let Some((blocks, note)) = scaled {
        summary.scaled_blocks = Some(blocks);
        summary.fit_note = note;
    }
    // Reads of never-written pages find nothing: above 5 % they matter (the run's
    // metrics count them apart and leave them out of the read latency).
    let (u, r) = (summary.reads_of_unwritten, summary.reads);
    if r > 0 && u * 20 > r && !summary.warnings.iter().any(|w| w.contains("never wrote")) {
        summary.warnings.push(format!(
            "{u} of the {r} reads ({:.1} %) are of pages the trace never wrote before: they find nothing on the chip; the metrics count them as unwritten reads and leave them out of the read latency",
            u as f64 * 100.0 / r as f64
        ));
    }
    summary
}

/// The error of a workload that freezes, unfreezes or reverts on a scheme that does not.
pub fn time_shift_refused(sc: &Scenario) -> String {
    format!("the workload uses freeze / unfreeze / revert, which scheme '{}' does not support", sc.scheme)
}

/// The simulator of the fitted requests on the fresh state `first`.
fn finish(
    sc: &Scenario,
    first: crate::sim::State,
    reqs: crate::trace::requests::Requests,
    schedule: crate::timing::Schedule,
    summary: TraceSummary,
) -> Result<(Simulator, TraceSummary), String> {
    if !first.ftl.time_shift() && reqs.iter().any(|r| r.lpn().is_none()) {
        return Err(time_shift_refused(sc));
    }
    let fresh = sc.factory(&first);
    let mut sim = Simulator::with_requests(first, fresh, reqs);
    // One host request per trace record, with its arrival time (timing.rs).
    sim.set_schedule(schedule)?;
    if let Some(t) = sc.run.timing {
        sim.set_timing(t)?;
    }
    Ok((sim, summary))
}

/// Smallest block count (at least the chip's) whose scheme exports `need` logical pages.
/// Built on the chip with its timing (`ftl::build_on_chip`): RFTL and GFTL derive their
/// parameters from it, and RFTL's exported space is what scaling must see.
pub(crate) fn blocks_needed(sc: &Scenario, chip: &Chip, need: u64) -> Result<u32, String> {
    let g = chip.geometry;
    let exports = |blocks: u32| -> Option<u64> {
        let mut c = chip.clone();
        c.geometry = Geometry { blocks, ..g };
        c.geometry.validate().ok()?;
        ftl::build_on_chip(&sc.scheme, &sc.params, &c).ok().map(|f| f.logical_pages() as u64)
    };
    // No scheme exports more logical pages than the chip has: a trace addressing more
    // than the largest chip's pages is refused before any chip is built.
    let largest = ((1u64 << 26) / g.pages_per_block.max(1) as u64) as u32;
    if need > 1 << 26 {
        return Err(format!(
            "scaling: the trace needs {need} logical pages, more than the largest chip has ({largest} blocks of {} pages, {} pages); choose fold or compact",
            g.pages_per_block,
            1u64 << 26
        ));
    }
    if exports(g.blocks).is_some_and(|n| n >= need) {
        return Ok(g.blocks);
    }
    let mut lo = g.blocks; // too small
    let mut hi = g.blocks.max(2);
    loop {
        hi = hi.saturating_mul(2);
        let too_big = (hi as u64) * (g.pages_per_block as u64) > 1 << 26;
        if too_big {
            hi = ((1u64 << 26) / g.pages_per_block as u64) as u32;
        }
        match exports(hi) {
            Some(n) if n >= need => break,
            _ if too_big => {
                return Err(format!(
                    "scaling: the trace needs {need} logical pages, more than scheme '{}' exports on the largest chip ({hi} blocks of {} pages); choose fold or compact",
                    sc.scheme, g.pages_per_block
                ))
            }
            _ => lo = hi,
        }
    }
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if exports(mid).is_some_and(|n| n >= need) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Ok(hi)
}
