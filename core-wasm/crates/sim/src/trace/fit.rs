//! Fitting a parsed trace into a scheme's logical space, and the summary the app
//! shows before a run (docs/traces.md). Nothing is dropped or changed silently: the
//! summary says which fit was applied and how many requests it changed.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::parse::{Format, Ignored, RawTrace, K_FREEZE, K_READ, K_REVERT, K_UNFREEZE, K_WRITE};
use super::{ParseError, Request};

mod counter;
mod stream;
pub use counter::SummaryCounter;
pub use stream::{FitStream, StreamCounts};

/// What to do with addresses beyond the logical space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum Fit {
    /// Refuse: an error says how many requests are out of range and what to choose.
    #[default]
    None,
    /// Page number modulo the logical space.
    Fold,
    /// Renumber the touched logical blocks (`pages_per_block` pages each) densely, in
    /// first-touch order; the offset within the block is kept.
    Compact,
    /// Keep the addresses; the chip is grown until the scheme exports enough pages
    /// (done by the scenario; `fit` itself only checks and reports what is needed).
    Scale,
}

impl Fit {
    pub fn from_name(s: &str) -> Result<Fit, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "none" | "" => Ok(Fit::None),
            "fold" | "modulo" => Ok(Fit::Fold),
            "compact" => Ok(Fit::Compact),
            "scale" => Ok(Fit::Scale),
            o => Err(format!("unknown fit '{o}': expected fold, compact, scale or none")),
        }
    }
}

/// Most points in `sample`.
pub const SAMPLE_POINTS: usize = 1000;

/// The record the app shows before a run (and `ftl trace` prints).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct TraceSummary {
    pub format: Option<Format>,
    /// True when the format was auto-detected (false: chosen by the user).
    pub format_detected: bool,
    #[ts(type = "number")]
    pub bytes: u64,
    #[ts(type = "number")]
    pub lines: u64,
    /// Trace records kept (lines), before page splitting.
    #[ts(type = "number")]
    pub records: u64,
    #[ts(type = "number")]
    pub record_reads: u64,
    #[ts(type = "number")]
    pub record_writes: u64,
    /// Page requests after splitting (what the simulator runs).
    #[ts(type = "number")]
    pub requests: u64,
    #[ts(type = "number")]
    pub reads: u64,
    #[ts(type = "number")]
    pub writes: u64,
    /// reads / (reads + writes) of the page requests.
    pub read_share: f64,
    pub page_bytes: u32,
    pub pages_per_block: u32,
    /// Lowest and highest page addressed in the trace (before the fit).
    #[ts(type = "number")]
    pub min_page: u64,
    #[ts(type = "number")]
    pub max_page: u64,
    /// Logical pages needed to hold the trace unchanged (max_page + 1).
    #[ts(type = "number")]
    pub needed_logical_pages: u64,
    /// Distinct logical blocks touched, before the fit.
    #[ts(type = "number")]
    pub footprint_blocks: u64,
    /// Distinct pages touched, before the fit.
    #[ts(type = "number")]
    pub footprint_pages: u64,
    /// The scheme's logical space (0 when no space was given).
    #[ts(type = "number")]
    pub logical_pages: u64,
    pub fit: Fit,
    /// Page requests whose address the fit changed.
    #[ts(type = "number")]
    pub fit_touched: u64,
    /// Page requests beyond the logical space before the fit.
    #[ts(type = "number")]
    pub out_of_range: u64,
    /// Distinct logical blocks touched after the fit.
    #[ts(type = "number")]
    pub fitted_footprint_blocks: u64,
    /// Distinct pages touched after the fit (fold may merge distinct pages: fewer than
    /// `footprint_pages` then, and the note says so).
    #[ts(type = "number")]
    pub fitted_footprint_pages: u64,
    /// Reads of a page the trace has not written before (after the fit): they find
    /// nothing on the chip and cost no flash read (common in a trace cut from a
    /// longer run).
    #[ts(type = "number")]
    pub reads_of_unwritten: u64,
    /// One sentence: what the fit did.
    pub fit_note: String,
    /// The chip's block count after `Fit::Scale` grew it (`fit_note` says so too); None
    /// when the fit left the chip as the scenario gave it.
    pub scaled_blocks: Option<u32>,
    pub ignored: Ignored,
    /// Malformed lines skipped (`skip_bad_lines`), and the first of them.
    #[ts(type = "number")]
    pub skipped_lines: u64,
    pub errors: Vec<ParseError>,
    /// Records per device, when the format names devices.
    #[ts(type = "Array<[string, number]>")]
    pub devices: Vec<(String, u64)>,
    /// `[request index, page after the fit]`, at most SAMPLE_POINTS evenly spaced.
    #[ts(type = "Array<[number, number]>")]
    pub sample: Vec<[u64; 2]>,
    pub warnings: Vec<String>,
}

/// The logical space a trace is fitted into.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Space {
    pub logical_pages: u32,
    pub pages_per_block: u32,
}

fn plural(n: u64, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

impl RawTrace {
    /// The requests fitted into `space`, and the summary. `space = None` gives the
    /// summary of the trace alone (no fit; `sample` holds the raw pages).
    pub fn fit(&self, space: Option<Space>, fit: Fit) -> Result<(Vec<Request>, TraceSummary), String> {
        let mut reqs = Vec::with_capacity(if space.is_some() { self.packed.len() } else { 0 });
        let s = self.fit_each(space, fit, None, |r| reqs.push(r))?;
        Ok((reqs, s))
    }

    /// As `fit`, the requests as runs of pages, 4 bytes a run of one page (`Requests`;
    /// `ftl run`, issue 37).
    pub fn fit_packed(
        &self,
        space: Option<Space>,
        fit: Fit,
    ) -> Result<(super::requests::Requests, TraceSummary), String> {
        let mut reqs = super::requests::Requests::default();
        let s = self.fit_each(space, fit, None, |r| reqs.push(r))?;
        Ok((reqs, s))
    }

    /// The summary `fit` gives, without keeping the fitted requests (`ftl trace`: the
    /// summary of a large trace without a second copy of it in memory; issue 37).
    pub fn fit_summary(&self, space: Option<Space>, fit: Fit) -> Result<TraceSummary, String> {
        self.fit_each(space, fit, None, |_| ())
    }

    /// `fit_summary` of an upload whose counts `counter` holds (`SummaryCounter::summary`
    /// counted them during the feeds): the fit preview without the whole-trace pass of
    /// `Counts` again (issue 37 item 6: 45-100 ms of the worker after the parse, on the
    /// path to the dialog's preview). The same summary or error as `fit_summary`.
    pub fn fit_summary_counted(
        &self,
        space: Option<Space>,
        fit: Fit,
        counter: &SummaryCounter,
    ) -> Result<TraceSummary, String> {
        self.fit_each(space, fit, counter.held(), |_| ())
    }

    /// `fit`, handing each fitted request to `keep` in order; `held`: this trace's counts
    /// with no space (`Counts::new(0)`), counted already.
    fn fit_each(
        &self,
        space: Option<Space>,
        fit: Fit,
        held: Option<&Counts>,
        mut keep: impl FnMut(Request),
    ) -> Result<TraceSummary, String> {
        let Some(space) = space else { return Ok(self.summary(1)) };
        let (lp, ppb) = (space.logical_pages as u64, space.pages_per_block.max(1) as u64);
        let mut s = match held {
            Some(c) => self.summary_of(c.clone(), ppb, self.packed.len() as u64),
            None => self.base_summary(ppb, lp),
        };
        // Held counts have no space: the pages at or past it are 0 when the highest page is
        // inside it, else counted where the fit needs them (none and scale refuse any).
        let beyond_unknown = held.is_some() && lp > 0 && s.requests > 0 && s.max_page >= lp;
        if beyond_unknown && matches!(fit, Fit::None | Fit::Scale) {
            s.out_of_range = self.pages_beyond(lp);
        }
        s.logical_pages = lp;
        s.fit = fit;
        check_space(&s, ppb)?;
        let mut f = Fitter::new(space, fit);
        for (k, v) in self.packed.iter() {
            keep(f.next(k, v)?);
        }
        if beyond_unknown {
            s.out_of_range = f.beyond();
        }
        f.finish(&mut s);
        Ok(s)
    }

    /// Page requests (reads and writes) at or past page `lp`.
    fn pages_beyond(&self, lp: u64) -> u64 {
        self.rw_entries().map(|e| (e.first + e.n).saturating_sub(e.first.max(lp))).sum()
    }

    /// Every `step`-th page request (reads and writes) as `[index, f(page)]`, found run by
    /// run: a run of n pages costs its sampled pages, not n steps (issue 37: expanding every
    /// page was 262 M instructions of `ftl trace` on a 64 MB trace at 512-byte pages, and
    /// most of an upload's `finish`).
    fn fill_sample(&self, s: &mut TraceSummary, f: impl Fn(u64) -> Option<u64>) {
        let step = sample_step(self.packed.len()) as u64;
        let (mut at, mut next) = (0u64, 0u64);
        s.sample.clear();
        let mut visit = |e: super::runs::Entry| {
            while next < at + e.n {
                if matches!(e.kind, K_READ | K_WRITE) {
                    if let Some(q) = f(e.first + (next - at)) {
                        s.sample.push([next, q]);
                    }
                }
                next += step;
            }
            at += e.n;
        };
        in_pieces(&mut self.packed.entries(), &mut visit);
    }

    /// The summary of the trace alone (no logical space, no fit), with the footprint
    /// counted in blocks of `pages_per_block` pages.
    pub fn summary(&self, pages_per_block: u32) -> TraceSummary {
        let s = self.base_summary(pages_per_block.max(1) as u64, 0);
        self.unfitted(s)
    }

    /// `s`, the summary of the trace alone, with its note and sample.
    fn unfitted(&self, mut s: TraceSummary) -> TraceSummary {
        s.fit_note = "no logical space given: addresses unchanged".into();
        self.fill_sample(&mut s, Some);
        s
    }

    /// The summary before the fit, with the page requests at or past `lp` (0: none) counted.
    fn base_summary(&self, ppb: u64, lp: u64) -> TraceSummary {
        let mut c = Counts::new(lp);
        // Per run of pages (its n pages at once), not per page.
        #[cfg(target_arch = "wasm32")]
        in_pieces(&mut self.rw_entries(), &mut |e| {
            c.add(e.kind, e.first, e.n);
        });
        // Natively the plain loop: through `in_pieces` `Counts::add` was not inlined (87.9 ->
        // 125.6 M instructions of `ftl trace`'s summary, 1.14 M-request trace, callgrind).
        #[cfg(not(target_arch = "wasm32"))]
        for e in self.rw_entries() {
            c.add(e.kind, e.first, e.n);
        }
        self.summary_of(c, ppb, self.packed.len() as u64)
    }

    /// The summary of `c` (the runs' counts) and this trace's parse record, `kept` page
    /// requests in all (a streamed run's trace holds only its last batch).
    fn summary_of(&self, c: Counts, ppb: u64, kept: u64) -> TraceSummary {
        let (reads, writes, hi, out_of_range) = (c.reads, c.writes, c.hi, c.out_of_range);
        let lo = if reads + writes == 0 { 0 } else { c.lo };
        // Distinct pages and blocks by bitmap or sort + dedup (raw.rs), not a hash set.
        let (footprint_pages, footprint_blocks) = c.footprint.count(ppb);
        let mut warnings = Vec::new();
        if writes == 0 && reads > 0 {
            warnings.push(
                "the trace has only reads: no page is ever written, so every read finds nothing and the scheme does no programs or erases".into(),
            );
        }
        if self.devices.len() > 1 && self.ignored.other_device == 0 {
            warnings.push(format!(
                "the trace holds {} devices, run as one address space; choose a device to run one alone",
                self.devices.len()
            ));
        }
        if let Some(line) = self.stopped_at_line {
            warnings.push(format!(
                "truncated at the request limit: the first {kept} page requests were kept; reading stopped at line {line} (record {line} of a binary file), which did not fit, and the rest of the file was not read"
            ));
        }
        let total = reads + writes;
        TraceSummary {
            format: self.format,
            format_detected: self.format_detected,
            bytes: self.bytes,
            lines: self.lines,
            records: self.records,
            record_reads: self.record_reads,
            record_writes: self.record_writes,
            requests: total,
            reads,
            writes,
            read_share: if total == 0 { 0.0 } else { reads as f64 / total as f64 },
            page_bytes: self.page_bytes,
            pages_per_block: ppb as u32,
            min_page: lo,
            max_page: hi,
            needed_logical_pages: if total == 0 { 0 } else { hi + 1 },
            footprint_blocks,
            footprint_pages,
            logical_pages: 0,
            fit: Fit::None,
            fit_touched: 0,
            out_of_range,
            fitted_footprint_blocks: 0,
            fitted_footprint_pages: 0,
            reads_of_unwritten: 0,
            fit_note: String::new(),
            scaled_blocks: None,
            ignored: self.ignored.clone(),
            skipped_lines: self.bad_lines,
            errors: self.errors.clone(),
            devices: self.devices.iter().map(|(k, v)| (k.clone(), *v)).collect(),
            sample: Vec::new(),
            warnings,
        }
    }
}

/// Entries a call of `piece` takes.
const PIECE: usize = 1 << 16;

/// `f` on each of `it`'s entries, `PIECE` at a time, each piece one call of `piece`. In the
/// browser a whole trace's summary is one wasm call (`TraceParser::finish`), and V8 runs a
/// function's first calls in its baseline tier and cannot move a call already running to
/// the optimised code (no on-stack replacement for wasm): the one loop over 2.6 M entries
/// of a 64 MB upload ran whole in the slow tier, 2-2.5x its later cost (issue 37 item 6).
/// Called again piece after piece, `piece` gets the optimised code after a few. Natively
/// one plain loop (no tiers there).
fn in_pieces<I: Iterator<Item = super::runs::Entry>>(it: &mut I, f: &mut impl FnMut(super::runs::Entry)) {
    if cfg!(target_arch = "wasm32") {
        while piece(it, f) {}
    } else {
        it.for_each(f);
    }
}

/// Up to `PIECE` entries of `it` to `f`; false once `it` is done. Out of line: it must stay
/// a function of its own for V8 to switch its calls to the optimised code (`in_pieces`).
#[inline(never)]
fn piece<I: Iterator<Item = super::runs::Entry>>(it: &mut I, f: &mut impl FnMut(super::runs::Entry)) -> bool {
    for _ in 0..PIECE {
        match it.next() {
            Some(e) => f(e),
            None => return false,
        }
    }
    true
}

/// The sample's step: the smallest power of two that leaves at most SAMPLE_POINTS of
/// the `n` indices (a power of two, so a streamed run, which learns `n` at its end, takes
/// the same points by doubling it as it goes: `Fitter::next`).
fn sample_step(n: usize) -> usize {
    let mut step = 1;
    while n.div_ceil(step) > SAMPLE_POINTS {
        step *= 2;
    }
    step
}

/// Two fixed-size bitsets over the fitted pages, interleaved word by word: lane 0 the
/// pages requested, lane 1 the pages written. A request's two bits share a cache line (issue
/// 37: on the uniform trace the two separate bitsets' read-modify-writes were about a
/// third of `FitStream::push`'s samples in `perf record`).
struct PageBits(Vec<[u64; 2]>);

impl PageBits {
    fn new(n: u64) -> PageBits {
        PageBits(vec![[0; 2]; n.div_ceil(64) as usize])
    }
    /// Marks page `i` requested and, for a write, written; whether it is a read of a page
    /// not written before.
    #[inline(always)]
    fn mark(&mut self, i: u64, write: bool) -> bool {
        let w = &mut self.0[(i / 64) as usize];
        let bit = 1u64 << (i % 64);
        w[0] |= bit;
        if write {
            w[1] |= bit;
            false
        } else {
            w[1] & bit == 0
        }
    }
    /// Pages requested.
    fn count(&self) -> u64 {
        self.0.iter().map(|w| w[0].count_ones() as u64).sum()
    }
    /// The first page requested at or after `from`.
    fn next_set(&self, from: u64) -> Option<u64> {
        let mut w = (from / 64) as usize;
        let mut word = self.0.get(w)?[0] & (!0u64 << (from % 64));
        while word == 0 {
            w += 1;
            word = self.0.get(w)?[0];
        }
        Some(w as u64 * 64 + word.trailing_zeros() as u64)
    }
    /// Runs of `n` pages (from page 0) with at least one page requested.
    fn count_groups(&self, n: u64) -> u64 {
        let (mut groups, mut from) = (0, 0);
        while let Some(i) = self.next_set(from) {
            groups += 1;
            from = (i / n + 1) * n;
        }
        groups
    }
}

/// The summary's counts over runs of pages before the fit, added as the runs come (the
/// held trace's, or a streamed run's batch by batch).
#[derive(Clone)]
pub(crate) struct Counts {
    reads: u64,
    writes: u64,
    lo: u64,
    hi: u64,
    /// The logical space (0: none given) and the page requests at or past it.
    lp: u64,
    out_of_range: u64,
    footprint: super::parse::Footprint,
}

impl Counts {
    pub(crate) fn new(lp: u64) -> Counts {
        Counts { reads: 0, writes: 0, lo: u64::MAX, hi: 0, lp, out_of_range: 0, footprint: Default::default() }
    }
    /// `n` reads or writes on `first..first + n`; returns how many are at or past the space.
    #[inline]
    pub(crate) fn add(&mut self, kind: u64, first: u64, n: u64) -> u64 {
        if kind == K_WRITE {
            self.writes += n;
        } else {
            self.reads += n;
        }
        self.lo = self.lo.min(first);
        self.hi = self.hi.max(first + n - 1);
        self.footprint.add(first, n);
        let out = if self.lp > 0 { (first + n).saturating_sub(first.max(self.lp)) } else { 0 };
        self.out_of_range += out;
        out
    }
}

/// The errors of a fit decided by the whole trace's counts in `s` (space, out-of-range
/// under none and scale, compact's block count); for none and scale the note too.
fn check_space(s: &TraceSummary, ppb: u64) -> Result<(), String> {
    let (lp, total, out_of_range, fit) = (s.logical_pages, s.requests, s.out_of_range, s.fit);
    if lp == 0 {
        return Err("the scheme exports no logical pages".into());
    }
    if fit == Fit::Compact && s.footprint_blocks * ppb > lp {
        return Err(format!(
            "compacted, the trace still touches {} logical blocks of {ppb} pages ({} pages), but the space has only {lp} pages ({} blocks): fold, or scale the chip",
            s.footprint_blocks,
            s.footprint_blocks * ppb,
            lp / ppb
        ));
    }
    if matches!(fit, Fit::None | Fit::Scale) && out_of_range > 0 {
        let range_msg = format!(
            "{} beyond the logical space (highest page {}, the space has {} pages, 0..{})",
            if out_of_range == total {
                format!("every one of the {total} page requests addresses a page")
            } else {
                format!("{out_of_range} of {total} page requests address pages")
            },
            s.max_page,
            lp,
            lp - 1
        );
        let need = if fit == Fit::Scale {
            format!("; scaling needs a chip whose scheme exports at least {} logical pages", s.needed_logical_pages)
        } else {
            String::new()
        };
        return Err(format!("{range_msg}{need}: choose a fit: fold, compact or scale (`--fit`)"));
    }
    Ok(())
}

/// Fits page requests one by one in trace order into a space (`RawTrace::fit`, and a
/// streamed run batch by batch), counting what the summary says of the fitted requests.
pub(crate) struct Fitter {
    fit: Fit,
    lp: u64,
    ppb: u64,
    /// Compact's renumbering: logical block -> its dense number.
    compact: HashMap<u64, u64>,
    // Fitted pages are < lp <= 2^26: two interleaved bitsets, 1 bit per page each. The distinct pages and
    // blocks are counted from `pages` at the end, not a test a request (issue 37).
    pages: PageBits,
    /// Index of the next page request and the sample's step (a power of two: the points
    /// of `sample_step` of the final count; it doubles when the index reaches
    /// SAMPLE_POINTS steps).
    i: u64,
    step: u64,
    /// The next index at which the sample takes a point or its step doubles: one compare
    /// a request (issue 37).
    mark: u64,
    sample: Vec<[u64; 2]>,
    /// Page requests whose page the fit changed (counted where `map` changes one).
    touched: u64,
    /// Compact's page requests at or past the space before the fit (`beyond`).
    compact_beyond: u64,
    reads_of_unwritten: u64,
}

impl Fitter {
    pub(crate) fn new(space: Space, fit: Fit) -> Fitter {
        let (lp, ppb) = (space.logical_pages as u64, space.pages_per_block.max(1) as u64);
        Fitter {
            fit,
            lp,
            ppb,
            compact: HashMap::new(),
            pages: PageBits::new(lp),
            i: 0,
            step: 1,
            mark: 0,
            sample: Vec::new(),
            touched: 0,
            compact_beyond: 0,
            reads_of_unwritten: 0,
        }
    }

    /// The page requests fitted so far that were at or past the space before the fit, under
    /// fold and compact (`Counts`' `out_of_range`, for a summary from held counts): fold
    /// changes exactly those, compact counts them as it renumbers.
    fn beyond(&self) -> u64 {
        match self.fit {
            Fit::Fold => self.touched,
            Fit::Compact => self.compact_beyond,
            Fit::None | Fit::Scale => 0,
        }
    }

    /// Page `p` fitted (none and scale: `p`, checked in range by `check_space` first).
    #[inline]
    fn map(&mut self, p: u64) -> Result<u64, String> {
        let lp = self.lp;
        match self.fit {
            Fit::None | Fit::Scale => Ok(p),
            // A page inside the space is its own fold (no 64-bit division per request);
            // one beyond it always changes (p % lp < lp <= p).
            Fit::Fold if p < lp => Ok(p),
            Fit::Fold => {
                self.touched += 1;
                Ok(p % lp)
            }
            Fit::Compact => {
                let ppb = self.ppb;
                let next = self.compact.len() as u64;
                let nb = *self.compact.entry(p / ppb).or_insert(next);
                let q = nb * ppb + p % ppb;
                self.touched += (q != p) as u64;
                self.compact_beyond += (p >= lp) as u64;
                if q >= lp {
                    Err(format!(
                        "compacted, the trace still touches more than {} logical blocks of {ppb} pages ({} pages), but the space has only {lp} pages: fold, or scale the chip",
                        nb, (nb + 1) * ppb
                    ))
                } else {
                    Ok(q)
                }
            }
        }
    }

    /// The next page request `(kind, value)`, fitted.
    #[inline]
    pub(crate) fn next(&mut self, k: u64, v: u64) -> Result<Request, String> {
        Ok(match k {
            K_READ => Request::Read { lpn: self.next_page(false, v)? as u32 },
            K_WRITE => Request::Write { lpn: self.next_page(true, v)? as u32 },
            _ => {
                self.advance();
                match k {
                    K_FREEZE => Request::Freeze,
                    K_UNFREEZE => Request::Unfreeze { state: v as u32 },
                    K_REVERT => Request::Revert { state: v as u32 },
                    _ => unreachable!("only the parser packs requests"),
                }
            }
        })
    }

    /// The next page request, a read or a write of page `v`: its page fitted (`next`'s
    /// path for them, without building a `Request` and matching it again; issue 37).
    #[inline(always)]
    pub(crate) fn next_page(&mut self, write: bool, v: u64) -> Result<u64, String> {
        let sampled = self.advance();
        let q = self.map(v)?;
        self.reads_of_unwritten += self.pages.mark(q, write) as u64;
        if sampled {
            self.sample.push([self.i - 1, q]);
        }
        Ok(q)
    }

    /// Counts the next page request; whether the sample takes it (its index a multiple of
    /// the step, which doubles first when the index reaches SAMPLE_POINTS steps).
    #[inline(always)]
    fn advance(&mut self) -> bool {
        let i = self.i;
        self.i += 1;
        i >= self.mark && self.at_mark(i)
    }

    /// `advance` at its mark: the step doubles or request `i` is a sample point.
    #[inline(never)]
    fn at_mark(&mut self, i: u64) -> bool {
        let end = SAMPLE_POINTS as u64 * self.step;
        if i >= end {
            self.step *= 2;
            let step = self.step;
            self.sample.retain(|p| p[0] & (step - 1) == 0);
        }
        let step = self.step;
        // The next multiple of the step, or the index at which it doubles.
        self.mark = ((i / step + 1) * step).min(SAMPLE_POINTS as u64 * step);
        i & (step - 1) == 0
    }

    /// The fitted requests' counts, the fit's note and warnings, into `s`.
    pub(crate) fn finish(self, s: &mut TraceSummary) {
        let (lp, fit, touched, out_of_range, total) = (self.lp, self.fit, self.touched, s.out_of_range, s.requests);
        s.fitted_footprint_pages = self.pages.count();
        s.fitted_footprint_blocks = self.pages.count_groups(self.ppb);
        s.reads_of_unwritten = self.reads_of_unwritten;
        s.sample = self.sample;
        s.fit_touched = touched;
        match fit {
            Fit::None => s.fit_note = format!("every address fits the {lp}-page space; no fit needed"),
            Fit::Scale => s.fit_note = format!("every address fits the {lp}-page space; nothing changed"),
            Fit::Fold if touched == 0 => {
                s.fit_note = format!("every address fits the {lp}-page space; folding changed nothing");
            }
            Fit::Fold => {
                s.fit_note = format!(
                    "folded (page modulo {lp}): {} changed, {} of them were beyond the space",
                    plural(touched, "request"),
                    out_of_range
                );
                if out_of_range == total && total > 0 {
                    s.warnings
                        .push(format!("every request addressed a page beyond the {lp}-page space; all were folded"));
                }
            }
            Fit::Compact => {
                let n = self.compact.len();
                s.fit_note = format!(
                    "compacted: {} touched logical blocks renumbered 0..{} in first-touch order; {} changed",
                    n,
                    n.saturating_sub(1),
                    plural(touched, "request")
                );
            }
        }
        if fit == Fit::Fold && s.fitted_footprint_pages < s.footprint_pages {
            s.fit_note.push_str(&format!(
                "; fold merged {} distinct pages into {}",
                s.footprint_pages, s.fitted_footprint_pages
            ));
        }
        if s.reads > 0 && s.writes > 0 && s.reads_of_unwritten * 2 > s.reads {
            s.warnings.push(format!(
                "{} of the {} reads are of pages the trace never wrote before: they find nothing on the chip",
                s.reads_of_unwritten, s.reads
            ));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse::{parse_bytes, Format, TraceOptions};
    use super::{sample_step, K_READ, K_WRITE};

    /// The sample taken run by run is the one taken page by page (every step-th page
    /// request, reads and writes only): runs of many pages, single pages, freeze and revert
    /// entries, traces shorter and longer than the sample.
    #[test]
    fn the_sample_by_runs_is_the_sample_by_pages() {
        let mut disksim = String::new();
        for i in 0..30_000u64 {
            // Sizes of 1 to 64 sectors at 512-byte pages: runs of 1 to 64 pages, some
            // continuing the previous run.
            let lba = if i % 5 == 0 { i * 8 } else { (i * 7919) % 1_000_000 };
            disksim.push_str(&format!("{i}.000 0 {lba} {} {}\n", 1 + (i * 13) % 64, i % 3 % 2));
        }
        let pattern = "(w0-40 r3 w7)x300 freeze (w1 w3-9 r2)x400 revert 1 (w2 w4-60)x200 freeze unfreeze 2 w0-5000";
        let texts = [
            (disksim.as_str(), Format::Disksim),
            (&disksim[..=disksim[..2_000].rfind('\n').expect("lines")], Format::Disksim),
            (pattern, Format::Pattern),
            ("w0 freeze w1-3 revert 1 r2", Format::Pattern),
        ];
        for (text, format) in texts {
            let opts = TraceOptions { page_bytes: 512, format: Some(format), ..Default::default() };
            let raw = parse_bytes(text.as_bytes(), opts).unwrap_or_else(|e| panic!("{format:?}: {e}"));
            let by_pages: Vec<[u64; 2]> = raw
                .packed
                .iter()
                .enumerate()
                .step_by(sample_step(raw.packed.len()))
                .filter_map(|(i, (k, v))| matches!(k, K_READ | K_WRITE).then_some([i as u64, v]))
                .collect();
            let s = raw.summary(64);
            assert!(!s.sample.is_empty());
            assert_eq!(s.sample, by_pages, "{format:?}, {} page requests", raw.len());
        }
    }
}
