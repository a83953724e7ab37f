//! Block I/O trace parsers: UMass/SPC, MSR Cambridge, blkparse text, DiskSim/MQSim
//! ASCII, CSV with a header, and the inline pattern language — streamed in chunks of
//! bytes so a browser worker can parse a 1 GB file with progress and cancel
//! (docs/traces.md).
//!
//! A record (one line of the trace) is split into one request per chip page it
//! touches; the requests are kept packed, 8 bytes each, until `RawTrace::fit` maps
//! them into a scheme's logical space.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::gen::MAX_REQUESTS;
use super::ParseError;

/// The trace formats. `name()` is the identifier scenarios and the CLI use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    Umass,
    Msr,
    Blkparse,
    Disksim,
    Csv,
    Pattern,
}

/// Every format with its name and one-line description (for the UI and `--help`).
pub const FORMATS: &[(Format, &str, &str)] = &[
    (Format::Umass, "umass", "UMass/SPC: ASU,LBA,Size,Opcode,Timestamp (LBA in 512-byte sectors, size in bytes, opcode r/w)"),
    (Format::Msr, "msr", "MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (bytes, Read/Write)"),
    (Format::Blkparse, "blkparse", "blkparse default text output: dev cpu seq time pid action RWBS sector + count [proc]"),
    (Format::Disksim, "disksim", "DiskSim/MQSim ASCII: arrival_time device lba size_in_sectors type (0 write, 1 read)"),
    (Format::Csv, "csv", "CSV with a header naming op, lba or offset, and size (units in the header or as options)"),
    (Format::Pattern, "pattern", "the inline pattern language: w0 w4 r3 (w1 w2)x3, page numbers"),
];

impl Format {
    pub fn name(self) -> &'static str {
        FORMATS.iter().find(|f| f.0 == self).map(|f| f.1).unwrap_or("?")
    }
    /// By name, with the aliases `spc`, `mqsim`, `ascii`, `blktrace`.
    pub fn from_name(s: &str) -> Result<Format, String> {
        let s = s.trim().to_ascii_lowercase();
        let alias = match s.as_str() {
            "spc" => "umass",
            "mqsim" | "ascii" => "disksim",
            "blktrace" => "blkparse",
            "inline" => "pattern",
            other => other,
        };
        FORMATS.iter().find(|f| f.1 == alias).map(|f| f.0).ok_or_else(|| {
            format!(
                "unknown trace format '{s}': expected one of {}",
                FORMATS.iter().map(|f| f.1).collect::<Vec<_>>().join(", ")
            )
        })
    }
}

/// Unit of a CSV address or size column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Bytes,
    Sectors,
    Pages,
}

impl Unit {
    fn from_word(w: &str) -> Option<Unit> {
        match w.trim().to_ascii_lowercase().as_str() {
            "b" | "byte" | "bytes" => Some(Unit::Bytes),
            "s" | "sector" | "sectors" | "512" | "512b" => Some(Unit::Sectors),
            "p" | "page" | "pages" => Some(Unit::Pages),
            _ => None,
        }
    }
}

/// Parser options. All fields have defaults, so `{}` is valid JSON options.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TraceOptions {
    /// None: auto-detect from the first lines.
    pub format: Option<Format>,
    /// The chip's page size: byte and sector addresses map to pages of this size.
    pub page_bytes: u32,
    /// Sector size for sector-addressed formats (UMass LBA, DiskSim, blkparse, CSV `lba`).
    pub sector_bytes: u32,
    /// Keep only records of this device (UMass ASU, MSR DiskNumber, blkparse `maj,min`,
    /// DiskSim device, CSV `device` column).
    pub device: Option<String>,
    /// Skip malformed lines (counted and listed) instead of failing.
    pub skip_bad_lines: bool,
    /// How many errors are listed (the count of bad lines is always exact).
    pub max_errors: usize,
    /// blkparse: which action counts (`D` = issued to the device, `Q` = queued, `C` = completed).
    pub blkparse_action: String,
    /// CSV: unit of the address column when the header does not say.
    pub csv_address_unit: Option<Unit>,
    /// CSV: unit of the size column when the header does not say.
    pub csv_size_unit: Option<Unit>,
    /// At most this many page requests are kept; the rest are counted as truncated.
    pub limit: u64,
}

impl Default for TraceOptions {
    fn default() -> Self {
        TraceOptions {
            format: None,
            page_bytes: 512,
            sector_bytes: 512,
            device: None,
            skip_bad_lines: false,
            max_errors: 20,
            blkparse_action: "D".into(),
            csv_address_unit: None,
            csv_size_unit: None,
            limit: MAX_REQUESTS,
        }
    }
}

/// Records the parser saw but did not turn into requests, by reason (never silent).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ignored {
    /// Records of another device than `device`.
    pub other_device: u64,
    /// blkparse lines of another action than `blkparse_action`.
    pub other_action: u64,
    /// blkparse records that are neither read nor write (discard, flush, barrier-only).
    pub not_read_write: u64,
    /// Records of size 0.
    pub zero_size: u64,
    /// blkparse's closing statistics lines (after `CPUn (...)` / `Total (...)`).
    pub blkparse_statistics: u64,
    /// Comment (`#`) lines.
    pub comments: u64,
    /// Records after the request limit was reached.
    pub beyond_limit: u64,
}

/// What `feed` reports after each chunk.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Progress {
    pub bytes: u64,
    pub lines: u64,
    pub records: u64,
    pub requests: u64,
    pub bad_lines: u64,
    /// The format, once detected.
    pub format: Option<Format>,
    /// Parsing cannot succeed any more (a fatal error, or too many bad lines without
    /// `skip_bad_lines`): stop feeding and call `finish` for the message.
    pub failed: bool,
}

/// Why a trace could not be read: a message and the first bad lines.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceError {
    pub message: String,
    pub errors: Vec<ParseError>,
    pub bad_lines: u64,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.message)?;
        for e in &self.errors {
            write!(f, "\n  {e}")?;
        }
        if self.bad_lines > self.errors.len() as u64 {
            write!(f, "\n  ... {} bad lines in all", self.bad_lines)?;
        }
        Ok(())
    }
}

// Packed request: kind in the top 3 bits, page number (or state id) in the low 61.
const KIND_SHIFT: u32 = 61;
const VALUE_MASK: u64 = (1 << KIND_SHIFT) - 1;
pub(crate) const K_READ: u64 = 0;
pub(crate) const K_WRITE: u64 = 1;
pub(crate) const K_FREEZE: u64 = 2;
pub(crate) const K_UNFREEZE: u64 = 3;
pub(crate) const K_REVERT: u64 = 4;

pub(crate) fn pack(kind: u64, value: u64) -> u64 {
    (kind << KIND_SHIFT) | (value & VALUE_MASK)
}
pub(crate) fn unpack(p: u64) -> (u64, u64) {
    (p >> KIND_SHIFT, p & VALUE_MASK)
}

/// A parsed trace: page requests in trace order (packed, 8 bytes each) and what the
/// parser saw. `fit` (in `fit.rs`) maps it into a logical space.
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
    pub(crate) packed: Vec<u64>,
}

impl RawTrace {
    /// Page requests (after splitting).
    pub fn len(&self) -> usize {
        self.packed.len()
    }
    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }
    /// Highest page addressed, if any request addresses one.
    pub fn max_page(&self) -> Option<u64> {
        self.packed
            .iter()
            .filter_map(|&p| match unpack(p) {
                (K_READ | K_WRITE, v) => Some(v),
                _ => None,
            })
            .max()
    }
    /// `(is_write, page)` of each read or write, in order (freeze etc. are skipped).
    pub fn pages(&self) -> impl Iterator<Item = (bool, u64)> + '_ {
        self.packed.iter().filter_map(|&p| match unpack(p) {
            (K_READ, v) => Some((false, v)),
            (K_WRITE, v) => Some((true, v)),
            _ => None,
        })
    }
}

#[derive(Clone, Debug)]
struct CsvCols {
    delim: u8,
    op: usize,
    addr: usize,
    addr_unit: Unit,
    size: Option<(usize, Unit)>,
    device: Option<usize>,
    n: usize,
}

/// Longest line accepted (a text trace line is well under 1 KB).
const MAX_LINE: usize = 1 << 20;
/// Bytes looked at before deciding the format / whether the file is binary.
const SNIFF: usize = 8192;
/// The pattern language is parsed whole; at most this much text.
const MAX_PATTERN: usize = 64 << 20;

/// The streaming parser: `feed` chunks of bytes in order, then `finish`.
/// Cancel = stop feeding and drop it.
pub struct TraceParser {
    opts: TraceOptions,
    out: RawTrace,
    carry: Vec<u8>,
    sniffed: bool,
    fatal: Option<String>,
    csv: Option<CsvCols>,
    blk_stats: bool,
    pattern: Vec<u8>,
    /// Lines before the pattern text (comment lines before a late detection).
    pattern_first_line: usize,
    meaningful_lines: u64,
}

fn is_comment(t: &[u8]) -> bool {
    t.first() == Some(&b'#')
}

fn trim(b: &[u8]) -> (&[u8], usize) {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map(|e| e + 1).unwrap_or(start);
    (&b[start..end.max(start)], start)
}

/// Fields of a line with their 1-based columns: split by `delim`, or by runs of
/// whitespace when `delim` is None.
fn fields(line: &str, delim: Option<u8>) -> Vec<(usize, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    match delim {
        Some(d) => {
            let mut start = 0;
            for i in 0..=b.len() {
                if i == b.len() || b[i] == d {
                    let (t, off) = trim(&b[start..i]);
                    let s = std::str::from_utf8(t).unwrap_or("");
                    out.push((start + off + 1, s));
                    start = i + 1;
                }
            }
        }
        None => {
            let mut i = 0;
            while i < b.len() {
                while i < b.len() && b[i].is_ascii_whitespace() {
                    i += 1;
                }
                let s = i;
                while i < b.len() && !b[i].is_ascii_whitespace() {
                    i += 1;
                }
                if i > s {
                    out.push((s + 1, &line[s..i]));
                }
            }
        }
    }
    out
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.parse::<f64>().is_ok_and(|f| f.is_finite())
}

fn is_pattern_start(tok: &str) -> bool {
    let t = tok.to_ascii_lowercase();
    if t.starts_with('(') || t == "freeze" || t == "unfreeze" || t == "revert" {
        return true;
    }
    let b = t.as_bytes();
    b.len() >= 2 && matches!(b[0], b'w' | b'r' | b's') && b[1].is_ascii_digit()
}

fn is_blk_dev(tok: &str) -> bool {
    match tok.split_once(',') {
        Some((a, b)) => {
            !a.is_empty() && !b.is_empty() && a.bytes().all(|c| c.is_ascii_digit()) && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Guesses the format from one meaningful line.
pub fn detect_line(line: &str) -> Option<Format> {
    let ws = fields(line, None);
    let first = ws.first()?.1;
    if is_pattern_start(first.split(',').next().unwrap_or("")) {
        return Some(Format::Pattern);
    }
    if is_blk_dev(first) && ws.len() >= 6 {
        return Some(Format::Blkparse);
    }
    if line.contains(',') || line.contains('\t') {
        let d = if line.contains(',') { b',' } else { b'\t' };
        let f = fields(line, Some(d));
        if !is_number(f[0].1) {
            return Some(Format::Csv);
        }
        let lower = |i: usize| f.get(i).map(|x| x.1.to_ascii_lowercase()).unwrap_or_default();
        if f.len() >= 7 && matches!(lower(3).as_str(), "read" | "write") {
            return Some(Format::Msr);
        }
        if f.len() >= 5 && matches!(lower(3).as_str(), "r" | "w") {
            return Some(Format::Umass);
        }
        return None;
    }
    if ws.len() >= 5 && ws[..5].iter().all(|f| is_number(f.1)) {
        return Some(Format::Disksim);
    }
    None
}

fn parse_u64(col: usize, s: &str, what: &str) -> Result<u64, (usize, String)> {
    if s.is_empty() {
        return Err((col, format!("expected {what}, found nothing")));
    }
    s.parse::<u64>().map_err(|_| {
        if s.bytes().all(|c| c.is_ascii_digit()) {
            (col, format!("{what} '{s}' is too large"))
        } else {
            (col, format!("expected {what} (a whole number), found '{}'", clip(s)))
        }
    })
}

fn parse_num(col: usize, s: &str, what: &str) -> Result<(), (usize, String)> {
    if is_number(s) {
        Ok(())
    } else {
        Err((col, format!("expected {what} (a number), found '{}'", clip(s))))
    }
}

fn clip(s: &str) -> String {
    let mut out: String = s.chars().take(40).collect();
    if s.chars().count() > 40 {
        out.push('…');
    }
    out
}

/// One record: operation, byte offset, byte length, device.
struct Rec<'a> {
    write: bool,
    offset: u64,
    bytes: u64,
    device: Option<&'a str>,
}

type LineResult<'a> = Result<Option<Rec<'a>>, (usize, String)>;

impl TraceParser {
    pub fn new(opts: TraceOptions) -> TraceParser {
        let mut out = RawTrace { format: opts.format, page_bytes: opts.page_bytes, ..Default::default() };
        out.format_detected = false;
        TraceParser {
            opts,
            out,
            carry: Vec::new(),
            sniffed: false,
            fatal: None,
            csv: None,
            blk_stats: false,
            pattern: Vec::new(),
            pattern_first_line: 0,
            meaningful_lines: 0,
        }
    }

    pub fn progress(&self) -> Progress {
        Progress {
            bytes: self.out.bytes,
            lines: self.out.lines,
            records: self.out.records,
            requests: self.out.packed.len() as u64,
            bad_lines: self.out.bad_lines,
            format: self.out.format,
            failed: self.fatal.is_some() || (!self.opts.skip_bad_lines && self.out.bad_lines >= self.opts.max_errors.max(1) as u64),
        }
    }

    /// Feeds the next chunk of the file. Returns progress (bytes consumed so far).
    pub fn feed(&mut self, chunk: &[u8]) -> Progress {
        if self.progress().failed {
            return self.progress();
        }
        self.out.bytes += chunk.len() as u64;
        self.carry.extend_from_slice(chunk);
        if !self.sniffed {
            if self.carry.len() < SNIFF {
                return self.progress();
            }
            self.sniff();
        }
        self.drain(false);
        self.progress()
    }

    /// Ends the input: the parsed trace, or why it could not be read.
    pub fn finish(mut self) -> Result<RawTrace, TraceError> {
        if !self.sniffed && self.fatal.is_none() {
            self.sniff();
        }
        if self.fatal.is_none() {
            self.drain(true);
        }
        if self.fatal.is_none() && self.out.format == Some(Format::Pattern) {
            self.finish_pattern();
        }
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
                "{} malformed line{} in the {} trace (choose 'skip bad lines' to run without them)",
                if self.progress().failed && self.out.bad_lines >= self.opts.max_errors as u64 { format!("at least {}", self.out.bad_lines) } else { self.out.bad_lines.to_string() },
                if self.out.bad_lines == 1 { "" } else { "s" },
                self.out.format.map(|f| f.name()).unwrap_or("?")
            );
            return Err(err(&self, m));
        }
        if self.out.packed.is_empty() {
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
                why.push(format!(
                    "{} blkparse lines of other actions than '{}' (try blkparse_action Q or D)",
                    ig.other_action, self.opts.blkparse_action
                ));
            }
            if ig.zero_size > 0 {
                why.push(format!("{} records of size 0", ig.zero_size));
            }
            if ig.not_read_write > 0 {
                why.push(format!("{} records neither read nor write", ig.not_read_write));
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
        if self.opts.page_bytes == 0 || self.opts.sector_bytes == 0 {
            self.fail("page_bytes and sector_bytes must be at least 1".into());
            return;
        }
        if self.carry.is_empty() {
            self.fail("the file is empty".into());
            return;
        }
        let head = &self.carry[..self.carry.len().min(SNIFF)];
        if let Some(i) = head.iter().position(|&c| c == 0) {
            self.fail(format!("this looks like a binary file (a zero byte at offset {i}), not a text trace"));
            return;
        }
        let ctrl = head.iter().filter(|&&c| c < 0x20 && !matches!(c, b'\n' | b'\r' | b'\t' | 0x0c)).count();
        if ctrl * 20 > head.len() {
            self.fail(format!("this looks like a binary file ({ctrl} control bytes in the first {} bytes), not a text trace", head.len()));
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
            Some((i, l)) => match detect_line(l) {
                Some(f) => {
                    self.out.format = Some(f);
                    self.out.format_detected = true;
                }
                None => self.fail(format!(
                    "cannot tell the trace format from line {}: '{}'. Expected one of: {}. Choose the format explicitly.",
                    i + 1,
                    clip(l.trim()),
                    FORMATS.iter().map(|f| f.2).collect::<Vec<_>>().join("; ")
                )),
            },
        }
    }

    fn drain(&mut self, last: bool) {
        if self.out.format == Some(Format::Pattern) {
            if self.pattern.len() + self.carry.len() > MAX_PATTERN {
                self.fail(format!("pattern text longer than {} MB", MAX_PATTERN >> 20));
                return;
            }
            self.pattern.append(&mut self.carry);
            return;
        }
        let buf = std::mem::take(&mut self.carry);
        let mut start = 0;
        while let Some(nl) = buf[start..].iter().position(|&c| c == b'\n') {
            self.line(&buf[start..start + nl]);
            start += nl + 1;
            if self.progress().failed {
                return;
            }
            if self.out.format == Some(Format::Pattern) {
                // Detected late (after comment lines): the rest is pattern text.
                self.pattern.extend_from_slice(&buf[start..]);
                return;
            }
        }
        let rest = &buf[start..];
        if last {
            if !rest.is_empty() {
                self.line(rest);
            }
        } else if rest.len() > MAX_LINE {
            self.fail(format!("line {} is longer than {} bytes: not a text trace?", self.out.lines + 1, MAX_LINE));
        } else {
            self.carry = rest.to_vec();
        }
    }

    fn bad(&mut self, column: usize, message: String) {
        self.out.bad_lines += 1;
        if self.out.errors.len() < self.opts.max_errors.max(1) {
            self.out.errors.push(ParseError { line: self.out.lines as usize, column, message });
        }
    }

    fn line(&mut self, raw: &[u8]) {
        self.out.lines += 1;
        let raw = raw.strip_suffix(b"\r").unwrap_or(raw);
        let text = match std::str::from_utf8(raw) {
            Ok(t) => t,
            Err(e) => {
                self.bad(e.valid_up_to() + 1, "not UTF-8 text".into());
                return;
            }
        };
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
            match detect_line(text) {
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
        if fmt == Format::Pattern {
            self.pattern_first_line = self.out.lines as usize - 1;
            self.pattern.extend_from_slice(raw);
            self.pattern.push(b'\n');
            return;
        }
        let r = match fmt {
            Format::Umass => self.umass(text),
            Format::Msr => self.msr(text),
            Format::Blkparse => self.blkparse(text),
            Format::Disksim => self.disksim(text),
            Format::Csv => self.csv_line(text),
            Format::Pattern => Ok(None),
        };
        match r {
            Err((col, m)) => self.bad(col, m),
            Ok(None) => {}
            Ok(Some(rec)) => {
                let dev = rec.device.map(str::to_string);
                self.record(rec.write, rec.offset, rec.bytes, dev);
            }
        }
    }

    fn record(&mut self, write: bool, offset: u64, bytes: u64, device: Option<String>) {
        if let Some(d) = &device {
            if self.out.devices.len() < 64 || self.out.devices.contains_key(d) {
                *self.out.devices.entry(d.clone()).or_default() += 1;
            }
            if let Some(want) = &self.opts.device {
                if want.trim() != d {
                    self.out.ignored.other_device += 1;
                    return;
                }
            }
        }
        if bytes == 0 {
            self.out.ignored.zero_size += 1;
            return;
        }
        let pb = self.opts.page_bytes.max(1) as u64;
        let first = offset / pb;
        let last = match offset.checked_add(bytes - 1) {
            Some(end) => end / pb,
            None => {
                self.bad(1, format!("offset {offset} + size {bytes} overflows 64 bits"));
                return;
            }
        };
        if last > VALUE_MASK {
            self.bad(1, format!("address {offset} is beyond 2^61 pages"));
            return;
        }
        let n = last - first + 1;
        // Once a record does not fit under the limit, it and every later one are
        // counted as beyond the limit (the kept trace is a prefix).
        if self.out.ignored.beyond_limit > 0 || self.out.packed.len() as u64 + n > self.opts.limit {
            self.out.ignored.beyond_limit += 1;
            return;
        }
        self.out.records += 1;
        if write {
            self.out.record_writes += 1;
        } else {
            self.out.record_reads += 1;
        }
        let kind = if write { K_WRITE } else { K_READ };
        self.out.packed.extend((first..=last).map(|p| pack(kind, p)));
    }

    fn sectors(&self, col: usize, s: &str, what: &str) -> Result<u64, (usize, String)> {
        let v = parse_u64(col, s, what)?;
        v.checked_mul(self.opts.sector_bytes.max(1) as u64)
            .ok_or((col, format!("{what} '{s}' is too large")))
    }

    fn need(f: &[(usize, &str)], n: usize, line_len: usize, what: &str) -> Result<(), (usize, String)> {
        if f.len() < n {
            let col = f.last().map(|x| x.0 + x.1.len()).unwrap_or(1).min(line_len + 1);
            return Err((col, format!("expected {n} fields ({what}), found {}", f.len())));
        }
        Ok(())
    }

    /// `ASU,LBA,Size,Opcode,Timestamp[,...]`
    fn umass<'a>(&self, line: &'a str) -> LineResult<'a> {
        let f = fields(line, Some(b','));
        Self::need(&f, 5, line.len(), "ASU,LBA,Size,Opcode,Timestamp")?;
        parse_u64(f[0].0, f[0].1, "the ASU (device number)")?;
        let offset = self.sectors(f[1].0, f[1].1, "the LBA in sectors")?;
        let bytes = parse_u64(f[2].0, f[2].1, "the size in bytes")?;
        let write = match f[3].1 {
            "w" | "W" => true,
            "r" | "R" => false,
            o => return Err((f[3].0, format!("expected the opcode r or w, found '{}'", clip(o)))),
        };
        parse_num(f[4].0, f[4].1, "the timestamp")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(f[0].1) }))
    }

    /// `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`
    fn msr<'a>(&self, line: &'a str) -> LineResult<'a> {
        let f = fields(line, Some(b','));
        Self::need(&f, 7, line.len(), "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime")?;
        parse_num(f[0].0, f[0].1, "the timestamp")?;
        if f[1].1.is_empty() {
            return Err((f[1].0, "expected a hostname, found nothing".into()));
        }
        parse_u64(f[2].0, f[2].1, "the disk number")?;
        let write = match f[3].1.to_ascii_lowercase().as_str() {
            "write" => true,
            "read" => false,
            _ => return Err((f[3].0, format!("expected the type Read or Write, found '{}'", clip(f[3].1)))),
        };
        let offset = parse_u64(f[4].0, f[4].1, "the offset in bytes")?;
        let bytes = parse_u64(f[5].0, f[5].1, "the size in bytes")?;
        parse_num(f[6].0, f[6].1, "the response time")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(f[2].1) }))
    }

    /// `arrival_time device lba size_in_sectors type` (type 0 write, 1 read).
    fn disksim<'a>(&self, line: &'a str) -> LineResult<'a> {
        let f = fields(line, None);
        Self::need(&f, 5, line.len(), "arrival_time device lba size_in_sectors type")?;
        parse_num(f[0].0, f[0].1, "the arrival time")?;
        parse_u64(f[1].0, f[1].1, "the device number")?;
        let offset = self.sectors(f[2].0, f[2].1, "the LBA in sectors")?;
        let bytes = self.sectors(f[3].0, f[3].1, "the size in sectors")?;
        let write = match f[4].1 {
            "0" => true,
            "1" => false,
            o => return Err((f[4].0, format!("expected the type 0 (write) or 1 (read), found '{}'", clip(o)))),
        };
        if let Some(x) = f.get(5) {
            return Err((x.0, format!("expected the end of the line after 5 fields, found '{}'", clip(x.1))));
        }
        Ok(Some(Rec { write, offset, bytes, device: Some(f[1].1) }))
    }

    /// `8,0  3  1  0.000000000  697  Q  WS 223490 + 8 [proc]`
    fn blkparse<'a>(&mut self, line: &'a str) -> LineResult<'a> {
        if self.blk_stats {
            self.out.ignored.blkparse_statistics += 1;
            return Ok(None);
        }
        let f = fields(line, None);
        let first = f[0].1;
        if !is_blk_dev(first) {
            if first.starts_with("CPU") || first == "Total" {
                // blkparse's closing per-CPU and total statistics: everything after it.
                self.blk_stats = true;
                self.out.ignored.blkparse_statistics += 1;
                return Ok(None);
            }
            return Err((f[0].0, format!("expected a device 'major,minor' such as 8,0, found '{}'", clip(first))));
        }
        Self::need(&f, 6, line.len(), "dev cpu seq time pid action")?;
        parse_u64(f[1].0, f[1].1, "the CPU number")?;
        parse_u64(f[2].0, f[2].1, "the sequence number")?;
        parse_num(f[3].0, f[3].1, "the time stamp")?;
        parse_u64(f[4].0, f[4].1, "the process id")?;
        if f[5].1 != self.opts.blkparse_action.trim() {
            self.out.ignored.other_action += 1;
            return Ok(None);
        }
        Self::need(&f, 7, line.len(), "dev cpu seq time pid action RWBS")?;
        let rwbs = f[6].1;
        if !rwbs.bytes().all(|c| b"RWDBSFMANTE".contains(&c)) {
            return Err((f[6].0, format!("expected RWBS flags such as W, WS, R, RA, found '{}'", clip(rwbs))));
        }
        // Discards, and flushes with neither R nor W (which carry no sector range).
        let write = if rwbs.contains('D') {
            None
        } else if rwbs.contains('W') {
            Some(true)
        } else if rwbs.contains('R') {
            Some(false)
        } else {
            None
        };
        let Some(write) = write else {
            self.out.ignored.not_read_write += 1;
            return Ok(None);
        };
        Self::need(&f, 10, line.len(), "dev cpu seq time pid action RWBS sector + count")?;
        let offset = self.sectors(f[7].0, f[7].1, "the start sector")?;
        if f[8].1 != "+" {
            return Err((f[8].0, format!("expected '+' between sector and count, found '{}'", clip(f[8].1))));
        }
        let bytes = self.sectors(f[9].0, f[9].1, "the sector count")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(first) }))
    }

    fn csv_header(&mut self, line: &str) -> Result<(), (usize, String)> {
        let delim = if line.contains(',') { b',' } else if line.contains('\t') { b'\t' } else { b';' };
        let f = fields(line, Some(delim));
        let (mut op, mut addr, mut size, mut device) = (None, None, None, None);
        for (i, (_, name)) in f.iter().enumerate() {
            let lower = name.to_ascii_lowercase();
            // "offset (bytes)", "size[sectors]", "lba:sectors"
            let (base, unit) = match lower.find(['(', '[', ':']) {
                Some(k) => {
                    let u = lower[k + 1..].trim_end_matches([')', ']']).trim();
                    (lower[..k].trim().to_string(), Unit::from_word(u))
                }
                None => (lower.trim().to_string(), None),
            };
            let base = base.replace([' ', '-'], "_");
            match base.as_str() {
                "op" | "opcode" | "type" | "rw" | "operation" | "direction" | "cmd" | "request_type" => op = Some(i),
                "offset" | "byte_offset" | "offset_bytes" | "address" | "addr" => addr = Some((i, unit.unwrap_or(Unit::Bytes), unit.is_some())),
                "lba" | "sector" | "start_sector" | "lba_sectors" => addr = Some((i, unit.unwrap_or(Unit::Sectors), unit.is_some())),
                "lpn" | "page" => addr = Some((i, unit.unwrap_or(Unit::Pages), unit.is_some())),
                "size" | "bytes" | "size_bytes" | "length" | "len" => size = Some((i, unit.unwrap_or(Unit::Bytes), unit.is_some())),
                "sectors" | "size_sectors" | "nsectors" | "blocks" | "count" => size = Some((i, unit.unwrap_or(Unit::Sectors), unit.is_some())),
                "pages" | "npages" => size = Some((i, unit.unwrap_or(Unit::Pages), unit.is_some())),
                "device" | "disk" | "disknumber" | "disk_number" | "asu" | "dev" => device = Some(i),
                _ => {}
            }
        }
        let found = f.iter().map(|x| x.1).collect::<Vec<_>>().join(", ");
        let Some(op) = op else {
            return Err((1, format!("CSV header: expected an 'op' column (r/w), found columns: {}", clip(&found))));
        };
        let Some((a, au, a_named)) = addr else {
            return Err((1, format!("CSV header: expected an 'lba', 'offset' or 'lpn' column, found columns: {}", clip(&found))));
        };
        let addr_unit = if a_named { au } else { self.opts.csv_address_unit.unwrap_or(au) };
        let size = size.map(|(i, u, named)| (i, if named { u } else { self.opts.csv_size_unit.unwrap_or(u) }));
        let n = f.len();
        self.csv = Some(CsvCols { delim, op, addr: a, addr_unit, size, device, n });
        Ok(())
    }

    fn unit_bytes(&self, u: Unit) -> u64 {
        match u {
            Unit::Bytes => 1,
            Unit::Sectors => self.opts.sector_bytes.max(1) as u64,
            Unit::Pages => self.opts.page_bytes.max(1) as u64,
        }
    }

    fn csv_line<'a>(&mut self, line: &'a str) -> LineResult<'a> {
        let Some(c) = self.csv.clone() else {
            self.csv_header(line)?;
            return Ok(None);
        };
        let f = fields(line, Some(c.delim));
        Self::need(&f, c.n, line.len(), "as many as the header")?;
        let write = match f[c.op].1.to_ascii_lowercase().as_str() {
            "w" | "write" | "wr" | "ws" => true,
            "r" | "read" | "rd" | "rs" => false,
            o => return Err((f[c.op].0, format!("expected the op R/Read or W/Write, found '{}'", clip(o)))),
        };
        let a = parse_u64(f[c.addr].0, f[c.addr].1, "the address")?;
        let offset = a
            .checked_mul(self.unit_bytes(c.addr_unit))
            .ok_or((f[c.addr].0, "address too large".to_string()))?;
        let bytes = match c.size {
            Some((i, u)) => parse_u64(f[i].0, f[i].1, "the size")?
                .checked_mul(self.unit_bytes(u))
                .ok_or((f[i].0, "size too large".to_string()))?,
            None => self.opts.page_bytes.max(1) as u64,
        };
        Ok(Some(Rec { write, offset, bytes, device: c.device.map(|i| f[i].1) }))
    }

    fn finish_pattern(&mut self) {
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
        match super::pattern::parse(&text) {
            Ok(reqs) => {
                for r in reqs {
                    use super::Request::*;
                    let p = match r {
                        Read { lpn } => {
                            self.out.record_reads += 1;
                            pack(K_READ, lpn as u64)
                        }
                        Write { lpn } => {
                            self.out.record_writes += 1;
                            pack(K_WRITE, lpn as u64)
                        }
                        Freeze => pack(K_FREEZE, 0),
                        Unfreeze { state } => pack(K_UNFREEZE, state as u64),
                        Revert { state } => pack(K_REVERT, state as u64),
                    };
                    if self.out.packed.len() as u64 >= self.opts.limit {
                        self.out.ignored.beyond_limit += 1;
                        continue;
                    }
                    self.out.records += 1;
                    self.out.packed.push(p);
                }
            }
            Err(mut e) => {
                // The pattern is one expression: a bad item cannot be skipped.
                e.line += skip;
                self.out.bad_lines += 1;
                self.out.errors.push(e);
                self.fail("the pattern could not be parsed".into());
            }
        }
    }
}

fn line_col(b: &[u8], at: usize) -> (usize, usize) {
    let before = &b[..at.min(b.len())];
    let line = before.iter().filter(|&&c| c == b'\n').count() + 1;
    let col = at - before.iter().rposition(|&c| c == b'\n').map(|p| p + 1).unwrap_or(0) + 1;
    (line, col)
}

/// Parses a whole text (or bytes) at once.
pub fn parse_bytes(bytes: &[u8], opts: TraceOptions) -> Result<RawTrace, TraceError> {
    let mut p = TraceParser::new(opts);
    p.feed(bytes);
    p.finish()
}
