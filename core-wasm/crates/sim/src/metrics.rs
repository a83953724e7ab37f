//! Counters and the latency distribution; `Metrics` is the JSON shape of
//! `ftl run --json` and `Session.metrics()` (docs/cli.md).

use serde::Serialize;
use std::collections::BTreeMap;
use ts_rs::TS;

use crate::nand::{Flash, OpKind, CAUSES};

/// Exact latency distribution: latencies are sums of a few operation times, so
/// there are few distinct values; a sorted vector of (latency, count) is small and exact,
/// and the last value hit is checked first (most requests cost the same).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LatencyHist {
    counts: Vec<(u64, u64)>,
    last: usize,
}

impl LatencyHist {
    /// The last value again, inline (every host request records one: issue 37, the loop);
    /// another value out of line. Only the value's count changes: the count and sum of
    /// all are the counts' (`len`, `total`), summed when asked (issue 37: one store a
    /// request instead of three).
    #[inline]
    pub fn record(&mut self, ns: u64) {
        if let Some(e) = self.counts.get_mut(self.last) {
            if e.0 == ns {
                e.1 += 1;
                return;
            }
        }
        self.record_other(ns);
    }
    #[inline(never)]
    fn record_other(&mut self, ns: u64) {
        match self.counts.binary_search_by_key(&ns, |e| e.0) {
            Ok(i) => {
                self.counts[i].1 += 1;
                self.last = i;
            }
            Err(i) => {
                self.counts.insert(i, (ns, 1));
                self.last = i;
            }
        }
    }
    /// Both distributions as one (for read latency with never-written reads included).
    pub fn merged(&self, other: &LatencyHist) -> LatencyHist {
        let mut m = self.clone();
        for &(ns, c) in &other.counts {
            match m.counts.binary_search_by_key(&ns, |e| e.0) {
                Ok(i) => m.counts[i].1 += c,
                Err(i) => m.counts.insert(i, (ns, c)),
            }
        }
        m.last = 0;
        m
    }
    /// Values recorded (a sum over the few distinct values).
    pub fn len(&self) -> u64 {
        self.counts.iter().map(|e| e.1).sum()
    }
    /// Sum of the values recorded.
    pub fn total(&self) -> u128 {
        self.counts.iter().map(|&(v, c)| v as u128 * c as u128).sum()
    }
    pub fn is_empty(&self) -> bool {
        self.counts.is_empty()
    }
    pub fn min(&self) -> Option<u64> {
        self.counts.first().map(|e| e.0)
    }
    pub fn max(&self) -> Option<u64> {
        self.counts.last().map(|e| e.0)
    }
    /// Nearest-rank percentile.
    pub fn percentile(&self, p: f64) -> Option<u64> {
        let n = self.len();
        if n == 0 {
            return None;
        }
        let rank = ((p / 100.0) * n as f64).ceil().max(1.0) as u64;
        let mut seen = 0;
        for &(v, c) in &self.counts {
            seen += c;
            if seen >= rank {
                return Some(v);
            }
        }
        self.max()
    }
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        self.counts.iter().copied()
    }
    /// (value, records) of each value recorded since the distribution was `then` (a copy of
    /// this one taken earlier).
    pub fn since<'a>(&'a self, then: &'a LatencyHist) -> impl Iterator<Item = (u64, u64)> + 'a {
        self.counts.iter().filter_map(|&(v, c)| {
            let before = then.counts.binary_search_by_key(&v, |e| e.0).map_or(0, |i| then.counts[i].1);
            (c > before).then_some((v, c - before))
        })
    }
    pub fn summary(&self) -> LatencySummary {
        let us = |ns: Option<u64>| ns.map(|v| v as f64 / 1000.0).unwrap_or(0.0);
        LatencySummary {
            count: self.len(),
            best: us(self.min()),
            mean: if self.is_empty() { 0.0 } else { (self.total() as f64 / self.len() as f64) / 1000.0 },
            p99: us(self.percentile(99.0)),
            worst: us(self.max()),
        }
    }
}

/// A distribution of times in ns with exact count, sum, min and max; percentiles from
/// the values kept to 5 significant digits (at most 0.005 % off; exact for the sums of
/// operation times below 100 ms). Open-model response times take any value, so a
/// sorted map of rounded values, not LatencyHist's exact vector. Runs of one value (most
/// requests cost the same) are counted beside the map and added to it when the value
/// changes (issue 37: a map insert per request was most of the timing model's cost).
#[derive(Clone, Debug, Default)]
pub struct TimeHist {
    counts: BTreeMap<u64, u64>,
    n: u64,
    sum: u128,
    min: u64,
    max: u64,
    /// The value of the current run, as recorded and as kept (rounded), and its count
    /// (0: no run); not yet in `counts`.
    hot_ns: u64,
    hot_key: u64,
    hot_n: u64,
    /// Records of exactly `hot_ns` since it was last recorded otherwise, not yet added to
    /// `n`, `sum` and `hot_n` (a repeat only counts: one store per request instead of
    /// six; min and max already hold `hot_ns`).
    same: u64,
}

/// Equal when they hold the same distribution (wherever the current run stands).
impl PartialEq for TimeHist {
    fn eq(&self, o: &TimeHist) -> bool {
        (self.len(), self.total(), self.min, self.max) == (o.len(), o.total(), o.min, o.max)
            && self.buckets().eq(o.buckets())
    }
}

/// `v` rounded to 5 significant decimal digits.
fn round5(v: u64) -> u64 {
    let mut scale = 1u64;
    while v / scale >= 100_000 {
        scale *= 10;
    }
    (v + scale / 2) / scale * scale
}

impl TimeHist {
    /// `n` times of 0 (the wait of `n` requests that did not wait), as `n` records of 0 give.
    pub fn zeros(n: u64) -> TimeHist {
        let mut h = TimeHist::default();
        if n > 0 {
            h.n = n;
            h.counts.insert(0, n);
        }
        h
    }
    #[inline]
    pub fn record(&mut self, ns: u64) {
        if self.hot_n > 0 && ns == self.hot_ns {
            self.same += 1;
            return;
        }
        self.record_new(ns);
    }
    /// `n` records of `ns` (after one record of it, `ns` is the current run's value).
    pub fn record_n(&mut self, ns: u64, n: u64) {
        if n > 0 {
            self.record(ns);
            self.same += n - 1;
        }
    }
    /// Adds the pending repeats of `hot_ns` to the counts.
    fn settle(&mut self) {
        if self.same > 0 {
            self.n += self.same;
            self.sum += self.same as u128 * self.hot_ns as u128;
            self.hot_n += self.same;
            self.same = 0;
        }
    }
    // Out of line: a value other than the last one is the rarer case.
    #[inline(never)]
    fn record_new(&mut self, ns: u64) {
        self.settle();
        self.min = if self.n == 0 { ns } else { self.min.min(ns) };
        self.max = self.max.max(ns);
        self.n += 1;
        self.sum += ns as u128;
        let key = round5(ns);
        if self.hot_n > 0 {
            if key == self.hot_key {
                self.hot_ns = ns;
                self.hot_n += 1;
                return;
            }
            *self.counts.entry(self.hot_key).or_default() += self.hot_n;
        }
        (self.hot_ns, self.hot_key, self.hot_n) = (ns, key, 1);
    }
    pub fn len(&self) -> u64 {
        self.n + self.same
    }
    /// The sum of the times recorded.
    fn total(&self) -> u128 {
        self.sum + self.same as u128 * self.hot_ns as u128
    }
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }
    pub fn max(&self) -> Option<u64> {
        (self.n > 0).then_some(self.max)
    }
    pub fn min(&self) -> Option<u64> {
        (self.n > 0).then_some(self.min)
    }
    /// Nearest-rank percentile (0 < p <= 100); the exact max at 100.
    pub fn percentile(&self, p: f64) -> Option<u64> {
        if self.n == 0 {
            return None;
        }
        let rank = ((p / 100.0) * self.len() as f64).ceil().max(1.0) as u64;
        if rank >= self.len() {
            return Some(self.max);
        }
        let mut seen = 0;
        for (v, c) in self.buckets() {
            seen += c;
            if seen >= rank {
                return Some(v.clamp(self.min, self.max));
            }
        }
        Some(self.max)
    }
    /// `(value, count)` in increasing value (values rounded as kept).
    pub fn buckets(&self) -> impl Iterator<Item = (u64, u64)> + '_ {
        let mut hot = (self.hot_n > 0).then_some((self.hot_key, self.hot_n + self.same));
        let mut it = self.counts.iter().map(|(&v, &c)| (v, c)).peekable();
        std::iter::from_fn(move || match (hot, it.peek().copied()) {
            (Some((hv, hc)), Some((v, c))) if hv <= v => {
                hot = None;
                if hv == v {
                    it.next();
                    Some((v, c + hc))
                } else {
                    Some((hv, hc))
                }
            }
            (Some(h), None) => {
                hot = None;
                Some(h)
            }
            _ => it.next(),
        })
    }
    pub fn summary(&self) -> TailSummary {
        let us = |ns: Option<u64>| ns.map(|v| v as f64 / 1000.0).unwrap_or(0.0);
        TailSummary {
            count: self.len(),
            mean: if self.n == 0 { 0.0 } else { (self.total() as f64 / self.len() as f64) / 1000.0 },
            p50: us(self.percentile(50.0)),
            p90: us(self.percentile(90.0)),
            p99: us(self.percentile(99.0)),
            p999: us(self.percentile(99.9)),
            max: us(self.max()),
        }
    }
}

/// A distribution's tail in µs (nearest-rank percentiles).
#[derive(Clone, Debug, Default, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct TailSummary {
    #[ts(type = "number")]
    pub count: u64,
    pub mean: f64,
    pub p50: f64,
    pub p90: f64,
    pub p99: f64,
    pub p999: f64,
    pub max: f64,
}

/// Host requests of one kind (a request of several pages counts once): response =
/// completion − arrival = wait (queueing delay) + service.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct KindTiming {
    /// Every request's response time.
    pub response: TimeHist,
    /// Wait and service, kept apart only from the first request that waited (`split`):
    /// until then every wait was 0 and every service equalled the response, so only the
    /// response is recorded (the closed model never waits: one record per request, not
    /// three; issue 37). `summary` gives the same figures either way.
    pub wait: TimeHist,
    pub service: TimeHist,
    split: bool,
    pub pages: u64,
    /// Requests that waited at all.
    pub waited: u64,
    /// Requests that waited while the chip did GC / merge work of an earlier request.
    pub delayed_by_gc: u64,
    /// Requests that waited while the chip recovered from a power cut.
    pub delayed_by_recovery: u64,
    /// Requests a power cut interrupted (never acknowledged: no response time; their
    /// pages are in `pages`).
    pub interrupted: u64,
}

impl KindTiming {
    /// One acknowledged request's times, ns (response = wait + service).
    #[inline]
    pub fn record(&mut self, response: u64, wait: u64, service: u64) {
        debug_assert_eq!(response, wait + service);
        if !self.split && wait == 0 {
            self.response.record(response);
            return;
        }
        self.record_split(response, wait, service);
    }
    /// The service times `host` recorded since it was `then`, each a request that did not
    /// wait (the closed model's loop, `Clock::page_closed_run`): the same distribution
    /// as recording each as it ran.
    pub fn record_since(&mut self, host: &LatencyHist, then: &LatencyHist) {
        for (ns, n) in host.since(then) {
            if self.split {
                (0..n).for_each(|_| self.record_split(ns, 0, ns));
            } else {
                self.response.record_n(ns, n);
            }
        }
    }
    /// `record` once a request has waited. Kept out of line: its clone would make the
    /// closed model's every record set up a stack frame (in wasm, on the shadow stack).
    #[inline(never)]
    fn record_split(&mut self, response: u64, wait: u64, service: u64) {
        if !self.split {
            // The first wait: from here on the three differ.
            self.split = true;
            self.service = self.response.clone();
            self.wait = TimeHist::zeros(self.response.len());
        }
        self.response.record(response);
        self.wait.record(wait);
        self.service.record(service);
    }
    pub fn summary(&self) -> KindTimingSummary {
        let n = self.response.len();
        let (wait_us, service_us) = if self.split {
            (self.wait.summary(), self.service.summary())
        } else {
            (TimeHist::zeros(n).summary(), self.response.summary())
        };
        KindTimingSummary {
            requests: n,
            pages: self.pages,
            response_us: self.response.summary(),
            wait_us,
            service_us,
            waited: self.waited,
            delayed_by_gc: self.delayed_by_gc,
            delayed_by_gc_share: if n == 0 { 0.0 } else { self.delayed_by_gc as f64 / n as f64 },
            delayed_by_recovery: self.delayed_by_recovery,
            interrupted: self.interrupted,
        }
    }
}

#[derive(Clone, Debug, Default, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct KindTimingSummary {
    #[ts(type = "number")]
    pub requests: u64,
    #[ts(type = "number")]
    pub pages: u64,
    pub response_us: TailSummary,
    pub wait_us: TailSummary,
    pub service_us: TailSummary,
    #[ts(type = "number")]
    pub waited: u64,
    #[ts(type = "number")]
    pub delayed_by_gc: u64,
    /// delayed_by_gc / requests.
    pub delayed_by_gc_share: f64,
    /// Requests that waited while the chip recovered from a power cut.
    #[ts(type = "number")]
    pub delayed_by_recovery: u64,
    /// Requests a power cut interrupted: never acknowledged, not in `requests` or the
    /// times above.
    #[ts(type = "number")]
    pub interrupted: u64,
}

/// Power cuts in time (docs/timing.md, "Power cuts"): the recoveries' chip time and the
/// host requests the cuts interrupted.
#[derive(Clone, Debug, Default, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct RecoveryTiming {
    #[ts(type = "number")]
    pub recoveries: u64,
    /// Each recovery's chip time (every attempt until one completes), µs.
    pub recovery_us: TailSummary,
    /// Host requests interrupted (read + write; not acknowledged).
    #[ts(type = "number")]
    pub interrupted: u64,
    /// Chip time of the interrupted page requests' operations before the cuts, µs.
    pub interrupted_work_us: f64,
}

/// Host-request timing of a run (timing.rs): the model and, per kind, the response,
/// the queueing delay and the service time.
#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct TimingMetrics {
    /// "closed" (each request starts when the previous one ends: the papers' tables) or
    /// "open" (requests arrive at their times and queue for the chip).
    #[ts(type = r#""closed" | "open""#)]
    pub model: &'static str,
    /// Where open arrivals come from: "trace" (its timestamps × time_scale), "fixed" or
    /// "poisson" (at `rate_per_s`); "" in the closed model.
    pub arrivals: &'static str,
    pub time_scale: f64,
    pub rate_per_s: Option<f64>,
    /// Host requests (records), all kinds.
    #[ts(type = "number")]
    pub requests: u64,
    pub read: KindTimingSummary,
    pub write: KindTimingSummary,
    /// Recoveries after power cuts and the requests the cuts interrupted (the Session).
    pub recovery: RecoveryTiming,
}

impl Default for TimingMetrics {
    fn default() -> Self {
        TimingMetrics {
            model: "closed",
            arrivals: "",
            time_scale: 1.0,
            rate_per_s: None,
            requests: 0,
            read: KindTimingSummary::default(),
            write: KindTimingSummary::default(),
            recovery: RecoveryTiming::default(),
        }
    }
}

/// What the simulator counts per host request (the chip counts the rest).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HostCounters {
    pub reads: u64,
    pub writes: u64,
    /// Reads that disagreed with the reference model. Must stay 0.
    pub wrong_reads: u64,
    /// Latency of reads of pages written before (reads of never-written pages are
    /// kept apart: they find nothing and cost little or nothing, and would pull the
    /// mean read latency down; common in traces cut from a longer run).
    pub read_latency: LatencyHist,
    pub write_latency: LatencyHist,
    /// Reads of a page never written (the reference model has no version of it).
    pub unwritten_reads: u64,
    pub unwritten_read_latency: LatencyHist,
}

#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct LatencySummary {
    #[ts(type = "number")]
    pub count: u64,
    pub best: f64,
    pub mean: f64,
    pub p99: f64,
    pub worst: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct LatencyPair {
    /// Reads of written pages only (the default; see `read_all`).
    pub read: LatencySummary,
    pub write: LatencySummary,
    /// Every read, never-written pages included.
    pub read_all: LatencySummary,
}

#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct EraseSpread {
    pub min: u32,
    pub max: u32,
    pub mean: f64,
}

#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct Merges {
    #[ts(type = "number")]
    pub switch: u64,
    #[ts(type = "number")]
    pub partial: u64,
    /// Per logical block merged.
    #[ts(type = "number")]
    pub full: u64,
    /// Per victim log block.
    #[ts(type = "number")]
    pub full_victims: u64,
}

#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct OpsByCause {
    #[ts(type = "number")]
    pub reads: u64,
    #[ts(type = "number")]
    pub oob_reads: u64,
    #[ts(type = "number")]
    pub programs: u64,
    #[ts(type = "number")]
    pub erases: u64,
}

/// The TypeScript of `scheme_metrics`: each scheme's own figures, read by key.
#[derive(TS)]
#[ts(type = "Record<string, unknown>")]
pub struct SchemeFigures;

/// Stable field names: the CLI's `--json` output and the app's metrics panel.
#[derive(Clone, Debug, Serialize, PartialEq, TS)]
#[ts(export)]
pub struct Metrics {
    pub scheme: String,
    pub chip: String,
    #[ts(type = "number")]
    pub requests: u64,
    #[ts(type = "number")]
    pub host_reads: u64,
    #[ts(type = "number")]
    pub host_writes: u64,
    #[ts(type = "number")]
    pub page_reads: u64,
    #[ts(type = "number")]
    pub oob_reads: u64,
    #[ts(type = "number")]
    pub page_programs: u64,
    #[ts(type = "number")]
    pub erases: u64,
    /// Page programs of every cause per host write.
    pub write_amplification: f64,
    /// Sum of operation times (the papers' formula).
    pub elapsed_us: f64,
    pub latency_us: LatencyPair,
    pub erase_count: EraseSpread,
    pub merges: Merges,
    #[ts(type = "number")]
    pub gc_runs: u64,
    /// Mean utilisation of log blocks when replaced (FAST Figure 4); null when none was.
    pub log_utilisation: Option<f64>,
    #[ts(type = "number")]
    pub ram_bytes: u64,
    #[ts(type = "number")]
    pub wrong_reads: u64,
    /// Host reads of pages never written, left out of `latency_us.read` (in `read_all`).
    #[ts(type = "number")]
    pub unwritten_reads: u64,
    #[ts(as = "BTreeMap<String, OpsByCause>")]
    pub by_cause: BTreeMap<&'static str, OpsByCause>,
    /// Host requests in time (a record of several pages is one request), by the run's
    /// timing model; `latency_us` above stays per page.
    pub timing: TimingMetrics,
    /// The scheme's own figures (absent when it has none); read by key.
    #[serde(skip_serializing_if = "serde_json::Value::is_null")]
    #[ts(as = "Option<SchemeFigures>", optional)]
    pub scheme_metrics: serde_json::Value,
}

/// What `Metrics::collect` takes from the scheme.
pub struct Scheme {
    pub name: &'static str,
    pub ram_bytes: u64,
    pub metrics: serde_json::Value,
}

impl Metrics {
    /// The run's figures from the flash, the host's counters and the scheme's own three
    /// (`Ftl::name`, `ram_bytes`, `scheme_metrics`: given, not the scheme, so this module
    /// stays below `ftl`, which names `HostCounters` for its closed loop; issue 37).
    pub fn collect(flash: &Flash, host: &HostCounters, scheme: Scheme) -> Metrics {
        let ec = flash.erase_counts();
        let programs = flash.total(OpKind::Program);
        let c = &flash.counters;
        let by_cause = CAUSES
            .iter()
            .map(|&cause| {
                (
                    cause.name(),
                    OpsByCause {
                        reads: flash.count(OpKind::Read, cause),
                        oob_reads: flash.count(OpKind::ReadOob, cause),
                        programs: flash.count(OpKind::Program, cause),
                        erases: flash.count(OpKind::Erase, cause),
                    },
                )
            })
            .filter(|(_, o)| o.reads + o.oob_reads + o.programs + o.erases > 0)
            .collect();
        Metrics {
            scheme: scheme.name.to_string(),
            chip: flash.chip.name.clone(),
            requests: host.reads + host.writes,
            host_reads: host.reads,
            host_writes: host.writes,
            page_reads: flash.total(OpKind::Read),
            oob_reads: flash.total(OpKind::ReadOob),
            page_programs: programs,
            erases: flash.total(OpKind::Erase),
            write_amplification: if host.writes == 0 { 0.0 } else { programs as f64 / host.writes as f64 },
            elapsed_us: flash.elapsed_ns as f64 / 1000.0,
            latency_us: LatencyPair {
                read: host.read_latency.summary(),
                write: host.write_latency.summary(),
                read_all: host.read_latency.merged(&host.unwritten_read_latency).summary(),
            },
            erase_count: EraseSpread {
                min: ec.iter().copied().min().unwrap_or(0),
                max: ec.iter().copied().max().unwrap_or(0),
                mean: if ec.is_empty() { 0.0 } else { ec.iter().map(|&e| e as f64).sum::<f64>() / ec.len() as f64 },
            },
            merges: Merges {
                switch: c.switch_merges,
                partial: c.partial_merges,
                full: c.full_merges,
                full_victims: c.full_merge_victims,
            },
            gc_runs: c.gc_runs,
            log_utilisation: if c.log_replacements == 0 {
                None
            } else {
                Some(c.log_utilisation_sum / c.log_replacements as f64)
            },
            ram_bytes: scheme.ram_bytes,
            wrong_reads: host.wrong_reads,
            unwritten_reads: host.unwritten_reads,
            by_cause,
            timing: TimingMetrics::default(),
            scheme_metrics: scheme.metrics,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The distribution a plain map of every rounded value gives (TimeHist before issue 37).
    fn reference(values: &[u64]) -> Vec<(u64, u64)> {
        let mut m = BTreeMap::new();
        for &v in values {
            *m.entry(round5(v)).or_insert(0u64) += 1;
        }
        m.into_iter().collect()
    }

    fn values(seed: u64, n: usize) -> Vec<u64> {
        // A small LCG (no import of the trace module: metrics sits below it).
        let mut x = seed;
        let mut next = move || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 33
        };
        // Runs of one value, values that round alike, and values far apart.
        let pool = [0, 200_000, 200_004, 200_006, 2_200_000, 15_000, 123_456_789, 99_999, 100_001];
        let mut out = Vec::new();
        while out.len() < n {
            let v = pool[(next() % pool.len() as u64) as usize];
            let run = 1 + next() % 5;
            out.extend(std::iter::repeat_n(v, run as usize));
        }
        out
    }

    #[test]
    fn runs_of_one_value_give_the_same_distribution() {
        for seed in 1..20 {
            let vs = values(seed, 500);
            let mut h = TimeHist::default();
            for &v in &vs {
                h.record(v);
            }
            assert_eq!(h.buckets().collect::<Vec<_>>(), reference(&vs), "seed {seed}");
            assert_eq!(h.len(), vs.len() as u64);
            assert_eq!((h.min(), h.max()), (vs.iter().min().copied(), vs.iter().max().copied()));
            // Count and mean include the repeats not yet settled (the last run is one).
            let sum: u128 = vs.iter().map(|&v| v as u128).sum();
            let s = h.summary();
            assert_eq!((s.count, s.mean), (vs.len() as u64, (sum as f64 / vs.len() as f64) / 1000.0), "seed {seed}");
            // Equal to a hist of the same values recorded in another order (other runs).
            let mut sorted = vs.clone();
            sorted.sort_unstable();
            let mut g = TimeHist::default();
            for &v in &sorted {
                g.record(v);
            }
            assert_eq!(h, g);
            assert_eq!(h.summary(), g.summary());
        }
        assert_eq!(TimeHist::zeros(0), TimeHist::default());
        let mut z = TimeHist::default();
        for _ in 0..7 {
            z.record(0);
        }
        assert_eq!((TimeHist::zeros(7), TimeHist::zeros(7).summary()), (z.clone(), z.summary()));
    }

    /// Wait and service recorded apart only from the first wait: the summary equals three
    /// histograms recorded for every request.
    #[test]
    fn wait_and_service_split_at_the_first_wait() {
        for seed in 1..20 {
            let service = values(seed, 300);
            let wait = values(seed + 100, 300);
            let first_wait = (seed as usize * 37) % 320; // sometimes never
            let mut k = KindTiming::default();
            let (mut r, mut w, mut s) = (TimeHist::default(), TimeHist::default(), TimeHist::default());
            for (i, (&sv, &wv)) in service.iter().zip(&wait).enumerate() {
                let wv = if i < first_wait { 0 } else { wv };
                k.record(sv + wv, wv, sv);
                r.record(sv + wv);
                w.record(wv);
                s.record(sv);
            }
            let got = k.summary();
            assert_eq!((got.response_us, got.wait_us, got.service_us), (r.summary(), w.summary(), s.summary()));
        }
    }
}
