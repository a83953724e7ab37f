//! CSV and other delimited text with a header naming the columns, or a column mapping
//! (`--column ROLE=NAME[:UNIT]`; the app's upload dialog) for files without one.

use std::collections::BTreeMap;

use super::helpers::{
    clip, csv_delim, fields, is_digits, is_number, need, parse_time, parse_u64, LineResult, Rec, MAX_FIELDS,
};
use super::options::{ColumnRef, Unit};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Csv,
    name: "csv",
    aliases: &[],
    description: "CSV with a header naming op, lba or offset, and size (units in the header or as options)",
    detect_rank: Some(30),
    imp: &CsvFormat,
};

struct CsvFormat;

impl TraceFormat for CsvFormat {
    /// CSV: seconds unless time_unit says otherwise.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::S)
    }
    /// A delimited line whose first field is not a number: a header.
    fn detect(&self, v: &LineView) -> bool {
        v.delimited.as_ref().is_some_and(|f| !is_number(f[0].1))
    }
    fn delimited(&self) -> bool {
        true
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Csv::default()))
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
    /// Fields of the first line (the header, or the first data line): a data line with
    /// more is refused (a stray delimiter would shift every column after it).
    width: usize,
    write_ops: Vec<String>,
    read_ops: Vec<String>,
}

/// Operation words understood without a mapping: R/W and Read/Write as the formats
/// write them, and SCSI command opcodes in hex (READ/WRITE (6), (10), (12), (16)),
/// as CloudPhysics traces in libCacheSim's CSV carry them.
const WRITE_WORDS: &[&str] = &["w", "write", "wr", "ws", "2a", "0a", "aa", "8a", "0x2a", "0x0a", "0xaa", "0x8a"];
const READ_WORDS: &[&str] = &["r", "read", "rd", "rs", "28", "08", "a8", "88", "0x28", "0x08", "0xa8", "0x88"];

/// The columns, once read from the first line.
#[derive(Default)]
struct Csv {
    cols: Option<CsvCols>,
}

impl Csv {
    /// Reads the first line of a CSV file: the header (roles guessed from its names),
    /// the user's mapping (by name or 1-based column number), or both. Ok(true): the
    /// line was a header; Ok(false): it is data (a file without a header). Err: one
    /// message naming the columns found and how to map them (parsing stops).
    fn setup(&mut self, line: &str, cx: &mut Cx<'_>) -> Result<bool, String> {
        let delim = csv_delim(line);
        let f = fields(line, delim);
        let m = cx.opts.mapping.clone();
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
                if i == 0 || i > f.total {
                    return Err(format!(
                        "{role} column {i}, but line {} has {} column{}: {found}",
                        cx.out.lines,
                        f.total,
                        if f.total == 1 { "" } else { "s" }
                    ));
                }
                if i > MAX_FIELDS {
                    return Err(format!(
                        "{role} column {i}: only the first {MAX_FIELDS} of the line's {} columns can be mapped",
                        f.total
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
                        (None, "address") => cx.opts.csv_address_unit.or(def),
                        (None, "size") => cx.opts.csv_size_unit.or(def),
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
                "address" => cx.opts.csv_address_unit,
                "size" => cx.opts.csv_size_unit,
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
        cx.out.csv_columns = role_col
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
        self.cols = Some(CsvCols {
            delim,
            op,
            addr,
            addr_unit: au.unwrap_or(Unit::Bytes),
            size,
            device,
            time,
            need,
            width: f.total,
            write_ops: lower(&m.write_ops),
            read_ops: lower(&m.read_ops),
        });
        Ok(is_header)
    }
}

impl LineReader for Csv {
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        if self.cols.is_none() {
            match self.setup(line, cx) {
                Err(m) => {
                    cx.fail(m);
                    return Ok(None);
                }
                Ok(true) => return Ok(None),
                Ok(false) => {}
            }
        }
        let c = self.cols.as_ref().expect("set up above");
        let f = fields(line, c.delim);
        need(&f, c.need, line.len(), "as many as the mapped columns")?;
        if f.total > c.width {
            let col = f.get(c.width).map(|x| x.0).unwrap_or(line.len() + 1);
            return Err((
                col,
                format!("{} fields, but the first line has {}: an extra delimiter in the row?", f.total, c.width),
            ));
        }
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
        let offset =
            a.checked_mul(cx.unit_bytes(c.addr_unit)).ok_or_else(|| (f[c.addr].0, "address too large".to_string()))?;
        let bytes = match c.size {
            Some((i, u)) => parse_u64(f[i].0, f[i].1, "the size")?
                .checked_mul(cx.unit_bytes(u))
                .ok_or_else(|| (f[i].0, "size too large".to_string()))?,
            None => cx.opts.page_bytes.max(1) as u64,
        };
        let time = match c.time {
            Some(i) => Some(parse_time(f[i].0, f[i].1, "the time")?),
            None => None,
        };
        Ok(Some(Rec { write, offset, bytes, device: c.device.map(|i| f[i].1), time }))
    }
}

/// A column name without its unit suffix, lower case, `_` for spaces and dashes:
/// "Offset (bytes)" -> ("offset", Some(Bytes)).
pub(super) fn header_base(name: &str) -> (String, Option<Unit>) {
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
pub(super) fn guess_role(base: &str) -> Option<(&'static str, Option<Unit>)> {
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
