//! The UMass / SPC trace format (the Storage Performance Council's ASCII traces).

use super::helpers::{clip, fields, is_number, need, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Umass,
    name: "umass",
    aliases: &["spc"],
    description: "UMass/SPC: ASU,LBA,Size,Opcode,Timestamp (LBA in 512-byte sectors, size in bytes, opcode r/w)",
    detect_rank: Some(50),
    imp: &UmassFormat,
};

struct UmassFormat;

impl TraceFormat for UmassFormat {
    /// SPC: seconds.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::S)
    }
    fn detect(&self, v: &LineView) -> bool {
        let Some(f) = &v.delimited else { return false };
        is_number(f[0].1) && f.len() >= 5 && matches!(f[3].1.to_ascii_lowercase().as_str(), "r" | "w")
    }
    fn delimited(&self) -> bool {
        true
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Umass))
    }
}

#[derive(Default)]
struct Umass;

impl LineReader for Umass {
    /// `ASU,LBA,Size,Opcode,Timestamp[,...]`
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        let f = fields(line, Some(b','));
        need(&f, 5, line.len(), "ASU,LBA,Size,Opcode,Timestamp")?;
        parse_u64(f[0].0, f[0].1, "the ASU (device number)")?;
        let offset = cx.sectors(f[1].0, f[1].1, "the LBA in sectors")?;
        let bytes = parse_u64(f[2].0, f[2].1, "the size in bytes")?;
        let write = match f[3].1 {
            "w" | "W" => true,
            "r" | "R" => false,
            o => return Err((f[3].0, format!("expected the opcode r or w, found '{}'", clip(o)))),
        };
        let time = parse_time(f[4].0, f[4].1, "the timestamp")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(f[0].1), time: Some(time) }))
    }
}
