//! A trace fitted and counted batch by batch as it is parsed (a streamed run, `ftl trace`'s
//! summary; issue 37), apart from the held fit so that each file stays short.

use super::{check_space, Counts, Fit, Fitter, Space, TraceSummary};
use crate::trace::parse::{Batch, RawTrace, K_READ, K_WRITE};
use crate::trace::{Request, RequestHash};

/// A trace fitted and summarised batch by batch as it is parsed (a streamed run; issue
/// 37): the same summary and fitted requests as `RawTrace::fit_packed` of the whole
/// trace, without holding it. Under none and scale, fitting stops at the first page
/// beyond the space (the result is then `check_space`'s error); compact is not streamed
/// (its check needs the whole trace's block count first).
pub struct FitStream {
    space: Space,
    /// The summary's counts, when `push` counts them (`push_fitted` leaves them to the
    /// caller's `StreamCounts`).
    counts: StreamCounts,
    fitter: Fitter,
    /// Requests are still fitted (no page was beyond the space under none or scale).
    fitting: bool,
}

/// The summary's counts of a streamed trace (reads, writes, lowest and highest page, the
/// footprint, pages beyond the space), batch by batch: what `FitStream::push` counts, kept
/// apart so that `ftl run` counts them on its parse thread while the run thread only fits
/// and runs (`FitStream::push_fitted`; issue 37: the counts were ~7 % of the process's CPU,
/// all on the run thread, its critical path).
pub struct StreamCounts {
    counts: Counts,
    /// Page requests seen.
    pages: u64,
}

impl StreamCounts {
    pub fn new(space: Space) -> StreamCounts {
        StreamCounts { counts: Counts::new(space.logical_pages as u64), pages: 0 }
    }

    /// Counts one batch's page requests (every batch of the trace, in order).
    pub fn add(&mut self, batch: &Batch) {
        for e in batch.packed.entries() {
            self.pages += e.n;
            if matches!(e.kind, K_READ | K_WRITE) {
                self.counts.add(e.kind, e.first, e.n);
            }
        }
    }

    /// Highest page + 1 of the reads and writes so far (None: none yet).
    pub fn need(&self) -> Option<u64> {
        (self.counts.reads + self.counts.writes > 0).then_some(self.counts.hi + 1)
    }
}

impl FitStream {
    pub fn new(space: Space, fit: Fit) -> Result<FitStream, String> {
        if fit == Fit::Compact {
            return Err("a compacted trace is fitted whole, not streamed".into());
        }
        Ok(FitStream {
            space,
            counts: StreamCounts::new(space),
            fitter: Fitter::new(space, fit),
            fitting: space.logical_pages > 0,
        })
    }

    /// Whether the requests are still fitted (else the stream ends in an error).
    pub fn fitting(&self) -> bool {
        self.fitting
    }

    /// Highest page + 1 of the reads and writes so far (None: none yet), of `push`'s counts.
    pub fn need(&self) -> Option<u64> {
        self.counts.need()
    }

    /// A fresh `StreamCounts` of this stream's space, for a caller that counts the batches
    /// itself and hands them to `push_fitted` (then `finish_counted`).
    pub fn counter(&self) -> StreamCounts {
        StreamCounts::new(self.space)
    }

    /// Counts the batch's page requests and, while fitting, appends each fitted one to
    /// `out` and hashes it into `hash` (a streamed run's batch: issue 37, one loop without
    /// a call a request). Returns whether a freeze, unfreeze or revert came.
    pub fn push(&mut self, batch: &Batch, out: &mut Vec<Request>, hash: &mut RequestHash) -> bool {
        self.push_with::<true>(batch, out, hash)
    }

    /// `push` without the counts: the caller counts every batch in a `StreamCounts` of its
    /// own (`counter`) and ends with `finish_counted`. Stops fitting exactly where `push`
    /// does: at the first read or write beyond the space under none or scale.
    pub fn push_fitted(&mut self, batch: &Batch, out: &mut Vec<Request>, hash: &mut RequestHash) -> bool {
        self.push_with::<false>(batch, out, hash)
    }

    /// `push` (`COUNT`) or `push_fitted`: one loop, the counting compiled in or out.
    #[inline(always)]
    fn push_with<const COUNT: bool>(&mut self, batch: &Batch, out: &mut Vec<Request>, hash: &mut RequestHash) -> bool {
        let refuse_beyond = matches!(self.fitter.fit, Fit::None | Fit::Scale);
        let lp = self.space.logical_pages as u64;
        let mut time_shift = false;
        if !COUNT && !self.fitting {
            return false;
        }
        out.reserve(batch.len());
        for e in batch.packed.entries() {
            if COUNT {
                self.counts.pages += e.n;
            }
            if matches!(e.kind, K_READ | K_WRITE) {
                // `Counts::add`'s count of pages at or past the space is > 0 exactly when
                // the run's end passes it (lp > 0 while fitting).
                let beyond = if COUNT { self.counts.counts.add(e.kind, e.first, e.n) > 0 } else { e.first + e.n > lp };
                if beyond && refuse_beyond {
                    self.fitting = false;
                }
            }
            if !self.fitting {
                if COUNT {
                    continue;
                }
                break;
            }
            const NOT_COMPACT: &str = "only compact fails a page, and it is not streamed";
            match e.kind {
                K_READ | K_WRITE => {
                    let write = e.kind == K_WRITE;
                    for v in e.first..e.first + e.n {
                        let lpn = self.fitter.next_page(write, v).expect(NOT_COMPACT) as u32;
                        hash.push_page(write, lpn);
                        out.push(if write { Request::Write { lpn } } else { Request::Read { lpn } });
                    }
                }
                k => {
                    let r = self.fitter.next(k, e.first).expect(NOT_COMPACT);
                    time_shift = true;
                    hash.push(r);
                    out.push(r);
                }
            }
        }
        time_shift
    }

    /// The summary of the whole trace: `raw` is the parse's record (`TraceParser::finish`),
    /// whose requests must all have been pushed (`RawTrace::take_batch`). The fit's errors
    /// are `fit`'s.
    pub fn finish(mut self, raw: &RawTrace) -> Result<TraceSummary, String> {
        let counts = self.take_counts();
        self.finish_counted(raw, counts)
    }

    /// `push`'s counts so far (left empty).
    pub fn take_counts(&mut self) -> StreamCounts {
        std::mem::replace(&mut self.counts, StreamCounts::new(self.space))
    }

    /// `finish` of a stream fed by `push_fitted`, with `counts`, every batch counted.
    pub fn finish_counted(self, raw: &RawTrace, counts: StreamCounts) -> Result<TraceSummary, String> {
        debug_assert!(raw.packed.is_empty(), "every batch pushed");
        let ppb = self.space.pages_per_block.max(1) as u64;
        let mut s = raw.summary_of(counts.counts, ppb, counts.pages);
        s.logical_pages = self.space.logical_pages as u64;
        s.fit = self.fitter.fit;
        check_space(&s, ppb)?;
        self.fitter.finish(&mut s);
        Ok(s)
    }
}
