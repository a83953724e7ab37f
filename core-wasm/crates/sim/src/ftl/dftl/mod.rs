//! DFTL, the demand-based page-mapping FTL (Gupta, Kim, Urgaonkar, "DFTL: a flash
//! translation layer employing demand-based selective caching of page-level address
//! mappings", ASPLOS 2009). The paper is not in shared/papers; issue 38 states its design,
//! which this file follows (docs/schemes/dftl.md):
//!
//! - The whole page-level map lives on flash, in *translation pages* of `page_bytes / 4`
//!   entries (a 4-byte physical page number each, whatever the chip), written to
//!   *translation blocks* kept apart from data blocks (section 3).
//! - RAM holds the *global translation directory* (GTD: translation page → where it is) and
//!   the *cached mapping table* (CMT) of `cmt_entries` entries with segmented LRU (cmt.rs).
//! - A CMT miss reads the translation page; evicting a dirty entry writes its translation
//!   page back with every dirty entry of that page (batch update, section 3.1).
//! - Greedy GC over data and translation blocks (section 3.2): a data block's valid pages
//!   are copied and their mappings updated in the CMT where cached, otherwise in their
//!   translation pages, one read and one write per translation page (batched); a translation
//!   block's valid pages are copied and the GTD updated.
//! - Recovery leaves the translation blocks within a structural cap
//!   (`translation_block_cap`: the blocks the translation pages fill, plus one), by GC of
//!   the translation block with the fewest valid pages (section 3.2's translation-block
//!   victim). Greedy GC alone bounds them only by history (docs/schemes/dftl.md).
//!
//! Recovery (recovery.rs) rebuilds the GTD from the translation pages' spare area.

use std::collections::{BTreeMap, VecDeque};

use super::greedy::ValidBuckets;
use super::registry::{self, Builder, Mapping, ParamSpec, Run, SchemeEntry, Value};
use super::{BlockRole, Cleaning, Ftl, MetaKind, PageState, Panel, SchemeParams};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

pub mod cmt;
mod panels;
mod recovery;
pub use recovery::RecoveryReads;

use cmt::Cmt;

/// Bytes of one translation-page entry: a 4-byte physical page number, as the issue's
/// design states (page_size / 4 entries a page). 4 bytes address 2^32 pages, more than any
/// chip here has (fastcheck: 2^21), so it is the same on every chip (FlashSim instead uses
/// the fewest whole bytes for the chip's page count; docs/schemes/dftl.md).
pub const ENTRY_BYTES: u32 = 4;
/// Spare-area tags: a host data page, a data page copied by GC, a translation page.
const TAG_HOST: u8 = 0;
const TAG_GC: u8 = 1;
const TAG_TRANS: u8 = 2;
/// Blocks always held out of logical space: the three write frontiers (host data, GC data,
/// translation) and the GC reserve.
const FRONTIERS: u32 = 3;
/// GC runs before a request while fewer blocks than this are free: a request opens at most
/// two blocks (a translation block for a write-back, a data block), one GC run at most two
/// (a data GC destination, a translation block for its batch updates) before its erase.
const GC_LOW: u32 = 4;
pub const DEFAULT_OP: f64 = 0.25;

/// Entries a translation page holds on this chip.
pub fn entries_per_page(g: &Geometry) -> u32 {
    (g.page_bytes / ENTRY_BYTES).max(1)
}

/// The default CMT size: one entry per 32 pages of the chip, at least 4 (section 4 of the
/// paper sizes the CMT as a small share of the full map; docs/schemes/dftl.md).
fn default_cmt(g: &Geometry) -> f64 {
    (g.pages() / 32).max(4) as f64
}
fn chip_pages(g: &Geometry) -> f64 {
    g.pages().max(4) as f64
}

pub const CMT_ENTRIES: ParamSpec = ParamSpec {
    key: "cmt_entries",
    label: "CMT entries",
    what: "cmt_entries",
    help: "default chip pages / 32",
    min: Value::Fixed(1.0),
    min_exclusive: false,
    max: Value::Chip(chip_pages, "at most the chip's pages"),
    max_exclusive: false,
    step: 1.0,
    integer: true,
    default: Value::Chip(default_cmt, "chip pages / 32, at least 4"),
    why: "",
};

/// The registry's DFTL entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "dftl",
    label: "DFTL (cached page map)",
    short_label: "DFTL",
    description: "DFTL: page mapping with the map on flash and a cached mapping table in RAM",
    params: &[ParamSpec { default: Value::Fixed(DEFAULT_OP), ..registry::OP }, CMT_ENTRIES],
    cleaning: Cleaning::Gc,
    runs: &[Run::Gc],
    seldom: &[],
    mapping: Mapping::Page,
    panels: &[],
    build: Builder::Geometry(|p, g| Ok(Box::new(Dftl::new(g, p)?))),
    fits: |p, c| Dftl::fits(&c.geometry, p),
    recover: |flash, p| Ok(Box::new(Dftl::recover(flash, p)?)),
};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum BlockUse {
    Free,
    /// Host data frontier.
    Host,
    /// GC destination of data pages.
    DataGc,
    /// Translation frontier (write-backs and translation-block GC copies).
    TransOpen,
    Data,
    Trans,
}

#[derive(Clone, Copy, Debug)]
struct Frontier {
    pbn: Pbn,
    next: u32,
}

/// What the scheme counts (scheme_metrics, the panel, `ftl run`).
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct DftlStats {
    pub cmt_hits: u64,
    pub cmt_misses: u64,
    /// Translation-page reads on a CMT miss (the entry loaded).
    pub translation_reads_miss: u64,
    /// Translation-page reads before a write-back (read, update, write).
    pub translation_reads_update: u64,
    /// Translation-page writes of evicted dirty entries (each with its page's other dirty entries).
    pub translation_writes_evict: u64,
    /// Translation-page reads and writes of data GC's batch updates.
    pub translation_reads_gc: u64,
    pub translation_writes_gc: u64,
    /// Valid translation pages copied by GC of translation blocks.
    pub translation_gc_copies: u64,
    pub data_gc_runs: u64,
    pub translation_gc_runs: u64,
    pub data_gc_copies: u64,
}

impl DftlStats {
    pub fn translation_reads(&self) -> u64 {
        self.translation_reads_miss + self.translation_reads_update + self.translation_reads_gc
    }
    pub fn translation_writes(&self) -> u64 {
        self.translation_writes_evict + self.translation_writes_gc
    }
}

#[derive(Clone)]
pub struct Dftl {
    ppb: u32,
    logical_pages: u32,
    per_page: u32,
    /// Global translation directory (RAM): translation page → its physical page (NONE: never written).
    gtd: Vec<Ppn>,
    cmt: Cmt,
    /// Where every LPN lives now (NONE: never written). Not the scheme's RAM: the simulator's
    /// view for `locate` (verification, the device view) and the per-page valid bits a real
    /// DFTL keeps for GC. The algorithm finds mappings only in the CMT and translation pages.
    at: Vec<Ppn>,
    valid: ValidBuckets,
    usage: Vec<BlockUse>,
    free: VecDeque<Pbn>,
    host: Option<Frontier>,
    gc: Option<Frontier>,
    trans: Option<Frontier>,
    /// Spare-area sequence number: host writes, GC copies of data and translation
    /// write-backs take the next (a translation block's GC copy keeps its page's: same
    /// contents). Increasing in program order, which bounds recovery's scan (recovery.rs).
    seq: u32,
    /// Closed translation blocks (`BlockUse::Trans`), held to `translation_block_cap`.
    trans_closed: u32,
    stats: DftlStats,
}

impl Dftl {
    /// Logical pages on this chip: the over-provisioning rule, within what leaves room for
    /// the frontiers, the GC reserve and the translation pages.
    fn logical_space(g: &Geometry, op: f64) -> u32 {
        let per_page = entries_per_page(g);
        let room = g.blocks.saturating_sub(FRONTIERS + GC_LOW) * g.pages_per_block;
        // The most LPNs whose data and translation pages fit in `room`.
        let mut lp = (room as u64 * per_page as u64 / (per_page as u64 + 1)) as u32;
        while lp + 1 + (lp + 1).div_ceil(per_page) <= room {
            lp += 1;
        }
        let by_op = ((g.pages() as f64) * (1.0 - op)).floor() as u32;
        lp.min(by_op)
    }

    /// The registry's geometry rule: what `new` refuses.
    pub fn fits(g: &Geometry, params: &SchemeParams) -> Result<(), String> {
        let op = params.op.unwrap_or(DEFAULT_OP);
        if ENTRY.params[0].check(op, g).is_err() {
            return Err(format!("over-provisioning ratio must be in [0, 1) (got {op})"));
        }
        if let Some(c) = params.cmt_entries {
            CMT_ENTRIES.check(c as f64, g)?;
        }
        // Two logical pages at least (one is no device to speak of).
        if Self::logical_space(g, op) < 2 {
            return Err(format!("DFTL needs room for two logical pages beyond its {} reserved blocks", FRONTIERS + GC_LOW));
        }
        Ok(())
    }

    pub fn new(g: &Geometry, params: &SchemeParams) -> Result<Dftl, String> {
        Self::fits(g, params)?;
        let op = params.op.unwrap_or(DEFAULT_OP);
        let logical_pages = Self::logical_space(g, op);
        let per_page = entries_per_page(g);
        let cap = params.cmt_entries.unwrap_or(default_cmt(g) as u32);
        Ok(Dftl {
            ppb: g.pages_per_block,
            logical_pages,
            per_page,
            gtd: vec![NONE; logical_pages.div_ceil(per_page) as usize],
            cmt: Cmt::new(cap, per_page, logical_pages),
            at: vec![NONE; logical_pages as usize],
            valid: ValidBuckets::new(g.blocks, g.pages_per_block),
            usage: vec![BlockUse::Free; g.blocks as usize],
            free: (0..g.blocks).collect(),
            host: None,
            gc: None,
            trans: None,
            seq: 0,
            trans_closed: 0,
            stats: DftlStats::default(),
        })
    }

    pub fn stats(&self) -> DftlStats {
        self.stats
    }
    pub fn cmt(&self) -> &Cmt {
        &self.cmt
    }
    pub fn translation_pages(&self) -> u32 {
        self.gtd.len() as u32
    }
    /// The most closed translation blocks a recovery leaves (docs/schemes/dftl.md, "Power
    /// cuts", step 7): the blocks the translation pages fill, plus one. With one more closed
    /// block than this, the translation pages cannot fill them all, so the one with the fewest
    /// valid pages has fewer than a block's worth: its GC frees a block and copies less than a
    /// block into the translation frontier (at most one block opened), and the loop ends.
    /// With the open frontier, the map-block pool after a recovery is at most this plus one
    /// (`pool_cap`).
    pub fn translation_block_cap(&self) -> u32 {
        (self.gtd.len() as u32).div_ceil(self.ppb) + 1
    }
    /// Closed translation blocks now.
    pub fn translation_blocks_closed(&self) -> u32 {
        self.trans_closed
    }

    /// Where translation page `tvpn` is (None: never written).
    pub fn gtd(&self, tvpn: u32) -> Option<Ppn> {
        self.gtd.get(tvpn as usize).copied().filter(|&p| p != NONE)
    }

    /// Where `lpn` is by the scheme's own tables: its CMT entry, else its translation page
    /// on flash (no flash operation: tests check it equals `locate`).
    pub fn mapped_by_tables(&self, flash: &Flash, lpn: Lpn) -> Option<Ppn> {
        let ppn = match self.cmt.peek(lpn) {
            Some((ppn, _)) => ppn,
            None => match self.gtd(lpn / self.per_page) {
                Some(t) => flash.payload(t).map_or(NONE, |e| e[(lpn % self.per_page) as usize]),
                None => NONE,
            },
        };
        (ppn != NONE).then_some(ppn)
    }

    fn next_seq(&mut self) -> u32 {
        self.seq += 1;
        self.seq
    }

    fn take_free(&mut self, role: BlockUse) -> FlashResult<Frontier> {
        let pbn = self.free.pop_front().ok_or_else(|| FlashError::Violation("DFTL ran out of free blocks".into()))?;
        self.usage[pbn as usize] = role;
        Ok(Frontier { pbn, next: 0 })
    }

    /// A full block becomes a GC candidate.
    fn close(&mut self, pbn: Pbn, role: BlockUse) {
        self.usage[pbn as usize] = role;
        self.valid.insert(pbn);
        if role == BlockUse::Trans {
            self.trans_closed += 1;
        }
    }

    /// The next page of a frontier (`which`: 0 host, 1 data GC, 2 translation), opening a
    /// free block when it is full.
    fn next_page(&mut self, which: usize) -> FlashResult<Ppn> {
        let (open, full) = match which {
            0 => (BlockUse::Host, BlockUse::Data),
            1 => (BlockUse::DataGc, BlockUse::Data),
            _ => (BlockUse::TransOpen, BlockUse::Trans),
        };
        let f = match which {
            0 => self.host,
            1 => self.gc,
            _ => self.trans,
        };
        let f = match f {
            Some(f) if f.next < self.ppb => f,
            other => {
                if let Some(f) = other {
                    self.close(f.pbn, full);
                }
                self.take_free(open)?
            }
        };
        match which {
            0 => self.host = Some(f),
            1 => self.gc = Some(f),
            _ => self.trans = Some(f),
        }
        Ok(f.pbn * self.ppb + f.next)
    }

    fn advance(&mut self, which: usize) {
        let f = match which {
            0 => &mut self.host,
            1 => &mut self.gc,
            _ => &mut self.trans,
        };
        if let Some(f) = f {
            f.next += 1;
        }
    }

    /// Points `lpn` at `ppn` in the simulator's view and the valid counts.
    fn relocate(&mut self, lpn: Lpn, ppn: Ppn) {
        let old = self.at[lpn as usize];
        if old != NONE {
            self.valid.decr(old / self.ppb);
        }
        self.at[lpn as usize] = ppn;
        self.valid.incr(ppn / self.ppb);
    }

    /// Reads translation page `tvpn` (all NONE if it was never written: no read).
    fn read_translation(&mut self, flash: &mut Flash, tvpn: u32, cause: Cause) -> FlashResult<Vec<Ppn>> {
        let at = self.gtd[tvpn as usize];
        if at == NONE {
            return Ok(vec![NONE; self.per_page as usize]);
        }
        flash.read(at, cause)?;
        Ok(flash.payload(at).map(<[u32]>::to_vec).unwrap_or_else(|| vec![NONE; self.per_page as usize]))
    }

    /// Writes translation page `tvpn` back: read it, apply every dirty CMT entry of it and
    /// `extra` (GC's updates of uncached LPNs), write it to the translation frontier, point
    /// the GTD at it, and mark those CMT entries clean. True: a read was needed.
    fn write_back(&mut self, flash: &mut Flash, tvpn: u32, extra: &[(Lpn, Ppn)], cause: Cause) -> FlashResult<bool> {
        let read = self.gtd[tvpn as usize] != NONE;
        let mut entries = self.read_translation(flash, tvpn, cause)?;
        let dirty = self.cmt.dirty_of(tvpn);
        for &(lpn, ppn) in dirty.iter().chain(extra) {
            entries[(lpn % self.per_page) as usize] = ppn;
        }
        let dst = self.next_page(2)?;
        let seq = self.next_seq();
        let page = Page { lpn: tvpn, version: 0, seq, kind: PageKind::Meta, tag: TAG_TRANS };
        flash.program_meta(dst, page, entries, cause)?;
        self.advance(2);
        let old = std::mem::replace(&mut self.gtd[tvpn as usize], dst);
        if old != NONE {
            self.valid.decr(old / self.ppb);
            flash.drop_payload(old);
        }
        self.valid.incr(dst / self.ppb);
        for (lpn, ppn) in dirty {
            self.cmt.set(lpn, ppn, false);
        }
        Ok(read)
    }

    /// Evicts the CMT's replacement victim, writing its translation page back if dirty.
    fn evict(&mut self, flash: &mut Flash) -> FlashResult<()> {
        let Some(victim) = self.cmt.victim() else { return Ok(()) };
        if self.cmt.peek(victim).is_some_and(|(_, dirty)| dirty) {
            let tvpn = victim / self.per_page;
            flash.note("cmt", || {
                format!(
                    "CMT full: evicts dirty LPN {victim}; translation page {tvpn} is written back with its {} dirty entries",
                    self.cmt.dirty_of(tvpn).len()
                )
            });
            if self.write_back(flash, tvpn, &[], Cause::Map)? {
                self.stats.translation_reads_update += 1;
            }
            self.stats.translation_writes_evict += 1;
        }
        self.cmt.remove(victim);
        Ok(())
    }

    /// Address translation (section 3.1): a CMT hit, or a miss that makes room and loads
    /// the entry from its translation page. Returns where `lpn` is.
    fn translate(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Ppn> {
        if let Some((ppn, _)) = self.cmt.peek(lpn) {
            self.stats.cmt_hits += 1;
            self.cmt.touch(lpn);
            return Ok(ppn);
        }
        self.stats.cmt_misses += 1;
        while self.cmt.is_full() {
            self.evict(flash)?;
        }
        let tvpn = lpn / self.per_page;
        let at = self.gtd[tvpn as usize];
        let ppn = if at == NONE {
            // Never written: every entry NONE, nothing to read.
            NONE
        } else {
            flash.note("cmt", || format!("CMT miss on LPN {lpn}: reads translation page {tvpn}"));
            self.stats.translation_reads_miss += 1;
            // The same counted read as `read_translation`; the one entry is taken from the
            // page's payload in place (a copy of the whole page into a new Vec was DFTL's
            // largest cost after the CMT's lookups: issue 37).
            flash.read(at, Cause::Map)?;
            flash.payload(at).map_or(NONE, |e| e[(lpn % self.per_page) as usize])
        };
        self.cmt.insert(lpn, ppn, false);
        Ok(ppn)
    }

    /// Greedy GC until `GC_LOW` blocks are free (bounded: it stops when a run frees nothing).
    fn ensure_free(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
        let mut tries = 0;
        while (self.free.len() as u32) < GC_LOW {
            let before = self.free.len();
            self.collect(flash, cause)?;
            tries = if self.free.len() > before { 0 } else { tries + 1 };
            if tries > self.usage.len() {
                return Err(FlashError::Violation("DFTL garbage collection frees no block".into()));
            }
        }
        Ok(())
    }

    /// One greedy GC run: the full block with the fewest valid pages, data or translation.
    fn collect(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
        let victim = self.valid.min().ok_or_else(|| FlashError::Violation("no block to collect".into()))?;
        let valid = self.valid.valid(victim);
        if valid >= self.ppb {
            return Err(FlashError::Violation("garbage collection found no invalid page".into()));
        }
        flash.count_at_next_op(Count::GcRun);
        if self.usage[victim as usize] == BlockUse::Trans {
            self.collect_translation(flash, victim, cause, true)
        } else {
            self.collect_data(flash, victim, cause)
        }
    }

    fn collect_data(&mut self, flash: &mut Flash, victim: Pbn, cause: Cause) -> FlashResult<()> {
        self.stats.data_gc_runs += 1;
        let valid = self.valid.valid(victim);
        flash.note("gc", || {
            format!("free blocks low: GC picks data block {victim} ({valid} valid of {}), copies them, erases it", self.ppb)
        });
        // Updates of LPNs the CMT does not hold, by translation page (the batch update).
        let mut batch: BTreeMap<u32, Vec<(Lpn, Ppn)>> = BTreeMap::new();
        for off in 0..self.ppb {
            let src = victim * self.ppb + off;
            let p = *flash.peek(src);
            if p.kind != PageKind::Data || p.lpn >= self.logical_pages || self.at[p.lpn as usize] != src {
                continue;
            }
            let dst = self.next_page(1)?;
            let data = flash.read(src, cause)?;
            // The copy takes the next sequence number, as a host write does: the newest copy
            // of an LPN is still the one with the highest number (the source's data, copied),
            // and every page programmed after a translation page has a higher number than it,
            // which bounds recovery's scan (recovery.rs).
            let seq = self.next_seq();
            flash.program(dst, Page::stamped(data.lpn, data.version, seq, TAG_GC), cause)?;
            self.advance(1);
            self.stats.data_gc_copies += 1;
            self.relocate(data.lpn, dst);
            if self.cmt.contains(data.lpn) {
                self.cmt.set(data.lpn, dst, true);
            } else {
                batch.entry(data.lpn / self.per_page).or_default().push((data.lpn, dst));
            }
        }
        for (tvpn, updates) in batch {
            flash.note("gc", || {
                format!("batch update: translation page {tvpn} takes {} new mappings at once", updates.len())
            });
            if self.write_back(flash, tvpn, &updates, cause)? {
                self.stats.translation_reads_gc += 1;
            }
            self.stats.translation_writes_gc += 1;
        }
        self.erase(flash, victim, cause)
    }

    /// `greedy`: picked by greedy GC (free blocks low; it says so), else over the cap
    /// (`collect_over_cap` said so).
    fn collect_translation(&mut self, flash: &mut Flash, victim: Pbn, cause: Cause, greedy: bool) -> FlashResult<()> {
        self.stats.translation_gc_runs += 1;
        let valid = self.valid.valid(victim);
        if greedy {
            flash.note("gc", || {
                format!("free blocks low: GC picks translation block {victim} ({valid} valid translation pages), copies them, updates the GTD, erases it")
            });
        }
        for off in 0..self.ppb {
            let src = victim * self.ppb + off;
            let p = *flash.peek(src);
            if p.kind != PageKind::Meta || p.tag != TAG_TRANS || self.gtd.get(p.lpn as usize) != Some(&src) {
                continue;
            }
            let dst = self.next_page(2)?;
            let page = flash.read(src, cause)?;
            let entries = flash.payload(src).map(<[u32]>::to_vec).unwrap_or_default();
            flash.program_meta(dst, page, entries, cause)?;
            self.advance(2);
            self.stats.translation_gc_copies += 1;
            self.gtd[p.lpn as usize] = dst;
            self.valid.decr(victim);
            self.valid.incr(dst / self.ppb);
        }
        self.erase(flash, victim, cause)
    }

    fn erase(&mut self, flash: &mut Flash, victim: Pbn, cause: Cause) -> FlashResult<()> {
        flash.erase(victim, cause)?;
        if self.usage[victim as usize] == BlockUse::Trans {
            self.trans_closed -= 1;
        }
        self.valid.remove(victim);
        self.usage[victim as usize] = BlockUse::Free;
        self.free.push_back(victim);
        Ok(())
    }
}

impl Ftl for Dftl {
    fn name(&self) -> &'static str {
        "dftl"
    }
    fn logical_pages(&self) -> u32 {
        self.logical_pages
    }

    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        self.ensure_free(flash, Cause::Gc)?;
        // The entry is in the CMT before the data is written (a miss makes room first), so
        // the mappings not yet in translation pages are always CMT entries (recovery.rs).
        self.translate(flash, lpn)?;
        let ppn = self.next_page(0)?;
        let seq = self.next_seq();
        flash.program(ppn, Page::stamped(lpn, version, seq, TAG_HOST), Cause::Host)?;
        self.advance(0);
        self.relocate(lpn, ppn);
        self.cmt.set(lpn, ppn, true);
        Ok(())
    }

    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        if !self.cmt.contains(lpn) {
            // A miss may write a translation page back, which may need a block.
            self.ensure_free(flash, Cause::Gc)?;
        }
        let ppn = self.translate(flash, lpn)?;
        if ppn == NONE {
            return Ok(None);
        }
        flash.read(ppn, Cause::Host)?;
        Ok(Some(ppn))
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.at.get(lpn as usize).copied().filter(|&p| p != NONE)
    }

    fn page_state(&self, flash: &Flash, ppn: Ppn) -> PageState {
        let p = flash.peek(ppn);
        match p.kind {
            PageKind::Meta if self.gtd.get(p.lpn as usize) == Some(&ppn) => PageState::Metadata,
            PageKind::Meta => PageState::Invalid,
            _ => super::default_page_state(self, flash, ppn),
        }
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.usage[pbn as usize] {
            BlockUse::Free => BlockRole::Free,
            BlockUse::Host => BlockRole::Active,
            BlockUse::DataGc => BlockRole::GcDestination,
            BlockUse::TransOpen | BlockUse::Trans => BlockRole::MapBlock,
            BlockUse::Data => BlockRole::Data,
        }
    }

    fn ram_bytes(&self) -> u64 {
        // The paper's accounting: a CMT entry is an (LPN, PPN) pair of 4 bytes each, a GTD
        // entry one 4-byte page number.
        8 * self.cmt.capacity() as u64 + 4 * self.gtd.len() as u64
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        self.panel_list()
    }

    fn meta_kind(&self, tag: u8) -> Option<MetaKind> {
        (tag == TAG_TRANS).then_some(MetaKind::MapPage)
    }

    /// Map blocks after a recovery: the closed translation blocks' cap and the open one.
    fn pool_cap(&self, role: BlockRole) -> Option<u32> {
        (role == BlockRole::MapBlock).then(|| self.translation_block_cap() + 1)
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        let s = &self.stats;
        let lookups = s.cmt_hits + s.cmt_misses;
        serde_json::json!({
            "cmt_entries": self.cmt.capacity(),
            "cmt_cached": self.cmt.len(),
            "cmt_dirty": self.cmt.dirty_count(),
            "cmt_hits": s.cmt_hits,
            "cmt_misses": s.cmt_misses,
            "cmt_hit_ratio": if lookups == 0 { 0.0 } else { s.cmt_hits as f64 / lookups as f64 },
            "translation_pages": self.gtd.len(),
            "entries_per_translation_page": self.per_page,
            "translation_reads": s.translation_reads(),
            "translation_writes": s.translation_writes(),
            "translation": s,
        })
    }
}
