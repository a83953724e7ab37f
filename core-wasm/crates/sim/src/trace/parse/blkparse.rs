//! blkparse's default text output (blktrace).

use super::helpers::{clip, fields_n, need, parse_time, parse_u64, LineResult, Rec};
use super::{Cx, Entry, Format, LineReader, LineView, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Blkparse,
    name: "blkparse",
    aliases: &["blktrace"],
    description: "blkparse default text output: dev cpu seq time pid action RWBS sector + count [proc]",
    detect_rank: Some(20),
    imp: &BlkparseFormat,
};

struct BlkparseFormat;

impl TraceFormat for BlkparseFormat {
    /// blkparse: seconds.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::S)
    }
    fn detect(&self, v: &LineView) -> bool {
        is_blk_dev(v.ws[0].1) && v.ws.len() >= 6
    }
    fn line_reader(&self) -> Option<Box<dyn LineReader>> {
        Some(Box::new(Blkparse::default()))
    }
}

#[derive(Default)]
struct Blkparse {
    /// Past blkparse's closing statistics (`CPUn (...)` / `Total (...)`): ignore the rest.
    stats: bool,
    /// The actions of the lines skipped for another action (a few, for the message).
    other: std::collections::BTreeSet<String>,
    /// The action kept, trimmed once (not on every line).
    action: Option<String>,
}

impl LineReader for Blkparse {
    fn other_actions(&self) -> Vec<String> {
        self.other.iter().cloned().collect()
    }

    /// `8,0  3  1  0.000000000  697  Q  WS 223490 + 8 [proc]`
    fn read<'a>(&mut self, line: &'a str, cx: &mut Cx<'_>) -> LineResult<'a> {
        if self.stats {
            cx.out.ignored.blkparse_statistics += 1;
            return Ok(None);
        }
        // Ten fields are read (the eleventh, the process, is not): fewer to set up a line.
        let f = fields_n::<10>(line, None);
        let first = f[0].1;
        if !is_blk_dev(first) {
            if first.starts_with("CPU") || first == "Total" {
                // blkparse's closing per-CPU and total statistics: everything after it.
                self.stats = true;
                cx.out.ignored.blkparse_statistics += 1;
                return Ok(None);
            }
            return Err((f[0].0, format!("expected a device 'major,minor' such as 8,0, found '{}'", clip(first))));
        }
        need(&f, 6, line.len(), "dev cpu seq time pid action")?;
        parse_u64(f[1].0, f[1].1, "the CPU number")?;
        parse_u64(f[2].0, f[2].1, "the sequence number")?;
        let time = parse_time(f[3].0, f[3].1, "the time stamp")?;
        parse_u64(f[4].0, f[4].1, "the process id")?;
        let action = self.action.get_or_insert_with(|| cx.opts.blkparse_action.trim().to_string());
        if f[5].1 != action.as_str() {
            if self.other.len() < 8 {
                self.other.insert(clip(f[5].1));
            }
            cx.out.ignored.other_action += 1;
            return Ok(None);
        }
        need(&f, 7, line.len(), "dev cpu seq time pid action RWBS")?;
        let rwbs = f[6].1;
        // One pass over the flags (issue 37: a set lookup per byte and three searches
        // were a tenth of a line).
        let (mut d, mut w, mut r) = (false, false, false);
        for c in rwbs.bytes() {
            match c {
                b'D' => d = true,
                b'W' => w = true,
                b'R' => r = true,
                b'B' | b'S' | b'F' | b'M' | b'A' | b'N' | b'T' | b'E' => {}
                _ => return Err((f[6].0, format!("expected RWBS flags such as W, WS, R, RA, found '{}'", clip(rwbs)))),
            }
        }
        // Discards, and flushes with neither R nor W (which carry no sector range).
        let write = if d {
            None
        } else if w {
            Some(true)
        } else if r {
            Some(false)
        } else {
            None
        };
        let Some(write) = write else {
            cx.out.ignored.not_read_write += 1;
            return Ok(None);
        };
        need(&f, 10, line.len(), "dev cpu seq time pid action RWBS sector + count")?;
        let offset = cx.sectors(f[7].0, f[7].1, "the start sector")?;
        if f[8].1 != "+" {
            return Err((f[8].0, format!("expected '+' between sector and count, found '{}'", clip(f[8].1))));
        }
        let bytes = cx.sectors(f[9].0, f[9].1, "the sector count")?;
        Ok(Some(Rec { write, offset, bytes, device: Some(first), time: Some(time) }))
    }
}

/// `maj,min`: the device field of a blkparse line.
fn is_blk_dev(tok: &str) -> bool {
    // Digits, one comma, digits: by bytes (no char search; issue 37).
    let b = tok.as_bytes();
    let Some(comma) = b.iter().position(|&c| !c.is_ascii_digit()) else { return false };
    comma > 0 && b[comma] == b',' && comma + 1 < b.len() && b[comma + 1..].iter().all(u8::is_ascii_digit)
}
