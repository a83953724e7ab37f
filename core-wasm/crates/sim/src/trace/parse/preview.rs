//! What the app's upload dialog shows before parsing a file.

use serde::Serialize;
use ts_rs::TS;

use super::codec::decompress_head;
use super::csv::{guess_role, header_base};
use super::helpers::{csv_delim, fields};
use super::{detect_line, registry, sniff_binary, Format, SNIFF};

/// At most this much decompressed text is looked at for a preview.
const PREVIEW_TEXT: usize = 1 << 20;

/// What the app's upload dialog shows before parsing: the first rows split into
/// columns, whether the first row is a header, and the roles guessed for the columns.
#[derive(Clone, Debug, Default, PartialEq, Serialize, TS)]
#[ts(export, rename = "TracePreview")]
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
    let text: Vec<u8> = match decompress_head(head, PREVIEW_TEXT) {
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
        p.format = sniff_binary(&text[..text.len().min(SNIFF)]);
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
        Some(f) if !registry(f).imp.delimited() => None,
        _ => csv_delim(first),
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
