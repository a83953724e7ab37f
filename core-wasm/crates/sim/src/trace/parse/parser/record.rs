//! DiskSim's usual lines in bulk (issue 37 item 6): while the lines are usual records of one
//! device, under the limit, what `record` does a line is done here with the counters kept
//! in registers and added once at the end, and no stop check a line (nothing in a run can
//! fail or stop the parse). Any other line ends the run and goes to the line-at-a-time
//! path, which reads it as before (its errors keep their line numbers). And `record`, what
//! every other path does a record (moved here from parser.rs for its length).

use super::super::disksim::{usual, usual_in, Usual, WINDOW};
use super::super::raw::{since, RawTrace, K_READ, K_WRITE, VALUE_MASK};
use super::TraceParser;

impl TraceParser {
    /// One record; its device name is UTF-8 (bytes: DiskSim's fast reader has only digits).
    /// Inlined, as what it calls (issue 37: the calls' saved registers were a third of
    /// the per-line cost after the reading).
    #[inline(always)]
    pub(super) fn record(&mut self, write: bool, offset: u64, bytes: u64, device: Option<&[u8]>, time: Option<i128>) {
        if let Some(d) = device {
            // Names of up to 7 bytes compare as one u64 (device numbers are short).
            let key = if d.len() < 8 { d.iter().fold(d.len() as u64, |k, &c| k << 8 | c as u64) } else { u64::MAX };
            if let Some(c) = self.dev_counts.iter_mut().find(|c| c.0 == key && (key != u64::MAX || c.1.as_bytes() == d))
            {
                c.2 += 1;
            } else if self.dev_counts.len() < 64 {
                self.dev_counts.push((key, String::from_utf8_lossy(d).into_owned(), 1));
            }
            if let Some(want) = &self.opts.device {
                if want.trim().as_bytes() != d {
                    self.out.ignored.other_device += 1;
                    return;
                }
            }
        }
        if bytes == 0 {
            self.out.ignored.zero_size += 1;
            return;
        }
        let first = self.page_of(offset);
        let last = match offset.checked_add(bytes - 1) {
            Some(end) => self.page_of(end),
            None => {
                self.bad(1, format!("offset {offset} + size {bytes} overflows 64 bits"));
                return;
            }
        };
        self.record_pages(write, first, last, time);
    }

    /// The page holding byte `b`: a shift when the page size is a power of two (a 64-bit
    /// division costs tens of cycles, twice a record; issue 37).
    #[inline]
    fn page_of(&self, b: u64) -> u64 {
        match self.page_shift {
            Some(s) => b >> s,
            None => b / self.opts.page_bytes.max(1) as u64,
        }
    }

    /// Pages `first..=last` (one host request), after the device filter and zero sizes.
    #[inline(always)]
    pub(super) fn record_pages(&mut self, write: bool, first: u64, last: u64, time: Option<i128>) {
        if last > VALUE_MASK {
            self.bad(1, format!("page {last} is beyond 2^61 pages"));
            return;
        }
        let n = last - first + 1;
        // The first record that does not fit under the limit ends the parse: the kept
        // trace is a prefix, and the rest of the file is not read.
        if self.done || self.pages() + n > self.opts.limit {
            if !self.done {
                self.out.ignored.beyond_limit += 1;
                self.out.stopped_at_line = Some(self.out.lines);
                self.over_limit_pages = n;
                self.done = true;
            }
            return;
        }
        self.out.records += 1;
        if write {
            self.out.record_writes += 1;
        } else {
            self.out.record_reads += 1;
        }
        let kind = if write { K_WRITE } else { K_READ };
        self.out.mark_start(time, !self.opts.drop_times);
        // One entry for the record's pages (or none: it continues the last one).
        self.out.push_pages(kind, first, n);
    }

    /// Reads the usual DiskSim lines of `buf[start..end]` (whole lines, `end` after a
    /// newline) from `start` on, as the line-at-a-time path would, and returns where it
    /// stopped: the first line it did not take, or `end`. It takes none while the device or
    /// the first timestamp is still to be seen (the line-at-a-time path records them first).
    pub(super) fn usual_run(&mut self, buf: &[u8], start: usize, end: usize, sector: u64) -> usize {
        let (Some(shift), Some(t0)) = (self.page_shift, self.out.time0) else { return start };
        let Some(mut line) = usual_at(buf, start, end, sector) else { return start };
        let u = &line.0;
        // The device's entry in the counts (as `record` keys it) and the filter, once a run.
        let d = &buf[start + u.dev_at..start + u.dev_at + u.dev_len];
        let key = d.iter().fold(d.len() as u64, |k, &c| k << 8 | c as u64);
        let Some(di) = self.dev_counts.iter().position(|c| c.0 == key) else { return start };
        if self.opts.device.as_ref().is_some_and(|want| want.trim().as_bytes() != d) {
            return start;
        }
        let dev = u.dev;
        let keep = !self.opts.drop_times && self.out.untimed == 0;
        let RawTrace { packed, starts, times, .. } = &mut self.out;
        // Page requests: the next one's index, and the limit's on it.
        let mut i = packed.len() as u64;
        let room = i + self.opts.limit.saturating_sub(self.taken + i);
        let (mut at, mut lines, mut writes) = (start, 0u64, 0u64);
        // `mark_start`'s bits of the starts word `word`, stored when the next word begins.
        let (mut word, mut bits) = (i / 64, 0u64);
        let mut runs = packed.appender();
        loop {
            let (u, nl) = line;
            if u.dev != dev || u.bytes == 0 {
                break;
            }
            // No overflow and no page past 2^61: both fields have at most 7 digits (`usual`)
            // and the sector size 32 bits, so the byte offsets are below 2^57.
            let (first, last) = (u.offset >> shift, (u.offset + u.bytes - 1) >> shift);
            let n = last - first + 1;
            if i + n > room {
                break;
            }
            lines += 1;
            writes += u.write as u64;
            // `mark_start`: the record's first page request begins a host request.
            if i / 64 != word {
                set_starts(starts, word, bits);
                (word, bits) = (i / 64, 0);
            }
            bits |= 1 << (i % 64);
            if keep {
                times.push(since(u.time(), t0));
            }
            i += n;
            runs.push(if u.write { K_WRITE } else { K_READ }, first, n);
            at += nl + 1;
            match (at < end).then(|| usual_at(buf, at, end, sector)).flatten() {
                Some(l) => line = l,
                None => break,
            }
        }
        drop(runs);
        set_starts(starts, word, bits);
        let o = &mut self.out;
        o.lines += lines;
        self.meaningful_lines += lines;
        self.dev_counts[di].2 += lines;
        o.records += lines;
        o.record_writes += writes;
        o.record_reads += lines - writes;
        if o.untimed > 0 {
            // Timed records after an untimed one: counted as `mark_start` counts them.
            o.untimed += lines;
        }
        at
    }
}

/// The usual line at `buf[at..]` (`usual`): read from a window of the buffer when one is
/// left after `at` (bytes past `end` are read but not taken: the line ends before `end`).
#[inline(always)]
fn usual_at(buf: &[u8], at: usize, end: usize, sector: u64) -> Option<(Usual, usize)> {
    match buf.get(at..at + WINDOW) {
        Some(w) => usual_in(w.try_into().expect("a window"), sector),
        None => usual(&buf[at..end], sector),
    }
}

/// ORs `bits` into the starts word `word` (allocated if new).
#[inline(always)]
fn set_starts(starts: &mut Vec<u64>, word: u64, bits: u64) {
    let word = word as usize;
    if word >= starts.len() {
        if bits == 0 {
            return;
        }
        starts.resize(word + 1, 0);
    }
    starts[word] |= bits;
}
