//! libCacheSim's vscsi binary format (VMware vscsiStats traces; libCacheSim
//! traceReader/customizedReader/vscsi.h), little-endian C structs:
//!
//! - version 1, 32 bytes: `u32 sn, u32 len, u32 nSG, u16 cmd, u16 ver, u64 lbn, u64 ts`;
//! - version 2, 40 bytes: `u16 cmd, u16 ver, u32 sn, u32 len, u32 nSG, u64 lbn, u64 ts, u64 rt`.
//!
//! The version is `ver >> 8`, told (as libCacheSim does) from the first two records. `lbn`
//! is in 512-byte sectors, `len` in bytes, `ts` in microseconds, `cmd` the SCSI opcode:
//! READ(6/10/12/16) 0x08 0x28 0xa8 0x88 and WRITE(6/10/12/16) 0x0a 0x2a 0xaa 0x8a are
//! read and write; any other command moves no data here and is skipped (counted with the
//! records that are neither read nor write). libCacheSim reads every record as a request
//! of `len` bytes at object `lbn`; we split it into the chip's pages like the other
//! sector-addressed formats (UMass, blkparse), so its page requests equal the CloudPhysics
//! CSV's (`version,time,op,size,lbn`) of the same trace.

use super::helpers::RecordResult;
use super::raw::VALUE_MASK;
use super::{Body, Cx, Entry, Format, TimeUnit, TraceFormat};

pub(super) const ENTRY: Entry = Entry {
    format: Format::Vscsi,
    name: "vscsi",
    aliases: &["vscsi1", "vscsistats"],
    description: "libCacheSim vscsi binary, version 1: 32-byte records (SCSI opcode, LBA in 512-byte sectors, length in bytes, time in µs)",
    detect_rank: None,
    imp: &Vscsi { version: 1 },
};

pub(super) const ENTRY_V2: Entry = Entry {
    format: Format::Vscsi2,
    name: "vscsi2",
    aliases: &[],
    description: "libCacheSim vscsi binary, version 2: 40-byte records (as version 1, plus the response time)",
    detect_rank: None,
    imp: &Vscsi { version: 2 },
};

struct Vscsi {
    version: u16,
}

impl Vscsi {
    fn size(&self) -> usize {
        if self.version == 1 {
            32
        } else {
            40
        }
    }
    /// (cmd, ver, len, lbn, ts) of one record.
    fn fields(&self, r: &[u8]) -> (u16, u16, u32, u64, u64) {
        let u16_at = |i: usize| u16::from_le_bytes([r[i], r[i + 1]]);
        let u32_at = |i: usize| u32::from_le_bytes(r[i..i + 4].try_into().unwrap());
        let u64_at = |i: usize| u64::from_le_bytes(r[i..i + 8].try_into().unwrap());
        if self.version == 1 {
            (u16_at(12), u16_at(14), u32_at(4), u64_at(16), u64_at(24))
        } else {
            (u16_at(0), u16_at(2), u32_at(8), u64_at(16), u64_at(24))
        }
    }
}

/// SCSI opcode -> write (true) / read (false); None: not a data transfer.
pub(crate) fn scsi_rw(cmd: u16) -> Option<bool> {
    match cmd & 0xff {
        0x08 | 0x28 | 0xa8 | 0x88 => Some(false),
        0x0a | 0x2a | 0xaa | 0x8a => Some(true),
        _ => None,
    }
}

impl TraceFormat for Vscsi {
    /// The first two records carry this version in the high byte of `ver` (libCacheSim's
    /// test_vscsi_version); version 2 is tried first, as libCacheSim does.
    fn sniff_binary(&self, head: &[u8]) -> bool {
        let n = self.size();
        if head.len() < 2 * n {
            return false;
        }
        let v = |i: usize| self.fields(&head[i * n..(i + 1) * n]).1 >> 8;
        if self.version == 1 && ENTRY_V2.imp.sniff_binary(head) {
            return false;
        }
        v(0) == self.version && v(1) == self.version
    }
    fn body(&self) -> Body {
        Body::Records(self.size())
    }
    fn time_unit(&self) -> Option<TimeUnit> {
        Some(TimeUnit::Us)
    }
    fn read_record(&self, r: &[u8], cx: &mut Cx<'_>) -> RecordResult {
        let (cmd, ver, len, lbn, ts) = self.fields(r);
        if ver >> 8 != self.version {
            return Err((1, format!("record version {} in a version-{} vscsi file", ver >> 8, self.version)));
        }
        let Some(write) = scsi_rw(cmd) else {
            cx.out.ignored.not_read_write += 1;
            return Ok(None);
        };
        if len == 0 {
            cx.out.ignored.zero_size += 1;
            return Ok(None);
        }
        let pb = cx.opts.page_bytes.max(1) as u64;
        let start = lbn.checked_mul(cx.opts.sector_bytes as u64).ok_or((5, format!("LBA {lbn} is too large")))?;
        let (first, last) = (start / pb, (start + len as u64 - 1) / pb);
        if last > VALUE_MASK {
            return Err((5, format!("LBA {lbn} is beyond 2^61 pages")));
        }
        Ok(Some((write, first, last, Some(ts as i128 * 1_000_000_000))))
    }
}
