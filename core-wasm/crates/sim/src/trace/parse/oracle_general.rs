//! libCacheSim's oracleGeneral binary format: little-endian `u32 time, u64 obj_id,
//! u32 obj_size, i64 next_access_vtime` (libCacheSim traceReader/customizedReader/
//! oracle/oracleGeneralBin.h). The format has no operation: every record is a write of
//! `obj_size` bytes at page `obj_id` (ids are pages by default; an object larger than a
//! page spans the following pages; `TraceOptions::id_unit` / `--id-unit sectors` reads the
//! id as an address in that unit). Records of size 0 are skipped, as libCacheSim does.

use super::helpers::RecordResult;
use super::raw::VALUE_MASK;
use super::{Body, Cx, Entry, Format, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::OracleGeneral,
    name: "oracle_general",
    aliases: &["oraclegeneral", "oracle", "oracle_general_bin"],
    description: "libCacheSim oracleGeneral binary: 24-byte records u32 time, u64 obj_id (a page), u32 obj_size (bytes), i64 next access; every record a write",
    detect_rank: None,
    imp: &OracleGeneral,
};

/// oracleGeneral record size.
const ORACLE_RECORD: usize = 24;

struct OracleGeneral;

impl TraceFormat for OracleGeneral {
    fn sniff_binary(&self, head: &[u8]) -> bool {
        looks_like_oracle_general(&head[..head.len() / ORACLE_RECORD * ORACLE_RECORD])
    }
    fn body(&self) -> Body {
        Body::Records(ORACLE_RECORD)
    }
    /// libCacheSim's `time`: whole seconds.
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::S)
    }
    fn read_record(&self, r: &[u8], cx: &mut Cx<'_>) -> RecordResult {
        let obj = u64::from_le_bytes(r[4..12].try_into().unwrap());
        let size = u32::from_le_bytes(r[12..16].try_into().unwrap()) as u64;
        if size == 0 {
            cx.out.ignored.zero_size += 1;
            return Ok(None);
        }
        if obj > VALUE_MASK {
            return Err((5, format!("object id {obj} is beyond 2^61 pages (hashed ids cannot be pages)")));
        }
        let time = u32::from_le_bytes(r[0..4].try_into().unwrap()) as i128 * 1_000_000_000;
        let pb = cx.opts.page_bytes.max(1) as u64;
        // `--id-unit sectors|bytes`: the id is an address in that unit (issue 27: the
        // CloudPhysics sample's ids are its CSV's 512-byte `lbn`).
        if let Some(u) = cx.opts.id_unit.filter(|&u| u != super::Unit::Pages) {
            let start = obj.checked_mul(cx.unit_bytes(u)).ok_or((5, format!("object id {obj} is too large")))?;
            return Ok(Some((true, start / pb, (start + size - 1) / pb, Some(time))));
        }
        let pages = size.div_ceil(pb);
        Ok(Some((true, obj, obj.saturating_add(pages - 1), Some(time))))
    }
}

/// Whether `head` (the first bytes of a binary file) reads as oracleGeneral records:
/// non-decreasing timestamps, and each next access -1 or later than the record.
fn looks_like_oracle_general(head: &[u8]) -> bool {
    let n = head.len() / ORACLE_RECORD;
    if n < 2 {
        return false;
    }
    let mut last_t = 0u32;
    let mut sized = 0;
    for (i, r) in head.chunks_exact(ORACLE_RECORD).enumerate() {
        let t = u32::from_le_bytes(r[0..4].try_into().unwrap());
        let size = u32::from_le_bytes(r[12..16].try_into().unwrap());
        let next = i64::from_le_bytes(r[16..24].try_into().unwrap());
        if t < last_t || (next != -1 && next < 1) {
            return false;
        }
        last_t = t;
        sized += (size > 0) as usize;
        let _ = i;
    }
    sized * 2 > n
}
