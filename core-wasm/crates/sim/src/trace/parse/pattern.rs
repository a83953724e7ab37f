//! The inline pattern language (`w0 w4 r3 (w1 w2)x3`, trace/pattern.rs) as a trace
//! format: the whole text is one expression.

use super::raw::{pack, K_FREEZE, K_READ, K_REVERT, K_UNFREEZE, K_WRITE};
use super::{Body, Entry, Format, LineView, TraceFormat};
use crate::trace::{pattern, ParseError, Request};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Pattern,
    name: "pattern",
    aliases: &["inline"],
    description: "the inline pattern language: w0 w4 r3 (w1 w2)x3, page numbers",
    detect_rank: Some(10),
    imp: &PatternFormat,
};

struct PatternFormat;

impl TraceFormat for PatternFormat {
    fn detect(&self, v: &LineView) -> bool {
        is_pattern_start(v.ws[0].1.split(',').next().unwrap_or(""))
    }
    fn body(&self) -> Body {
        Body::WholeText
    }
    fn parse_text(&self, text: &str, limit: u64) -> Result<Vec<u64>, ParseError> {
        pattern::parse_with(text, limit, |r| match r {
            Request::Read { lpn } => pack(K_READ, lpn as u64),
            Request::Write { lpn } => pack(K_WRITE, lpn as u64),
            Request::Freeze => pack(K_FREEZE, 0),
            Request::Unfreeze { state } => pack(K_UNFREEZE, state as u64),
            Request::Revert { state } => pack(K_REVERT, state as u64),
        })
    }
}

fn is_pattern_start(tok: &str) -> bool {
    let t = tok.to_ascii_lowercase();
    if t.starts_with('(') || t == "freeze" || t == "unfreeze" || t == "revert" {
        return true;
    }
    let b = t.as_bytes();
    b.len() >= 2 && matches!(b[0], b'w' | b'r' | b's') && b[1].is_ascii_digit()
}
