//! The MSR Cambridge trace format (SNIA IOTTA).

use super::helpers::{clip, fields_n, is_number, need, parse_num, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Msr,
    name: "msr",
    aliases: &[],
    description: "MSR Cambridge: Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime (bytes, Read/Write)",
    detect_rank: Some(40),
    imp: &MsrFormat,
};

struct MsrFormat;

impl TraceFormat for MsrFormat {
    /// MSR Cambridge: Windows FILETIME, 100 ns ticks.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::Filetime)
    }
    fn detect(&self, v: &LineView) -> bool {
        let Some(f) = &v.delimited else { return false };
        is_number(f[0].1) && f.len() >= 7 && matches!(f[3].1.to_ascii_lowercase().as_str(), "read" | "write")
    }
    fn delimited(&self) -> bool {
        true
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Msr))
    }
}

#[derive(Default)]
struct Msr;

impl LineReader for Msr {
    /// `Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime`
    fn read<'a>(&mut self, line: &'a str, _cx: &mut Cx<'_>) -> LineResult<'a> {
        // Eight fields are kept (seven are read; `total` counts any more): fewer to set up a
        // line than the 32 of `fields` (issue 37).
        let f = fields_n::<8>(line, Some(b','));
        need(&f, 7, line.len(), "Timestamp,Hostname,DiskNumber,Type,Offset,Size,ResponseTime")?;
        let time = parse_time(f[0].0, f[0].1, "the timestamp")?;
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
        Ok(Some(Rec { write, offset, bytes, device: Some(f[2].1), time: Some(time) }))
    }
}
