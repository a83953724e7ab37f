//! What the parser produces: the packed page requests of a trace and what was seen
//! (`RawTrace`), progress reports, and the error when a trace cannot be read.

use std::collections::BTreeMap;

use serde::Serialize;
use ts_rs::TS;

use super::{Format, TimeUnit};
use crate::timing::Schedule;
use crate::trace::ParseError;

/// Records the parser saw but did not turn into requests, by reason (never silent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct Ignored {
    /// Records of another device than `device`.
    #[ts(type = "number")]
    pub other_device: u64,
    /// blkparse lines of another action than `blkparse_action`.
    #[ts(type = "number")]
    pub other_action: u64,
    /// blkparse records that are neither read nor write (discard, flush, barrier-only).
    #[ts(type = "number")]
    pub not_read_write: u64,
    /// Records of size 0.
    #[ts(type = "number")]
    pub zero_size: u64,
    /// blkparse's closing statistics lines (after `CPUn (...)` / `Total (...)`).
    #[ts(type = "number")]
    pub blkparse_statistics: u64,
    /// Comment (`#`) lines.
    #[ts(type = "number")]
    pub comments: u64,
    /// The record that did not fit under the request limit (1 or 0: reading stops
    /// there, `RawTrace::stopped_at_line`).
    #[ts(type = "number")]
    pub beyond_limit: u64,
}

/// What `feed` reports after each chunk.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, rename = "TraceProgress")]
pub struct Progress {
    #[ts(type = "number")]
    pub bytes: u64,
    #[ts(type = "number")]
    pub lines: u64,
    #[ts(type = "number")]
    pub records: u64,
    #[ts(type = "number")]
    pub requests: u64,
    #[ts(type = "number")]
    pub bad_lines: u64,
    /// The format, once detected.
    pub format: Option<Format>,
    /// The request limit was reached: the rest of the file is not read (stop feeding
    /// and call `finish`; the trace kept is the prefix).
    pub done: bool,
    /// Parsing cannot succeed any more (a fatal error, or too many bad lines without
    /// `skip_bad_lines`): stop feeding and call `finish` for the message.
    pub failed: bool,
}

/// Why a trace could not be read: a message and the first bad lines.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct TraceError {
    pub message: String,
    pub errors: Vec<ParseError>,
    #[ts(type = "number")]
    pub bad_lines: u64,
}

/// One line (issue 34: a terminal got up to 21): the message, the first bad line, and how
/// many more there are. The app lists `errors` itself.
impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        let Some(first) = self.errors.first() else { return Ok(()) };
        // A message that already names its error (the pattern's) says it once.
        let first = first.to_string();
        if !self.message.ends_with(&first) {
            write!(f, "; first: {first}")?;
        }
        let more = self.bad_lines.saturating_sub(1);
        if more > 0 {
            write!(f, " (and {more} more bad line{})", if more == 1 { "" } else { "s" })?;
        }
        Ok(())
    }
}

// Packed request (the pattern language's output): kind in the top 3 bits, page number (or
// state id) in the low 61.
const KIND_SHIFT: u32 = 61;
pub(crate) const VALUE_MASK: u64 = (1 << KIND_SHIFT) - 1;
use crate::trace::runs::{Chunked, Runs};
pub(crate) use crate::trace::runs::{K_FREEZE, K_READ, K_REVERT, K_UNFREEZE, K_WRITE};

pub(crate) fn pack(kind: u64, value: u64) -> u64 {
    (kind << KIND_SHIFT) | (value & VALUE_MASK)
}
pub(crate) fn unpack(p: u64) -> (u64, u64) {
    (p >> KIND_SHIFT, p & VALUE_MASK)
}

/// A parsed trace: page requests in trace order (as runs of pages, `trace::runs`) and what
/// the parser saw. `fit` (in `fit.rs`) maps it into a logical space.
#[derive(Clone, Debug, Default)]
pub struct RawTrace {
    pub format: Option<Format>,
    pub format_detected: bool,
    pub page_bytes: u32,
    pub bytes: u64,
    pub lines: u64,
    /// Trace records (lines) kept, before page splitting.
    pub records: u64,
    pub record_reads: u64,
    pub record_writes: u64,
    pub ignored: Ignored,
    pub bad_lines: u64,
    /// The first bad lines (up to `max_errors`), when `skip_bad_lines` let them pass.
    pub errors: Vec<ParseError>,
    /// Records per device (at most 64 devices listed).
    pub devices: BTreeMap<String, u64>,
    /// "gzip" or "zstd" when the input was compressed (`bytes` counts the text).
    pub compression: Option<String>,
    /// Compressed bytes read, when compressed.
    pub compressed_bytes: u64,
    /// CSV: how the columns were read (role -> column name or number, unit), so the
    /// app and `ftl trace` can show what was guessed.
    pub csv_columns: Vec<(String, String)>,
    /// Unit of `times` (the format's, or `TraceOptions::time_unit`); None: no timestamps.
    pub time_unit: Option<TimeUnit>,
    /// The line (record) at which reading stopped because the request limit was
    /// reached; the rest of the file was not read.
    pub stopped_at_line: Option<u64>,
    /// The page requests, a run of pages per entry (8 bytes for one page, 16 for more).
    pub(crate) packed: Runs<u64>,
    /// Bit i set: page request i begins a host request (a record; one record of n pages
    /// is one request of n pages, with one response time).
    pub(crate) starts: Vec<u64>,
    /// The timestamp of each kept record, in `time_unit`, after the first record's
    /// (relative, so an f64 keeps the precision), while every record had one.
    pub(crate) times: Chunked<f64>,
    /// The first record's timestamp in billionths of `time_unit`.
    pub(crate) time0: Option<i128>,
    /// Kept records without a timestamp (the trace then runs untimed).
    pub(crate) untimed: u64,
}

/// A timestamp after the first, in the time unit (billionths in). As i64 when it fits (always,
/// for times under 292 years): the same f64, without the i128 -> f64 helper (`__floattidf`,
/// ~5 % of the wasm parse).
#[inline(always)]
pub(crate) fn since(t: i128, t0: i128) -> f64 {
    let d = t - t0;
    let d = i64::try_from(d).map_or(d as f64, |d| d as f64);
    d * 1e-9
}

impl RawTrace {
    /// The next page request begins a host request (a record) with this timestamp, kept
    /// in `times` if `keep`.
    #[inline(always)]
    pub(crate) fn mark_start(&mut self, time: Option<i128>, keep: bool) {
        let i = self.packed.len();
        if i / 64 >= self.starts.len() {
            self.starts.resize(i / 64 + 1, 0);
        }
        self.starts[i / 64] |= 1 << (i % 64);
        match time {
            Some(t) if self.untimed == 0 => {
                let t0 = *self.time0.get_or_insert(t);
                if keep {
                    self.times.push(since(t, t0));
                }
            }
            _ => {
                self.untimed += 1;
                self.times = Chunked::default();
            }
        }
    }
    /// Appends `n` page requests of `kind` on pages `first..` (the parser checked they fit).
    #[inline(always)]
    pub(crate) fn push_pages(&mut self, kind: u64, first: u64, n: u64) {
        let fits = self.packed.push(kind, first, n);
        debug_assert!(fits, "pages are checked against VALUE_MASK first");
    }
    /// Takes the page requests held (whole records), leaving the parse's record:
    /// `TraceParser::take_batch`, and the last batch of a streamed run after `finish`.
    pub fn take_batch(&mut self) -> super::Batch {
        self.times = Default::default();
        super::Batch { packed: std::mem::take(&mut self.packed), starts: std::mem::take(&mut self.starts) }
    }
    /// Host requests (records), each a run of page requests.
    pub fn host_requests(&self) -> u64 {
        self.starts.iter().map(|w| w.count_ones() as u64).sum()
    }
    /// Which page requests begin a host request, and each host request's arrival in ns
    /// after the first one's (None when the trace has no timestamps). A timestamp before
    /// the first record's counts as 0 (requests are served in trace order anyway).
    pub fn schedule(&self) -> Schedule {
        self.schedule_timed(true)
    }
    /// As `schedule`; without the arrivals unless `timed` (the closed model never reads
    /// them: 8 bytes per record less; issue 37).
    pub fn schedule_timed(&self, timed: bool) -> Schedule {
        let arrivals = match self.time_unit {
            Some(u) if timed && self.untimed == 0 && !self.times.is_empty() => {
                Some(self.times.iter().map(|t| (t * u.ns()).max(0.0).round() as u64).collect())
            }
            _ => None,
        };
        Schedule::new(self.starts.clone(), self.packed.len(), arrivals).with_unit(self.time_unit)
    }
    /// Whether the trace freezes, unfreezes or reverts (time-shifting schemes only).
    pub fn has_time_shift(&self) -> bool {
        self.packed.entries().any(|e| !matches!(e.kind, K_READ | K_WRITE))
    }
    /// Page requests (after splitting).
    pub fn len(&self) -> usize {
        self.packed.len()
    }
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }
    /// Highest page addressed, if any request addresses one.
    pub fn max_page(&self) -> Option<u64> {
        self.rw_entries().map(|e| e.first + e.n - 1).max()
    }
    /// Distinct pages and distinct blocks of `ppb` pages touched by reads and writes
    /// (`Footprint`).
    pub fn footprint(&self, ppb: u64) -> (u64, u64) {
        let mut f = Footprint::default();
        for e in self.rw_entries() {
            f.add(e.first, e.n);
        }
        f.count(ppb)
    }
    /// The runs of reads and writes (n >= 1 pages each).
    pub(crate) fn rw_entries(&self) -> impl Iterator<Item = crate::trace::runs::Entry> + '_ {
        self.packed.entries().filter(|e| matches!(e.kind, K_READ | K_WRITE))
    }
    /// `(is_write, page)` of each read or write, in order (freeze etc. are skipped).
    pub fn pages(&self) -> impl Iterator<Item = (bool, u64)> + '_ {
        self.packed.iter().filter_map(|(k, v)| match k {
            K_READ => Some((false, v)),
            K_WRITE => Some((true, v)),
            _ => None,
        })
    }
}

/// Distinct pages (and blocks) touched, counted as runs of pages come: a bitmap of the low
/// pages while it costs no more than 16 bytes a run seen (or 1 MB), and the runs above it
/// as ranges, sorted and merged at the end. No per-request hash map (the summary of a 20 M
/// request trace in well under a second), and bounded memory for a streamed run whose
/// pages stay within the bitmap (issue 37).
#[derive(Clone, Debug, Default)]
pub(crate) struct Footprint {
    bits: Vec<u64>,
    /// Runs (first, last) not in `bits` when they came.
    far: Vec<(u64, u64)>,
    runs: u64,
}

impl Footprint {
    /// The pages `first..first + n` (n >= 1).
    #[inline]
    pub(crate) fn add(&mut self, first: u64, n: u64) {
        self.runs += 1;
        let last = first + n - 1;
        if (last / 64) < self.bits.len() as u64 {
            self.set(first, last);
        } else {
            self.add_beyond(first, last);
        }
    }

    /// A word's bits at a time, not a page's (a 4 KB request is 8 pages of 512 bytes;
    /// issue 37: the footprint was most of an upload's finish at 512-byte pages).
    #[inline]
    fn set(&mut self, first: u64, last: u64) {
        let (fw, lw) = ((first / 64) as usize, (last / 64) as usize);
        let lo = !0u64 << (first % 64);
        let hi = !0u64 >> (63 - last % 64);
        if fw == lw {
            self.bits[fw] |= lo & hi;
        } else {
            self.bits[fw] |= lo;
            self.bits[fw + 1..lw].fill(!0);
            self.bits[lw] |= hi;
        }
    }

    #[cold]
    fn add_beyond(&mut self, first: u64, last: u64) {
        // The bitmap may cover pages up to 16 bytes a run (1 MB at least), under 2^31.
        let cap = self.runs.saturating_mul(128).clamp(1 << 23, 1 << 31);
        if last < cap {
            let words = (last / 64 + 1) as usize;
            // Doubling, so a trace whose highest page climbs slowly grows it a few times.
            let want = words.max(self.bits.len() * 2).min((cap / 64) as usize).max(words);
            self.bits.resize(want, 0);
            self.set(first, last);
        } else {
            self.far.push((first, last));
        }
    }

    /// Distinct pages and distinct blocks of `ppb` pages.
    pub(crate) fn count(mut self, ppb: u64) -> (u64, u64) {
        let ppb = ppb.max(1);
        let low = self.bits.len() as u64 * 64;
        // The parts of far runs the bitmap now covers go into it: each page counted once.
        let mut far = Vec::with_capacity(self.far.len());
        for (a, b) in std::mem::take(&mut self.far) {
            if a < low {
                self.set(a, b.min(low - 1));
            }
            if b >= low {
                far.push((a.max(low), b));
            }
        }
        let mut pages = 0u64;
        let mut blocks = 0u64;
        let mut last_block = u64::MAX;
        for (i, &w) in self.bits.iter().enumerate() {
            pages += w.count_ones() as u64;
            let base = i as u64 * 64;
            let mut w = w;
            // A touched block at a time: its first page here, then the word's pages from
            // the next block on (one division a block, not a page).
            while w != 0 {
                let b = (base + w.trailing_zeros() as u64) / ppb;
                if b != last_block {
                    blocks += 1;
                    last_block = b;
                }
                let next = (b + 1).saturating_mul(ppb);
                if next >= base + 64 {
                    break;
                }
                w &= !0u64 << (next - base);
            }
        }
        far.sort_unstable();
        // The last page counted (every far page is above the bitmap's).
        let mut end: Option<u64> = None;
        for (a, b) in far {
            let a = match end {
                Some(e) if b <= e => continue,
                Some(e) if a <= e => e + 1,
                _ => a,
            };
            pages += b - a + 1;
            blocks += b / ppb - a / ppb + 1 - (last_block == a / ppb) as u64;
            last_block = b / ppb;
            end = Some(b);
        }
        (pages, blocks)
    }
}

#[cfg(test)]
mod tests {
    use super::Footprint;
    use std::collections::BTreeSet;

    /// Distinct pages and blocks as a set counts them, for runs low (the bitmap), far (the
    /// sorted ranges), overlapping and crossing between the two, at block sizes that divide
    /// the bitmap's end and one that does not.
    #[test]
    fn footprint_counts_as_a_set() {
        let mut x = 3u64;
        let mut next = || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            x >> 11
        };
        for case in 0..40 {
            let mut f = Footprint::default();
            let mut runs = Vec::new();
            for _ in 0..(1 + case * 50) {
                let span = [1 << 10, 1 << 20, 1 << 24, 1 << 34][(next() % 4) as usize];
                let first = next() % span;
                let n = 1 + next() % [1, 3, 70, 300][(next() % 4) as usize];
                f.add(first, n);
                runs.push((first, n));
            }
            for ppb in [1, 8, 32, 64, 96, 200] {
                let pages: BTreeSet<u64> = runs.iter().flat_map(|&(a, n)| a..a + n).collect();
                let blocks: BTreeSet<u64> = pages.iter().map(|p| p / ppb).collect();
                assert_eq!(f.clone().count(ppb), (pages.len() as u64, blocks.len() as u64), "case {case}, ppb {ppb}");
            }
        }
    }
}
