//! An upload's summary counted feed by feed (`SummaryCounter`), apart from the fit so that
//! each file stays short; it counts with the fit's own `Counts` and builds the summary
//! with `RawTrace::summary_of`, so the two cannot drift apart.

use super::{Counts, TraceSummary};
use crate::trace::parse::{RawTrace, K_READ, K_WRITE};

/// `RawTrace::summary` of a trace being parsed (an upload), its counts (`Counts`: reads,
/// writes, lowest and highest page, the footprint) added feed by feed, so that only the
/// sample is left for the end: in the browser the counting runs between the Blob reads,
/// not after the last one (issue 37 item 6: the whole-trace pass was 50-60 ms CPU of a
/// 64 MB upload's `finish`). Only for a parse whose requests stay held (no `take_batch`).
pub struct SummaryCounter {
    counts: Counts,
    /// The first word of the first entry not counted yet.
    word: usize,
    /// Every entry of the finished parse is counted (`summary`): the counts are held for the
    /// fit preview (`RawTrace::fit_summary_counted`).
    done: bool,
}

impl Default for SummaryCounter {
    fn default() -> Self {
        SummaryCounter { counts: Counts::new(0), word: 0, done: false }
    }
}

impl SummaryCounter {
    pub fn new() -> SummaryCounter {
        SummaryCounter::default()
    }

    /// Counts the entries `raw` (the trace parsed so far: `TraceParser::raw`) appended since
    /// the last call, all but its last entry (a later push may still extend it).
    pub fn count(&mut self, raw: &RawTrace) {
        self.count_to(raw, raw.packed.last_word());
    }

    /// Counts the entries from `self.word` on that begin before word `end`.
    fn count_to(&mut self, raw: &RawTrace, end: usize) {
        let c = &mut self.counts;
        let mut it = raw.packed.entries_from(self.word);
        while it.word() < end {
            let Some(e) = it.next() else { break };
            if matches!(e.kind, K_READ | K_WRITE) {
                c.add(e.kind, e.first, e.n);
            }
        }
        self.word = it.word();
    }

    /// The summary of `raw`, the finished parse (`TraceParser::finish`) of the trace counted
    /// so far: its entries not counted yet are counted now, and the counts stay held for
    /// `raw`'s fit previews (`held`). `raw.summary(pages_per_block)`.
    pub fn summary(&mut self, raw: &RawTrace, pages_per_block: u32) -> TraceSummary {
        self.count_to(raw, usize::MAX);
        self.done = true;
        let s = raw.summary_of(self.counts.clone(), pages_per_block.max(1) as u64, raw.packed.len() as u64);
        raw.unfitted(s)
    }

    /// The highest page read or written in the finished trace (`RawTrace::max_page`), once
    /// `summary` has counted it: None before, or with no reads or writes.
    pub fn max_page(&self) -> Option<u64> {
        self.held().filter(|c| c.reads + c.writes > 0).map(|c| c.hi)
    }

    /// Whether `summary` has counted the whole finished trace.
    pub fn counted(&self) -> bool {
        self.done
    }

    /// The whole finished trace's counts, once `summary` has counted them (None before).
    pub(crate) fn held(&self) -> Option<&Counts> {
        self.done.then_some(&self.counts)
    }
}

#[cfg(test)]
mod tests {
    use super::SummaryCounter;
    use crate::trace::fit::{Fit, Space};
    use crate::trace::parse::{Format, TraceOptions, TraceParser};

    /// The summary counted feed by feed (`SummaryCounter`, an upload) is the whole-trace
    /// pass's (`RawTrace::summary`): random DiskSim texts whose runs grow across feeds,
    /// several devices, bad lines skipped, a stop at the request limit, feeds that split
    /// lines (1 byte to 64 KB), a pattern (parsed whole at the end), at several block sizes.
    /// And the fit preview from the counts it holds (`RawTrace::fit_summary_counted`) is the
    /// pass's (`fit_summary`): every fit, spaces below, across and beyond the trace's pages.
    #[test]
    fn the_summary_counted_by_feeds_is_the_whole_trace_pass() {
        let mut x = 7u64;
        let mut next = move |m: u64| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 17) % m
        };
        let mut cases = Vec::new();
        for case in 0..24u64 {
            let mut text = String::new();
            let mut lba = 0u64;
            for i in 0..(50 + case * 400) {
                // Often the next sectors (the run grows, maybe across a feed), else a jump,
                // sometimes far (the footprint's ranges beyond its bitmap).
                lba = match next(4) {
                    0 | 1 => lba + 8,
                    2 => next(1 << 16),
                    _ => next(1 << 30),
                };
                let size = [1, 8, 8, 64][next(4) as usize];
                text.push_str(&format!("{i}.5 {} {lba} {size} {}\n", next(3) * (case % 2), next(2)));
                if case % 3 == 0 && next(40) == 0 {
                    text.push_str("not a line\n");
                }
                lba += size;
            }
            let opts = TraceOptions {
                page_bytes: [512, 4096][(case % 2) as usize],
                format: Some(Format::Disksim),
                skip_bad_lines: case % 3 == 0,
                limit: if case % 4 == 1 { 1 + next(2_000) } else { crate::trace::MAX_REQUESTS },
                ..Default::default()
            };
            cases.push((text, opts));
        }
        let pattern = "(w0-40 r3 w7)x300 freeze (w1 w3-9 r2)x400 revert 1 (w2 w4-60)x200 w0-5000";
        cases.push((pattern.into(), TraceOptions { format: Some(Format::Pattern), ..Default::default() }));
        let (mut stopped, mut skipped, mut devices) = (0, 0, 0);
        // Per fit (`Fit as usize`): seen fitted with pages beyond the space, fitted within it, refused.
        let (mut beyond_fitted, mut within_fitted, mut refused) = ([false; 4], [false; 4], [false; 4]);
        for (case, (text, opts)) in cases.into_iter().enumerate() {
            let ppb = [1, 64, 96][case % 3];
            let mut p = TraceParser::new(opts);
            let mut counter = SummaryCounter::new();
            let mut at = 0;
            while at < text.len() {
                let n = (1 + next([7, 300, 65_536][case % 3]) as usize).min(text.len() - at);
                p.feed(&text.as_bytes()[at..at + n]);
                counter.count(p.raw());
                at += n;
            }
            let raw = p.finish().unwrap_or_else(|e| panic!("case {case}: {e}"));
            let whole = raw.summary(ppb);
            assert!(whole.requests > 0, "case {case}");
            let fed = counter.summary(&raw, ppb);
            // The counts first (a short message), then the whole record.
            let counts = |s: &crate::trace::fit::TraceSummary| {
                (s.reads, s.writes, s.min_page, s.max_page, s.footprint_pages, s.footprint_blocks)
            };
            assert_eq!(counts(&fed), counts(&whole), "case {case}");
            assert_eq!(fed, whole, "case {case}");
            // Fitted pages stay under 2^26 (`Fitter`): the spaces too.
            let hi = whole.max_page.min(1 << 22);
            for lp in [0, 1, 4_096, 1 << 16, 1 << 20, 1 << 22, hi / 2, hi, hi + 1] {
                for fit in [Fit::None, Fit::Fold, Fit::Compact, Fit::Scale] {
                    let space = Some(Space { logical_pages: lp as u32, pages_per_block: ppb });
                    let pass = raw.fit_summary(space, fit);
                    assert_eq!(raw.fit_summary_counted(space, fit, &counter), pass, "case {case}, {lp} pages, {fit:?}");
                    let seen = match pass {
                        Ok(s) if s.out_of_range > 0 => &mut beyond_fitted,
                        Ok(_) => &mut within_fitted,
                        Err(_) => &mut refused,
                    };
                    seen[fit as usize] = true;
                }
            }
            stopped += raw.stopped_at_line.is_some() as u32;
            skipped += (raw.bad_lines > 0) as u32;
            devices += (raw.devices.len() > 1) as u32;
        }
        // The cases cover what they claim.
        assert!(stopped > 0 && skipped > 0 && devices > 0, "{stopped} {skipped} {devices}");
        // Fold and compact fitted pages beyond the space; every fit fitted a trace within it
        // and refused one.
        let (fold, compact) = (Fit::Fold as usize, Fit::Compact as usize);
        assert_eq!(beyond_fitted, std::array::from_fn(|i| i == fold || i == compact));
        assert_eq!((within_fitted, refused), ([true; 4], [true; 4]));
    }
}
