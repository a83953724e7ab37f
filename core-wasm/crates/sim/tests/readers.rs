//! The readers of issue 27: libCacheSim's vscsi (versions 1 and 2), oracleGeneral with an
//! id unit, and one address per line — each given the same trace as the CloudPhysics CSV
//! (`traces/camera.cloudphysics.csv`, libCacheSim's `version,time,op,size,lbn`) gives the
//! same page requests. The files are made here from the CSV's rows, byte by byte as
//! libCacheSim's readers lay them out (traceReader/customizedReader/vscsi.h,
//! oracle/oracleGeneralBin.h).

use ftl_sim::trace::fit::{Fit, Space};
use ftl_sim::trace::parse::{parse_bytes, Format, TraceOptions, Unit};
use ftl_sim::trace::Request;

/// (time µs, write, size bytes, lbn sectors) of the CSV's rows; every third a read, so
/// that the op mapping is tested too.
fn rows() -> Vec<(u64, bool, u32, u64)> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../traces/camera.cloudphysics.csv"))
        .unwrap();
    text.lines()
        .skip(1)
        .enumerate()
        .map(|(i, l)| {
            let f: Vec<&str> = l.split(',').collect();
            (f[1].parse().unwrap(), i % 3 != 2, f[3].parse().unwrap(), f[4].parse().unwrap())
        })
        .collect()
}

fn csv(rows: &[(u64, bool, u32, u64)]) -> Vec<u8> {
    let mut s = String::from("version,time,op,size,lbn\n");
    for &(t, w, size, lbn) in rows {
        s.push_str(&format!("1,{t},{},{size},{lbn}\n", if w { "2a" } else { "28" }));
    }
    s.into_bytes()
}

fn vscsi(rows: &[(u64, bool, u32, u64)], version: u16) -> Vec<u8> {
    let mut out = Vec::new();
    for (sn, &(t, w, size, lbn)) in rows.iter().enumerate() {
        let cmd: u16 = if w { 0x2a } else { 0x28 };
        let ver: u16 = version << 8;
        if version == 1 {
            out.extend((sn as u32 | 0x8000_0000).to_le_bytes());
            out.extend(size.to_le_bytes());
            out.extend(1u32.to_le_bytes());
            out.extend(cmd.to_le_bytes());
            out.extend(ver.to_le_bytes());
            out.extend(lbn.to_le_bytes());
            out.extend(t.to_le_bytes());
        } else {
            out.extend(cmd.to_le_bytes());
            out.extend(ver.to_le_bytes());
            out.extend((sn as u32).to_le_bytes());
            out.extend(size.to_le_bytes());
            out.extend(1u32.to_le_bytes());
            out.extend(lbn.to_le_bytes());
            out.extend(t.to_le_bytes());
            out.extend(120u64.to_le_bytes());
        }
    }
    // A command that moves no data (TEST UNIT READY) is skipped, not an error.
    let mut extra = out[out.len() - if version == 1 { 32 } else { 40 }..].to_vec();
    let at = if version == 1 { 12 } else { 0 };
    extra[at] = 0x00;
    out.extend(extra);
    out
}

fn oracle(rows: &[(u64, bool, u32, u64)]) -> Vec<u8> {
    let mut out = Vec::new();
    for &(t, _, size, lbn) in rows {
        out.extend(((t / 1_000_000) as u32).to_le_bytes());
        out.extend(lbn.to_le_bytes());
        out.extend(size.to_le_bytes());
        out.extend((-1i64).to_le_bytes());
    }
    out
}

/// The page requests of a file, unchanged (a space large enough for every address).
fn requests(bytes: &[u8], format: Option<Format>, id_unit: Option<Unit>) -> Vec<Request> {
    let raw = parse_bytes(bytes, TraceOptions { format, page_bytes: 4096, id_unit, ..TraceOptions::default() })
        .unwrap_or_else(|e| panic!("{format:?}: {e:?}"));
    if format.is_none() {
        assert!(raw.format.is_some());
    }
    raw.fit(Some(Space { logical_pages: 1 << 24, pages_per_block: 64 }), Fit::None).unwrap().0
}

#[test]
fn vscsi_gives_the_csvs_page_requests_and_is_detected() {
    let r = rows();
    let want = requests(&csv(&r), None, None);
    assert!(want.len() > r.len(), "records of several pages are split");
    assert!(want.iter().any(|q| matches!(q, Request::Read { .. })));
    for v in [1, 2] {
        let bytes = vscsi(&r, v);
        assert_eq!(requests(&bytes, None, None), want, "vscsi version {v}, detected");
        let f = if v == 1 { Format::Vscsi } else { Format::Vscsi2 };
        assert_eq!(requests(&bytes, Some(f), None), want, "vscsi version {v}, named");
        let raw = parse_bytes(&bytes, TraceOptions { page_bytes: 4096, ..TraceOptions::default() }).unwrap();
        assert_eq!(raw.format, Some(f));
        assert_eq!(raw.ignored.not_read_write, 1, "the TEST UNIT READY record");
    }
}

#[test]
fn oracle_general_ids_in_sectors_give_the_csvs_page_requests() {
    let r: Vec<_> = rows().into_iter().map(|(t, _, s, l)| (t, true, s, l)).collect();
    let want = requests(&csv(&r), None, None);
    let bin = oracle(&r);
    assert_eq!(requests(&bin, Some(Format::OracleGeneral), Some(Unit::Sectors)), want);
    // Read as pages (the default), the same ids address other pages: 8 times further on a
    // 4 KB-page chip.
    let pages = requests(&bin, Some(Format::OracleGeneral), None);
    assert_ne!(pages, want);
    assert_eq!(pages[0].lpn().unwrap() as u64, r[0].3);
}

#[test]
fn one_address_per_line_is_a_write_of_one_unit_each() {
    let r: Vec<_> = rows().into_iter().map(|(t, _, _, l)| (t, true, 512, l)).collect();
    let want = requests(&csv(&r), None, None);
    let text: String = r.iter().map(|x| format!("{}\n", x.3)).collect();
    assert_eq!(requests(text.as_bytes(), None, Some(Unit::Sectors)), want, "detected, ids in sectors");
    let raw = parse_bytes(text.as_bytes(), TraceOptions { page_bytes: 4096, ..TraceOptions::default() }).unwrap();
    assert_eq!(raw.format, Some(Format::Addresses));
    // Default unit: pages.
    let pages = requests(text.as_bytes(), Some(Format::Addresses), None);
    assert_eq!(
        pages.iter().map(|q| q.lpn().unwrap() as u64).collect::<Vec<_>>(),
        r.iter().map(|x| x.3).collect::<Vec<_>>()
    );
    // Anything but one integer a line is an error that names the line.
    let e = parse_bytes(b"12\n13 14\n", TraceOptions { format: Some(Format::Addresses), ..TraceOptions::default() })
        .unwrap_err();
    assert!(e.message.contains("one address") || e.errors.iter().any(|x| x.message.contains("one address")), "{e:?}");
}
