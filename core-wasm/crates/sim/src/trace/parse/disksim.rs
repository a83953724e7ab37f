//! The DiskSim / MQSim ASCII trace format.

use super::helpers::{clip, fields_n, is_number, need, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Disksim,
    name: "disksim",
    aliases: &["mqsim", "ascii"],
    description: "DiskSim/MQSim ASCII: arrival_time device lba size_in_sectors type (0 write, 1 read)",
    detect_rank: Some(80),
    imp: &DisksimFormat,
};

struct DisksimFormat;

impl TraceFormat for DisksimFormat {
    /// DiskSim: milliseconds (MQSim's traces use nanoseconds: time_unit ns).
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::Ms)
    }
    fn detect(&self, v: &LineView) -> bool {
        v.delimited.is_none() && v.ws.len() >= 5 && v.ws[..5].iter().all(|f| is_number(f.1))
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Disksim))
    }
}

#[derive(Default)]
struct Disksim;

impl LineReader for Disksim {
    /// `arrival_time device lba size_in_sectors type` (type 0 write, 1 read).
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        // Five columns, and a sixth to refuse.
        let f = fields_n::<6>(line, None);
        need(&f, 5, line.len(), "arrival_time device lba size_in_sectors type")?;
        let time = parse_time(f[0].0, f[0].1, "the arrival time")?;
        parse_u64(f[1].0, f[1].1, "the device number")?;
        let offset = cx.sectors(f[2].0, f[2].1, "the LBA in sectors")?;
        let bytes = cx.sectors(f[3].0, f[3].1, "the size in sectors")?;
        let write = match f[4].1 {
            "0" => true,
            "1" => false,
            o => return Err((f[4].0, format!("expected the type 0 (write) or 1 (read), found '{}'", clip(o)))),
        };
        if let Some(x) = f.get(5) {
            return Err((x.0, format!("expected the end of the line after 5 fields, found '{}'", clip(x.1))));
        }
        Ok(Some(Rec { write, offset, bytes, device: Some(f[1].1), time: Some(time) }))
    }
}
