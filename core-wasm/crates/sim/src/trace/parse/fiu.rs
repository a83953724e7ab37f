//! The FIU traces (SNIA IOTTA "FIU IODedup").

use super::helpers::{clip, fields, is_digits, is_number, is_rw, need, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Fiu,
    name: "fiu",
    aliases: &[],
    description: "FIU: ts pid process lba size op major minor md5 (LBA and size in 512-byte sectors, op R/W)",
    detect_rank: Some(70),
    imp: &FiuFormat,
};

struct FiuFormat;

impl TraceFormat for FiuFormat {
    /// FIU: nanoseconds.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::Ns)
    }
    fn detect(&self, v: &LineView) -> bool {
        let ws = &v.ws;
        // ts pid process lba size op major minor md5
        v.delimited.is_none()
            && ws.total >= 8
            && is_rw(ws[5].1)
            && is_number(ws[0].1)
            && is_digits(ws[1].1)
            && is_digits(ws[3].1)
            && is_digits(ws[4].1)
            && is_digits(ws[6].1)
            && is_digits(ws[7].1)
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Fiu))
    }
}

#[derive(Default)]
struct Fiu;

impl LineReader for Fiu {
    /// lba and size in 512-byte sectors, op R/W; the device is `major,minor`.
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        let f = fields(line, None);
        need(&f, 8, line.len(), "ts pid process lba size op major minor [md5]")?;
        let time = parse_time(f[0].0, f[0].1, "the timestamp")?;
        parse_u64(f[1].0, f[1].1, "the process id")?;
        let offset = cx.sectors(f[3].0, f[3].1, "the LBA in sectors")?;
        let bytes = cx.sectors(f[4].0, f[4].1, "the size in sectors")?;
        let write = match f[5].1 {
            "W" | "w" => true,
            "R" | "r" => false,
            o => return Err((f[5].0, format!("expected the op R or W, found '{}'", clip(o)))),
        };
        parse_u64(f[6].0, f[6].1, "the major device number")?;
        parse_u64(f[7].0, f[7].1, "the minor device number")?;
        // "major minor" as one device name without an allocation: the slice between them.
        let dev = &line[f[6].0 - 1..f[7].0 - 1 + f[7].1.len()];
        Ok(Some(Rec { write, offset, bytes, device: Some(dev), time: Some(time) }))
    }
}
