//! Block I/O trace parsers: UMass/SPC, MSR Cambridge, blkparse text, DiskSim/MQSim
//! ASCII, Alibaba/SNIA block CSV, FIU, libCacheSim's oracleGeneral binary, CSV with a
//! header or a column mapping, and the inline pattern language — streamed in chunks of
//! bytes (gzip and zstd decompressed on the way) so a browser worker can parse a 1 GB
//! file with progress and cancel (docs/traces.md).
//!
//! A record (one line of the trace) is one request per chip page it touches; its pages
//! are kept as one run (`trace::runs`: 8 bytes for a page, 16 for more) until
//! `RawTrace::fit` maps them into a scheme's logical space.
//!
//! One file per format, each declaring its `Entry` (name, aliases, description,
//! detection) and implementing `TraceFormat`; `REGISTRY` lists them. The streaming
//! engine (`parser.rs`: decompression, lines, devices, page splitting, limits) knows no
//! format. Adding a format: docs/architecture.md, "How to add a trace format".

use serde::{Deserialize, Serialize};
use ts_rs::TS;

mod addresses;
mod alibaba;
mod blkparse;
mod codec;
mod csv;
mod disksim;
mod fiu;
mod helpers;
mod msr;
mod options;
mod oracle_general;
mod parser;
mod pattern;
mod preview;
mod raw;
mod umass;
mod vscsi;

pub use options::{ColumnRef, Mapping, TimeUnit, TraceOptions, Unit, ROLES};
pub use parser::{parse_bytes, Batch, TraceParser};
pub use preview::{preview, Preview};
pub(crate) use raw::{Footprint, K_FREEZE, K_READ, K_REVERT, K_UNFREEZE, K_WRITE};
pub use raw::{Ignored, Progress, RawTrace, TraceError};

use helpers::{csv_delim, fields, Fields, LineResult, RecordResult};
use parser::Cx;

/// The trace formats. `name()` is the identifier scenarios and the CLI use (the serde
/// name; `registry_is_consistent` in the tests checks the two agree).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export, rename = "TraceFormat")]
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
    Vscsi,
    Vscsi2,
    Addresses,
}

/// Every format, in the order `ftl list`, `--help` and the app's catalog show them.
/// A new format: its file (with its `ENTRY`), its `mod` line, its `Format` variant and
/// one line here.
pub(crate) const REGISTRY: &[Entry] = &[
    umass::ENTRY,
    msr::ENTRY,
    blkparse::ENTRY,
    disksim::ENTRY,
    csv::ENTRY,
    pattern::ENTRY,
    alibaba::ENTRY,
    fiu::ENTRY,
    oracle_general::ENTRY,
    vscsi::ENTRY_V2,
    vscsi::ENTRY,
    addresses::ENTRY,
];

/// Every format with its name and one-line description (for the UI and `--help`),
/// made from `REGISTRY`.
pub const FORMATS: &[(Format, &str, &str)] = &{
    let mut out = [(Format::Umass, "", ""); REGISTRY.len()];
    let mut i = 0;
    while i < REGISTRY.len() {
        out[i] = (REGISTRY[i].format, REGISTRY[i].name, REGISTRY[i].description);
        i += 1;
    }
    out
};

/// One format's registry entry: what the UI, the CLI and detection need to know.
pub(crate) struct Entry {
    pub format: Format,
    /// The identifier (`Format`'s serde name).
    pub name: &'static str,
    /// Other names `Format::from_name` accepts.
    pub aliases: &'static [&'static str],
    /// One line for the UI and `--help`.
    pub description: &'static str,
    /// Auto-detection from the first meaningful line: formats are tried by rank, the
    /// lowest first (None: never detected from a line).
    pub detect_rank: Option<u8>,
    pub imp: &'static dyn TraceFormat,
}

/// How the engine feeds a format its input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Body {
    /// Text lines, one record each (comments and blank lines handled by the engine).
    Lines,
    /// The whole text at once (the pattern language: one expression).
    WholeText,
    /// Binary records of this many bytes.
    Records(usize),
}

/// The first meaningful line of a file, split both ways, for detection.
pub(crate) struct LineView<'a> {
    /// Split at runs of whitespace.
    pub ws: Fields<'a>,
    /// Split at the line's delimiter (`,` `\t` `;`), when it has one.
    pub delimited: Option<Fields<'a>>,
}

/// What a format does. Line formats return a reader (which may keep state, such as
/// CSV's columns, for one parse); `Body::WholeText` and `Body::Records` formats
/// implement `parse_text` or `read_record` instead.
pub(crate) trait TraceFormat: Sync {
    /// Whether `line` (the first meaningful line) reads as this format.
    fn detect(&self, _line: &LineView) -> bool {
        false
    }
    /// Whether the first bytes of a binary file read as this format.
    fn sniff_binary(&self, _head: &[u8]) -> bool {
        false
    }
    fn body(&self) -> Body {
        Body::Lines
    }
    /// Unit of the records' timestamps (`Rec::time`); None: the format has none.
    fn time_unit(&self) -> Option<TimeUnit> {
        None
    }
    /// Fields are separated by a delimiter (`,` `\t` `;`), not whitespace (for the preview).
    fn delimited(&self) -> bool {
        false
    }
    /// A reader for one parse (`Body::Lines`).
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        None
    }
    /// `Body::WholeText`: the requests of the whole text, packed (`raw::pack`), at most `limit`.
    fn parse_text(&self, _text: &str, _limit: u64) -> Result<Vec<u64>, crate::trace::ParseError> {
        Ok(Vec::new())
    }
    /// `Body::Records`: one record -> `(write, first page, last page)`, None to skip it.
    fn read_record(&self, _r: &[u8], _cx: &mut Cx<'_>) -> RecordResult {
        Ok(None)
    }
}

/// Reads the lines of one parse (state such as CSV's columns lives here).
pub(crate) trait LineReader {
    /// One meaningful line -> a record, None (counted as ignored by the reader), or an
    /// error `(column, message)`.
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a>;
    /// blkparse: the actions of the lines it skipped (for the message when none is left).
    fn other_actions(&self) -> Vec<String> {
        Vec::new()
    }
}

/// The registry entry of a format.
pub(crate) fn registry(f: Format) -> &'static Entry {
    REGISTRY.iter().find(|e| e.format == f).expect("every format is in REGISTRY")
}

impl Format {
    pub fn name(self) -> &'static str {
        registry(self).name
    }
    /// By name or alias (`spc`, `mqsim`, `ascii`, `blktrace`, ...), case-insensitive.
    pub fn from_name(s: &str) -> Result<Format, String> {
        let s = s.trim().to_ascii_lowercase();
        REGISTRY.iter().find(|e| e.name == s || e.aliases.contains(&s.as_str())).map(|e| e.format).ok_or_else(|| {
            format!(
                "unknown trace format '{s}': expected one of {}",
                REGISTRY.iter().map(|e| e.name).collect::<Vec<_>>().join(", ")
            )
        })
    }
}

/// Bytes looked at before deciding the format / whether the file is binary.
pub(crate) const SNIFF: usize = 8192;

/// Guesses the format from one meaningful line: the formats by `detect_rank`, the
/// first that recognises the line.
pub fn detect_line(line: &str) -> Option<Format> {
    let ws = fields(line, None);
    ws.first()?;
    let delimited = (line.contains(',') || line.contains('\t') || line.contains(';'))
        .then(|| fields(line, Some(csv_delim(line).unwrap_or(b','))));
    let view = LineView { ws, delimited };
    let mut ranked: Vec<&Entry> = REGISTRY.iter().filter(|e| e.detect_rank.is_some()).collect();
    ranked.sort_by_key(|e| e.detect_rank);
    ranked.into_iter().find(|e| e.imp.detect(&view)).map(|e| e.format)
}

/// The binary format the first bytes of a file read as, if any.
pub(crate) fn sniff_binary(head: &[u8]) -> Option<Format> {
    REGISTRY.iter().find(|e| e.imp.sniff_binary(head)).map(|e| e.format)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_is_consistent() {
        for e in REGISTRY {
            let serde_name = serde_json::to_value(e.format).unwrap();
            assert_eq!(serde_name, e.name, "the entry's name is the Format's serde name");
            assert_eq!(Format::from_name(e.name), Ok(e.format));
            for a in e.aliases {
                assert_eq!(Format::from_name(a), Ok(e.format));
            }
        }
        assert_eq!(REGISTRY.iter().map(|e| e.format).collect::<std::collections::HashSet<_>>().len(), REGISTRY.len());
    }
}
