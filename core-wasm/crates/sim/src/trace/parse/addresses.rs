//! One address per line, every line a write (libCacheSim's plain-text traces such as
//! `cloudPhysicsIO.txt`: one object id a line, no operation, no size). Each line writes one
//! unit at the address: a page by default, or a sector / byte with `--id-unit` (the
//! CloudPhysics sample's ids are 512-byte sectors: `--id-unit sectors`). A line holding
//! anything but one unsigned integer is an error naming its column.

use super::helpers::{clip, fields, is_digits, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TraceFormat, Unit};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Addresses,
    name: "addresses",
    aliases: &["txt", "lines", "write_only", "ids"],
    description: "one address per line, every line a write of one unit (a page; --id-unit sectors or bytes)",
    // Last: a line of one integer is nothing else.
    detect_rank: Some(95),
    imp: &Addresses,
};

struct Addresses;

impl TraceFormat for Addresses {
    fn detect(&self, v: &LineView) -> bool {
        v.delimited.is_none() && v.ws.total == 1 && is_digits(v.ws[0].1)
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(AddressLines))
    }
}

struct AddressLines;

impl LineReader for AddressLines {
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        let f = fields(line, None);
        if f.total != 1 || !is_digits(f[0].1) {
            let col = f.get(1).map_or(1, |x| x.0);
            return Err((col, format!("expected one address (an unsigned integer) per line, found '{}'", clip(line))));
        }
        let unit = cx.unit_bytes(cx.opts.id_unit.unwrap_or(Unit::Pages));
        let id: u64 = f[0].1.parse().map_err(|_| (f[0].0, format!("address '{}' is too large", clip(f[0].1))))?;
        let offset =
            id.checked_mul(unit).ok_or_else(|| (f[0].0, format!("address '{}' is too large", clip(f[0].1))))?;
        Ok(Some(Rec { write: true, offset, bytes: unit, device: None, time: None }))
    }
}
