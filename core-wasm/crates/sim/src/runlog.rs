//! What the timeline and the charts need about a whole run, recorded once as the run
//! first passes each step: markers (requests that merged, collected garbage, wrote
//! metadata ...) and a sampled series of cumulative counts. Kept beside the state,
//! not in keyframes; a replay after a seek would record the same values, so the log
//! only grows at its high-water mark.

use serde::Serialize;
use ts_rs::TS;

use crate::nand::{Cause, Flash, OpKind};

pub const MARK_MERGE: u8 = 1;
pub const MARK_GC: u8 = 2;
pub const MARK_METADATA: u8 = 4;
pub const MARK_WRONG_READ: u8 = 8;
pub const MARK_TIME_SHIFT: u8 = 16;
pub const MARK_POWER_CUT: u8 = 32;

/// Cumulative counts at one step (`Session.series()`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, TS)]
#[ts(export, rename = "SeriesPoint")]
pub struct Sample {
    pub step: u32,
    #[ts(type = "number")]
    pub host_writes: u64,
    #[ts(type = "number")]
    pub page_programs: u64,
    #[ts(type = "number")]
    pub erases: u64,
    pub elapsed_us: f64,
}

/// Counts compared before and after a request to classify it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Probe {
    merges: u64,
    gc: u64,
    meta: u64,
}

impl Probe {
    pub fn of(f: &Flash) -> Probe {
        let c = &f.counters;
        Probe {
            merges: c.switch_merges + c.partial_merges + c.full_merges,
            gc: c.gc_runs + f.count(OpKind::Erase, Cause::Gc),
            meta: f.count(OpKind::Program, Cause::Map) + f.count(OpKind::Program, Cause::Log),
        }
    }
}

/// What a stretch of requests is checked by as a whole, before and after it: the chip's
/// `Probe` and the host's counts. Every count in it only grows, so equal ends mean that
/// no request in between merged, collected garbage, wrote metadata or read wrong, and
/// reads + writes grown by the stretch's length mean that every request in it was a read
/// or a write (no time shift). Then none of them is a marker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Quiet {
    probe: Probe,
    wrong_reads: u64,
    io: u64,
}

impl Quiet {
    pub fn of(f: &Flash, host: &crate::metrics::HostCounters) -> Quiet {
        Quiet { probe: Probe::of(f), wrong_reads: host.wrong_reads, io: host.reads + host.writes }
    }
    /// Whether `self` (before) and `after`, `n` requests apart, bound a stretch with no marker.
    pub fn quiet(&self, after: &Quiet, n: usize) -> bool {
        self.probe == after.probe && self.wrong_reads == after.wrong_reads && after.io - self.io == n as u64
    }
}

#[derive(Clone, Debug, Default)]
pub struct RunLog {
    /// (request index, MARK_* bits) of notable requests, in order.
    markers: Vec<(u32, u8)>,
    samples: Vec<Sample>,
    /// Requests covered so far.
    upto: usize,
    sample_every: usize,
}

impl RunLog {
    pub fn new(total: usize) -> RunLog {
        RunLog { sample_every: total.div_ceil(1000).max(1), samples: vec![Sample::default()], ..Default::default() }
    }

    /// Records request `index` (0-based) if the log has not seen it yet: `before` and
    /// `after` are the chip's `Probe` around it (the run loop passes one request's
    /// `after` as the next one's `before`).
    pub fn record(&mut self, index: usize, before: Probe, after: Probe, f: &Flash, host_writes: u64, extra: u8) {
        if index != self.upto {
            return;
        }
        self.upto += 1;
        let mut bits = extra;
        if after.merges != before.merges {
            bits |= MARK_MERGE;
        }
        if after.gc != before.gc {
            bits |= MARK_GC;
        }
        if after.meta != before.meta {
            bits |= MARK_METADATA;
        }
        if bits != 0 {
            self.markers.push((index as u32, bits));
        }
        if self.upto.is_multiple_of(self.sample_every) {
            self.push_sample(f, host_writes);
        }
    }

    /// The sample at `upto`, read from the chip's counters now.
    fn push_sample(&mut self, f: &Flash, host_writes: u64) {
        self.samples.push(Sample {
            step: self.upto as u32,
            host_writes,
            page_programs: f.total(OpKind::Program),
            erases: f.total(OpKind::Erase),
            elapsed_us: f.elapsed_ns as f64 / 1000.0,
        });
    }

    /// The end of the stretch from request `from` that a run can pass unlogged and then
    /// check as a whole (`Stepper::run_ahead`): the next sample's step, at most `end`.
    pub fn stretch_end(&self, from: usize, end: usize) -> usize {
        ((from / self.sample_every + 1) * self.sample_every).min(end)
    }

    /// Takes requests up to `to` as covered, so a player run does not probe them; the
    /// caller checks the stretch afterwards (`quiet`) and either keeps it (`passed`) or
    /// gives it back (`rewind`) and runs it again logged.
    pub fn skip_to(&mut self, to: usize) {
        self.upto = self.upto.max(to);
    }
    /// Gives back a stretch taken by `skip_to`: the log covers requests up to `to` again.
    pub fn rewind(&mut self, to: usize) {
        self.upto = to;
    }
    /// A stretch taken by `skip_to` was quiet (`quiet`): no request in it is a marker, so the
    /// log is what `record` would have made, but for the sample at its end, added here from
    /// the chip's counters after it.
    pub fn passed(&mut self, f: &Flash, host_writes: u64) {
        if self.upto.is_multiple_of(self.sample_every)
            && self.samples.last().is_none_or(|s| s.step as usize != self.upto)
        {
            self.push_sample(f, host_writes);
        }
    }

    pub fn markers(&self) -> &[(u32, u8)] {
        &self.markers
    }
    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }
    /// Requests the log covers (markers and samples are complete up to here).
    pub fn upto(&self) -> usize {
        self.upto
    }
}
