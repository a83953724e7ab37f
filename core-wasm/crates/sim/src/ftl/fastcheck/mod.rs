//! FastCheck (Park, Park, Chung and Lee, "A Crash Recovery Scheme for a Hybrid Mapping
//! FTL in NAND Flash Storage Devices", Electronics 10(3), 2021) on FAST, and the
//! LTFTL-style logging on FAST that its section 6.2 builds for the comparison.
//!
//! Both are FAST (ftl/fast.rs, eager merge) with a metadata area (3.2, Figure 1):
//! * the **map directory** at fixed blocks 0 and 1: where the map block is;
//! * the **map block**: a page with the block-mapping table (with each data block's
//!   dbMSN), the RW log-block list and the log-area blocks, written at the end of every
//!   merge, when a victim log block is replaced and when the log-area blocks change (4.2);
//!   the map directory is written when the map block moves (4.3);
//! * the **log area**: FastCheck's checkpoint blocks — one page of LPNs per log region,
//!   written when the region's last log block fills (4.1); or, for `fast-ltlog`, pages of
//!   16-byte mapping log records (flushed when a page fills and after every merge) and
//!   dumps of the whole log-page-mapping table when the records pass a threshold (2.2, 6.1.1, 6.2).
//!
//! Recovery (5, Figure 6): map directory → map block → checkpoints (or dump + records)
//! → restoration scan of the uncheckpointed log blocks' spare areas → consistency check
//! (a log page is invalid when dbMSN > lbMSN) → redo. The MSN is the program clock the
//! spare area of every page carries (FAST's `seq`): dbMSN = the clock when the merge that
//! made the data block completed, lbMSN = the clock of a log page (spare area) or of a
//! checkpointed log block's last page. docs/schemes/fastcheck.md lists the choices.

use std::collections::VecDeque;

use serde::Serialize;

use super::fast::recovery::{rebuild_fast, ExtRw};
use super::fast::{self, FastFtl, RecoveryLogging, MERGED};
use super::panel::{some, MetadataArea, MetadataBlocks, PageAt, RecordFill, RegionLog};
use super::registry::{self, Builder, Mapping, ParamSpec, Run, SchemeEntry, Value};
use super::scan_recovery::Blk;
use super::{BlockRole, Cleaning, Panel, PanelData, SchemeParams};
use crate::nand::{Cause, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

mod recovery;
pub use recovery::{recover, test_break_clock_restore};

/// The map directory's fixed blocks (3.2: "the map directory uses some fixed physical blocks").
pub const DIR_BLOCKS: [Pbn; 2] = [0, 1];

/// Spare-area tags of metadata pages.
mod mtag {
    pub const DIR: u8 = 0x41;
    pub const MAP: u8 = 0x42;
    pub const CKPT: u8 = 0x43;
    pub const LTLOG: u8 = 0x44;
    pub const LTDUMP: u8 = 0x45;
}

/// LTFTL-style: a dump is also forced when the record pages since the last one reach this
/// many times N_pmap (flushes after every merge write part-full pages; this bounds the log
/// area and the pages recovery reads).
pub const LT_PAGES_PER_DUMP: u32 = 4;

/// The registry's FastCheck entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "fastcheck",
    label: "FastCheck (FAST + checkpoints)",
    short_label: "FastCheck",
    description: "FastCheck: FAST with map directory, map blocks, log-region checkpoints and MSN-checked recovery",
    params: &[fast::LOG_BLOCKS, registry::CHECKPOINT_LPNS],
    cleaning: Cleaning::Merges,
    runs: &[Run::Switch, Run::PartialMerge, Run::FullMerge],
    seldom: &[],
    mapping: Mapping::Hybrid,
    panels: &[],
    build: Builder::Geometry(|p, g| Ok(Box::new(build(g, p, Mode::FastCheck)?))),
    fits: |p, c| fits(&c.geometry, p, Mode::FastCheck),
    recover: |flash, p| Ok(Box::new(recover(flash, p, Mode::FastCheck)?)),
};

/// The registry's fast-ltlog entry (ftl::REGISTRY).
pub const LTLOG_ENTRY: SchemeEntry = SchemeEntry {
    id: "fast-ltlog",
    label: "FAST + LTFTL-style log",
    short_label: "FAST+LTlog",
    description:
        "FAST with LTFTL-style recovery logging (mapping log records, page-map dumps), as FastCheck 6.2 compares",
    params: &[
        fast::LOG_BLOCKS,
        ParamSpec {
            help: "records per log page; core default",
            default: Value::Chip(|g| (g.page_bytes / 16).max(1) as f64, "page size / 16 B"),
            ..registry::CHECKPOINT_LPNS
        },
    ],
    build: Builder::Geometry(|p, g| Ok(Box::new(build(g, p, Mode::LtLog)?))),
    fits: |p, c| fits(&c.geometry, p, Mode::LtLog),
    recover: |flash, p| Ok(Box::new(recover(flash, p, Mode::LtLog)?)),
    ..ENTRY
};

/// A merge record in the LTFTL-style log: every RW entry of `lbn` became −1.
const REC_MERGE: u32 = u32::MAX - 2;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    FastCheck,
    LtLog,
}

/// Metadata writes in normal operation (the logging overhead of FastCheck 6.1.1 / Figure 7).
#[derive(Clone, Debug, Default, Serialize)]
pub struct LogStats {
    pub map_pages: u64,
    pub map_directory_pages: u64,
    pub checkpoint_pages: u64,
    pub ltftl_record_pages: u64,
    pub ltftl_records: u64,
    pub ltftl_dumps: u64,
    pub ltftl_dump_pages: u64,
    pub log_area_erases: u64,
}

/// Pages read by each recovery phase (the last recovery).
#[derive(Clone, Debug, Default, Serialize)]
pub struct RecoveryStats {
    pub map_directory: u64,
    pub map_block: u64,
    /// FastCheck: checkpoint pages; LTFTL-style: dump and record pages.
    pub checkpoints: u64,
    /// Spare areas of log pages not covered by a checkpoint / the log.
    pub restoration: u64,
    /// Spare areas of the other blocks (in-place bitmap, interrupted merges): not in the
    /// paper's model (equations 5–6).
    pub data_block_scan: u64,
    /// Programs and erases of the redo phase.
    pub redo_ops: u64,
}

impl RecoveryStats {
    /// The quantity of equations 5 and 6: pages read to restore the log-page-mapping table.
    pub fn mapping_pages(&self) -> u64 {
        self.checkpoints + self.restoration
    }
}

#[derive(Clone, Debug)]
pub struct MetaLog {
    pub mode: Mode,
    ppb: u32,
    /// Map directory: current block (0 or 1) and its next page.
    dir: (Pbn, u32),
    /// Map block and its next page (NONE before the first map page).
    map: (Pbn, u32),
    /// Log-area blocks (checkpoint blocks / LTFTL log blocks), oldest first, and the next page of the last.
    area: VecDeque<Pbn>,
    area_next: u32,
    /// FastCheck: log blocks per region, regions, the live checkpoint page of each region.
    bpr: u32,
    regions: u32,
    region_ckpt: Vec<Ppn>,
    /// Generation (allocation count) of each RW log block, and lbMSN when it filled.
    gen: Vec<u32>,
    gen_next: u32,
    lbmsn: Vec<u32>,
    /// LTFTL-style: records per page, pages of the page map, records in RAM.
    lrecs_in_page: u32,
    npmap: u32,
    /// A record is (new page, sector, generation of the page's RW block): LTFTL's 16-byte
    /// record (sector, old page, new page, global_time; 2.2) names the page, and a block's
    /// generation tells a record of an earlier life of the same block (erased since as a
    /// victim and reallocated) from one of its current life.
    records: Vec<(u32, u32, u32)>,
    records_since_dump: u64,
    /// Live pages of the LTFTL log: the newest complete dump, record pages since.
    live: Vec<Ppn>,
    log_pages_since_dump: u32,
    pub stats: LogStats,
    pub last_recovery: RecoveryStats,
    /// The newest map pages; older ones' payloads (a whole block-map snapshot each) are
    /// dropped from simulation memory: recovery reads the newest readable one (the one
    /// before it if a cut tore the newest).
    recent_maps: VecDeque<Ppn>,
    /// The buffer of the last dropped map-page payload, reused for the next snapshot
    /// (a map page is written at every merge: no allocation per merge).
    spare_map: Vec<u32>,
    /// Which snapshot `spare_map` holds (u64::MAX: none usable), the index of the next
    /// snapshot, and the lbns changed in the last two intervals between snapshots: a
    /// snapshot patches the one three before it rather than copying the whole block map.
    spare_idx: u64,
    snap_idx: u64,
    dirty_hist: [Vec<u32>; 2],
}

/// FastCheck or LTFTL-style logging on FAST.
pub fn build(g: &Geometry, params: &SchemeParams, mode: Mode) -> Result<FastFtl, String> {
    let (mut ftl, m) = layout(g, params, mode)?;
    ftl.meta = Some(Box::new(m));
    Ok(ftl)
}

/// FAST with the metadata area reserved, and its logging (not yet hooked in: recovery
/// fills it from the chip first).
fn layout(g: &Geometry, params: &SchemeParams, mode: Mode) -> Result<(FastFtl, MetaLog), String> {
    let log_blocks = params.log_blocks.unwrap_or(fast::DEFAULT_LOG_BLOCKS);
    let rw_cap = log_blocks.saturating_sub(1).max(1);
    let ppb = g.pages_per_block;
    let (bpr, regions, lrecs, npmap) = geometry_of(g, params, rw_cap);
    let (_, reserved) = reserved_blocks(g, params, mode);
    let mut ftl = FastFtl::with_layout(g, params, false, reserved, &DIR_BLOCKS)?;
    let m = MetaLog {
        mode,
        ppb,
        dir: (DIR_BLOCKS[0], 0),
        map: (NONE, 0),
        area: VecDeque::new(),
        area_next: 0,
        bpr,
        regions,
        region_ckpt: vec![NONE; regions as usize],
        gen: vec![NONE; g.blocks as usize],
        gen_next: 0,
        lbmsn: vec![0; g.blocks as usize],
        lrecs_in_page: lrecs,
        npmap,
        records: Vec::new(),
        records_since_dump: 0,
        live: Vec::new(),
        log_pages_since_dump: 0,
        stats: LogStats::default(),
        last_recovery: RecoveryStats::default(),
        recent_maps: VecDeque::new(),
        spare_map: Vec::new(),
        spare_idx: u64::MAX,
        snap_idx: 0,
        dirty_hist: [Vec::new(), Vec::new()],
    };
    ftl.track_map = true;
    Ok((ftl, m))
}

/// FAST calls FastCheck (or LTFTL-style logging) through this hook only, so FAST does not
/// depend on it (docs/architecture.md, "How to add a scheme").
impl RecoveryLogging for MetaLog {
    fn name(&self) -> &'static str {
        MetaLog::name(self)
    }
    fn block_role(&self, pbn: Pbn) -> Option<BlockRole> {
        MetaLog::block_role(self, pbn)
    }
    fn metrics(&self) -> serde_json::Value {
        MetaLog::metrics(self)
    }
    fn panels(&self, ftl: &FastFtl, flash: &Flash) -> Vec<Panel> {
        MetaLog::panels(self, ftl, flash)
    }
    fn after_merge(&mut self, flash: &mut Flash, ftl: &mut FastFtl, lbn: u32, merged_out: u32) -> FlashResult<()> {
        MetaLog::after_merge(self, flash, ftl, lbn, merged_out)
    }
    fn after_rw_alloc(&mut self, flash: &mut Flash, ftl: &mut FastFtl, pbn: Pbn) -> FlashResult<()> {
        MetaLog::after_rw_alloc(self, flash, ftl, pbn)
    }
    fn after_rw_write(&mut self, flash: &mut Flash, ftl: &mut FastFtl, pbn: Pbn) -> FlashResult<()> {
        MetaLog::after_rw_write(self, flash, ftl, pbn)
    }
    fn box_clone(&self) -> Box<dyn RecoveryLogging> {
        Box::new(self.clone())
    }
    fn meta_kind(&self, tag: u8) -> Option<super::MetaKind> {
        use super::MetaKind as K;
        Some(match tag {
            mtag::DIR => K::MapDirectory,
            mtag::MAP => K::MapPage,
            // A dump of the log-page-mapping table is what fast-ltlog has for a checkpoint.
            mtag::CKPT | mtag::LTDUMP => K::Checkpoint,
            mtag::LTLOG => K::IntentLog,
            _ => return None,
        })
    }
}

/// (log blocks per region, regions, LTFTL records per page, pages of the page map).
/// The metadata area's most blocks and the blocks kept out of logical space for it (map
/// directory, map blocks, area).
fn reserved_blocks(g: &Geometry, params: &SchemeParams, mode: Mode) -> (u32, u32) {
    let log_blocks = params.log_blocks.unwrap_or(fast::DEFAULT_LOG_BLOCKS);
    let rw_cap = log_blocks.saturating_sub(1).max(1);
    let ppb = g.pages_per_block;
    let (_, regions, _, npmap) = geometry_of(g, params, rw_cap);
    let area_max = match mode {
        Mode::FastCheck => regions.div_ceil(ppb) + 2,
        Mode::LtLog => ((2 + LT_PAGES_PER_DUMP) * npmap).div_ceil(ppb) + 3,
    };
    (area_max, DIR_BLOCKS.len() as u32 + 2 + area_max)
}

/// The registry's geometry rule (`registry::Fits`): FAST's, with the metadata area.
pub fn fits(g: &Geometry, params: &SchemeParams, mode: Mode) -> Result<(), String> {
    FastFtl::fits(g, params, reserved_blocks(g, params, mode).1)
}

fn geometry_of(g: &Geometry, params: &SchemeParams, rw_cap: u32) -> (u32, u32, u32, u32) {
    let ppb = g.pages_per_block;
    // 4.1: a region's LPNs (4 B each) fill one page: 4 KB / 4 B = 1024 LPNs = 8 blocks of 128.
    let p_fc = params.checkpoint_lpns.unwrap_or(g.page_bytes / 4).max(1);
    let bpr = (p_fc / ppb).max(1);
    let regions = rw_cap.div_ceil(bpr);
    // 6.1.1: 16-byte log records, P_ltftl = 4 KB / 16 B = 256.
    let lrecs = params.checkpoint_lpns.unwrap_or(g.page_bytes / 16).max(1);
    // N_pmap: pages to store the log-page-mapping table at 4 B per log page.
    let npmap = (rw_cap * ppb * 4).div_ceil(g.page_bytes).max(1);
    (bpr, regions, lrecs, npmap)
}

impl MetaLog {
    pub fn name(&self) -> &'static str {
        match self.mode {
            Mode::FastCheck => "fastcheck",
            Mode::LtLog => "fast-ltlog",
        }
    }

    pub fn block_role(&self, pbn: Pbn) -> Option<BlockRole> {
        if DIR_BLOCKS.contains(&pbn) {
            Some(BlockRole::MapDirectory)
        } else if pbn == self.map.0 {
            Some(BlockRole::MapBlock)
        } else if self.area.contains(&pbn) {
            Some(match self.mode {
                Mode::FastCheck => BlockRole::Checkpoint,
                Mode::LtLog => BlockRole::Metadata,
            })
        } else {
            None
        }
    }

    pub fn metrics(&self) -> serde_json::Value {
        serde_json::json!({
            "mode": self.mode,
            "log_blocks_per_region": self.bpr,
            "regions": self.regions,
            "ltftl_records_per_page": self.lrecs_in_page,
            "n_pmap": self.npmap,
            "logging": self.stats,
            "last_recovery": self.last_recovery,
        })
    }

    fn meta_blocks(&self) -> Vec<Pbn> {
        let mut v = DIR_BLOCKS.to_vec();
        if self.map.0 != NONE {
            v.push(self.map.0);
        }
        v.extend(self.area.iter().copied());
        v
    }

    // ---- logging ----------------------------------------------------------------------

    /// The map page: the block-level state (FastCheck 3.2 "map blocks").
    fn snapshot(&mut self, ftl: &mut FastFtl) -> Vec<u32> {
        let idx = self.snap_idx;
        self.snap_idx += 1;
        let dirty = std::mem::take(&mut ftl.map_dirty);
        let mut v = std::mem::take(&mut self.spare_map);
        let db = ftl.bmt.len();
        let rw_count = ftl.victim.iter().count() + ftl.rw.len();
        let hdr = 3 + 2 * rw_count + 1 + self.area.len() + 1;
        // The recycled buffer holds snapshot idx - 3 with a header of the same length:
        // rewrite the header, patch the block-map entries changed since (same result).
        let spare_hdr = || {
            let rw = *v.get(2)? as usize;
            let area = *v.get(3 + 2 * rw)? as usize;
            Some(3 + 2 * rw + 1 + area + 1)
        };
        let patch = self.spare_idx.checked_add(3) == Some(idx) && v.len() == hdr + 2 * db && spare_hdr() == Some(hdr);
        if patch {
            let mut i = 0;
            let mut put = |x: u32| {
                v[i] = x;
                i += 1;
            };
            put(ftl.seq);
            put(self.gen_next);
            put(rw_count as u32);
            for &p in ftl.victim.iter().chain(ftl.rw.iter()) {
                put(p);
                put(self.gen[p as usize]);
            }
            put(self.area.len() as u32);
            for &b in &self.area {
                put(b);
            }
            put(ftl.data_blocks);
            for list in [&self.dirty_hist[0], &self.dirty_hist[1], &dirty] {
                for &l in list {
                    v[hdr + l as usize] = ftl.bmt[l as usize];
                    v[hdr + db + l as usize] = ftl.bmt_msn[l as usize];
                }
            }
        } else {
            v.clear();
            v.reserve(hdr + 2 * db);
            v.extend_from_slice(&[ftl.seq, self.gen_next, rw_count as u32]);
            for &p in ftl.victim.iter().chain(ftl.rw.iter()) {
                v.push(p);
                v.push(self.gen[p as usize]);
            }
            v.push(self.area.len() as u32);
            v.extend(self.area.iter().copied());
            v.push(ftl.data_blocks);
            v.extend_from_slice(&ftl.bmt);
            v.extend_from_slice(&ftl.bmt_msn);
        }
        debug_assert_eq!(v, self.full_snapshot(ftl), "patched map-page snapshot {idx}");
        // Keep the last two intervals' changes; the oldest list's buffer collects the next.
        self.dirty_hist.swap(0, 1);
        let oldest = std::mem::replace(&mut self.dirty_hist[1], dirty);
        ftl.map_dirty = oldest;
        ftl.map_dirty.clear();
        v
    }

    /// The map page built from scratch (what `snapshot` must equal).
    fn full_snapshot(&self, ftl: &FastFtl) -> Vec<u32> {
        let mut v = vec![ftl.seq, self.gen_next];
        let rw: Vec<Pbn> = ftl.victim.iter().chain(ftl.rw.iter()).copied().collect();
        v.push(rw.len() as u32);
        for p in rw {
            v.push(p);
            v.push(self.gen[p as usize]);
        }
        v.push(self.area.len() as u32);
        v.extend(self.area.iter().copied());
        v.push(ftl.data_blocks);
        v.extend(ftl.bmt.iter().copied());
        v.extend(ftl.bmt_msn.iter().copied());
        v
    }

    fn take_block(ftl: &mut FastFtl) -> FlashResult<Pbn> {
        ftl.free.take_for("the metadata area")
    }

    /// Writes a map page (4.2); moves the map block when it is full and logs the move in
    /// the map directory (4.3).
    fn log_map(&mut self, flash: &mut Flash, ftl: &mut FastFtl) -> FlashResult<()> {
        let n = self.ppb;
        if self.map.0 == NONE || self.map.1 == n {
            let old = self.map.0;
            let nb = Self::take_block(ftl)?;
            self.map = (nb, 0);
            flash.note("map", || {
                format!("map block full: block {nb} becomes the map block; the map directory records it")
            });
            self.program_map_page(flash, ftl)?;
            // Map directory page (fixed blocks; switch to the other when full).
            if self.dir.1 == n {
                let other = if self.dir.0 == DIR_BLOCKS[0] { DIR_BLOCKS[1] } else { DIR_BLOCKS[0] };
                flash.erase(other, Cause::Map)?;
                self.dir = (other, 0);
            }
            let seq = ftl.next_seq();
            flash.program_meta(self.dir.0 * n + self.dir.1, Page::meta(mtag::DIR, seq), vec![nb], Cause::Map)?;
            self.dir.1 += 1;
            self.stats.map_directory_pages += 1;
            if old != NONE {
                flash.erase(old, Cause::Map)?;
                ftl.free.release(old);
            }
            return Ok(());
        }
        self.program_map_page(flash, ftl)
    }

    fn program_map_page(&mut self, flash: &mut Flash, ftl: &mut FastFtl) -> FlashResult<()> {
        let ppn = self.map.0 * self.ppb + self.map.1;
        let payload = self.snapshot(ftl);
        let seq = ftl.next_seq();
        flash.program_meta(ppn, Page::meta(mtag::MAP, seq), payload, Cause::Map)?;
        self.map.1 += 1;
        self.stats.map_pages += 1;
        self.recent_maps.push_back(ppn);
        while self.recent_maps.len() > 2 {
            let old = self.recent_maps.pop_front().unwrap();
            // The dropped page is the snapshot three before the next one (one map page
            // per snapshot); gone with an erased map block, the next snapshot is built whole.
            match flash.take_payload(old) {
                Some(buf) => {
                    self.spare_map = buf;
                    self.spare_idx = self.snap_idx - 3;
                }
                None => self.spare_idx = u64::MAX,
            }
        }
        Ok(())
    }

    /// Appends a page to the log area, taking a new block (logged in the map) when the
    /// last is full, and erasing blocks that hold no live page (logged first).
    fn area_program(
        &mut self,
        flash: &mut Flash,
        ftl: &mut FastFtl,
        tag: u8,
        lpn: u32,
        payload: Vec<u32>,
        cause: Cause,
    ) -> FlashResult<Ppn> {
        let n = self.ppb;
        if self.area.is_empty() || self.area_next == n {
            let nb = Self::take_block(ftl)?;
            self.area.push_back(nb);
            self.area_next = 0;
            self.log_map(flash, ftl)?;
        }
        let ppn = *self.area.back().unwrap() * n + self.area_next;
        let seq = ftl.next_seq();
        flash.program_meta(ppn, Page { lpn, ..Page::meta(tag, seq) }, payload, cause)?;
        self.area_next += 1;
        Ok(ppn)
    }

    /// Erases log-area blocks (oldest first) that hold no live page.
    fn compact(&mut self, flash: &mut Flash, ftl: &mut FastFtl) -> FlashResult<()> {
        let n = self.ppb;
        let live: Vec<Ppn> = match self.mode {
            Mode::FastCheck => self.region_ckpt.iter().copied().filter(|&p| p != NONE).collect(),
            Mode::LtLog => self.live.clone(),
        };
        let mut dead = Vec::new();
        while self.area.len() > 1 {
            let b = self.area[0];
            if live.iter().any(|&p| p / n == b) {
                break;
            }
            dead.push(self.area.pop_front().unwrap());
        }
        if dead.is_empty() {
            return Ok(());
        }
        self.log_map(flash, ftl)?;
        for b in dead {
            flash.erase(b, cause_of(self.mode))?;
            self.stats.log_area_erases += 1;
            ftl.free.release(b);
        }
        Ok(())
    }

    /// End of a merge (FastCheck 4.2: the block map with dbMSNs is logged in the map block;
    /// LTFTL-style: the records of the merged-out pages are flushed at once, 6.2).
    pub(crate) fn after_merge(
        &mut self,
        flash: &mut Flash,
        ftl: &mut FastFtl,
        lbn: u32,
        merged_out: u32,
    ) -> FlashResult<()> {
        if self.mode == Mode::LtLog {
            if merged_out > 0 {
                self.records.push((REC_MERGE, lbn, 0));
                self.stats.ltftl_records += merged_out as u64;
                self.records_since_dump += merged_out as u64;
            }
            self.flush(flash, ftl)?;
        }
        flash.note("map", || {
            format!(
                "merge of LBN {lbn} done: block map (dbMSN {}) logged in map block {}",
                ftl.bmt_msn[lbn as usize], self.map.0
            )
        });
        self.log_map(flash, ftl)
    }

    /// A new RW log block replaced the victim: log the block map (4.2).
    pub(crate) fn after_rw_alloc(&mut self, flash: &mut Flash, ftl: &mut FastFtl, pbn: Pbn) -> FlashResult<()> {
        self.gen[pbn as usize] = self.gen_next;
        self.gen_next += 1;
        self.log_map(flash, ftl)
    }

    /// A host page went to a RW log block.
    pub(crate) fn after_rw_write(&mut self, flash: &mut Flash, ftl: &mut FastFtl, pbn: Pbn) -> FlashResult<()> {
        let n = self.ppb;
        match self.mode {
            Mode::FastCheck => {
                if ftl.rw_fill < n {
                    return Ok(());
                }
                self.lbmsn[pbn as usize] = ftl.seq;
                match self.region_ended_by(ftl, pbn) {
                    Some((region, k)) => self.checkpoint_region(flash, ftl, region, k),
                    None => Ok(()),
                }
            }
            Mode::LtLog => {
                let ppn = pbn * n + ftl.rw_fill - 1;
                self.records.push((ppn, ftl.smt[ppn as usize], self.gen[pbn as usize]));
                self.stats.ltftl_records += 1;
                self.records_since_dump += 1;
                if self.records.len() as u32 >= self.lrecs_in_page {
                    self.flush(flash, ftl)?;
                }
                Ok(())
            }
        }
    }

    /// FastCheck: (region, its log blocks) when `pbn` is the last log block of its log
    /// region (by its slot in the FIFO RW list), None otherwise.
    fn region_ended_by(&self, ftl: &FastFtl, pbn: Pbn) -> Option<(u32, usize)> {
        let cap = ftl.rw_capacity();
        let slot = self.gen[pbn as usize] % cap;
        ((slot + 1).is_multiple_of(self.bpr) || slot + 1 == cap)
            .then(|| (slot / self.bpr, (slot % self.bpr + 1) as usize))
    }

    /// The region's last log block is full: checkpoint its part of the log-page-mapping
    /// table (4.1), one page: its `k` log blocks, the newest of the RW list.
    fn checkpoint_region(&mut self, flash: &mut Flash, ftl: &mut FastFtl, region: u32, k: usize) -> FlashResult<()> {
        let n = self.ppb;
        let blocks: Vec<Pbn> = ftl.rw.iter().rev().take(k).rev().copied().collect();
        let mut payload = vec![region, blocks.len() as u32];
        for &b in &blocks {
            payload.extend([b, self.gen[b as usize], self.lbmsn[b as usize]]);
        }
        for &b in &blocks {
            payload.extend_from_slice(&ftl.smt[(b * n) as usize..((b + 1) * n) as usize]);
        }
        flash.note("checkpoint", || {
            format!("log region {region} full ({} log blocks): its part of the log-page-mapping table checkpointed in one page", blocks.len())
        });
        let ppn = self.area_program(flash, ftl, mtag::CKPT, region, payload, Cause::Log)?;
        self.stats.checkpoint_pages += 1;
        self.region_ckpt[region as usize] = ppn;
        self.compact(flash, ftl)
    }

    /// LTFTL-style: writes the records in RAM as one log page; dumps the whole
    /// log-page-mapping table when the records since the last dump pass the threshold
    /// (N_lr_threshold = P_ltftl × N_pmap, 6.1.1) or the record pages since it reach
    /// LT_PAGES_PER_DUMP × N_pmap.
    fn flush(&mut self, flash: &mut Flash, ftl: &mut FastFtl) -> FlashResult<()> {
        if self.records.is_empty() {
            return Ok(());
        }
        let payload: Vec<u32> = self.records.iter().flat_map(|&(a, b, c)| [a, b, c]).collect();
        let ppn = self.area_program(flash, ftl, mtag::LTLOG, 0, payload, Cause::Log)?;
        self.records.clear();
        self.stats.ltftl_record_pages += 1;
        self.live.push(ppn);
        self.log_pages_since_dump += 1;
        let threshold = self.lrecs_in_page as u64 * self.npmap as u64;
        if self.records_since_dump >= threshold || self.log_pages_since_dump >= LT_PAGES_PER_DUMP * self.npmap {
            self.dump(flash, ftl)?;
        }
        Ok(())
    }

    fn dump(&mut self, flash: &mut Flash, ftl: &mut FastFtl) -> FlashResult<()> {
        let n = self.ppb;
        let rw: Vec<Pbn> = ftl.victim.iter().chain(ftl.rw.iter()).copied().collect();
        let mut table = vec![rw.len() as u32];
        for &b in &rw {
            table.extend([b, self.gen[b as usize]]);
        }
        for &b in &rw {
            table.extend_from_slice(&ftl.smt[(b * n) as usize..((b + 1) * n) as usize]);
        }
        let k = self.npmap as usize;
        let chunk = table.len().div_ceil(k).max(1);
        flash.note("checkpoint", || {
            format!("log records past the threshold: the log-page-mapping table dumped ({k} pages)")
        });
        let mut pages = Vec::with_capacity(k);
        for i in 0..k {
            let part = table.iter().skip(i * chunk).take(chunk).copied().collect();
            pages.push(self.area_program(flash, ftl, mtag::LTDUMP, i as u32, part, Cause::Log)?);
        }
        self.stats.ltftl_dumps += 1;
        self.stats.ltftl_dump_pages += k as u64;
        self.live = pages;
        self.records_since_dump = 0;
        self.log_pages_since_dump = 0;
        self.compact(flash, ftl)
    }

    pub fn panels(&self, ftl: &FastFtl, flash: &Flash) -> Vec<Panel> {
        let area = MetadataArea {
            directory: PageAt { pbn: self.dir.0, page: self.dir.1 },
            map: some(self.map.0).map(|pbn| PageAt { pbn, page: self.map.1 }),
            holds: match self.mode {
                Mode::FastCheck => MetadataBlocks::Checkpoints,
                Mode::LtLog => MetadataBlocks::LogAndDumps,
            },
            blocks: self.area.iter().copied().collect(),
            records: (self.mode == Mode::LtLog)
                .then_some(RecordFill { held: self.records.len() as u32, per_page: self.lrecs_in_page }),
        };
        let mut t = vec![Panel::new("Metadata area", PanelData::MetadataArea(area))];
        if self.mode == Mode::FastCheck {
            let cap = ftl.rw_capacity();
            let rw: Vec<Pbn> = ftl.victim.iter().chain(ftl.rw.iter()).copied().collect();
            let blocks = rw
                .iter()
                .take(64)
                .map(|&b| {
                    let g = self.gen[b as usize];
                    let region = (g % cap) / self.bpr;
                    let ck = self.region_ckpt[region as usize];
                    let lbmsn = self.lbmsn[b as usize];
                    RegionLog {
                        pbn: b,
                        region,
                        lbmsn: (lbmsn != 0).then_some(lbmsn),
                        checkpointed: ck != NONE && flash.payload(ck).is_some_and(|p| covers(p, b, g)),
                        lsns: ftl.sector_entries(b),
                    }
                })
                .collect();
            t.push(Panel::new(
                format!(
                    "Log regions ({} log blocks per region, {} regions) and lbMSN{}",
                    self.bpr,
                    self.regions,
                    if rw.len() > 64 { " — first 64 RW log blocks" } else { "" }
                ),
                PanelData::LogRegions { blocks_per_region: self.bpr, regions: self.regions, blocks },
            ));
        }
        t
    }
}

fn cause_of(mode: Mode) -> Cause {
    match mode {
        Mode::FastCheck => Cause::Log,
        Mode::LtLog => Cause::Log,
    }
}

/// Whether a checkpoint page's payload lists block `b` of generation `g`.
fn covers(p: &[u32], b: Pbn, g: u32) -> bool {
    let k = p.get(1).copied().unwrap_or(0) as usize;
    (0..k).any(|i| p.get(2 + 3 * i) == Some(&b) && p.get(3 + 3 * i) == Some(&g))
}

// ---- recovery ---------------------------------------------------------------------------
