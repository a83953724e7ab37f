//! The streaming engine: `feed` chunks of bytes, `finish`. Decompression, the binary
//! check, format detection, lines, comments, bad-line accounting, the device filter,
//! page splitting and the request limit live here; what a line means is the format's
//! (its `LineReader`, `parse_text` or `read_record`).

use super::codec::{gzip_push, Codec, ZstdPush};
use super::helpers::{clip, is_comment, line_col, parse_u64, trim};
use super::options::{TraceOptions, Unit};
use super::raw::{Progress, RawTrace, TraceError, K_READ, K_WRITE};
use super::{detect_line, registry, sniff_binary, Body, Format, LineReader, REGISTRY, SNIFF};
use crate::trace::ParseError;

/// Longest line accepted (a text trace line is well under 1 KB).
const MAX_LINE: usize = 1 << 20;
/// Bad lines listed at most (`max_errors`; the count is always exact).
pub const MAX_ERRORS_LISTED: usize = 10_000;
/// The pattern language is parsed whole; at most this much text.
const MAX_PATTERN: usize = 64 << 20;

/// What a format's reader may use and change while it reads a line or a record: the
/// options, the trace (its ignored counters, `csv_columns`), and a fatal error.
pub(crate) struct Cx<'p> {
    pub opts: &'p TraceOptions,
    pub out: &'p mut RawTrace,
    pub fatal: &'p mut Option<String>,
}

impl Cx<'_> {
    /// Stops the parse with this message (the first one is kept).
    pub fn fail(&mut self, m: String) {
        if self.fatal.is_none() {
            *self.fatal = Some(m);
        }
    }
    /// A sector number or count in bytes.
    pub fn sectors(&self, col: usize, s: &str, what: &str) -> Result<u64, (usize, String)> {
        let v = parse_u64(col, s, what)?;
        v.checked_mul(self.opts.sector_bytes as u64).ok_or_else(|| (col, format!("{what} '{s}' is too large")))
    }
    pub fn unit_bytes(&self, u: Unit) -> u64 {
        match u {
            Unit::Bytes => 1,
            Unit::Sectors => self.opts.sector_bytes as u64,
            Unit::Pages => self.opts.page_bytes.max(1) as u64,
        }
    }
}

/// The streaming parser: `feed` chunks of bytes in order, then `finish`.
/// Cancel = stop feeding and drop it.
pub struct TraceParser {
    opts: TraceOptions,
    out: RawTrace,
    codec: Codec,
    carry: Vec<u8>,
    sniffed: bool,
    fatal: Option<String>,
    /// The format's line reader, once the format is known.
    reader: Option<Box<dyn LineReader>>,
    pattern: Vec<u8>,
    /// Lines before the pattern text (comment lines before a late detection).
    pattern_first_line: usize,
    meaningful_lines: u64,
    /// Records per device, the first 64 devices (a short list searched linearly: no
    /// map lookup or allocation per record); copied to `out.devices` at the end.
    dev_counts: Vec<(u64, String, u64)>,
    /// The request limit was reached: the rest of the input is not read (a file that
    /// expands to gigabytes costs no more than its first `limit` requests).
    done: bool,
    /// Page requests of the first record that did not fit under the limit.
    over_limit_pages: u64,
    /// DiskSim's one-pass line reader is used (off only in the tests that compare it with
    /// the general path).
    fast_paths: bool,
    /// log2 of the page size, when it is a power of two (`page_of`).
    page_shift: Option<u32>,
    /// Page requests handed out by `take_batch` (a streamed run; issue 37): they count
    /// against the limit as if still held.
    taken: u64,
}

/// The page requests parsed since the last `take_batch`, whole records only: what a
/// streamed run fits and runs while the parse goes on (issue 37), so the trace is never
/// held whole. The first page request begins a host request.
#[derive(Debug, Default)]
pub struct Batch {
    pub(crate) packed: crate::trace::runs::Runs<u64>,
    /// Bit i: page request i of the batch begins a host request.
    pub(crate) starts: Vec<u64>,
}

impl Batch {
    /// Page requests.
    pub fn len(&self) -> usize {
        self.packed.len()
    }
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }
    /// Highest page of its reads and writes, if any.
    pub fn max_page(&self) -> Option<u64> {
        self.packed.entries().filter(|e| matches!(e.kind, K_READ | K_WRITE)).map(|e| e.first + e.n - 1).max()
    }
}

impl TraceParser {
    pub fn new(opts: TraceOptions) -> TraceParser {
        let mut out = RawTrace { format: opts.format, page_bytes: opts.page_bytes, ..Default::default() };
        out.format_detected = false;
        let page_shift = opts.page_bytes.is_power_of_two().then(|| opts.page_bytes.trailing_zeros());
        TraceParser {
            opts,
            out,
            codec: Codec::Unknown(Vec::new()),
            carry: Vec::new(),
            sniffed: false,
            fatal: None,
            reader: None,
            pattern: Vec::new(),
            pattern_first_line: 0,
            meaningful_lines: 0,
            dev_counts: Vec::new(),
            done: false,
            over_limit_pages: 0,
            fast_paths: true,
            page_shift,
            taken: 0,
        }
    }

    /// The trace parsed so far (an upload's summary counts it feed by feed:
    /// `fit::SummaryCounter`).
    pub fn raw(&self) -> &RawTrace {
        &self.out
    }

    /// Page requests parsed so far, those taken by `take_batch` included.
    fn pages(&self) -> u64 {
        self.taken + self.out.len() as u64
    }

    /// Takes the page requests parsed so far (whole records), leaving the counters: the
    /// trace `finish` returns then holds only those parsed after the last batch. Without
    /// timestamps (a streamed run is the closed model's).
    pub fn take_batch(&mut self) -> Batch {
        self.taken += self.out.len() as u64;
        self.out.take_batch()
    }

    /// Nothing more will be read: failed, or the request limit was reached.
    fn stopped(&self) -> bool {
        self.done || self.failed()
    }

    fn failed(&self) -> bool {
        self.fatal.is_some() || (!self.opts.skip_bad_lines && self.out.bad_lines >= self.opts.max_errors.max(1) as u64)
    }

    pub fn progress(&self) -> Progress {
        Progress {
            bytes: self.out.bytes,
            lines: self.out.lines,
            records: self.out.records,
            requests: self.pages(),
            bad_lines: self.out.bad_lines,
            format: self.out.format,
            failed: self.failed(),
            done: self.done,
        }
    }

    /// Feeds the next chunk of the file (compressed or not). Returns progress
    /// (`bytes` counts the text after decompression).
    pub fn feed(&mut self, chunk: &[u8]) -> Progress {
        if self.stopped() {
            return self.progress();
        }
        self.decode(chunk, false);
        self.progress()
    }

    /// Decompression layer: sends text to `feed_text`, piece by piece, and stops
    /// decoding as soon as the parse has failed or is done (bounded memory whatever
    /// the expanded size).
    fn decode(&mut self, chunk: &[u8], last: bool) {
        if let Codec::Unknown(head) = &mut self.codec {
            head.extend_from_slice(chunk);
            if head.len() < 4 && !last {
                return;
            }
            let head = std::mem::take(head);
            self.codec = if head.starts_with(&[0x1f, 0x8b]) {
                self.out.compression = Some("gzip".into());
                Codec::Gzip(Box::new(flate2::write::MultiGzDecoder::new(Vec::new())))
            } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
                self.out.compression = Some("zstd".into());
                Codec::Zstd(Box::new(ZstdPush::new()))
            } else {
                Codec::Plain
            };
            return self.decode(&head, last);
        }
        if matches!(self.codec, Codec::Plain) {
            return self.feed_text(chunk);
        }
        self.out.compressed_bytes += chunk.len() as u64;
        let compressed = self.out.compressed_bytes;
        let mut codec = std::mem::replace(&mut self.codec, Codec::Plain);
        let mut sink = |text: &[u8]| {
            self.feed_text(text);
            !self.stopped()
        };
        let r = match &mut codec {
            Codec::Gzip(d) => gzip_push(d, chunk, last, compressed, &mut sink),
            Codec::Zstd(z) => z.push(chunk, last, &mut sink),
            Codec::Unknown(_) | Codec::Plain => unreachable!("decided above"),
        };
        self.codec = codec;
        if let Err(e) = r {
            self.fail(e);
        }
    }

    fn feed_text(&mut self, chunk: &[u8]) {
        if self.stopped() {
            return;
        }
        self.out.bytes += chunk.len() as u64;
        // Lines are read from the chunk where it lies (issue 37: copying every chunk into
        // the carry first was ~8 % of the parse's instructions): the carried partial line
        // is completed with the chunk's first line and read, then the chunk's whole lines,
        // and only its last partial line is carried.
        let mut rest = chunk;
        if self.sniffed && self.lines_in_place() && !self.carry.is_empty() {
            if let Some(nl) = memchr::memchr(b'\n', rest) {
                self.carry.extend_from_slice(&rest[..=nl]);
                rest = &rest[nl + 1..];
                self.drain(false);
                if self.stopped() {
                    return;
                }
            }
        }
        if self.sniffed && self.lines_in_place() && self.carry.is_empty() {
            if let Some(keep) = self.drain_lines(rest, false) {
                self.carry.extend_from_slice(&rest[keep..]);
            }
            return;
        }
        self.carry.extend_from_slice(rest);
        if !self.sniffed {
            if self.carry.len() < SNIFF {
                return;
            }
            self.sniff();
        }
        self.drain(false);
    }

    /// Ends the input: the parsed trace, or why it could not be read.
    pub fn finish(mut self) -> Result<RawTrace, TraceError> {
        if !self.stopped() {
            self.decode(&[], true);
        }
        if !self.sniffed && self.fatal.is_none() {
            self.sniff();
        }
        if !self.stopped() {
            self.drain(true);
        }
        if self.fatal.is_none() && self.body() == Some(Body::WholeText) {
            self.finish_whole_text();
        }
        self.flush_device();
        self.out.time_unit = self.opts.time_unit.or_else(|| self.out.format.and_then(|f| registry(f).imp.time_unit()));
        let err = |me: &TraceParser, message: String| TraceError {
            message,
            errors: me.out.errors.clone(),
            bad_lines: me.out.bad_lines,
        };
        if let Some(m) = self.fatal.take() {
            return Err(err(&self, m));
        }
        if self.out.bad_lines > 0 && !self.opts.skip_bad_lines {
            let m = format!(
                "{} malformed {}{} in the {} trace (choose 'skip bad lines' to run without them)",
                if self.failed() && self.out.bad_lines >= self.opts.max_errors as u64 {
                    format!("at least {}", self.out.bad_lines)
                } else {
                    self.out.bad_lines.to_string()
                },
                if matches!(self.body(), Some(Body::Records(_))) { "record" } else { "line" },
                if self.out.bad_lines == 1 { "" } else { "s" },
                self.out.format.map(|f| f.name()).unwrap_or("?")
            );
            return Err(err(&self, m));
        }
        if self.pages() == 0 {
            let o = &self.out;
            let ig = &o.ignored;
            let mut why = Vec::new();
            if o.bad_lines > 0 {
                why.push(format!("{} bad lines skipped", o.bad_lines));
            }
            if ig.other_device > 0 {
                why.push(format!(
                    "{} records of other devices (devices in the trace: {})",
                    ig.other_device,
                    o.devices.keys().cloned().collect::<Vec<_>>().join(", ")
                ));
            }
            if ig.other_action > 0 {
                let seen = self.reader.as_ref().map(|r| r.other_actions()).unwrap_or_default();
                why.push(format!(
                    "{} blkparse lines of other actions than '{}' (the trace's actions: {}; choose one as the blkparse action: D issued to the device, Q queued, C completed)",
                    ig.other_action,
                    self.opts.blkparse_action,
                    seen.join(", ")
                ));
            }
            if ig.zero_size > 0 {
                why.push(format!("{} records of size 0", ig.zero_size));
            }
            if ig.not_read_write > 0 {
                why.push(format!("{} records neither read nor write", ig.not_read_write));
            }
            if ig.beyond_limit > 0 {
                why.push(format!(
                    "the first record (line {}) spans {} page requests, more than the limit of {}",
                    o.stopped_at_line.unwrap_or(0),
                    self.over_limit_pages,
                    self.opts.limit
                ));
            }
            let m = if why.is_empty() {
                "the trace holds no requests (only blank or comment lines)".to_string()
            } else {
                format!("no requests left: {}", why.join("; "))
            };
            return Err(err(&self, m));
        }
        Ok(self.out)
    }

    fn fail(&mut self, m: String) {
        if self.fatal.is_none() {
            self.fatal = Some(m);
        }
    }

    /// Binary check and format detection on the first bytes.
    fn sniff(&mut self) {
        self.sniffed = true;
        // Refused before any line is read, naming the option that is 0: every reader then
        // multiplies by the size as given (a sector size of 0 made every record empty).
        for (name, size) in [("page_bytes", self.opts.page_bytes), ("sector_bytes", self.opts.sector_bytes)] {
            if size == 0 {
                self.fail(format!("{name} 0: a size in bytes must be at least 1"));
                return;
            }
        }
        // Counts are capped as the CLI caps them (a limit past it kept every page of a
        // record of 2^61 pages and trapped the wasm module; issue 34).
        if self.opts.limit > crate::trace::MAX_REQUESTS {
            self.fail(format!(
                "limit {}: at most {} page requests are kept",
                self.opts.limit,
                crate::trace::MAX_REQUESTS
            ));
            return;
        }
        if self.opts.max_errors > MAX_ERRORS_LISTED {
            self.fail(format!("max_errors {}: at most {MAX_ERRORS_LISTED} bad lines are listed", self.opts.max_errors));
            return;
        }
        if self.carry.is_empty() {
            self.fail("the file is empty".into());
            return;
        }
        if let Err(m) = self.opts.mapping.check() {
            self.fail(m);
            return;
        }
        let head = &self.carry[..self.carry.len().min(SNIFF)];
        if head.iter().all(|&c| c == 0) {
            self.fail(format!("the file starts with {} zero bytes: not a trace", head.len()));
            return;
        }
        if matches!(self.opts.format.map(|f| registry(f).imp.body()), Some(Body::Records(_))) {
            return;
        }
        if head.starts_with(&[0xef, 0xbb, 0xbf]) {
            // A UTF-8 byte-order mark (spreadsheets write one): not part of the first field.
            self.carry.drain(..3);
            return self.sniff_text();
        }
        if head.starts_with(&[0xff, 0xfe]) || head.starts_with(&[0xfe, 0xff]) || looks_utf16(head) {
            self.fail(
                "this is UTF-16 text; save it as UTF-8 (e.g. iconv -f UTF-16 -t UTF-8 FILE, or 'CSV UTF-8' in a spreadsheet)"
                    .into(),
            );
            return;
        }
        self.sniff_text();
    }

    /// Binary check and format detection of a text file (its byte-order mark removed).
    fn sniff_text(&mut self) {
        let head = &self.carry[..self.carry.len().min(SNIFF)];
        if let Some(i) = head.iter().position(|&c| c == 0) {
            if let Some(f) = self.opts.format.is_none().then(|| sniff_binary(head)).flatten() {
                self.out.format = Some(f);
                self.out.format_detected = true;
                return;
            }
            self.fail(format!(
                "this looks like a binary file (a zero byte at offset {i}), not a text trace; libCacheSim's binaries are read as format oracle_general (`--format oracle_general`, its ids in pages unless `--id-unit sectors`), vscsi and vscsi2 are detected"
            ));
            return;
        }
        let ctrl = head.iter().filter(|&&c| c < 0x20 && !matches!(c, b'\n' | b'\r' | b'\t' | 0x0c)).count();
        if ctrl * 20 > head.len() {
            self.fail(format!(
                "this looks like a binary file ({ctrl} control bytes in the first {} bytes), not a text trace",
                head.len()
            ));
            return;
        }
        if let Err(e) = std::str::from_utf8(head) {
            if e.error_len().is_some() {
                let at = e.valid_up_to();
                let (line, col) = line_col(head, at);
                self.fail(format!("not UTF-8 text: invalid byte at line {line}, column {col} (offset {at}); is this a binary or compressed file?"));
                return;
            }
        }
        if self.opts.format.is_some() {
            self.out.format_detected = false;
            return;
        }
        let text = String::from_utf8_lossy(head);
        let mut lines = text.lines().enumerate().filter(|(_, l)| {
            let t = l.trim();
            !t.is_empty() && !t.starts_with('#')
        });
        match lines.next() {
            None => {} // nothing but blank / comment lines (so far): finish says so
            Some((i, l)) => match self.detect(l) {
                Some(f) => {
                    self.out.format = Some(f);
                    self.out.format_detected = true;
                }
                None => self.fail(format!(
                    "cannot tell the trace format from line {}: '{}'. Expected one of: {}. Choose the format explicitly, or map the columns as CSV (--column op=N --column address=N:sectors ...).",
                    i + 1,
                    clip(l.trim()),
                    REGISTRY.iter().map(|e| e.description).collect::<Vec<_>>().join("; ")
                )),
            },
        }
    }

    /// `detect_line`, except that a column mapping makes a delimited line CSV.
    fn detect(&self, line: &str) -> Option<Format> {
        let mapped = self.opts.mapping.refs().iter().any(|r| r.1.is_some());
        match detect_line(line) {
            Some(f) if !mapped || f == Format::Csv => Some(f),
            _ if mapped => Some(Format::Csv),
            other => other,
        }
    }

    fn drain(&mut self, last: bool) {
        if self.body() == Some(Body::WholeText) {
            if self.pattern.len() + self.carry.len() > MAX_PATTERN {
                self.fail(format!("pattern text longer than {} MB", MAX_PATTERN >> 20));
                return;
            }
            self.pattern.append(&mut self.carry);
            return;
        }
        if let Some(Body::Records(size)) = self.body() {
            return self.drain_records(size, last);
        }
        let buf = std::mem::take(&mut self.carry);
        if let Some(keep) = self.drain_lines(&buf, last) {
            self.keep_rest(buf, keep);
        }
    }

    /// Whether text lines can be read where the chunk lies (`feed_text`): not a whole-text
    /// or binary format, whose input is kept or read in records.
    fn lines_in_place(&self) -> bool {
        !matches!(self.body(), Some(Body::WholeText | Body::Records(_)))
    }

    /// Reads the whole lines of `buf` (and at the end of the input, `last`, its last line
    /// too). Returns where the partial line to carry begins, or None: nothing to carry (the
    /// parse stopped, the rest became pattern text, or the input ended).
    fn drain_lines(&mut self, buf: &[u8], last: bool) -> Option<usize> {
        let mut start = 0;
        // The whole lines of the chunk, UTF-8-checked at once (fast for ASCII); a
        // chunk with a bad byte is read line by line so the error names its line.
        let whole = if last { buf.len() } else { memchr::memrchr(b'\n', buf).map(|p| p + 1).unwrap_or(0) };
        // The lines that end with a newline (at the end of the input, the last may not).
        let lines_end = memchr::memrchr(b'\n', &buf[..whole]).map_or(0, |p| p + 1);
        // Checked when a line first leaves DiskSim's fast path (which reads only ASCII).
        let mut checked: Option<Option<&str>> = None;
        // DiskSim's usual lines skip the field splitter (issue 37); the first line (which
        // made the reader) and any other line take the general path.
        let fast_now =
            |me: &TraceParser| me.fast_paths && me.out.format == Some(Format::Disksim) && me.reader.is_some();
        let mut fast = fast_now(self);
        let sector = self.opts.sector_bytes as u64;
        // Lines left before the bulk reader is tried again, after it took none.
        let mut pause = 0u32;
        while start < lines_end {
            if fast && pause == 0 {
                let to = self.usual_run(buf, start, lines_end, sector);
                pause = if to == start { 16 } else { 0 };
                start = to;
                if start == lines_end {
                    break;
                }
            }
            pause = pause.saturating_sub(1);
            // The fast reader finds the line's end as it reads (no search ahead for it).
            let nl = match fast.then(|| super::disksim::fast_line(&buf[start..lines_end], sector)).flatten() {
                Some((r, end)) => {
                    self.out.lines += 1;
                    self.meaningful_lines += 1;
                    self.record(r.write, r.offset, r.bytes, Some(r.device), Some(r.time));
                    start + end
                }
                None => {
                    let nl = start + memchr::memchr(b'\n', &buf[start..lines_end]).expect("the line ends in a newline");
                    if let Some(text) = *checked.get_or_insert_with(|| std::str::from_utf8(&buf[..whole]).ok()) {
                        self.line_str(&text[start..nl]);
                        fast = fast_now(self);
                    } else {
                        self.line(&buf[start..nl]);
                    }
                    nl
                }
            };
            start = nl + 1;
            if self.stopped() {
                return None;
            }
            if !fast && self.body() == Some(Body::WholeText) {
                // Detected late (after comment lines): the rest is pattern text.
                self.pattern.extend_from_slice(&buf[start..]);
                return None;
            }
        }
        let rest = &buf[start..];
        if last {
            if !rest.is_empty() {
                self.line(rest);
            }
            None
        } else if rest.len() > MAX_LINE {
            self.fail(format!("line {} is longer than {} bytes: not a text trace?", self.out.lines + 1, MAX_LINE));
            None
        } else {
            Some(start)
        }
    }

    /// Keeps `buf[start..]` (a partial line or record) as the carry, in `buf`'s own memory:
    /// no allocation per chunk (issue 37: a chunk-sized buffer was allocated and freed
    /// for every chunk).
    fn keep_rest(&mut self, mut buf: Vec<u8>, start: usize) {
        buf.copy_within(start.., 0);
        buf.truncate(buf.len() - start);
        self.carry = buf;
    }

    /// libCacheSim oracleGeneral: little-endian `u32 time, u64 obj_id, u32 obj_size,
    /// i64 next_access_vtime` (libCacheSim traceReader/customizedReader/oracle/
    /// oracleGeneralBin.h). The format has no operation: every record is a write of
    /// `obj_size` bytes at page `obj_id` (ids are pages; an object larger than a page
    /// spans the following pages). Records of size 0 are skipped, as libCacheSim does.
    /// A binary format: whole records of `size` bytes (`TraceFormat::read_record`); a
    /// partial record waits for the next chunk, or is an error at the end.
    fn drain_records(&mut self, size: usize, last: bool) {
        let Some(imp) = self.out.format.map(|f| registry(f).imp) else { return };
        let buf = std::mem::take(&mut self.carry);
        let whole = buf.len() / size * size;
        for r in buf[..whole].chunks_exact(size) {
            self.out.lines += 1;
            let mut cx = Cx { opts: &self.opts, out: &mut self.out, fatal: &mut self.fatal };
            match imp.read_record(r, &mut cx) {
                Ok(None) => {}
                Ok(Some((write, first, last, time))) => self.record_pages(write, first, last, time),
                Err((col, m)) => {
                    self.bad(col, m);
                    if self.failed() {
                        return;
                    }
                }
            }
            if self.done {
                return;
            }
        }
        let rest = &buf[whole..];
        if last && !rest.is_empty() {
            self.out.lines += 1;
            self.fail(format!(
                "the file ends with a partial record: {} bytes after {} whole {size}-byte records",
                rest.len(),
                self.out.lines - 1
            ));
        } else {
            self.keep_rest(buf, whole);
        }
    }

    fn bad(&mut self, column: usize, message: String) {
        self.out.bad_lines += 1;
        if self.out.errors.len() < self.opts.max_errors.max(1) {
            self.out.errors.push(ParseError { line: self.out.lines as usize, column, message });
        }
    }

    fn line(&mut self, raw: &[u8]) {
        match std::str::from_utf8(raw) {
            Ok(t) => self.line_str(t),
            Err(e) => {
                self.out.lines += 1;
                self.bad(e.valid_up_to() + 1, "not UTF-8 text".into());
            }
        }
    }

    fn line_str(&mut self, text: &str) {
        self.out.lines += 1;
        let text = text.strip_suffix('\r').unwrap_or(text);
        let raw = text.as_bytes();
        let (t, _) = trim(raw);
        if t.is_empty() {
            return;
        }
        if is_comment(t) {
            self.out.ignored.comments += 1;
            return;
        }
        self.meaningful_lines += 1;
        if self.out.format.is_none() {
            // The first 8 KB held only blank or comment lines: detect here.
            match self.detect(text) {
                Some(f) => {
                    self.out.format = Some(f);
                    self.out.format_detected = true;
                }
                None => {
                    self.fail(format!(
                        "cannot tell the trace format from line {}: '{}'. Choose the format explicitly.",
                        self.out.lines,
                        clip(text.trim())
                    ));
                    return;
                }
            }
        }
        let Some(fmt) = self.out.format else { return };
        let entry = registry(fmt);
        if entry.imp.body() == Body::WholeText {
            self.pattern_first_line = self.out.lines as usize - 1;
            self.pattern.extend_from_slice(raw);
            self.pattern.push(b'\n');
            return;
        }
        if self.reader.is_none() {
            self.reader = entry.imp.line_reader();
        }
        let Some(reader) = self.reader.as_mut() else { return };
        let mut cx = Cx { opts: &self.opts, out: &mut self.out, fatal: &mut self.fatal };
        let r = reader.read(text, &mut cx);
        match r {
            Err((col, m)) => self.bad(col, m),
            Ok(None) => {}
            Ok(Some(rec)) => self.record(rec.write, rec.offset, rec.bytes, rec.device.map(str::as_bytes), rec.time),
        }
    }

    fn flush_device(&mut self) {
        for (_, d, n) in std::mem::take(&mut self.dev_counts) {
            *self.out.devices.entry(d).or_default() += n;
        }
    }

    /// How the detected (or chosen) format reads its input.
    fn body(&self) -> Option<Body> {
        self.out.format.map(|f| registry(f).imp.body())
    }

    /// A whole-text format (the pattern language): parse the text kept.
    fn finish_whole_text(&mut self) {
        let Some(imp) = self.out.format.map(|f| registry(f).imp) else { return };
        let text = match String::from_utf8(std::mem::take(&mut self.pattern)) {
            Ok(t) => t,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let (line, col) = line_col(e.as_bytes(), at);
                self.out.bad_lines += 1;
                self.out.errors.push(ParseError { line, column: col, message: "not UTF-8 text".into() });
                self.fail("the pattern is not UTF-8 text".into());
                return;
            }
        };
        let skip = self.pattern_first_line;
        self.out.lines = (skip + text.lines().count()) as u64;
        match imp.parse_text(&text, crate::trace::MAX_REQUESTS) {
            Ok(mut packed) => {
                drop(text);
                let unpack = super::raw::unpack;
                // Requests past the limit are counted, not kept (as a line trace's are).
                let keep = packed.len().min(self.opts.limit as usize);
                if keep < packed.len() {
                    // A pattern's records are its requests.
                    self.out.ignored.beyond_limit += (packed.len() - keep) as u64;
                    self.out.stopped_at_line = Some(keep as u64 + 1);
                }
                packed.truncate(keep);
                for &p in &packed {
                    match unpack(p).0 {
                        K_READ => self.out.record_reads += 1,
                        K_WRITE => self.out.record_writes += 1,
                        _ => {}
                    }
                }
                self.out.records += keep as u64;
                // Every request of a pattern is a host request of its own, untimed
                // (as mark_start(None) per request, in one go).
                let mut starts = vec![u64::MAX; keep / 64];
                if keep % 64 > 0 {
                    starts.push((1u64 << (keep % 64)) - 1);
                }
                self.out.starts = starts;
                self.out.untimed += keep as u64;
                self.out.times = Default::default();
                for p in packed {
                    let (kind, v) = unpack(p);
                    self.out.push_pages(kind, v, 1);
                }
            }
            Err(mut e) => {
                // The pattern is one expression: a bad item cannot be skipped, and its
                // one error is the message.
                e.line += skip;
                self.out.bad_lines += 1;
                self.fail(format!("the pattern could not be parsed: {e}"));
                self.out.errors.push(e);
            }
        }
    }
}

/// Text whose every other byte is zero (UTF-16 without a byte-order mark): at least
/// 16 bytes, and the zeros all on even or all on odd offsets.
fn looks_utf16(head: &[u8]) -> bool {
    let n = head.len() & !1;
    if n < 16 {
        return false;
    }
    let zero_at = |parity: usize| head[..n].iter().skip(parity).step_by(2).all(|&c| c == 0);
    let text_at = |parity: usize| head[..n].iter().skip(parity).step_by(2).all(|&c| c != 0 && c < 0x80);
    (zero_at(1) && text_at(0)) || (zero_at(0) && text_at(1))
}

/// Parses a whole text (or bytes) at once.
pub fn parse_bytes(bytes: &[u8], opts: TraceOptions) -> Result<RawTrace, TraceError> {
    let mut p = TraceParser::new(opts);
    p.feed(bytes);
    p.finish()
}

mod record;
#[cfg(test)]
mod tests;
