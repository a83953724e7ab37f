//! A trace streamed into its run (issue 37): `StreamRun` fits, counts, hashes and runs each
//! batch of parsed records, then drops it.

use super::{Fresh, RunMode, Simulator, State};
use crate::timing::Schedule;
use crate::trace::requests::Requests;

/// A trace run as it is parsed (issue 37, item 6 natively: a 2 GiB trace in bounded
/// memory): each batch of parsed page requests (`TraceParser::take_batch`) is fitted,
/// counted for the summary and hashed, run at full speed in the closed model, and
/// dropped. The same simulator state, summary, request count and hash as fitting the
/// whole trace and running it (`scenario::load::build_with_raw_owned`, tests/traces.rs);
/// the summary is known at the end, after the run. Once the result is an error (a page
/// beyond the space under none or scale, freeze on a scheme without it, a failed
/// request) nothing more runs, and the rest is only counted.
pub struct StreamRun {
    sim: Simulator,
    fit: crate::trace::fit::FitStream,
    hash: crate::trace::RequestHash,
    /// The scheme runs freeze / unfreeze / revert.
    time_shift: bool,
    /// A request the scheme does not support came: nothing more runs.
    refused_time_shift: bool,
    run_error: Option<String>,
}

/// What a streamed run ends with.
pub struct Streamed {
    pub sim: Simulator,
    /// The summary, or the fit's error (`RawTrace::fit`'s).
    pub summary: Result<crate::trace::fit::TraceSummary, String>,
    /// `trace::request_hash` of every fitted request.
    pub request_hash: String,
    /// The logical pages that hold the trace unchanged (highest page + 1; None: no read or
    /// write), known whatever the fit's outcome (`scenario::plan::plan_one`'s `need`).
    pub need: Option<u64>,
    /// A freeze / unfreeze / revert came, which the scheme does not support.
    pub refused_time_shift: bool,
    /// The request that failed (`Simulator::run`'s error).
    pub run_error: Option<String>,
}

impl StreamRun {
    /// A run of `first` (the fresh state, closed model) fed the trace fitted into `space`.
    pub fn new(
        first: State,
        fresh: Fresh,
        space: crate::trace::fit::Space,
        fit: crate::trace::fit::Fit,
    ) -> Result<StreamRun, String> {
        let time_shift = first.ftl.time_shift();
        let mut sim = Simulator::with_requests(first, fresh, Requests::default());
        sim.set_mode(RunMode::FullSpeed);
        Ok(StreamRun {
            sim,
            fit: crate::trace::fit::FitStream::new(space, fit)?,
            hash: Default::default(),
            time_shift,
            refused_time_shift: false,
            run_error: None,
        })
    }

    /// The simulator (e.g. to record its timeline before the first batch).
    pub fn sim_mut(&mut self) -> &mut Simulator {
        &mut self.sim
    }

    /// Fits, counts, hashes and runs one batch.
    pub fn push(&mut self, batch: crate::trace::parse::Batch) {
        self.push_with::<true>(batch)
    }

    /// A fresh `StreamCounts` of this run's space: the caller counts every batch in it
    /// (`StreamCounts::add`, e.g. on the parse thread: `ftl run`), feeds them with
    /// `push_counted` and ends with `finish_counted`.
    pub fn counter(&self) -> crate::trace::fit::StreamCounts {
        self.fit.counter()
    }

    /// `push` of a batch the caller counts (`counter`): fits, hashes and runs it.
    pub fn push_counted(&mut self, batch: crate::trace::parse::Batch) {
        self.push_with::<false>(batch)
    }

    fn push_with<const COUNT: bool>(&mut self, batch: crate::trace::parse::Batch) {
        // As `Request`s (8 bytes each, a batch at a time): cheaper to fill than runs.
        let mut reqs = Vec::new();
        let shifted = if COUNT {
            self.fit.push(&batch, &mut reqs, &mut self.hash)
        } else {
            self.fit.push_fitted(&batch, &mut reqs, &mut self.hash)
        };
        if shifted && !self.time_shift {
            self.refused_time_shift = true;
        }
        if !self.fit.fitting() || self.refused_time_shift || self.run_error.is_some() || reqs.is_empty() {
            return;
        }
        let schedule = Schedule::new(batch.starts, reqs.len(), None);
        let r = self.sim.feed_requests(reqs.into(), schedule).and_then(|()| self.sim.run(usize::MAX));
        if let Err(e) = r {
            self.run_error = Some(e);
        }
    }

    /// Ends the run: `raw` is `TraceParser::finish`'s trace (its last requests are run here).
    pub fn finish(mut self, mut raw: crate::trace::parse::RawTrace) -> Streamed {
        self.push(raw.take_batch());
        let counts = self.fit.take_counts();
        self.conclude(raw, counts)
    }

    /// `finish` of a run fed by `push_counted`: `counts` holds every batch pushed (the
    /// last requests, still in `raw`, are counted and run here).
    pub fn finish_counted(
        mut self,
        mut raw: crate::trace::parse::RawTrace,
        mut counts: crate::trace::fit::StreamCounts,
    ) -> Streamed {
        let batch = raw.take_batch();
        counts.add(&batch);
        self.push_counted(batch);
        self.conclude(raw, counts)
    }

    fn conclude(self, raw: crate::trace::parse::RawTrace, counts: crate::trace::fit::StreamCounts) -> Streamed {
        Streamed {
            need: counts.need(),
            summary: self.fit.finish_counted(&raw, counts),
            sim: self.sim,
            request_hash: self.hash.hex(),
            refused_time_shift: self.refused_time_shift,
            run_error: self.run_error,
        }
    }
}
