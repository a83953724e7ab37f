//! FAST (Lee et al., "A log buffer-based FTL using fully-associative sector
//! translation", ACM TECS 2007) and O-FAST, its lazy-merge variant (section 3.6).
//!
//! Pages are the paper's sectors: an LPN is the paper's lsn and `lbn = lsn / sectors
//! per block`. Logical space = the data blocks; the log blocks are one SW (sequential
//! write) log block plus `log_blocks - 1` RW (random write) log blocks (3.2).
//! Writes follow Fig. 6: Algorithm 1 writes in place when the data block's page is
//! still empty; a collision goes to `write_to_log_block` (Algorithm 2), cases 1, 2.1,
//! 2.2, 2.3 and 3 of Fig. 5. docs/schemes/fast.md lists every choice where the paper
//! is silent.

use std::collections::VecDeque;

use super::pool::BlockPool;
use super::panel::{first_rows, some, DataBlockEntry, SectorEntry, SequentialLog, SharedLog, PANEL_ROWS};
use super::registry::{self, Builder, Mapping, ParamSpec, Run, SchemeEntry, Value};
use super::{BlockRole, Cleaning, Ftl, Panel, PanelData, SchemeParams};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, Pbn, Ppn, NONE};

mod merge;
pub(crate) mod recovery;

/// Free blocks kept beyond data and log blocks: a merge into a new block (a RW victim's
/// merge per logical block, the case 2.3 merge) needs one free block before it can
/// erase the old ones; every other merge frees blocks before it takes one.
pub const SPARE_BLOCKS: u32 = 1;
/// Default number of log blocks: the hybrid schemes' one default
/// (registry::HYBRID_LOG_BLOCKS; section 3.7's examples use four).
pub const DEFAULT_LOG_BLOCKS: u32 = registry::HYBRID_LOG_BLOCKS;

/// FAST's log blocks: 1 SW and at least 1 RW (FastCheck and fast-ltlog read the same).
pub const LOG_BLOCKS: ParamSpec = ParamSpec {
    min: Value::Fixed(2.0),
    default: Value::Fixed(DEFAULT_LOG_BLOCKS as f64),
    why: "FAST needs at least 2 log blocks: 1 SW and at least 1 RW",
    ..registry::LOG_BLOCKS
};

/// The registry's FAST entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "fast",
    label: "FAST",
    short_label: "FAST",
    description: "FAST: one SW log block plus fully-associative RW log blocks, eager merge",
    params: &[LOG_BLOCKS],
    cleaning: Cleaning::Merges,
    runs: &[Run::Switch, Run::PartialMerge, Run::FullMerge],
    seldom: &[],
    mapping: Mapping::Hybrid,
    panels: &[],
    build: Builder::Geometry(|p, g| Ok(Box::new(FastFtl::new(g, p, false)?))),
    fits: |p, c| FastFtl::fits(&c.geometry, p, 0),
    recover: |flash, p| Ok(Box::new(recovery::recover_fast(flash, p, false)?)),
};

/// The registry's O-FAST entry (ftl::REGISTRY).
pub const OFAST_ENTRY: SchemeEntry = SchemeEntry {
    id: "ofast",
    label: "O-FAST (lazy merge)",
    short_label: "O-FAST",
    description: "O-FAST: FAST with lazy merge (skips merges whose sectors have newer copies)",
    build: Builder::Geometry(|p, g| Ok(Box::new(FastFtl::new(g, p, true)?))),
    recover: |flash, p| Ok(Box::new(recovery::recover_fast(flash, p, true)?)),
    ..ENTRY
};

/// A RW sector-mapping entry marked invalid (−1 in the paper, 3.4): its logical block
/// was merged, so its data block holds the up-to-date copy.
pub(crate) const MERGED: u32 = u32::MAX - 1;

/// Spare-area tags (the `tag` byte of every program), so recovery can tell the role a
/// page was written in from the chip alone (FastCheck 2.1: the original FAST recovers
/// from the spare areas). The low bits are the role, the high bits flags.
pub(crate) mod tag {
    /// Host write in place into a data block (Algorithm 1).
    pub const DATA: u8 = 1;
    /// Host write into the SW log block (cases 1 and 2.1).
    pub const SW: u8 = 2;
    /// Host write into a RW log block (case 3).
    pub const RW: u8 = 3;
    /// A page written by a merge (copy, or the host sector of cases 2.2 / 2.3).
    pub const MERGE: u8 = 4;
    /// A copy recovery makes of the in-order sectors of an SW log block whose append, or
    /// partial merge, a cut interrupted (ftl/fast/recovery.rs): the copy is the SW log block.
    /// RETIRE_SW on its last copy says it is complete (its torn source is garbage).
    pub const RESTORE: u8 = 5;
    pub const ROLE: u8 = crate::ftl::scan_recovery::tag::ROLE;
    /// The last program of a merge: the destination is complete, so its sources may be
    /// gone (a merge destination without it is incomplete and recovery undoes it).
    pub const LAST: u8 = crate::ftl::scan_recovery::tag::LAST;
    /// On the last page of a merge that retires the SW log block (case 2.3, recovery
    /// merges): the older SW log block of that logical block is garbage.
    pub const RETIRE_SW: u8 = crate::ftl::scan_recovery::tag::RETIRE_SW;
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Use {
    Free,
    Data,
    Sw,
    Rw,
}

/// The SW log block part of the sector-mapping table: its owner and how many sectors
/// it holds (always offsets 0..next of the owner, in order: the two conditions of 3.3).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SwLog {
    pub(crate) pbn: Pbn,
    pub(crate) lbn: u32,
    pub(crate) next: u32,
}

/// Counts of the Fig. 5 cases and of O-FAST's skipped merges.
#[derive(Clone, Default, Debug, serde::Serialize)]
pub(crate) struct CaseCounts {
    in_place: u64,
    case1: u64,
    case2_1: u64,
    case2_2: u64,
    case2_3: u64,
    case3: u64,
    /// Merges a RW victim did not need because every sector of the logical block
    /// was already −1 is not a merge at all; this counts O-FAST's lazy skips (3.6).
    lazy_skips: u64,
    /// RW victims replaced with no merge at all (every entry −1 or lazily skipped).
    victims_without_merge: u64,
}

/// Crash-recovery logging hooked into FAST's merges and log writes (FastCheck, or FAST
/// with LTFTL-style logging: ftl/fastcheck). FAST calls it and never names what
/// implements it, so the dependency goes one way.
pub trait RecoveryLogging: Send {
    fn name(&self) -> &'static str;
    /// The role of a block of the metadata area, None for FAST's own blocks.
    fn block_role(&self, pbn: Pbn) -> Option<BlockRole>;
    fn metrics(&self) -> serde_json::Value;
    fn panels(&self, ftl: &FastFtl, flash: &Flash) -> Vec<Panel>;
    /// The end of a merge of `lbn` (`merged_out` pages left a log block).
    fn after_merge(&mut self, flash: &mut Flash, ftl: &mut FastFtl, lbn: u32, merged_out: u32) -> FlashResult<()>;
    /// A new RW log block `pbn` replaced the victim.
    fn after_rw_alloc(&mut self, flash: &mut Flash, ftl: &mut FastFtl, pbn: Pbn) -> FlashResult<()>;
    /// A host page went to RW log block `pbn`.
    fn after_rw_write(&mut self, flash: &mut Flash, ftl: &mut FastFtl, pbn: Pbn) -> FlashResult<()>;
    fn box_clone(&self) -> Box<dyn RecoveryLogging>;
    /// The kind of metadata page a spare-area tag marks (`Ftl::meta_kind`).
    fn meta_kind(&self, tag: u8) -> Option<super::MetaKind>;
}

impl Clone for Box<dyn RecoveryLogging> {
    fn clone(&self) -> Self {
        self.box_clone()
    }
}

#[derive(Clone)]
pub struct FastFtl {
    pub(crate) ppb: u32,
    pub(crate) data_blocks: u32,
    pub(crate) log_blocks: u32,
    /// O-FAST: lazy merge (3.6).
    pub(crate) lazy: bool,
    /// Block-mapping table: lbn → data pbn (NONE before the first write).
    pub(crate) bmt: Vec<Pbn>,
    pub(crate) usage: Vec<Use>,
    pub(crate) owner: Vec<u32>,
    pub(crate) free: BlockPool,
    /// Whether each physical page holds data (in-place writes need to know: Algorithm 1).
    pub(crate) written: Vec<bool>,
    pub(crate) sw: Option<SwLog>,
    /// RW log block list in order: the front is the next round-robin victim (Fig. 6
    /// line 22), the back is being filled (3.2: "filling the RW log blocks in sequence").
    pub(crate) rw: VecDeque<Pbn>,
    /// Pages used in the last RW log block.
    pub(crate) rw_fill: u32,
    /// RW sector-mapping table, per physical page: the lsn, MERGED (−1) or NONE (empty).
    pub(crate) smt: Vec<Lpn>,
    /// Newest RW copy of each lsn (an index over `smt`, what a scan from its end finds).
    pub(crate) rw_latest: Vec<Ppn>,
    /// RW pages of each logical block that are not −1 (an index for the merges).
    pub(crate) rw_of_lbn: Vec<Vec<Ppn>>,
    pub(crate) cases: CaseCounts,
    /// Sequence number written to the spare area of every program (a global program
    /// clock): recovery orders blocks and copies by it.
    pub(crate) seq: u32,
    /// dbMSN of each logical block: the program clock when the merge that made its data
    /// block completed (FastCheck 5.2.2; kept only when `meta` logs it).
    pub(crate) bmt_msn: Vec<u32>,
    /// Crash-recovery logging (FastCheck, or LTFTL-style logging on FAST); None for the
    /// plain schemes, which recover by scanning spare areas (ftl/scan_recovery.rs).
    pub(crate) meta: Option<Box<dyn RecoveryLogging>>,
    /// The RW victim being replaced (popped from `rw`, not yet erased), for the map page.
    pub(crate) victim: Option<Pbn>,
    /// The free block a merge is filling, until the old data block's erase: it reads DEST
    /// as BAST's does (issue 35; RAM only, None between requests).
    pub(crate) dest: Option<Pbn>,
    /// The merge's source list, kept between merges so a merge allocates nothing (wasm's
    /// allocator made FAST's merges slower there than natively; issue 37). Holds no state.
    pub(crate) merge_srcs: Vec<Option<Ppn>>,
    /// With crash-recovery logging: the lbns whose `bmt` / `bmt_msn` entry changed since
    /// the last map page, so the next map-page snapshot patches a recycled copy instead of
    /// copying the whole block map (simulation bookkeeping only; fastcheck.rs).
    pub(crate) map_dirty: Vec<u32>,
    pub(crate) track_map: bool,
}

impl FastFtl {
    /// The registry's geometry rule (`registry::Fits`): what `with_layout` refuses, with
    /// `reserved` metadata blocks.
    pub(crate) fn fits(g: &Geometry, params: &SchemeParams, reserved: u32) -> Result<(), String> {
        let log_blocks = params.log_blocks.unwrap_or(DEFAULT_LOG_BLOCKS);
        if (log_blocks as f64) < LOG_BLOCKS.min.resolve(g) {
            return Err(format!("FAST needs at least 2 log blocks: 1 SW and at least 1 RW (got {log_blocks})"));
        }
        if g.blocks < log_blocks + SPARE_BLOCKS + reserved + 1 {
            // The metadata area (FastCheck, fast-ltlog) counts in the limit named.
            let meta = if reserved > 0 { format!(", {reserved} metadata") } else { String::new() };
            return Err(format!(
                "FAST with {log_blocks} log blocks needs at least {} blocks{} ({log_blocks} log, {SPARE_BLOCKS} spare{meta}, 1 data)",
                log_blocks + SPARE_BLOCKS + reserved + 1,
                if reserved > 0 { " here" } else { "" }
            ));
        }
        Ok(())
    }

    pub fn new(g: &Geometry, params: &SchemeParams, lazy: bool) -> Result<FastFtl, String> {
        Self::with_layout(g, params, lazy, 0, &[])
    }

    /// FAST with `reserved` blocks kept out of logical space for a metadata area, of which
    /// `fixed` are never in the free list (FastCheck's map directory).
    pub(crate) fn with_layout(
        g: &Geometry,
        params: &SchemeParams,
        lazy: bool,
        reserved: u32,
        fixed: &[Pbn],
    ) -> Result<FastFtl, String> {
        Self::fits(g, params, reserved)?;
        let log_blocks = params.log_blocks.unwrap_or(DEFAULT_LOG_BLOCKS);
        let data_blocks = g.blocks - log_blocks - SPARE_BLOCKS - reserved;
        let pages = g.pages() as usize;
        Ok(FastFtl {
            ppb: g.pages_per_block,
            data_blocks,
            log_blocks,
            lazy,
            bmt: vec![NONE; data_blocks as usize],
            usage: vec![Use::Free; g.blocks as usize],
            owner: vec![NONE; g.blocks as usize],
            free: BlockPool::new("FAST", (0..g.blocks).filter(|b| !fixed.contains(b))),
            written: vec![false; pages],
            sw: None,
            rw: VecDeque::new(),
            rw_fill: 0,
            smt: vec![NONE; pages],
            rw_latest: vec![NONE; (data_blocks * g.pages_per_block) as usize],
            rw_of_lbn: vec![Vec::new(); data_blocks as usize],
            cases: CaseCounts::default(),
            seq: 0,
            bmt_msn: vec![0; data_blocks as usize],
            meta: None,
            map_dirty: Vec::new(),
            track_map: false,
            merge_srcs: Vec::new(),
            victim: None,
            dest: None,
        })
    }

    /// A merge of `lbn` completed (its new data block holds every sector): record its
    /// dbMSN and let the crash-recovery logging log the block map (FastCheck 4.2).
    fn merged(&mut self, flash: &mut Flash, lbn: u32, merged_out: u32) -> FlashResult<()> {
        self.bmt_msn[lbn as usize] = self.seq;
        self.map_changed(lbn);
        if let Some(mut m) = self.meta.take() {
            // Put the logging back before a pause or cut unwinds: RAM stays whole.
            let r = m.after_merge(flash, self, lbn, merged_out);
            self.meta = Some(m);
            r?;
        }
        Ok(())
    }

    pub(crate) fn rw_capacity(&self) -> u32 {
        self.log_blocks - 1
    }

    pub(crate) fn take_free(&mut self, use_: Use, owner: u32) -> FlashResult<Pbn> {
        let pbn = self.free.take()?;
        self.usage[pbn as usize] = use_;
        self.owner[pbn as usize] = owner;
        Ok(pbn)
    }

    pub(crate) fn next_seq(&mut self) -> u32 {
        self.seq += 1;
        self.seq
    }

    /// Programs `(lsn, version)` with a fresh sequence number and `tag` in the spare area.
    pub(crate) fn program(
        &mut self,
        flash: &mut Flash,
        ppn: Ppn,
        lsn: Lpn,
        version: u32,
        cause: Cause,
        tag: u8,
    ) -> FlashResult<()> {
        let seq = self.next_seq();
        flash.program(ppn, Page::stamped(lsn, version, seq, tag), cause)?;
        self.written[ppn as usize] = true;
        Ok(())
    }

    /// A copy (one read, one program) that writes a fresh sequence number and `tag`.
    pub(crate) fn copy(&mut self, flash: &mut Flash, src: Ppn, dst: Ppn, cause: Cause, tag: u8) -> FlashResult<()> {
        let p = flash.read(src, cause)?;
        self.program(flash, dst, p.lpn, p.version, cause, tag)
    }

    pub(crate) fn erase(&mut self, flash: &mut Flash, pbn: Pbn, cause: Cause) -> FlashResult<()> {
        flash.erase(pbn, cause)?;
        let n = self.ppb as usize;
        self.written[pbn as usize * n..(pbn as usize + 1) * n].fill(false);
        self.smt[pbn as usize * n..(pbn as usize + 1) * n].fill(NONE);
        self.usage[pbn as usize] = Use::Free;
        self.owner[pbn as usize] = NONE;
        self.free.release(pbn);
        Ok(())
    }

    /// The up-to-date copy of `lsn` outside the SW log block: the newest RW copy, else
    /// the data block's page if written. Always inlined, as `locate` is: see there.
    #[inline(always)]
    fn latest_outside_sw(&self, lsn: Lpn) -> Option<Ppn> {
        let r = self.rw_latest[lsn as usize];
        if r != NONE {
            return Some(r);
        }
        let (lbn, off) = self.split(lsn);
        let d = self.bmt[lbn as usize];
        if d == NONE {
            return None;
        }
        let ppn = d * self.ppb + off;
        self.written[ppn as usize].then_some(ppn)
    }

    /// (lbn, offset) of a sector: shift and mask for a power-of-two block (no division
    /// per lookup on the merge path).
    #[inline]
    fn split(&self, lsn: Lpn) -> (u32, u32) {
        let n = self.ppb;
        if n.is_power_of_two() {
            (lsn >> n.trailing_zeros(), lsn & (n - 1))
        } else {
            (lsn / n, lsn % n)
        }
    }

    #[inline]
    fn map_changed(&mut self, lbn: u32) {
        if self.track_map {
            self.map_dirty.push(lbn);
        }
    }

    /// Marks every RW sector of `lbn` −1 (3.4): its new data block is up to date.
    pub(crate) fn invalidate_rw(&mut self, lbn: u32) -> u32 {
        let mut k = 0;
        // The list is emptied but keeps its allocation for the block's next RW writes: a
        // free here and a malloc at the next push cost FAST ~a fifth of its run in wasm,
        // whose allocator is slower than the native one (issue 37, item 5).
        let mut list = std::mem::take(&mut self.rw_of_lbn[lbn as usize]);
        for &ppn in &list {
            let lsn = self.smt[ppn as usize];
            if lsn != NONE && lsn != MERGED {
                self.smt[ppn as usize] = MERGED;
                k += 1;
                if self.rw_latest[lsn as usize] == ppn {
                    self.rw_latest[lsn as usize] = NONE;
                }
            }
        }
        list.clear();
        self.rw_of_lbn[lbn as usize] = list;
        k
    }

    /// Case 3: append to the RW log blocks, replacing a victim when they are full.
    fn write_rw(&mut self, flash: &mut Flash, lsn: Lpn, version: u32) -> FlashResult<()> {
        let n = self.ppb;
        if self.rw.is_empty() || self.rw_fill == n {
            let mut victim = None;
            if self.rw.len() as u32 == self.rw_capacity() {
                victim = Some(self.replace_rw_victim(flash)?);
            }
            let pbn = self.take_free(Use::Rw, NONE)?;
            self.rw.push_back(pbn);
            self.rw_fill = 0;
            self.victim = None;
            flash.note("alloc", || format!("free block {pbn} added to the end of the RW log block list"));
            if let Some(mut m) = self.meta.take() {
                // FastCheck 4.2: the victim replaced by an empty block changes the log-block
                // part of the block map: log it, then erase the victim (a cut in between
                // leaves a block the map no longer lists: garbage for recovery).
                let r = m.after_rw_alloc(flash, self, pbn);
                self.meta = Some(m);
                r?;
                if let Some(v) = victim {
                    self.erase(flash, v, Cause::FullMerge)?;
                }
            }
        }
        let pbn = *self.rw.back().unwrap();
        let ppn = pbn * n + self.rw_fill;
        self.program(flash, ppn, lsn, version, Cause::Host, tag::RW)?;
        self.rw_fill += 1;
        self.smt[ppn as usize] = lsn;
        self.rw_latest[lsn as usize] = ppn;
        self.rw_of_lbn[(lsn / n) as usize].push(ppn);
        if let Some(mut m) = self.meta.take() {
            let r = m.after_rw_write(flash, self, pbn);
            self.meta = Some(m);
            r?;
        }
        Ok(())
    }

    /// Algorithm 2 of Fig. 6: a collision at `offset` of the data block of `lbn`.
    fn write_to_log_block(&mut self, flash: &mut Flash, lsn: Lpn, version: u32) -> FlashResult<()> {
        let n = self.ppb;
        let (lbn, offset) = (lsn / n, lsn % n);
        if offset == 0 {
            // Case 1: the first condition (lsn mod n = 0) holds.
            self.cases.case1 += 1;
            flash.note("case", || {
                format!(
                    "case 1 (Fig. 5): S{lsn} is at offset 0, so it starts a new SW log block{}",
                    match self.sw {
                        Some(s) if s.next == n => format!(
                            "; the SW log block {} (LBN {}) is full and sequential → switch first",
                            s.pbn, s.lbn
                        ),
                        Some(s) => format!(
                            "; the SW log block {} (LBN {}, {} of {n} sectors) is merged first",
                            s.pbn, s.lbn, s.next
                        ),
                        None => String::new(),
                    }
                )
            });
            self.retire_sw(flash, None)?;
            let pbn = self.take_free(Use::Sw, lbn)?;
            self.program(flash, pbn * n, lsn, version, Cause::Host, tag::SW)?;
            self.sw = Some(SwLog { pbn, lbn, next: 1 });
            return Ok(());
        }
        match self.sw {
            Some(sw) if sw.lbn == lbn => {
                let last = lbn * n + sw.next - 1;
                if offset == sw.next {
                    // Case 2.1: lsn = last_lsn + 1, the second condition holds.
                    self.cases.case2_1 += 1;
                    flash.note("case", || {
                        format!(
                            "case 2.1 (Fig. 5): S{lsn} follows last lsn S{last} of the SW log block {} → appended",
                            sw.pbn
                        )
                    });
                    self.program(flash, sw.pbn * n + offset, lsn, version, Cause::Host, tag::SW)?;
                    self.sw = Some(SwLog { next: sw.next + 1, ..sw });
                } else if offset > sw.next {
                    // Case 2.2: a gap. Partial merge (Fig. 7a) with the new sector written
                    // at its offset of the SW log block as part of the merge.
                    self.cases.case2_2 += 1;
                    flash.note("case", || format!("case 2.2 (Fig. 5): S{lsn} does not follow last lsn S{last} of the SW log block (a gap) → SW partial merge, S{lsn} written into the merged block"));
                    self.retire_sw(flash, Some((lsn, version)))?;
                } else {
                    // Case 2.3: the sector is already in the SW log block, so the SW log
                    // block cannot take it: merge into a new block with the sector in it.
                    self.cases.case2_3 += 1;
                    flash.note("case", || format!("case 2.3 (Fig. 5): S{lsn} is already in the SW log block {} (last lsn S{last}) → merge SW log block and data block into a free block, S{lsn} written there", sw.pbn));
                    self.sw = None;
                    Self::record_replacement(flash, sw.next, n);
                    self.merge_into_new_with_sw(flash, sw, lsn, version)?;
                }
                Ok(())
            }
            _ => {
                // Case 3: neither condition holds.
                self.cases.case3 += 1;
                flash.note("case", || {
                    format!("case 3 (Fig. 5): S{lsn} satisfies neither SW condition → appended to the RW log blocks")
                });
                self.write_rw(flash, lsn, version)
            }
        }
    }
}

/// "0", "0 and 2", "0, 2 and 5".
/// "1 sector", "3 sectors" (narration).
fn sectors(n: usize, what: &str) -> String {
    format!("{n} {what}{}", if n == 1 { "" } else { "s" })
}

fn join_and(v: &[u32]) -> String {
    let s: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    match s.len() {
        0 => String::new(),
        1 => s[0].clone(),
        k => format!("{} and {}", s[..k - 1].join(", "), s[k - 1]),
    }
}

fn count_merges(k: usize) -> String {
    const WORDS: [&str; 10] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    let w = WORDS.get(k).map(|w| w.to_string()).unwrap_or_else(|| k.to_string());
    format!("{w} merge{}", if k == 1 { "" } else { "s" })
}

impl Ftl for FastFtl {
    fn meta_kind(&self, tag: u8) -> Option<super::MetaKind> {
        self.meta.as_ref().and_then(|m| m.meta_kind(tag))
    }
    fn name(&self) -> &'static str {
        if let Some(m) = &self.meta {
            return m.name();
        }
        if self.lazy {
            "ofast"
        } else {
            "fast"
        }
    }

    fn logical_pages(&self) -> u32 {
        self.data_blocks * self.ppb
    }

    /// Algorithm 1 of Fig. 6.
    fn write(&mut self, flash: &mut Flash, lsn: Lpn, version: u32) -> FlashResult<()> {
        let n = self.ppb;
        let (lbn, offset) = self.split(lsn);
        let mut pbn = self.bmt[lbn as usize];
        if pbn == NONE {
            // First write to this logical block: it gets a data block from the free list.
            pbn = self.take_free(Use::Data, lbn)?;
            self.bmt[lbn as usize] = pbn;
            self.map_changed(lbn);
            flash.note("alloc", || format!("LBN {lbn} gets data block {pbn} from the free-block list"));
        }
        let ppn = pbn * n + offset;
        if !self.written[ppn as usize] {
            self.cases.in_place += 1;
            flash.note("in_place", || {
                format!(
                    "S{lsn}: offset {offset} of data block {pbn} (LBN {lbn}) is empty → written in place (Algorithm 1)"
                )
            });
            return self.program(flash, ppn, lsn, version, Cause::Host, tag::DATA);
        }
        self.write_to_log_block(flash, lsn, version)
    }

    fn read(&mut self, flash: &mut Flash, lsn: Lpn) -> FlashResult<Option<Ppn>> {
        let Some(ppn) = self.locate(lsn) else { return Ok(None) };
        flash.read(ppn, Cause::Host)?;
        Ok(Some(ppn))
    }

    /// SW log block first (its sectors are newer than any RW copy: while it owns a
    /// logical block every write to that block goes to it), then the newest RW copy,
    /// then the data block.
    /// Always inlined into the merges' loops (64 lookups a merge): called, it returns its
    /// `Option<u32>` through wasm's linear memory (two 4-byte stores read back as one 8-byte
    /// load, which the CPU cannot forward from its store buffer), and that load stalled
    /// ~12 % of FAST's run in Chromium (perf of V8's code, issue 37 item 5); natively the
    /// pair comes back in registers.
    #[inline(always)]
    fn locate(&self, lsn: Lpn) -> Option<Ppn> {
        if lsn >= self.logical_pages() {
            return None;
        }
        let (lbn, off) = self.split(lsn);
        if let Some(sw) = self.sw {
            if sw.lbn == lbn && off < sw.next {
                return Some(sw.pbn * self.ppb + off);
            }
        }
        self.latest_outside_sw(lsn)
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        if let Some(r) = self.meta.as_ref().and_then(|m| m.block_role(pbn)) {
            return r;
        }
        match self.usage[pbn as usize] {
            Use::Free => BlockRole::Free,
            Use::Data if self.dest == Some(pbn) => BlockRole::GcDestination,
            Use::Data => BlockRole::Data,
            Use::Sw => BlockRole::SwLog,
            Use::Rw => BlockRole::RwLog,
        }
    }

    fn block_owner(&self, pbn: Pbn) -> Option<u32> {
        Some(self.owner[pbn as usize]).filter(|&o| o != NONE)
    }

    /// The KRAFT paper's accounting of FAST's map (ftl/ram.rs): a block map entry per
    /// logical block plus a page-mapped table for every log block.
    fn ram_bytes(&self) -> u64 {
        let g = super::ram::MapGeometry {
            // Data blocks, log blocks and the spare block a merge needs.
            physical_blocks: (self.data_blocks + self.log_blocks + 1) as u64,
            logical_blocks: self.data_blocks as u64,
            pages_per_block: self.ppb as u64,
        };
        // Section 3.2: the SW log's table is its owner and a count, not a page table.
        super::ram::bytes(g.fast_scheme_bits(self.log_blocks as u64))
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(&self.cases).unwrap_or(serde_json::Value::Null);
        if let (Some(m), Some(o)) = (&self.meta, v.as_object_mut()) {
            o.insert("recovery_logging".into(), m.metrics());
        }
        v
    }

    fn page_state(&self, flash: &Flash, ppn: Ppn) -> super::PageState {
        if self.meta.is_some() && flash.peek(ppn).kind == crate::nand::PageKind::Meta {
            return super::PageState::Metadata;
        }
        super::default_page_state(self, flash, ppn)
    }

    fn panels(&self, flash: &Flash) -> Vec<Panel> {
        let mut t = self.fast_panels();
        if let Some(m) = &self.meta {
            t.extend(m.panels(self, flash));
        }
        t
    }
}

impl FastFtl {
    fn fast_panels(&self) -> Vec<Panel> {
        let n = self.ppb;
        let entries = self
            .bmt
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(lbn, &p)| DataBlockEntry { lbn: lbn as u32, pbn: some(p) });
        let sw = self.sw.map(|s| SequentialLog {
            pbn: s.pbn,
            lbn: s.lbn,
            last_lsn: s.lbn * n + s.next - 1,
            sectors: s.next,
        });
        let blocks = self
            .rw
            .iter()
            .enumerate()
            .map(|(i, &pbn)| SharedLog { order: i as u32, pbn, lsns: self.sector_entries(pbn) })
            .collect();
        vec![
            Panel::new(
                format!("Block-mapping table (LBN → data PBN){}", first_rows(self.bmt.len(), "LBNs")),
                PanelData::DataBlockMap { entries: entries.collect() },
            ),
            Panel::new("Sector-mapping table: SW log block", PanelData::SequentialLogBlock { log: sw }),
            Panel::new(
                "Sector-mapping table: RW log blocks (lsn per page, −1 = merged, · = empty; row 0 is the next victim)",
                PanelData::SharedLogBlocks { blocks },
            ),
        ]
    }

    /// The sector-mapping entries of log block `pbn`, page by page.
    pub(crate) fn sector_entries(&self, pbn: Pbn) -> Vec<SectorEntry> {
        let n = self.ppb;
        (0..n)
            .map(|off| match self.smt[(pbn * n + off) as usize] {
                NONE => SectorEntry::Empty,
                MERGED => SectorEntry::Merged,
                l => SectorEntry::Lsn(l),
            })
            .collect()
    }
}
