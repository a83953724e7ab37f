//! Host requests in time: which page requests form one host request (a trace record
//! of several pages is one request with one response time), when each arrives, and the
//! timing model that turns the chip's operation times into response times.
//!
//! Closed model: each request starts when the previous one ends (the papers' tables:
//! response = the request's own operations plus the GC / merge work scheduled with it,
//! RFTL section 5.1). Open model: requests arrive at the trace's timestamps (× a time
//! scale) or at a rate; one chip serves the operations in request order, so response =
//! completion − arrival, and a read that arrives while a merge runs waits for the rest
//! of it (RFTL section 3: "the time cost from the request issued from file system to
//! the finishing time"). The papers do not queue; the choice is docs/timing.md's.
//! Depends on metrics only (the trace parser and the simulator use it).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::metrics::{KindTiming, RecoveryTiming, TimeHist, TimingMetrics};

/// Unit of a trace's timestamps (each format has its own, docs/traces.md; `time_unit`
/// overrides it, e.g. `ns` for MQSim's variant of the DiskSim format).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum TimeUnit {
    S,
    Ms,
    Us,
    Ns,
    /// Windows FILETIME ticks of 100 ns (MSR Cambridge).
    Filetime,
}

impl TimeUnit {
    /// Nanoseconds per unit.
    pub fn ns(self) -> f64 {
        match self {
            TimeUnit::S => 1e9,
            TimeUnit::Ms => 1e6,
            TimeUnit::Us => 1e3,
            TimeUnit::Ns => 1.0,
            TimeUnit::Filetime => 100.0,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            TimeUnit::S => "s",
            TimeUnit::Ms => "ms",
            TimeUnit::Us => "us",
            TimeUnit::Ns => "ns",
            TimeUnit::Filetime => "filetime",
        }
    }
    pub fn from_word(w: &str) -> Result<TimeUnit, String> {
        match w.trim().to_ascii_lowercase().as_str() {
            "s" | "sec" | "seconds" => Ok(TimeUnit::S),
            "ms" | "milliseconds" => Ok(TimeUnit::Ms),
            "us" | "µs" | "microseconds" => Ok(TimeUnit::Us),
            "ns" | "nanoseconds" => Ok(TimeUnit::Ns),
            "filetime" | "100ns" => Ok(TimeUnit::Filetime),
            o => Err(format!("unknown time unit '{o}': expected s, ms, us, ns or filetime")),
        }
    }
}

/// Which timing model a run uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export, rename = "TimingModel")]
#[serde(rename_all = "snake_case")]
pub enum Model {
    #[default]
    Closed,
    Open,
}

impl Model {
    pub fn name(self) -> &'static str {
        match self {
            Model::Closed => "closed",
            Model::Open => "open",
        }
    }
    pub fn from_name(s: &str) -> Result<Model, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "closed" => Ok(Model::Closed),
            "open" => Ok(Model::Open),
            o => Err(format!("unknown timing model '{o}': expected closed or open")),
        }
    }
}

/// How arrivals are spaced when made at a rate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum Spacing {
    /// Every 1/rate seconds.
    #[default]
    Fixed,
    /// Exponential gaps of mean 1/rate (a Poisson process), from `seed`.
    Poisson,
}

/// A run's timing model (`--timing`, `--time-scale`, `--rate`; the scenario's `timing`).
/// In the web's TS (generated) every field but `model` may be left out: its default here.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct TimingConfig {
    pub model: Model,
    /// Open, trace times: every gap between arrivals × this (0.5 = twice as fast).
    #[ts(optional, as = "Option<f64>")]
    pub time_scale: f64,
    /// Open: host requests per second, instead of the trace's times (a generated
    /// workload has none, so it needs one).
    #[ts(optional)]
    pub rate: Option<f64>,
    #[ts(optional, as = "Option<Spacing>")]
    pub spacing: Spacing,
    #[ts(optional, as = "Option<f64>")]
    pub seed: u64,
    /// The unit of the trace's timestamps, instead of the one they were read in
    /// (`--time-unit`; MQSim's DiskSim-layout traces are in ns).
    #[ts(optional)]
    pub time_unit: Option<TimeUnit>,
}

impl Default for TimingConfig {
    fn default() -> Self {
        TimingConfig {
            model: Model::Closed,
            time_scale: 1.0,
            rate: None,
            spacing: Spacing::Fixed,
            seed: 1,
            time_unit: None,
        }
    }
}

impl TimingConfig {
    pub fn check(&self) -> Result<(), String> {
        if !(self.time_scale.is_finite() && self.time_scale > 0.0) {
            return Err(format!("time scale must be a positive number, got {}", self.time_scale));
        }
        if let Some(r) = self.rate {
            if !(r.is_finite() && r > 0.0) {
                return Err(format!("arrival rate must be a positive number of requests per second, got {r}"));
            }
        }
        Ok(())
    }
    /// Where open arrivals come from (for the outputs).
    pub fn arrivals_name(&self) -> &'static str {
        match (self.model, self.rate, self.spacing) {
            (Model::Closed, _, _) => "",
            (Model::Open, None, _) => "trace",
            (Model::Open, Some(_), Spacing::Fixed) => "fixed",
            (Model::Open, Some(_), Spacing::Poisson) => "poisson",
        }
    }
    /// The arrival of each of the schedule's host requests in the open model, ns from the
    /// first; `unit` draws uniform [0, 1) (Poisson gaps).
    pub fn arrivals(&self, schedule: &Schedule, mut unit: impl FnMut() -> f64) -> Result<Option<Vec<u64>>, String> {
        let requests = schedule.requests();
        self.check()?;
        if self.model == Model::Closed {
            return Ok(None);
        }
        if let Some(rate) = self.rate {
            let gap = 1e9 / rate;
            let mut t = 0.0f64;
            let mut out = Vec::with_capacity(requests);
            for k in 0..requests {
                if k > 0 {
                    t += match self.spacing {
                        Spacing::Fixed => gap,
                        // Inverse CDF of the exponential; 1 − u is in (0, 1].
                        Spacing::Poisson => -gap * (1.0 - unit()).ln(),
                    };
                }
                out.push(t.round() as u64);
            }
            return Ok(Some(out));
        }
        // Read in one unit, meant in another: rescale (e.g. ms read, ns meant: × 10^-6).
        let k = match (self.time_unit, schedule.unit()) {
            (Some(want), Some(read)) => want.ns() / read.ns(),
            _ => 1.0,
        } * self.time_scale;
        match schedule.arrivals() {
            Some(a) => Ok(Some(a.iter().map(|&t| (t as f64 * k).round() as u64).collect())),
            None => {
                Err("the open timing model needs arrival times: a trace with timestamps, or an arrival rate (--rate)"
                    .into())
            }
        }
    }
}

/// Host request kinds timed apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    Read,
    Write,
    /// Freeze / unfreeze / revert (time-shifting schemes): timed, not summarised.
    Other,
}

/// One host request in time (ns on the run's clock: the first arrival is 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct HostTime {
    /// Host request index and its first page request.
    pub index: u64,
    pub first_page: u64,
    pub pages: u32,
    pub arrival_ns: u64,
    pub start_ns: u64,
    pub done_ns: u64,
    /// The part of the service that was GC / merge work (not the host's own operations).
    pub gc_ns: u64,
    /// A power cut fell inside it (during one of its pages or between two of them): the
    /// host never got its acknowledgement, so it has no response time (docs/timing.md,
    /// "Power cuts"). Its pages' chip time still delays the requests behind it.
    pub interrupted: bool,
}

impl HostTime {
    pub fn wait_ns(&self) -> u64 {
        self.start_ns - self.arrival_ns
    }
    pub fn service_ns(&self) -> u64 {
        self.done_ns - self.start_ns
    }
    pub fn response_ns(&self) -> u64 {
        self.done_ns - self.arrival_ns
    }
}

/// The chip's clock and the host request being served: part of the simulator's state
/// (cloned with keyframes, so a seek replays it exactly).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// The run's timing model (the simulator sets it; named in the metrics).
    pub config: TimingConfig,
    /// When the chip finishes the work it has been given.
    free_at: u64,
    /// Host requests begun.
    begun: u64,
    /// The host request in service (between its first and last page request).
    cur: Option<(HostTime, Kind)>,
    /// When the latest request that carried GC / merge work finished.
    gc_done: Option<u64>,
    pub read: KindTiming,
    pub write: KindTiming,
    /// Time-shift requests (freeze, unfreeze, revert).
    pub other: u64,
    /// What the GC / merge work of the request in service is (`note_gc`).
    gc_what: Option<&'static str>,
    /// The latest request that carried GC / merge work (for the narration).
    pub last_gc: Option<GcNote>,
    /// The latest request finished, and the GC it waited behind (if it waited behind one).
    pub last_done: Option<(HostTime, Option<GcNote>)>,
    /// Recoveries after power cuts: each one's chip time (the operations of every
    /// recovery attempt until one completes), ns.
    pub recovery: TimeHist,
    /// Chip time of the page requests a power cut interrupted (their operations before the
    /// cut), ns.
    pub interrupted_work_ns: u64,
    /// When the latest recovery finished.
    recovery_done: Option<u64>,
    /// The latest recovery, as a note of what requests waited behind (`what` "recovery";
    /// `first_page` the page request the cut interrupted, or the next one).
    pub last_recovery: Option<GcNote>,
}

/// A request that carried GC / merge work: what it was and when it finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GcNote {
    pub index: u64,
    pub first_page: u64,
    pub done_ns: u64,
    pub gc_ns: u64,
    /// "full merge", "partial merge", "switch merge", "garbage collection", ...; or
    /// "recovery" (after a power cut: `gc_ns` its chip time, `first_page` the page request
    /// the cut interrupted or came before).
    pub what: &'static str,
}

impl Clock {
    /// A clock at 0 with nothing served, for the model `config`.
    pub fn new(config: TimingConfig) -> Clock {
        Clock { config, ..Clock::default() }
    }
    /// When the chip is next free (the run's clock after the requests given so far).
    pub fn free_at(&self) -> u64 {
        self.free_at
    }
    /// Host requests begun.
    pub fn begun(&self) -> u64 {
        self.begun
    }
    /// The host request in service, if one is part-way (multi-page requests).
    pub fn current(&self) -> Option<HostTime> {
        self.cur.map(|c| c.0)
    }
    /// The page request about to be timed did GC / merge work of this kind.
    pub fn note_gc(&mut self, what: &'static str) {
        self.gc_what.get_or_insert(what);
    }

    /// Page request `page` ran, taking `service_ns` of chip time, `gc_ns` of it GC /
    /// merge work. `begins`: it starts a host request arriving at `arrival` (None in the
    /// closed model: when the chip is free). `ends`: it finishes that host request, whose
    /// record is returned.
    #[allow(clippy::too_many_arguments)]
    pub fn page(
        &mut self,
        page: u64,
        begins: bool,
        ends: bool,
        arrival: Option<u64>,
        kind: Kind,
        service_ns: u64,
        gc_ns: u64,
    ) -> Option<HostTime> {
        self.advance(page, begins, ends, arrival, kind, service_ns, gc_ns, false)
    }

    /// `page` for a host request of one page that arrives when the chip is free (the
    /// closed model's every request, the full-speed loop's common case; issue 37): the
    /// same state and record as `page(page, true, true, None, ..)`, without the
    /// multi-page bookkeeping and the wait checks (such a request never waits).
    #[inline]
    pub fn page_closed(&mut self, page: u64, kind: Kind, service_ns: u64, gc_ns: u64) -> HostTime {
        let h = self.page_closed_run(page, kind, service_ns, gc_ns, true);
        self.last_done = Some((h, None));
        h
    }

    /// The one-page host request `index`, page request `page`, started at `start_ns`.
    #[inline(always)]
    fn closed_time(index: u64, page: u64, start_ns: u64, service_ns: u64, gc_ns: u64) -> HostTime {
        HostTime {
            index,
            first_page: page,
            pages: 1,
            arrival_ns: start_ns,
            start_ns,
            done_ns: start_ns + service_ns,
            gc_ns,
            interrupted: false,
        }
    }

    /// `page_closed` without `last_done`, for a loop of them that sets it once at its end
    /// (`closed_done`; issue 37: ten stores a request the loop's reader never sees). Not
    /// `timed`: the service time is not recorded here; the loop records its requests' at
    /// its end from the host's record of the same times (`KindTiming::record_since`; issue
    /// 37: one histogram a request, not two).
    #[inline(always)]
    pub fn page_closed_run(&mut self, page: u64, kind: Kind, service_ns: u64, gc_ns: u64, timed: bool) -> HostTime {
        let h = Clock::closed_time(self.begun, page, self.free_at, service_ns, gc_ns);
        self.begun += 1;
        self.cur = None;
        self.free_at = h.done_ns;
        if gc_ns > 0 {
            self.gc_done = Some(h.done_ns);
            let what = self.gc_what.take().unwrap_or("GC work");
            self.last_gc = Some(GcNote { index: h.index, first_page: page, done_ns: h.done_ns, gc_ns, what });
        }
        self.gc_what = None;
        let k = match kind {
            Kind::Read => &mut self.read,
            Kind::Write => &mut self.write,
            Kind::Other => {
                self.other += 1;
                return h;
            }
        };
        k.pages += 1;
        if timed {
            k.record(service_ns, 0, service_ns);
        }
        h
    }

    /// `last_done` after `page_closed_run`s, the latest of them page request `page`, which
    /// took `service_ns` (`gc_ns` of it GC / merge work).
    pub fn closed_done(&mut self, page: u64, service_ns: u64, gc_ns: u64) {
        let h = Clock::closed_time(self.begun - 1, page, self.free_at - service_ns, service_ns, gc_ns);
        self.last_done = Some((h, None));
    }

    /// Power was cut during page request `page` after `work_ns` of its chip time (`gc_ns`
    /// of it GC / merge work): the chip spent that time, and the host request it belongs
    /// to is never acknowledged. Its later pages (a record of several pages, run after the
    /// recovery) still take the chip; when the last one ends it is counted as interrupted,
    /// with no response time.
    #[allow(clippy::too_many_arguments)]
    pub fn interrupt(
        &mut self,
        page: u64,
        begins: bool,
        ends: bool,
        arrival: Option<u64>,
        kind: Kind,
        work_ns: u64,
        gc_ns: u64,
    ) -> Option<HostTime> {
        self.interrupted_work_ns += work_ns;
        self.advance(page, begins, ends, arrival, kind, work_ns, gc_ns, true)
    }

    /// Power was cut between two page requests: a host request part-way (some of its pages
    /// done, some not) is never acknowledged.
    pub fn interrupt_between(&mut self) {
        if let Some((h, _)) = &mut self.cur {
            h.interrupted = true;
        }
    }

    /// A recovery after a power cut at page request `page` took `ns` of chip time, from
    /// when the chip was free (the cut): requests that arrive meanwhile wait for it (open
    /// model).
    pub fn recovered(&mut self, page: u64, ns: u64) {
        self.free_at += ns;
        if let Some((h, _)) = &mut self.cur {
            // A record cut part-way: its remaining pages run after the recovery.
            h.done_ns = self.free_at;
        }
        self.recovery.record(ns);
        self.recovery_done = Some(self.free_at);
        self.last_recovery =
            Some(GcNote { index: self.begun, first_page: page, done_ns: self.free_at, gc_ns: ns, what: "recovery" });
    }

    #[allow(clippy::too_many_arguments)]
    fn advance(
        &mut self,
        page: u64,
        begins: bool,
        ends: bool,
        arrival: Option<u64>,
        kind: Kind,
        service_ns: u64,
        gc_ns: u64,
        cut: bool,
    ) -> Option<HostTime> {
        if begins || self.cur.is_none() {
            let arrival = arrival.unwrap_or(self.free_at);
            let start = arrival.max(self.free_at);
            let h = HostTime {
                index: self.begun,
                first_page: page,
                pages: 0,
                arrival_ns: arrival,
                start_ns: start,
                done_ns: start,
                gc_ns: 0,
                interrupted: false,
            };
            self.begun += 1;
            self.cur = Some((h, kind));
        }
        let (h, kind) = self.cur.as_mut().expect("a host request in service");
        h.pages += 1;
        h.done_ns += service_ns;
        h.gc_ns += gc_ns;
        h.interrupted |= cut;
        self.free_at = h.done_ns;
        if !ends {
            return None;
        }
        let (h, kind) = (*h, *kind);
        self.cur = None;
        // Delayed by GC: some request that finished while this one waited, (arrival,
        // start], carried GC / merge work; the latest such finish is `gc_done`.
        let waited = h.wait_ns() > 0;
        let by_gc = waited && self.gc_done.is_some_and(|g| g > h.arrival_ns);
        // Delayed by a recovery: one finished while it waited.
        let by_recovery = waited && self.recovery_done.is_some_and(|r| r > h.arrival_ns);
        // What it waited behind: the GC or the recovery that finished last while it waited
        // (nothing when it did not wait: the closed model's every request).
        let behind = if waited {
            [self.last_gc, self.last_recovery]
                .into_iter()
                .flatten()
                .filter(|g| g.done_ns > h.arrival_ns)
                .max_by_key(|g| g.done_ns)
        } else {
            None
        };
        self.last_done = Some((h, behind));
        if h.gc_ns > 0 {
            self.gc_done = Some(h.done_ns);
            let what = self.gc_what.take().unwrap_or("GC work");
            self.last_gc =
                Some(GcNote { index: h.index, first_page: h.first_page, done_ns: h.done_ns, gc_ns: h.gc_ns, what });
        }
        self.gc_what = None;
        let k = match kind {
            Kind::Read => &mut self.read,
            Kind::Write => &mut self.write,
            Kind::Other => {
                // A time shift a cut interrupted went one way or the other (recovery
                // decides); either way the host got no answer.
                self.other += u64::from(!h.interrupted);
                return Some(h);
            }
        };
        k.pages += h.pages as u64;
        if h.interrupted {
            // Never acknowledged: no response time (docs/timing.md, "Power cuts").
            k.interrupted += 1;
            return Some(h);
        }
        k.record(h.response_ns(), h.wait_ns(), h.service_ns());
        k.waited += (h.wait_ns() > 0) as u64;
        k.delayed_by_gc += by_gc as u64;
        k.delayed_by_recovery += by_recovery as u64;
        Some(h)
    }

    pub fn summary(&self) -> TimingMetrics {
        let cfg = &self.config;
        TimingMetrics {
            model: cfg.model.name(),
            arrivals: cfg.arrivals_name(),
            time_scale: cfg.time_scale,
            rate_per_s: if cfg.model == Model::Open { cfg.rate } else { None },
            requests: self.read.response.len() + self.write.response.len() + self.other,
            read: self.read.summary(),
            write: self.write.summary(),
            recovery: RecoveryTiming {
                recoveries: self.recovery.len(),
                recovery_us: self.recovery.summary(),
                interrupted: self.read.interrupted + self.write.interrupted,
                interrupted_work_us: self.interrupted_work_ns as f64 / 1000.0,
            },
        }
    }
}

/// The host requests of a run: runs of consecutive page requests, and each host
/// request's arrival time in ns after the first one's, when the workload has times.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schedule {
    /// Bit i set: page request i begins a host request. Empty: every page request is a
    /// host request of its own.
    starts: Vec<u64>,
    pages: usize,
    /// One per host request, in order (None: the workload has no timestamps).
    arrivals: Option<Vec<u64>>,
    requests: usize,
    /// The unit the trace's times were read in (`TimingConfig::time_unit` rescales them).
    unit: Option<TimeUnit>,
}

impl Schedule {
    /// `starts` a bitset over `pages` page requests (page 0 always begins one);
    /// `arrivals`, when given, one per host request.
    pub fn new(mut starts: Vec<u64>, pages: usize, arrivals: Option<Vec<u64>>) -> Schedule {
        starts.resize(pages.div_ceil(64), 0);
        if pages > 0 {
            starts[0] |= 1;
        }
        if let Some(w) = starts.last_mut() {
            if !pages.is_multiple_of(64) {
                *w &= (1u64 << (pages % 64)) - 1;
            }
        }
        let requests = starts.iter().map(|w| w.count_ones() as usize).sum();
        let arrivals = arrivals.filter(|a| a.len() == requests);
        Schedule { starts, pages, arrivals, requests, unit: None }
    }
    /// The unit the arrivals were read in.
    pub fn with_unit(mut self, unit: Option<TimeUnit>) -> Schedule {
        self.unit = unit;
        self
    }
    pub fn unit(&self) -> Option<TimeUnit> {
        self.unit
    }
    /// Every page request a host request of its own, no times (generated workloads,
    /// the pattern language).
    pub fn per_page(pages: usize) -> Schedule {
        Schedule { starts: Vec::new(), pages, arrivals: None, requests: pages, unit: None }
    }
    /// Whether every page request is a host request of its own (`per_page`).
    pub fn per_page_only(&self) -> bool {
        self.starts.is_empty()
    }
    /// Whether page request `j` (< `end` <= `pages`) is a host request of one page, and
    /// where the stretch of page requests from `j` that are alike in this ends (at most
    /// `end`): the full-speed loop runs one-page host requests in the closed model's own
    /// loop and the rest request by request (issue 37: a trace of one-page records with a
    /// few longer ones).
    pub fn one_page_stretch(&self, j: usize, end: usize) -> (bool, usize) {
        if self.starts.is_empty() {
            return (true, end);
        }
        let one = self.one_page_word(j / 64) >> (j % 64) & 1 == 1;
        let mut i = j;
        while i < end {
            let b = i % 64;
            // Set bits: page requests unlike `j`'s, from `i` on (shifted-in zeros count as
            // unlike, limited by the word's end below).
            let word = self.one_page_word(i / 64) >> b;
            let alike = (if one { word } else { !word }).trailing_ones() as usize;
            let alike = alike.min(64 - b);
            i += alike;
            if alike < 64 - b {
                break;
            }
        }
        (one, i.min(end))
    }
    /// Bit b: page request `64 w + b` begins a host request and ends it.
    fn one_page_word(&self, w: usize) -> u64 {
        let s = self.starts[w];
        // The next word's first bit: the last page request of this word ends its host
        // request when the next one begins; the very last page request ends its own.
        let next = self.starts.get(w + 1).map_or(1, |x| x & 1);
        let mut ends = s >> 1 | next << 63;
        let last = self.pages - 1;
        if last / 64 == w {
            ends |= 1 << (last % 64);
        }
        s & ends
    }
    /// Page requests.
    pub fn pages(&self) -> usize {
        self.pages
    }
    /// Host requests.
    pub fn requests(&self) -> usize {
        self.requests
    }
    /// Page request `i` begins a host request.
    pub fn begins(&self, i: usize) -> bool {
        self.starts.is_empty() || self.starts.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
    }
    /// Page request `i` is the last of its host request.
    pub fn ends(&self, i: usize) -> bool {
        i + 1 >= self.pages || self.begins(i + 1)
    }
    /// Arrival of each host request, ns after the first (None: untimed).
    pub fn arrivals(&self) -> Option<&[u64]> {
        self.arrivals.as_deref()
    }
    /// The host request page request `i` belongs to (counts the starts up to it).
    pub fn request_of(&self, i: usize) -> usize {
        if self.starts.is_empty() {
            return i;
        }
        let w = i / 64;
        let full: usize = self.starts[..w.min(self.starts.len())].iter().map(|x| x.count_ones() as usize).sum();
        let bits = self.starts.get(w).map(|x| (x & (u64::MAX >> (63 - i % 64))).count_ones() as usize).unwrap_or(0);
        (full + bits).saturating_sub(1)
    }
    /// The page requests of host request `k`: `first..end`.
    pub fn pages_of(&self, k: usize) -> std::ops::Range<usize> {
        if self.starts.is_empty() {
            return k..k + 1;
        }
        let mut seen = 0;
        let mut first = None;
        for i in 0..self.pages {
            if self.begins(i) {
                if seen == k + 1 {
                    return first.unwrap_or(i)..i;
                }
                if seen == k {
                    first = Some(i);
                }
                seen += 1;
            }
        }
        first.unwrap_or(self.pages)..self.pages
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    /// `one_page_stretch` against `begins` / `ends` page by page, across words and at the
    /// last page, for every start.
    #[test]
    fn one_page_stretches_are_the_pages_that_begin_and_end_their_request() {
        for pages in [1, 2, 63, 64, 65, 130, 200] {
            let mut starts = vec![0u64; 4];
            // Longer requests at pages 5-7, 62-65, 127-128, and the last two pages.
            for p in (0..pages).filter(|p| ![6, 7, 63, 64, 65, 128].contains(p) && *p + 1 != pages || *p == 0) {
                starts[p / 64] |= 1 << (p % 64);
            }
            let s = Schedule::new(starts, pages, None);
            let one = |i: usize| s.begins(i) && s.ends(i);
            for j in 0..pages {
                for end in [j + 1, (j + 70).min(pages), pages] {
                    let (o, k) = s.one_page_stretch(j, end);
                    assert_eq!(o, one(j), "{pages} pages, from {j}");
                    assert!(k > j && k <= end, "{pages} pages, from {j} to {end}: {k}");
                    assert!((j..k).all(|i| one(i) == o), "{pages} pages, {j}..{k} alike");
                    assert!(k == end || one(k) != o, "{pages} pages, {j}..{k} ends where it changes");
                }
            }
        }
        let s = Schedule::per_page(10);
        assert_eq!(s.one_page_stretch(3, 10), (true, 10));
    }

    /// Issue 34, by hand: a 2-page write arriving at 0 is cut between its pages; the
    /// recovery takes 1,000 ns; its second page runs after it. A read arriving at 500
    /// waits for all of it; a read cut during its one page is interrupted too.
    #[test]
    fn cuts_and_recoveries_on_the_clock() {
        let mut c = Clock::new(TimingConfig { model: Model::Open, ..Default::default() });
        assert_eq!(c.page(0, true, false, Some(0), Kind::Write, 100, 0), None);
        c.interrupt_between();
        c.recovered(1, 1000);
        assert_eq!(c.free_at(), 1100);
        let h = c.page(1, false, true, None, Kind::Write, 100, 0).unwrap();
        assert!(h.interrupted && h.pages == 2 && h.done_ns == 1200);
        let r = c.page(2, true, true, Some(500), Kind::Read, 50, 0).unwrap();
        assert_eq!((r.start_ns, r.done_ns, r.wait_ns()), (1200, 1250, 700));
        let x = c.interrupt(3, true, true, Some(2000), Kind::Read, 20, 0).unwrap();
        assert!(x.interrupted && x.done_ns == 2020);
        c.recovered(3, 500);
        assert_eq!(c.free_at(), 2520);
        let t = c.summary();
        assert_eq!((t.write.requests, t.write.interrupted, t.write.pages), (0, 1, 2));
        assert_eq!((t.read.requests, t.read.interrupted, t.read.delayed_by_recovery), (1, 1, 1));
        assert_eq!((t.recovery.recoveries, t.recovery.interrupted, t.recovery.interrupted_work_us), (2, 2, 0.02));
        assert_eq!(t.recovery.recovery_us.max, 1.0);
        assert_eq!(t.requests, 1);
        assert_eq!(c.last_done.unwrap().1.map(|g| g.what), None, "the interrupted read waited for nothing");
    }

    #[test]
    fn starts_group_pages() {
        // requests: [0,1,2] [3] [4..70) [70]
        let mut bits = vec![0u64; 2];
        for i in [0usize, 3, 4, 70] {
            bits[i / 64] |= 1 << (i % 64);
        }
        let s = Schedule::new(bits, 71, Some(vec![0, 5, 9, 12]));
        assert_eq!(s.requests(), 4);
        assert!(s.begins(0) && !s.begins(1) && s.begins(3) && s.begins(70));
        assert!(s.ends(2) && s.ends(3) && !s.ends(4) && s.ends(69) && s.ends(70));
        assert_eq!([0, 2, 3, 4, 69, 70].map(|i| s.request_of(i)), [0, 0, 1, 2, 2, 3]);
        assert_eq!(s.pages_of(2), 4..70);
        assert_eq!(s.pages_of(3), 70..71);
        assert_eq!(s.arrivals(), Some(&[0, 5, 9, 12][..]));
        // Arrivals of the wrong length are dropped (untimed), never misaligned.
        assert_eq!(Schedule::new(vec![1], 3, Some(vec![1, 2])).arrivals(), None);
        let p = Schedule::per_page(3);
        assert!(p.begins(2) && p.ends(1) && p.request_of(2) == 2 && p.requests() == 3);
    }
}
