//! Alibaba block traces as SNIA IOTTA ships them.

use super::helpers::{clip, fields, is_digits, is_number, is_rw, need, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Alibaba,
    name: "alibaba",
    aliases: &["snia", "alibaba_block"],
    description: "Alibaba/SNIA block trace: device_id,opcode,offset,length,timestamp (bytes, opcode R/W)",
    detect_rank: Some(60),
    imp: &AlibabaFormat,
};

struct AlibabaFormat;

impl TraceFormat for AlibabaFormat {
    /// Alibaba block traces: microseconds.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::Us)
    }
    fn detect(&self, v: &LineView) -> bool {
        let Some(f) = &v.delimited else { return false };
        // device_id,opcode,offset,length,timestamp
        is_number(f[0].1)
            && f.total == 5
            && is_rw(f[1].1)
            && is_digits(f[0].1)
            && is_digits(f[2].1)
            && is_digits(f[3].1)
            && is_number(f[4].1)
    }
    fn delimited(&self) -> bool {
        true
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Alibaba))
    }
}

#[derive(Default)]
struct Alibaba;

impl LineReader for Alibaba {
    /// `device_id,opcode,offset,length,timestamp`, opcode R/W, offset and length in bytes.
    fn read<'a>(&mut self, line: &'a str, _cx: &mut Cx<'_>) -> LineResult<'a> {
        let f = fields(line, Some(b','));
        need(&f, 5, line.len(), "device_id,opcode,offset,length,timestamp")?;
        parse_u64(f[0].0, f[0].1, "the device id")?;
        let write = match f[1].1 {
            "W" | "w" => true,
            "R" | "r" => false,
            o => return Err((f[1].0, format!("expected the opcode R or W, found '{}'", clip(o)))),
        };
        let offset = parse_u64(f[2].0, f[2].1, "the offset in bytes")?;
        let bytes = parse_u64(f[3].0, f[3].1, "the length in bytes")?;
        let time = parse_time(f[4].0, f[4].1, "the timestamp")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(f[0].1), time: Some(time) }))
    }
}
