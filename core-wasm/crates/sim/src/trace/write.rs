//! Writing requests as a trace file in any of the parsed formats (`ftl export`), so
//! the generators can produce sample traces that the parsers read back exactly.
//! Runs of consecutive pages with the same operation become one record (at most
//! `MAX_RUN` pages), as a host would issue them.

use std::fmt::Write;

use super::parse::Format;
use super::Request;

/// Longest record written, in pages.
pub const MAX_RUN: u32 = 64;

/// One record: (write, first page, pages).
fn runs(reqs: &[Request]) -> Result<Vec<(bool, u32, u32)>, String> {
    let mut out: Vec<(bool, u32, u32)> = Vec::new();
    for r in reqs {
        let (w, lpn) = match *r {
            Request::Write { lpn } => (true, lpn),
            Request::Read { lpn } => (false, lpn),
            _ => return Err("freeze / unfreeze / revert exist only in the pattern format".into()),
        };
        match out.last_mut() {
            Some((lw, start, n)) if *lw == w && *start as u64 + *n as u64 == lpn as u64 && *n < MAX_RUN => *n += 1,
            _ => out.push((w, lpn, 1)),
        }
    }
    Ok(out)
}

/// The requests as `format` text; byte and sector addresses use `page_bytes` pages
/// (a multiple of 512). One record per millisecond of made-up time.
pub fn write_trace(reqs: &[Request], format: Format, page_bytes: u32) -> Result<String, String> {
    if page_bytes == 0 || !page_bytes.is_multiple_of(512) {
        return Err(format!("page_bytes must be a multiple of 512 (got {page_bytes})"));
    }
    let pb = page_bytes as u64;
    let spp = pb / 512; // sectors per page
    let mut s = String::new();
    if format == Format::Pattern {
        for (i, r) in reqs.iter().enumerate() {
            let item = match *r {
                Request::Write { lpn } => format!("w{lpn}"),
                Request::Read { lpn } => format!("r{lpn}"),
                Request::Freeze => "freeze".into(),
                Request::Unfreeze { state } => format!("unfreeze {state}"),
                Request::Revert { state } => format!("revert {state}"),
            };
            s.push_str(&item);
            s.push(if i % 16 == 15 { '\n' } else { ' ' });
        }
        s.push('\n');
        return Ok(s);
    }
    if format == Format::Csv {
        s.push_str("op,offset (bytes),size (bytes)\n");
    }
    if format == Format::Addresses {
        // One page a line, writes only (the format has no reads).
        for r in reqs {
            match *r {
                Request::Write { lpn } => {
                    let _ = writeln!(s, "{lpn}");
                }
                _ => return Err("the addresses format holds writes only (one page a line)".into()),
            }
        }
        return Ok(s);
    }
    for (i, (w, start, n)) in runs(reqs)?.into_iter().enumerate() {
        let (off, bytes) = (start as u64 * pb, n as u64 * pb);
        let (sector, sectors) = (start as u64 * spp, n as u64 * spp);
        let t_ms = i as u64;
        let _ = match format {
            Format::Umass => {
                writeln!(s, "0,{sector},{bytes},{},{}.{:03}", if w { 'w' } else { 'r' }, t_ms / 1000, t_ms % 1000)
            }
            Format::Msr => writeln!(
                s,
                "{},ftlscope,0,{},{off},{bytes},100",
                128166372000000000u64 + t_ms * 10_000,
                if w { "Write" } else { "Read" }
            ),
            Format::Disksim => writeln!(s, "{}.000 0 {sector} {sectors} {}", t_ms, if w { 0 } else { 1 }),
            Format::Blkparse => writeln!(
                s,
                "  8,0    0 {:>8} {:>5}.{:09} 1000  D {:>3} {sector} + {sectors} [ftlscope]",
                i + 1,
                t_ms / 1000,
                (t_ms % 1000) * 1_000_000,
                if w { "W" } else { "R" }
            ),
            Format::Csv => writeln!(s, "{},{off},{bytes}", if w { 'W' } else { 'R' }),
            // device_id,opcode,offset,length,timestamp (microseconds)
            Format::Alibaba => {
                writeln!(s, "0,{},{off},{bytes},{}", if w { 'W' } else { 'R' }, 1_600_000_000_000_000u64 + t_ms * 1000)
            }
            // ts pid process lba size op major minor md5 (ts in ns, as the FIU files)
            Format::Fiu => writeln!(
                s,
                "{} 1000 ftlscope {sector} {sectors} {} 8 0 {:032x}",
                89_966_527_759_241u64 + t_ms * 1_000_000,
                if w { 'W' } else { 'R' },
                (start as u128) * 0x9e37_79b9_7f4a_7c15 + i as u128
            ),
            Format::Pattern => unreachable!(),
            Format::OracleGeneral => return Err("oracleGeneral is binary: use write_oracle_general".into()),
            Format::Vscsi | Format::Vscsi2 => return Err("vscsi is binary and read only here".into()),
            Format::Addresses => unreachable!(),
        };
    }
    Ok(s)
}

/// The requests as libCacheSim oracleGeneral records (24 bytes each, little-endian:
/// u32 time, u64 obj_id, u32 obj_size, i64 next_access_vtime). Each page request is
/// one record of one page at obj_id = page; reads cannot be told apart in this
/// format (the parser reads every record as a write). next_access_vtime is the index
/// of the next request to the same page, -1 if none, as libCacheSim's traceConv writes.
pub fn write_oracle_general(reqs: &[Request], page_bytes: u32) -> Result<Vec<u8>, String> {
    let mut pages = Vec::with_capacity(reqs.len());
    for r in reqs {
        match r.lpn() {
            Some(l) => pages.push(l as u64),
            None => return Err("freeze / unfreeze / revert exist only in the pattern format".into()),
        }
    }
    let mut next = vec![-1i64; pages.len()];
    let mut seen: std::collections::HashMap<u64, usize> = std::collections::HashMap::new();
    for (i, &p) in pages.iter().enumerate().rev() {
        if let Some(&j) = seen.get(&p) {
            next[i] = j as i64;
        }
        seen.insert(p, i);
    }
    let mut out = Vec::with_capacity(pages.len() * 24);
    for (i, &p) in pages.iter().enumerate() {
        out.extend_from_slice(&(i as u32 / 100).to_le_bytes());
        out.extend_from_slice(&p.to_le_bytes());
        out.extend_from_slice(&page_bytes.to_le_bytes());
        out.extend_from_slice(&next[i].to_le_bytes());
    }
    Ok(out)
}
