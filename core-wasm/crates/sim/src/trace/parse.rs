//! Block I/O trace parsers: UMass/SPC, MSR Cambridge, blkparse text, DiskSim/MQSim
//! ASCII, Alibaba/SNIA block CSV, FIU, libCacheSim's oracleGeneral binary, CSV with a
//! header or a column mapping, and the inline pattern language — streamed in chunks of
//! bytes (gzip and zstd decompressed on the way) so a browser worker can parse a 1 GB
//! file with progress and cancel (docs/traces.md).
//!
//! A record (one line of the trace) is split into one request per chip page it
//! touches; the requests are kept packed, 8 bytes each, until `RawTrace::fit` maps
//! them into a scheme's logical space.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::MAX_REQUESTS;
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
    Alibaba,
    Fiu,
    OracleGeneral,
}

/// Every format with its name and one-line description (for the UI and `--help`).
pub const FORMATS: &[(Format, &str, &str)] = &[
    (Format::Umass, "umass", "UMass/SPC: ASU,LBA,Size,Opcode,Timestamp (LBA in 512-byte sectors, size in bytes, opcode r/w)"),
    (Format::Msr, "msr", "MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (bytes, Read/Write)"),
    (Format::Blkparse, "blkparse", "blkparse default text output: dev cpu seq time pid action RWBS sector + count [proc]"),
    (Format::Disksim, "disksim", "DiskSim/MQSim ASCII: arrival_time device lba size_in_sectors type (0 write, 1 read)"),
    (Format::Csv, "csv", "CSV with a header naming op, lba or offset, and size (units in the header or as options)"),
    (Format::Pattern, "pattern", "the inline pattern language: w0 w4 r3 (w1 w2)x3, page numbers"),
    (Format::Alibaba, "alibaba", "Alibaba/SNIA block trace: device_id,opcode,offset,length,timestamp (bytes, opcode R/W)"),
    (Format::Fiu, "fiu", "FIU: ts pid process lba size op major minor md5 (LBA and size in 512-byte sectors, op R/W)"),
    (Format::OracleGeneral, "oracle_general", "libCacheSim oracleGeneral binary: 24-byte records u32 time, u64 obj_id (a page), u32 obj_size (bytes), i64 next access; every record a write"),
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
            "snia" | "alibaba_block" => "alibaba",
            "oraclegeneral" | "oracle" | "oracle_general_bin" => "oracle_general",
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
    pub fn from_word(w: &str) -> Option<Unit> {
        match w.trim().to_ascii_lowercase().as_str() {
            "b" | "byte" | "bytes" => Some(Unit::Bytes),
            "s" | "sector" | "sectors" | "512" | "512b" => Some(Unit::Sectors),
            "p" | "page" | "pages" => Some(Unit::Pages),
            _ => None,
        }
    }
}

/// Which column holds a role: a header name (case-insensitive) or a 1-based column
/// number (for files without a header), and the unit of its numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColumnRef {
    pub column: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<Unit>,
}

/// The user's column and value mapping for CSV-like text (`--column ROLE=NAME[:UNIT]`,
/// `--write-op V`, `--read-op V`; the app's mapping in the upload dialog). Roles left
/// out are guessed from the header; op values are checked against the user's lists
/// first, then the usual words (R/W, Read/Write) and SCSI opcodes in hex.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Mapping {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub op: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub address: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub device: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time: Option<ColumnRef>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub write_ops: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub read_ops: Vec<String>,
}

/// The roles a column can be mapped to.
pub const ROLES: &[&str] = &["op", "address", "size", "device", "time"];

impl Mapping {
    pub fn is_empty(&self) -> bool {
        *self == Mapping::default()
    }
    fn refs(&self) -> [(&'static str, Option<&ColumnRef>); 5] {
        [
            ("op", self.op.as_ref()),
            ("address", self.address.as_ref()),
            ("size", self.size.as_ref()),
            ("device", self.device.as_ref()),
            ("time", self.time.as_ref()),
        ]
    }
    /// Applies one `ROLE=NAME[:UNIT]` (the CLI's `--column`).
    pub fn set_column(&mut self, spec: &str) -> Result<(), String> {
        let (role, rest) = spec
            .split_once('=')
            .ok_or_else(|| format!("--column '{spec}': expected ROLE=NAME[:UNIT], e.g. address=lbn:sectors or op=3"))?;
        let role = role.trim().to_ascii_lowercase();
        let (name, unit) = match rest.rsplit_once(':') {
            Some((n, u)) => {
                let unit = Unit::from_word(u).ok_or_else(|| {
                    format!("--column '{spec}': unknown unit '{u}': expected bytes, sectors or pages")
                })?;
                (n.trim(), Some(unit))
            }
            None => (rest.trim(), None),
        };
        if name.is_empty() {
            return Err(format!("--column '{spec}': no column name or number after '='"));
        }
        if name.bytes().all(|c| c.is_ascii_digit()) && name.parse::<usize>().ok() == Some(0) {
            return Err(format!("--column '{spec}': column numbers start at 1"));
        }
        let r = Some(ColumnRef { column: name.to_string(), unit });
        if unit.is_some() && !matches!(role.as_str(), "address" | "size") {
            return Err(format!("--column '{spec}': only address and size take a unit"));
        }
        match role.as_str() {
            "op" => self.op = r,
            "address" | "addr" | "lba" | "offset" => self.address = r,
            "size" | "length" => self.size = r,
            "device" | "dev" => self.device = r,
            "time" | "timestamp" => self.time = r,
            _ => return Err(format!("--column '{spec}': unknown role '{role}': expected one of {}", ROLES.join(", "))),
        }
        Ok(())
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
    /// CSV: the user's column and op-value mapping (empty: guessed from the header).
    pub mapping: Mapping,
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
            mapping: Mapping::default(),
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
    /// "gzip" or "zstd" when the input was compressed (`bytes` counts the text).
    pub compression: Option<String>,
    /// Compressed bytes read, when compressed.
    pub compressed_bytes: u64,
    /// CSV: how the columns were read (role -> column name or number, unit), so the
    /// app and `ftl trace` can show what was guessed.
    pub csv_columns: Vec<(String, String)>,
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
    /// Distinct pages and distinct blocks of `ppb` pages touched by reads and writes.
    /// A bitmap when the highest page is small, else sort + dedup of a copy: no
    /// per-request hash map (the summary of a 20 M request trace in well under a second).
    pub fn footprint(&self, ppb: u64) -> (u64, u64) {
        let ppb = ppb.max(1);
        let Some(max) = self.max_page() else { return (0, 0) };
        if max < (1 << 31) && max / 8 <= (self.packed.len() as u64).saturating_mul(8).max(1 << 20) {
            let mut bits = vec![0u64; (max / 64 + 1) as usize];
            for (_, p) in self.pages() {
                bits[(p / 64) as usize] |= 1 << (p % 64);
            }
            let pages = bits.iter().map(|w| w.count_ones() as u64).sum();
            let mut blocks = 0u64;
            let mut last_block = u64::MAX;
            for (i, &w) in bits.iter().enumerate() {
                let mut w = w;
                while w != 0 {
                    let p = i as u64 * 64 + w.trailing_zeros() as u64;
                    w &= w - 1;
                    let b = p / ppb;
                    if b != last_block {
                        blocks += 1;
                        last_block = b;
                    }
                }
            }
            return (pages, blocks);
        }
        let mut v: Vec<u64> = self.pages().map(|(_, p)| p).collect();
        v.sort_unstable();
        v.dedup();
        let pages = v.len() as u64;
        let mut blocks = 0u64;
        let mut last_block = u64::MAX;
        for p in v {
            if p / ppb != last_block {
                blocks += 1;
                last_block = p / ppb;
            }
        }
        (pages, blocks)
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

/// How a CSV file's columns are read (from the header, the mapping, or both).
#[derive(Clone, Debug)]
struct CsvCols {
    /// None: fields are separated by runs of whitespace.
    delim: Option<u8>,
    op: usize,
    addr: usize,
    addr_unit: Unit,
    size: Option<(usize, Unit)>,
    device: Option<usize>,
    time: Option<usize>,
    /// Fields a data line must have at least (the highest column used + 1).
    need: usize,
    write_ops: Vec<String>,
    read_ops: Vec<String>,
}

/// Longest line accepted (a text trace line is well under 1 KB).
const MAX_LINE: usize = 1 << 20;
/// Bytes looked at before deciding the format / whether the file is binary.
const SNIFF: usize = 8192;
/// The pattern language is parsed whole; at most this much text.
const MAX_PATTERN: usize = 64 << 20;
/// Fields of a line kept (columns further right cannot be mapped).
const MAX_FIELDS: usize = 32;
/// oracleGeneral record size.
const ORACLE_RECORD: usize = 24;

/// Operation words understood without a mapping: R/W and Read/Write as the formats
/// write them, and SCSI command opcodes in hex (READ/WRITE (6), (10), (12), (16)),
/// as CloudPhysics traces in libCacheSim's CSV carry them.
const WRITE_WORDS: &[&str] = &["w", "write", "wr", "ws", "2a", "0a", "aa", "8a", "0x2a", "0x0a", "0xaa", "0x8a"];
const READ_WORDS: &[&str] = &["r", "read", "rd", "rs", "28", "08", "a8", "88", "0x28", "0x08", "0xa8", "0x88"];

/// Input decompression (detected from the magic bytes, not the file name).
enum Codec {
    /// Not decided yet (fewer than 4 bytes seen).
    Unknown(Vec<u8>),
    Plain,
    Gzip(Box<flate2::write::MultiGzDecoder<Vec<u8>>>),
    Zstd(Box<ZstdPush>),
}

/// zstd fed in chunks: ruzstd's `decode_from_to` needs whole blocks (at most 128 KB),
/// so compressed bytes wait in `buf` until a block is complete.
struct ZstdPush {
    dec: ruzstd::decoding::FrameDecoder,
    buf: Vec<u8>,
    in_frame: bool,
    out: Vec<u8>,
}

impl ZstdPush {
    fn new() -> ZstdPush {
        ZstdPush { dec: ruzstd::decoding::FrameDecoder::new(), buf: Vec::new(), in_frame: false, out: vec![0; 1 << 18] }
    }

    /// Decompresses what it can of `input`, appending the text to `text`.
    fn push(&mut self, input: &[u8], last: bool, text: &mut Vec<u8>) -> Result<(), String> {
        self.buf.extend_from_slice(input);
        let mut pos = 0usize;
        loop {
            let avail = self.buf.len() - pos;
            if !self.in_frame {
                // A frame header is at most 18 bytes.
                if avail == 0 || (avail < 18 && !last) {
                    break;
                }
                let mut src = &self.buf[pos..];
                let before = src.len();
                self.dec.reset(&mut src).map_err(|e| format!("zstd: {e}"))?;
                pos += before - src.len();
                self.in_frame = true;
                continue;
            }
            if avail < 4 && !last {
                // Too little for a block header or the checksum (decode_from_to would
                // claim 4 checksum bytes it has not got): only drain decoded text.
                if let Some(v) = self.dec.collect() {
                    text.extend_from_slice(&v);
                }
                if self.dec.is_finished() && self.dec.can_collect() == 0 {
                    self.in_frame = false;
                    continue;
                }
                break;
            }
            let (r, w) = self.dec.decode_from_to(&self.buf[pos..], &mut self.out).map_err(|e| format!("zstd: {e}"))?;
            if pos + r > self.buf.len() {
                return Err("zstd: the file ends inside a frame (truncated?)".into());
            }
            pos += r;
            text.extend_from_slice(&self.out[..w]);
            if self.dec.is_finished() && self.dec.can_collect() == 0 {
                self.in_frame = false;
                continue;
            }
            if r == 0 && w == 0 {
                break;
            }
        }
        self.buf.drain(..pos);
        if last && (self.in_frame || !self.buf.is_empty()) {
            return Err("zstd: the file ends inside a frame (truncated?)".into());
        }
        Ok(())
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
    csv: Option<CsvCols>,
    blk_stats: bool,
    pattern: Vec<u8>,
    /// Lines before the pattern text (comment lines before a late detection).
    pattern_first_line: usize,
    meaningful_lines: u64,
    /// Records per device, the first 64 devices (a short list searched linearly: no
    /// map lookup or allocation per record); copied to `out.devices` at the end.
    dev_counts: Vec<(u64, String, u64)>,
}

fn is_comment(t: &[u8]) -> bool {
    t.first() == Some(&b'#')
}

/// Trims spaces and control bytes (the whitespace splitter's separators too).
fn trim(b: &[u8]) -> (&[u8], usize) {
    let start = b.iter().position(|&c| c > b' ').unwrap_or(b.len());
    let end = b.iter().rposition(|&c| c > b' ').map(|e| e + 1).unwrap_or(start);
    (&b[start..end.max(start)], start)
}

/// The fields of a line with their 1-based columns, at most MAX_FIELDS kept (no
/// allocation per line: parsing runs at hundreds of MB/s).
struct Fields<'a> {
    f: [(usize, &'a str); MAX_FIELDS],
    n: usize,
    /// Fields in the line, including those beyond MAX_FIELDS.
    total: usize,
}

impl<'a> std::ops::Deref for Fields<'a> {
    type Target = [(usize, &'a str)];
    fn deref(&self) -> &Self::Target {
        &self.f[..self.n]
    }
}

impl<'a> Fields<'a> {
    fn push(&mut self, col: usize, s: &'a str) {
        if self.n < MAX_FIELDS {
            self.f[self.n] = (col, s);
            self.n += 1;
        }
        self.total += 1;
    }
}

/// Fields of a line: split by `delim` (each trimmed), or by runs of whitespace when
/// `delim` is None.
fn fields(line: &str, delim: Option<u8>) -> Fields<'_> {
    let b = line.as_bytes();
    let mut out = Fields { f: [(0, ""); MAX_FIELDS], n: 0, total: 0 };
    match delim {
        Some(d) => {
            let mut start = 0;
            loop {
                let end = b[start..].iter().position(|&c| c == d).map(|p| start + p).unwrap_or(b.len());
                let (t, off) = trim(&b[start..end]);
                // Trimming ASCII whitespace keeps char boundaries.
                out.push(start + off + 1, &line[start + off..start + off + t.len()]);
                if end == b.len() {
                    break;
                }
                start = end + 1;
            }
        }
        None => {
            // Space, tab and the other control bytes separate fields (the text was
            // checked not to be binary).
            let mut i = 0;
            while i < b.len() {
                while i < b.len() && b[i] <= b' ' {
                    i += 1;
                }
                let s = i;
                while i < b.len() && b[i] > b' ' {
                    i += 1;
                }
                if i > s {
                    out.push(s + 1, &line[s..i]);
                }
            }
        }
    }
    out
}

/// A decimal number (what timestamps are): a fast check for the usual digits and
/// one dot, the full float grammar otherwise.
fn is_number(s: &str) -> bool {
    let b = s.as_bytes();
    let mut digits = false;
    let mut dot = false;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'0'..=b'9' => digits = true,
            b'.' if !dot => dot = true,
            b'-' | b'+' if i == 0 => {}
            _ => return !s.is_empty() && s.parse::<f64>().is_ok_and(|f| f.is_finite()),
        }
    }
    digits
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
            !a.is_empty()
                && !b.is_empty()
                && a.bytes().all(|c| c.is_ascii_digit())
                && b.bytes().all(|c| c.is_ascii_digit())
        }
        None => false,
    }
}

fn is_rw(s: &str) -> bool {
    s.eq_ignore_ascii_case("r") || s.eq_ignore_ascii_case("w")
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|c| c.is_ascii_digit())
}

/// The delimiter of a CSV-like line: comma, tab, semicolon, else whitespace.
fn csv_delim(line: &str) -> Option<u8> {
    if line.contains(',') {
        Some(b',')
    } else if line.contains('\t') {
        Some(b'\t')
    } else if line.contains(';') {
        Some(b';')
    } else {
        None
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
    if line.contains(',') || line.contains('\t') || line.contains(';') {
        let d = csv_delim(line).unwrap_or(b',');
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
        // device_id,opcode,offset,length,timestamp
        if f.total == 5
            && is_rw(f[1].1)
            && is_digits(f[0].1)
            && is_digits(f[2].1)
            && is_digits(f[3].1)
            && is_number(f[4].1)
        {
            return Some(Format::Alibaba);
        }
        return None;
    }
    // ts pid process lba size op major minor md5
    if ws.total >= 8
        && is_rw(ws[5].1)
        && is_number(ws[0].1)
        && is_digits(ws[1].1)
        && is_digits(ws[3].1)
        && is_digits(ws[4].1)
        && is_digits(ws[6].1)
        && is_digits(ws[7].1)
    {
        return Some(Format::Fiu);
    }
    if ws.len() >= 5 && ws[..5].iter().all(|f| is_number(f.1)) {
        return Some(Format::Disksim);
    }
    None
}

/// Whether `head` (the first bytes of a binary file) reads as oracleGeneral records:
/// non-decreasing timestamps, and each next access -1 or later than the record.
fn looks_like_oracle_general(head: &[u8]) -> bool {
    let n = head.len() / ORACLE_RECORD;
    if n < 2 {
        return false;
    }
    let mut last_t = 0u32;
    let mut sized = 0;
    for (i, r) in head.chunks_exact(ORACLE_RECORD).enumerate() {
        let t = u32::from_le_bytes(r[0..4].try_into().unwrap());
        let size = u32::from_le_bytes(r[12..16].try_into().unwrap());
        let next = i64::from_le_bytes(r[16..24].try_into().unwrap());
        if t < last_t || (next != -1 && next < 1) {
            return false;
        }
        last_t = t;
        sized += (size > 0) as usize;
        let _ = i;
    }
    sized * 2 > n
}

/// A whole number; errors name the column.
fn parse_u64(col: usize, s: &str, what: &str) -> Result<u64, (usize, String)> {
    let b = s.as_bytes();
    if !b.is_empty() && b.len() <= 19 {
        // One pass: at most 19 digits cannot overflow.
        let mut v = 0u64;
        let mut ok = true;
        for &c in b {
            let d = c.wrapping_sub(b'0');
            ok &= d < 10;
            v = v.wrapping_mul(10).wrapping_add(d as u64);
        }
        if ok {
            return Ok(v);
        }
    }
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

/// A column name without its unit suffix, lower case, `_` for spaces and dashes:
/// "Offset (bytes)" -> ("offset", Some(Bytes)).
fn header_base(name: &str) -> (String, Option<Unit>) {
    let lower = name.trim().to_ascii_lowercase();
    let (base, unit) = match lower.find(['(', '[', ':']) {
        Some(k) => {
            let u = lower[k + 1..].trim_end_matches([')', ']']).trim();
            (lower[..k].trim().to_string(), Unit::from_word(u))
        }
        None => (lower.trim().to_string(), None),
    };
    (base.replace([' ', '-'], "_"), unit)
}

/// The role (and default unit) a header name suggests.
fn guess_role(base: &str) -> Option<(&'static str, Option<Unit>)> {
    Some(match base {
        "op" | "opcode" | "type" | "rw" | "operation" | "direction" | "cmd" | "request_type" | "io_type" => {
            ("op", None)
        }
        "offset" | "byte_offset" | "offset_bytes" | "address" | "addr" => ("address", Some(Unit::Bytes)),
        // CloudPhysics (libCacheSim CSV): lbn in 512-byte sectors.
        "lba" | "lbn" | "sector" | "start_sector" | "lba_sectors" => ("address", Some(Unit::Sectors)),
        "lpn" | "page" => ("address", Some(Unit::Pages)),
        "size" | "bytes" | "size_bytes" | "length" | "len" => ("size", Some(Unit::Bytes)),
        "sectors" | "size_sectors" | "nsectors" | "blocks" | "count" => ("size", Some(Unit::Sectors)),
        "pages" | "npages" => ("size", Some(Unit::Pages)),
        "device" | "disk" | "disknumber" | "disk_number" | "asu" | "dev" | "device_id" | "volume" => ("device", None),
        "time" | "timestamp" | "ts" | "arrival_time" => ("time", None),
        _ => return None,
    })
}

/// What the app's upload dialog shows before parsing: the first rows split into
/// columns, whether the first row is a header, and the roles guessed for the columns.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Preview {
    /// The detected format (None: not recognised; map the columns as CSV).
    pub format: Option<Format>,
    pub compression: Option<String>,
    /// "," "\t" ";" or " " (whitespace).
    pub delimiter: String,
    pub header: Option<Vec<String>>,
    pub rows: Vec<Vec<String>>,
    /// Role -> 1-based column, as the header suggests (CSV only).
    pub guessed: Vec<(String, usize)>,
    /// The op values seen in the guessed op column of the preview rows.
    pub op_values: Vec<String>,
    /// A note when the head cannot be previewed (binary, empty).
    pub note: Option<String>,
}

/// The preview of the first bytes of a file (decompressed if needed), at most `rows`
/// rows; `whole`: `head` is the whole file (else a cut-off last line is left out).
pub fn preview(head: &[u8], rows: usize, whole: bool) -> Preview {
    let mut p = Preview::default();
    let text: Vec<u8> = match decompress_head(head) {
        Ok((t, c)) => {
            p.compression = c;
            t
        }
        Err(m) => {
            p.note = Some(m);
            return p;
        }
    };
    if text.iter().take(SNIFF).any(|&c| c == 0) {
        if looks_like_oracle_general(&text[..text.len().min(SNIFF) / ORACLE_RECORD * ORACLE_RECORD]) {
            p.format = Some(Format::OracleGeneral);
        }
        p.note = Some("binary file: no rows to preview".into());
        return p;
    }
    // A partial last line is left out.
    let end = if whole && p.compression.is_none() {
        text.len()
    } else {
        text.iter().rposition(|&c| c == b'\n').unwrap_or(text.len())
    };
    let s = String::from_utf8_lossy(&text[..end]);
    let lines: Vec<&str> =
        s.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).take(rows + 1).collect();
    let Some(first) = lines.first() else {
        p.note = Some("no data lines in the first bytes".into());
        return p;
    };
    p.format = detect_line(first);
    let delim = match p.format {
        Some(Format::Csv) | Some(Format::Msr) | Some(Format::Umass) | Some(Format::Alibaba) => csv_delim(first),
        Some(_) => None,
        None => csv_delim(first),
    };
    p.delimiter = delim.map(|d| (d as char).to_string()).unwrap_or_else(|| " ".into());
    let split = |l: &str| fields(l, delim).iter().map(|x| x.1.to_string()).collect::<Vec<_>>();
    let mut body = &lines[..];
    if p.format == Some(Format::Csv) {
        let h = split(first);
        for (i, name) in h.iter().enumerate() {
            let (base, _) = header_base(name);
            if let Some((role, _)) = guess_role(&base) {
                if !p.guessed.iter().any(|g| g.0 == role) {
                    p.guessed.push((role.to_string(), i + 1));
                }
            }
        }
        p.header = Some(h);
        body = &lines[1..];
    }
    p.rows = body.iter().take(rows).map(|l| split(l)).collect();
    if let Some(&(_, c)) = p.guessed.iter().find(|g| g.0 == "op") {
        for r in &p.rows {
            if let Some(v) = r.get(c - 1) {
                if !p.op_values.contains(v) && p.op_values.len() < 16 {
                    p.op_values.push(v.clone());
                }
            }
        }
    }
    p
}

/// Decompresses the head of a file as far as it goes (for the preview).
fn decompress_head(head: &[u8]) -> Result<(Vec<u8>, Option<String>), String> {
    use std::io::Write;
    if head.starts_with(&[0x1f, 0x8b]) {
        let mut d = flate2::write::MultiGzDecoder::new(Vec::new());
        // A cut-off stream errors only at the end: keep what was decoded.
        let _ = d.write_all(head);
        let _ = d.flush();
        return Ok((std::mem::take(d.get_mut()), Some("gzip".into())));
    }
    if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
        let mut z = ZstdPush::new();
        let mut text = Vec::new();
        z.push(head, false, &mut text).map_err(|e| format!("cannot preview: {e}"))?;
        return Ok((text, Some("zstd".into())));
    }
    Ok((head.to_vec(), None))
}

impl TraceParser {
    pub fn new(opts: TraceOptions) -> TraceParser {
        let mut out = RawTrace { format: opts.format, page_bytes: opts.page_bytes, ..Default::default() };
        out.format_detected = false;
        TraceParser {
            opts,
            out,
            codec: Codec::Unknown(Vec::new()),
            carry: Vec::new(),
            sniffed: false,
            fatal: None,
            csv: None,
            blk_stats: false,
            pattern: Vec::new(),
            pattern_first_line: 0,
            meaningful_lines: 0,
            dev_counts: Vec::new(),
        }
    }

    fn failed(&self) -> bool {
        self.fatal.is_some() || (!self.opts.skip_bad_lines && self.out.bad_lines >= self.opts.max_errors.max(1) as u64)
    }

    pub fn progress(&self) -> Progress {
        Progress {
            bytes: self.out.bytes,
            lines: self.out.lines,
            records: self.out.records,
            requests: self.out.packed.len() as u64,
            bad_lines: self.out.bad_lines,
            format: self.out.format,
            failed: self.failed(),
        }
    }

    /// Feeds the next chunk of the file (compressed or not). Returns progress
    /// (`bytes` counts the text after decompression).
    pub fn feed(&mut self, chunk: &[u8]) -> Progress {
        if self.failed() {
            return self.progress();
        }
        self.decode(chunk, false);
        self.progress()
    }

    /// Decompression layer: sends text to `feed_text`.
    fn decode(&mut self, chunk: &[u8], last: bool) {
        use std::io::Write;
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
        if !matches!(self.codec, Codec::Plain) {
            self.out.compressed_bytes += chunk.len() as u64;
        }
        let text = match &mut self.codec {
            Codec::Unknown(_) => unreachable!(),
            Codec::Plain => return self.feed_text(chunk),
            Codec::Gzip(d) => {
                let r = d.write_all(chunk).and_then(|_| if last { d.try_finish() } else { Ok(()) });
                match r {
                    Ok(()) => std::mem::take(d.get_mut()),
                    Err(e) => {
                        let text = std::mem::take(d.get_mut());
                        self.feed_text(&text);
                        return self.fail(format!("gzip: {e} (after {} compressed bytes)", self.out.compressed_bytes));
                    }
                }
            }
            Codec::Zstd(z) => {
                let mut text = Vec::new();
                let r = z.push(chunk, last, &mut text);
                if let Err(e) = r {
                    self.feed_text(&text);
                    return self.fail(e);
                }
                text
            }
        };
        if !text.is_empty() {
            self.feed_text(&text);
        }
    }

    fn feed_text(&mut self, chunk: &[u8]) {
        if self.failed() {
            return;
        }
        self.out.bytes += chunk.len() as u64;
        self.carry.extend_from_slice(chunk);
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
        if self.fatal.is_none() {
            self.decode(&[], true);
        }
        if !self.sniffed && self.fatal.is_none() {
            self.sniff();
        }
        if self.fatal.is_none() {
            self.drain(true);
        }
        if self.fatal.is_none() && self.out.format == Some(Format::Pattern) {
            self.finish_pattern();
        }
        self.flush_device();
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
                if self.out.format == Some(Format::OracleGeneral) { "record" } else { "line" },
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
        if self.opts.format == Some(Format::OracleGeneral) {
            return;
        }
        let head = &self.carry[..self.carry.len().min(SNIFF)];
        if let Some(i) = head.iter().position(|&c| c == 0) {
            if self.opts.format.is_none()
                && looks_like_oracle_general(&head[..head.len() / ORACLE_RECORD * ORACLE_RECORD])
            {
                self.out.format = Some(Format::OracleGeneral);
                self.out.format_detected = true;
                return;
            }
            self.fail(format!(
                "this looks like a binary file (a zero byte at offset {i}), not a text trace (libCacheSim's oracleGeneral binary is read when chosen as format oracle_general)"
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
                    FORMATS.iter().map(|f| f.2).collect::<Vec<_>>().join("; ")
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
        if self.out.format == Some(Format::Pattern) {
            if self.pattern.len() + self.carry.len() > MAX_PATTERN {
                self.fail(format!("pattern text longer than {} MB", MAX_PATTERN >> 20));
                return;
            }
            self.pattern.append(&mut self.carry);
            return;
        }
        if self.out.format == Some(Format::OracleGeneral) {
            return self.drain_oracle(last);
        }
        let buf = std::mem::take(&mut self.carry);
        let mut start = 0;
        // The whole lines of the chunk, UTF-8-checked at once (fast for ASCII); a
        // chunk with a bad byte is read line by line so the error names its line.
        let whole = if last { buf.len() } else { memchr::memrchr(b'\n', &buf).map(|p| p + 1).unwrap_or(0) };
        let checked = std::str::from_utf8(&buf[..whole]).ok();
        for nl in memchr::memchr_iter(b'\n', &buf[..whole]) {
            match checked {
                Some(text) => self.line_str(&text[start..nl]),
                None => self.line(&buf[start..nl]),
            }
            start = nl + 1;
            if self.failed() {
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

    /// libCacheSim oracleGeneral: little-endian `u32 time, u64 obj_id, u32 obj_size,
    /// i64 next_access_vtime` (libCacheSim traceReader/customizedReader/oracle/
    /// oracleGeneralBin.h). The format has no operation: every record is a write of
    /// `obj_size` bytes at page `obj_id` (ids are pages; an object larger than a page
    /// spans the following pages). Records of size 0 are skipped, as libCacheSim does.
    fn drain_oracle(&mut self, last: bool) {
        let buf = std::mem::take(&mut self.carry);
        let whole = buf.len() / ORACLE_RECORD * ORACLE_RECORD;
        for r in buf[..whole].chunks_exact(ORACLE_RECORD) {
            self.out.lines += 1;
            let obj = u64::from_le_bytes(r[4..12].try_into().unwrap());
            let size = u32::from_le_bytes(r[12..16].try_into().unwrap()) as u64;
            if size == 0 {
                self.out.ignored.zero_size += 1;
                continue;
            }
            if obj > VALUE_MASK {
                self.bad(5, format!("object id {obj} is beyond 2^61 pages (hashed ids cannot be pages)"));
                if self.failed() {
                    return;
                }
                continue;
            }
            let pages = size.div_ceil(self.opts.page_bytes.max(1) as u64);
            self.record_pages(true, obj, obj.saturating_add(pages - 1), None);
        }
        let rest = &buf[whole..];
        if last && !rest.is_empty() {
            self.out.lines += 1;
            self.fail(format!(
                "the file ends with a partial record: {} bytes after {} whole 24-byte records",
                rest.len(),
                whole / ORACLE_RECORD
            ));
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
            Format::Alibaba => self.alibaba(text),
            Format::Fiu => self.fiu(text),
            Format::Pattern | Format::OracleGeneral => Ok(None),
        };
        match r {
            Err((col, m)) => self.bad(col, m),
            Ok(None) => {}
            Ok(Some(rec)) => self.record(rec.write, rec.offset, rec.bytes, rec.device),
        }
    }

    fn flush_device(&mut self) {
        for (_, d, n) in std::mem::take(&mut self.dev_counts) {
            *self.out.devices.entry(d).or_default() += n;
        }
    }

    fn record(&mut self, write: bool, offset: u64, bytes: u64, device: Option<&str>) {
        if let Some(d) = device {
            // Names of up to 7 bytes compare as one u64 (device numbers are short).
            let key = if d.len() < 8 { d.bytes().fold(d.len() as u64, |k, c| k << 8 | c as u64) } else { u64::MAX };
            if let Some(c) = self.dev_counts.iter_mut().find(|c| c.0 == key && (key != u64::MAX || c.1 == d)) {
                c.2 += 1;
            } else if self.dev_counts.len() < 64 {
                self.dev_counts.push((key, d.to_string(), 1));
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
        self.record_pages(write, first, last, None);
    }

    /// Pages `first..=last`, after the device filter and zero sizes.
    fn record_pages(&mut self, write: bool, first: u64, last: u64, _device: Option<&str>) {
        if last > VALUE_MASK {
            self.bad(1, format!("page {last} is beyond 2^61 pages"));
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
        v.checked_mul(self.opts.sector_bytes.max(1) as u64).ok_or_else(|| (col, format!("{what} '{s}' is too large")))
    }

    fn need(f: &Fields, n: usize, line_len: usize, what: &str) -> Result<(), (usize, String)> {
        if f.total < n {
            let col = f.last().map(|x| x.0 + x.1.len()).unwrap_or(1).min(line_len + 1);
            return Err((col, format!("expected {n} fields ({what}), found {}", f.total)));
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
        let write = if f[3].1.eq_ignore_ascii_case("write") {
            true
        } else if f[3].1.eq_ignore_ascii_case("read") {
            false
        } else {
            return Err((f[3].0, format!("expected the type Read or Write, found '{}'", clip(f[3].1))));
        };
        let offset = parse_u64(f[4].0, f[4].1, "the offset in bytes")?;
        let bytes = parse_u64(f[5].0, f[5].1, "the size in bytes")?;
        parse_num(f[6].0, f[6].1, "the response time")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(f[2].1) }))
    }

    /// Alibaba block traces (as SNIA IOTTA ships them):
    /// `device_id,opcode,offset,length,timestamp`, opcode R/W, offset and length in bytes.
    fn alibaba<'a>(&self, line: &'a str) -> LineResult<'a> {
        let f = fields(line, Some(b','));
        Self::need(&f, 5, line.len(), "device_id,opcode,offset,length,timestamp")?;
        parse_u64(f[0].0, f[0].1, "the device id")?;
        let write = match f[1].1 {
            "W" | "w" => true,
            "R" | "r" => false,
            o => return Err((f[1].0, format!("expected the opcode R or W, found '{}'", clip(o)))),
        };
        let offset = parse_u64(f[2].0, f[2].1, "the offset in bytes")?;
        let bytes = parse_u64(f[3].0, f[3].1, "the length in bytes")?;
        parse_num(f[4].0, f[4].1, "the timestamp")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(f[0].1) }))
    }

    /// FIU (SNIA IOTTA "FIU IODedup"): `ts pid process lba size op major minor md5`,
    /// lba and size in 512-byte sectors, op R/W; the device is `major,minor`.
    fn fiu<'a>(&self, line: &'a str) -> LineResult<'a> {
        let f = fields(line, None);
        Self::need(&f, 8, line.len(), "ts pid process lba size op major minor [md5]")?;
        parse_num(f[0].0, f[0].1, "the timestamp")?;
        parse_u64(f[1].0, f[1].1, "the process id")?;
        let offset = self.sectors(f[3].0, f[3].1, "the LBA in sectors")?;
        let bytes = self.sectors(f[4].0, f[4].1, "the size in sectors")?;
        let write = match f[5].1 {
            "W" | "w" => true,
            "R" | "r" => false,
            o => return Err((f[5].0, format!("expected the op R or W, found '{}'", clip(o)))),
        };
        parse_u64(f[6].0, f[6].1, "the major device number")?;
        parse_u64(f[7].0, f[7].1, "the minor device number")?;
        // "major minor" as one device name without an allocation: the slice between them.
        let dev = &line[f[6].0 - 1..f[7].0 - 1 + f[7].1.len()];
        Ok(Some(Rec { write, offset, bytes, device: Some(dev) }))
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

    /// Reads the first line of a CSV file: the header (roles guessed from its names),
    /// the user's mapping (by name or 1-based column number), or both. Ok(true): the
    /// line was a header; Ok(false): it is data (a file without a header). Err: one
    /// message naming the columns found and how to map them (parsing stops).
    fn csv_setup(&mut self, line: &str) -> Result<bool, String> {
        let delim = csv_delim(line);
        let f = fields(line, delim);
        let m = self.opts.mapping.clone();
        let numeric = |r: &ColumnRef| is_digits(r.column.trim());
        let any_named = m.refs().iter().any(|(_, r)| r.is_some_and(|r| !numeric(r)));
        let user_op = |v: &str| m.write_ops.iter().chain(&m.read_ops).any(|o| o.trim().eq_ignore_ascii_case(v));
        let is_header = if any_named {
            true
        } else if let Some(a) = m.address.as_ref() {
            let i = a.column.trim().parse::<usize>().unwrap_or(0);
            f.get(i.wrapping_sub(1)).is_none_or(|x| !is_number(x.1))
        } else {
            !f.iter().all(|x| {
                is_number(x.1)
                    || user_op(x.1)
                    || WRITE_WORDS.contains(&x.1.to_ascii_lowercase().as_str())
                    || READ_WORDS.contains(&x.1.to_ascii_lowercase().as_str())
            })
        };
        let found = f.iter().enumerate().map(|(i, x)| format!("{} {}", i + 1, x.1)).collect::<Vec<_>>().join(", ");
        let how = "map them: --column op=NAME --column address=NAME[:bytes|sectors|pages] (also size=, device=, time=; NAME a header name or a column number from 1) and --write-op/--read-op VALUE for unusual op values; in the app, map them in the upload dialog";
        let bases: Vec<(String, Option<Unit>)> = f.iter().map(|x| header_base(x.1)).collect();
        let resolve = |role: &str, r: &ColumnRef| -> Result<usize, String> {
            let name = r.column.trim();
            if numeric(r) {
                let i: usize = name.parse().map_err(|_| format!("{role} column '{name}' is not a column number"))?;
                if i == 0 || i > MAX_FIELDS {
                    return Err(format!("{role} column {i}: columns are numbered 1 to {MAX_FIELDS}"));
                }
                if i > f.total {
                    return Err(format!(
                        "{role} column {i}, but line {} has {} columns: {found}",
                        self.out.lines, f.total
                    ));
                }
                return Ok(i - 1);
            }
            let want = header_base(name).0;
            f.iter()
                .position(|x| x.1.eq_ignore_ascii_case(name))
                .or_else(|| bases.iter().position(|b| b.0 == want))
                .ok_or_else(|| format!("no column named '{name}' for the {role}: the header has columns {found}"))
        };
        // role -> (index, unit)
        let mut role_col: BTreeMap<&'static str, (usize, Option<Unit>)> = BTreeMap::new();
        if is_header {
            for (i, (base, unit)) in bases.iter().enumerate() {
                if let Some((role, def)) = guess_role(base) {
                    // A unit in the name wins; else the CSV unit option; else the name's default.
                    let u = match (unit, role) {
                        (Some(u), _) => Some(*u),
                        (None, "address") => self.opts.csv_address_unit.or(def),
                        (None, "size") => self.opts.csv_size_unit.or(def),
                        _ => def,
                    };
                    role_col.entry(role).or_insert((i, u));
                }
            }
        }
        for (role, r) in m.refs() {
            let Some(r) = r else { continue };
            let i = resolve(role, r)?;
            let u = r.unit.or_else(|| {
                if is_header {
                    let (base, unit) = &bases[i];
                    unit.or_else(|| guess_role(base).filter(|g| g.0 == role).and_then(|g| g.1))
                } else {
                    None
                }
            });
            let u = u.or(match role {
                "address" => self.opts.csv_address_unit,
                "size" => self.opts.csv_size_unit,
                _ => None,
            });
            role_col.insert(role, (i, u));
        }
        let missing: Vec<&str> = ["op", "address"].into_iter().filter(|r| !role_col.contains_key(r)).collect();
        if !missing.is_empty() {
            let what = missing
                .iter()
                .map(|r| if *r == "op" { "the operation (read/write)" } else { "the address" })
                .collect::<Vec<_>>()
                .join(" and ");
            return Err(if is_header {
                format!("CSV header not understood: no column for {what}. Columns found: {found}. To read it, {how}.")
            } else {
                format!(
                    "the first line is data, not a header ({found}), so nothing names the columns: {how}, e.g. --column op=3 --column address=5:sectors --column size=4:bytes."
                )
            });
        }
        let (op, _) = role_col["op"];
        let (addr, au) = role_col["address"];
        let size = role_col.get("size").map(|&(i, u)| (i, u.unwrap_or(Unit::Bytes)));
        let device = role_col.get("device").map(|x| x.0);
        let time = role_col.get("time").map(|x| x.0);
        let need = role_col.values().map(|x| x.0 + 1).max().unwrap_or(1);
        self.out.csv_columns = role_col
            .iter()
            .map(|(role, (i, u))| {
                let name = if is_header { f[*i].1.to_string() } else { format!("column {}", i + 1) };
                let unit = match (*role, u) {
                    // A unit already in the header name is not repeated.
                    ("address" | "size", _) if is_header && header_base(&name).1.is_some() => String::new(),
                    ("address" | "size", Some(u)) => format!(" ({})", format!("{u:?}").to_ascii_lowercase()),
                    ("address" | "size", None) => " (bytes)".into(),
                    _ => String::new(),
                };
                (role.to_string(), format!("{name}{unit}"))
            })
            .collect();
        let lower = |v: &Vec<String>| v.iter().map(|s| s.trim().to_ascii_lowercase()).collect::<Vec<_>>();
        self.csv = Some(CsvCols {
            delim,
            op,
            addr,
            addr_unit: au.unwrap_or(Unit::Bytes),
            size,
            device,
            time,
            need,
            write_ops: lower(&m.write_ops),
            read_ops: lower(&m.read_ops),
        });
        Ok(is_header)
    }

    fn unit_bytes(&self, u: Unit) -> u64 {
        match u {
            Unit::Bytes => 1,
            Unit::Sectors => self.opts.sector_bytes.max(1) as u64,
            Unit::Pages => self.opts.page_bytes.max(1) as u64,
        }
    }

    fn csv_line<'a>(&mut self, line: &'a str) -> LineResult<'a> {
        if self.csv.is_none() {
            match self.csv_setup(line) {
                Err(m) => {
                    self.fail(m);
                    return Ok(None);
                }
                Ok(true) => return Ok(None),
                Ok(false) => {}
            }
        }
        let c = self.csv.as_ref().expect("set up above");
        let f = fields(line, c.delim);
        Self::need(&f, c.need, line.len(), "as many as the mapped columns")?;
        let (col, v) = f[c.op];
        let write = if c.write_ops.iter().any(|o| v.eq_ignore_ascii_case(o)) {
            true
        } else if c.read_ops.iter().any(|o| v.eq_ignore_ascii_case(o)) {
            false
        } else if WRITE_WORDS.iter().any(|o| v.eq_ignore_ascii_case(o)) {
            true
        } else if READ_WORDS.iter().any(|o| v.eq_ignore_ascii_case(o)) {
            false
        } else {
            return Err((
                col,
                format!(
                    "expected the op R/Read, W/Write or a SCSI opcode (28/2a, 08/0a, 88/8a), found '{}': map other values with --write-op / --read-op",
                    clip(v)
                ),
            ));
        };
        let a = parse_u64(f[c.addr].0, f[c.addr].1, "the address")?;
        let offset = a
            .checked_mul(self.unit_bytes(c.addr_unit))
            .ok_or_else(|| (f[c.addr].0, "address too large".to_string()))?;
        let bytes = match c.size {
            Some((i, u)) => parse_u64(f[i].0, f[i].1, "the size")?
                .checked_mul(self.unit_bytes(u))
                .ok_or_else(|| (f[i].0, "size too large".to_string()))?,
            None => self.opts.page_bytes.max(1) as u64,
        };
        if let Some(i) = c.time {
            parse_num(f[i].0, f[i].1, "the time")?;
        }
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
