//! LTFTL: a page-mapping FTL with time shift (freeze / unfreeze / revert) and
//! power-loss roll-back (Sun et al., EMSOFT'08; `papers/ltftl-time-shift-ftl.txt`).
//!
//! Layout (section 4, Figure 5): the chip is partitioned into four sections,
//! initially contiguous block ranges in the paper's order:
//!
//! | section  | blocks                                   | holds                                        |
//! |----------|------------------------------------------|----------------------------------------------|
//! | metadata | 2 (fixed: blocks 0 and 1, used in turn)  | records: clean-shutdown flag, next state id, the frozen states (oldest first), where the map dump and log chain are |
//! | mapping  | 2 slots of ceil(M / ppb) blocks          | the inverted table page → sector (0xFFFFFFFF = not valid), M = ceil(pages / (page_bytes / 4)) map pages; two slots so a dump never overwrites the last committed one |
//! | data     | the rest                                 | host data, page-mapped, garbage-collected    |
//! | log      | `log_blocks` (default: twice one threshold) | intent-log pages ⟨sector, old page, new page, global_time⟩ |
//!
//! Every data page carries ⟨sector, global_time⟩ in its spare area (`Page.lpn`,
//! `Page.seq`). The forward map (sector → page) lives in RAM; intent-log entries are
//! collected in a one-page RAM buffer and flushed to the log section when it is full
//! (section 4). The up-to-date map is dumped to the mapping section when the log passes
//! 16 B × pages per state (section 4), when the log section runs short, on revert and
//! at the end of recovery.
//!
//! Page states (Figure 3, equation 2): free, valid, invalid, retractable. A page is
//! retractable when it is not current but some frozen state's image holds it, i.e. it was
//! born before that state's epoch and invalidated at or after it. GC (section 4) picks
//! the data block with the most reclaimable (invalid, not retractable) pages and copies
//! its valid **and retractable** pages before erasing it; the moves are logged (and the
//! log flushed) before the erase, so the intent log always names where a frozen state's
//! pages are.

use std::collections::VecDeque;

pub use super::panel::SpaceShares;
use super::registry::{self, Builder, Mapping, PanelKind, ParamSpec, Run, SchemeEntry, Value};
use super::{BlockRole, Cleaning, Ftl, PageState, Panel, SchemeParams};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

mod ahead;
mod gc;
mod log;
mod meta;
mod panels;
mod recovery;
mod retractable;
mod time_shift;

/// Spare-area tags of the page kinds LTFTL writes.
pub const TAG_DATA: u8 = 1;
/// A data page GC copied (the same ⟨sector, time⟩ as its original): recovery tells the GC
/// frontier from the host frontier by it (our choice: the paper's spare area holds
/// ⟨sector, time⟩ only and says nothing of where writes resume after a power loss).
pub const TAG_GC_COPY: u8 = 5;
pub const TAG_META: u8 = 2;
pub const TAG_MAP: u8 = 3;
pub const TAG_LOG: u8 = 4;

/// Magic word of a metadata record.
const MAGIC: u32 = 0x4C54_4654; // "LTFT"
/// Bytes of one intent-log entry: four 4-byte integers (section 4).
const ENTRY_BYTES: u32 = 16;
/// A log entry whose sector field has this bit set is a GC move (our addition: the
/// paper does not say how GC relocations reach the log).
const MOVE_FLAG: u32 = 1 << 31;
/// Section 5.1: "after 50 erase operations, we select one block from each section".
pub const WEAR_LEVEL_PERIOD: u32 = 50;
pub const DEFAULT_OP: f64 = 0.25;
/// Data blocks kept out of logical space: host frontier, GC frontier and two free
/// blocks. GC runs while fewer than `MIN_FREE` blocks are free, so a cut in the middle
/// of a GC (its destination taken, its victim not yet erased) still leaves a free block
/// for the first GC after recovery.
const RESERVED_BLOCKS: u32 = 4;
const MIN_FREE: usize = 3;

/// Default size of the log section: twice the blocks that hold one log threshold of
/// records, at least 2.
pub fn default_log_blocks(g: &Geometry) -> u32 {
    let per_log_page = (g.page_bytes / ENTRY_BYTES).max(1);
    let threshold_blocks = div_ceil(div_ceil(g.pages(), per_log_page), g.pages_per_block);
    (2 * threshold_blocks).max(2)
}

/// The registry's LTFTL entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "ltftl",
    label: "LTFTL (time shift)",
    short_label: "LTFTL",
    description: "LTFTL: page mapping with time shift (freeze / unfreeze / revert) and power-loss roll-back",
    params: &[
        ParamSpec { default: Value::Fixed(DEFAULT_OP), ..registry::OP },
        ParamSpec {
            min: Value::Fixed(2.0),
            why: "ltftl needs at least 2 log-section blocks",
            default: Value::Chip(|g| default_log_blocks(g) as f64, "twice the blocks of one log threshold, at least 2"),
            ..registry::LOG_BLOCKS
        },
    ],
    cleaning: Cleaning::Gc,
    runs: &[Run::Gc],
    seldom: &[],
    mapping: Mapping::Page,
    panels: &[PanelKind::FrozenStates],
    build: Builder::Geometry(|p, g| Ok(Box::new(LtFtl::new(g, p)?))),
    fits: |p, c| LtFtl::fits(&c.geometry, p).map(|_| ()),
    // Back to the latest write (the app offers rebooting to the latest frozen state).
    recover: |flash, p| Ok(Box::new(LtFtl::recover(flash, p, false)?)),
};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    Meta,
    Map,
    Data,
    Log,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Use {
    Free,
    Frontier,
    GcFrontier,
    Closed,
}

/// One intent-log entry ⟨sector, old page, new page, global_time⟩ (section 4: "We
/// define each field in the data structure as integer type", four 4-byte integers).
/// Held in RAM exactly as on flash, 16 bytes: a GC move is the sector word's top bit
/// (`MOVE_FLAG`), not a separate bool (which padded the entry to 20 bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// The sector, with `MOVE_FLAG` set for a GC move.
    word: u32,
    /// NONE = φ (the sector had no page).
    pub old: Ppn,
    pub new: Ppn,
    /// For a move, the global time at which the moved data was written.
    pub gt: u32,
}

const _: () = assert!(std::mem::size_of::<LogEntry>() == ENTRY_BYTES as usize);

impl LogEntry {
    /// A host write of `sector` from `old` to `new` at global time `gt`.
    pub fn write(sector: Lpn, old: Ppn, new: Ppn, gt: u32) -> LogEntry {
        debug_assert!(sector & MOVE_FLAG == 0);
        LogEntry { word: sector, old, new, gt }
    }
    /// A GC relocation of `old` to `new` (not a host write; never undone).
    pub fn gc_move(sector: Lpn, old: Ppn, new: Ppn, gt: u32) -> LogEntry {
        debug_assert!(sector & MOVE_FLAG == 0);
        LogEntry { word: sector | MOVE_FLAG, old, new, gt }
    }
    pub fn sector(&self) -> Lpn {
        self.word & !MOVE_FLAG
    }
    pub fn moved(&self) -> bool {
        self.word & MOVE_FLAG != 0
    }
    fn encode(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(&[self.word, self.old, self.new, self.gt]);
    }
    fn decode(w: &[u32]) -> LogEntry {
        LogEntry { word: w[0], old: w[1], new: w[2], gt: w[3] }
    }
}

/// A frozen state: `epoch` is the global time of the next write after the freeze, so
/// the state is S_epoch in the paper's notation (S8 after writes at t = 0..7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrozenState {
    pub id: u32,
    pub epoch: u32,
}

#[derive(Clone)]
pub struct LtFtl {
    ppb: u32,
    pages: u32,
    page_bytes: u32,
    logical_pages: u32,
    section: Vec<Section>,
    /// A mapping or log block traded into the data pool by wear levelling keeps showing
    /// what it holds until its erase (docs/architecture.md, "What a moment shows").
    traded: Vec<Option<Section>>,
    /// Data-section block usage.
    usage: Vec<Use>,
    /// Blocks programmed since their last erase (must be erased before reuse).
    written: Vec<bool>,
    /// Pages programmed in each block since its last erase (blocks fill in order).
    programmed: Vec<u32>,
    free: VecDeque<Pbn>,
    frontier: Option<(Pbn, u32)>,
    gc_frontier: Option<(Pbn, u32)>,

    /// Forward map sector → page (RAM, section 4).
    fwd: Vec<Ppn>,
    /// Global time of the write that invalidated a page (NONE: none recorded). A page's
    /// birth is not kept in RAM: it is the ⟨sector, global_time⟩ its spare area holds
    /// (section 4; `birth`). Empty while no state is frozen: only a revertible state makes
    /// an invalid page retractable (equation 2), and a state frozen later has an epoch
    /// after every death recorded before it, so those deaths can never pin a page.
    death: Vec<u32>,
    /// Per block: valid pages; per page: retractable (kept in step with the definitions
    /// in `page_state`, so GC picks victims without scanning every page).
    valid_cnt: Vec<u32>,
    retr: Vec<bool>,
    retr_cnt: Vec<u32>,
    /// Closed data blocks by kept pages (valid + retractable), each set ordered by pbn: the
    /// GC victim (most reclaimable, lowest pbn first) without scanning every block.
    closed_by_kept: super::greedy::OrderedBuckets,

    /// Global time of the next write (incremented at each write request, section 4).
    next_gt: u32,
    /// Live frozen states, oldest epoch first.
    states: Vec<FrozenState>,
    next_id: u32,

    /// The intent log since the last dump from entry `log_base` on, in RAM:
    /// `log[..flushed]` is in the log section too, `log[flushed..]` is the one-page RAM
    /// buffer. Entries before `log_base` are only in the log section: a flushed entry is
    /// dropped from RAM while no state is frozen, since undo and compaction read only
    /// entries at or after the oldest frozen epoch (equation 1; section 4's log "changes
    /// dynamically depending on the number of revertible states").
    log: Vec<LogEntry>,
    flushed: usize,
    log_base: usize,
    /// A flushed entry in RAM was changed since the last dump (a GC move substituted its
    /// old page), so RAM no longer equals the log section: such entries are kept until the
    /// dump rewrites the log.
    log_diverged: bool,
    /// Entries appended since the last map dump (threshold check).
    since_dump: usize,
    /// Index of the log entry whose `old` is this page (substituted on GC moves). Empty
    /// while no state is frozen: only retractable pages are moved with an entry naming
    /// them, and entries before the oldest epoch are never undone.
    old_ref: Vec<u32>,
    /// For each log page in the chain: its ppn and the index of its first entry.
    log_pages: Vec<(Ppn, usize)>,
    log_section: Vec<Pbn>,
    chain: Vec<Pbn>,
    chain_next: u32,

    /// Mapping-section slots; a dump goes to `slots[cur_slot]` at `slot_next`.
    slots: [Vec<Pbn>; 2],
    cur_slot: usize,
    slot_next: u32,
    map_pages: u32,
    /// First page of the committed dump (NONE before the first dump).
    dump_at: Ppn,
    generation: u32,
    dump_gt: u32,

    meta_block: Pbn,
    meta_next: u32,
    meta_seq: u32,
    /// An "unclean" metadata record was written since mount.
    mounted: bool,
    erases_since_wl: u32,
    /// Section 5.1 wear levelling on (default) or off (for the Figure 9 comparison).
    wear_levelling: bool,

    // statistics
    dumps: u64,
    released_states: u64,
    retractable_copies: u64,
    wl_swaps: u64,
    log_flushes: u64,
}

fn div_ceil(a: u32, b: u32) -> u32 {
    a.div_ceil(b)
}

impl LtFtl {
    /// The registry's geometry rule (`registry::Fits`): what `new` refuses; the blocks of
    /// one mapping slot and the log section's.
    pub fn fits(g: &Geometry, params: &SchemeParams) -> Result<(u32, u32), String> {
        let op = params.op.unwrap_or(DEFAULT_OP);
        if ENTRY.params[0].check(op, g).is_err() {
            return Err(format!("over-provisioning ratio must be in [0, 1) (got {op})"));
        }
        if g.page_bytes < ENTRY_BYTES {
            return Err(format!("ltftl needs pages of at least {ENTRY_BYTES} bytes"));
        }
        let map_pages = div_ceil(g.pages(), g.page_bytes / 4);
        let slot_blocks = div_ceil(map_pages, g.pages_per_block);
        let log_blocks = params.log_blocks.unwrap_or_else(|| default_log_blocks(g));
        if (log_blocks as f64) < ENTRY.params[1].min.resolve(g) {
            return Err("ltftl needs at least 2 log-section blocks".into());
        }
        let fixed = 2 + 2 * slot_blocks + log_blocks;
        if g.blocks < fixed + RESERVED_BLOCKS + 1 {
            return Err(format!(
                "ltftl needs at least {} blocks here (2 metadata, {} mapping, {log_blocks} log, {} data)",
                fixed + RESERVED_BLOCKS + 1,
                2 * slot_blocks,
                RESERVED_BLOCKS + 1
            ));
        }
        Ok((slot_blocks, log_blocks))
    }

    pub fn new(g: &Geometry, params: &SchemeParams) -> Result<LtFtl, String> {
        let (slot_blocks, log_blocks) = Self::fits(g, params)?;
        let op = params.op.unwrap_or(DEFAULT_OP);
        let ppb = g.pages_per_block;
        let pages = g.pages();
        let map_pages = div_ceil(pages, g.page_bytes / 4);
        let fixed = 2 + 2 * slot_blocks + log_blocks;
        let data_blocks = g.blocks - fixed;
        let by_op = ((data_blocks * ppb) as f64 * (1.0 - op)).floor() as u32;
        let logical_pages = by_op.min((data_blocks - RESERVED_BLOCKS) * ppb).max(1);

        let mut section = vec![Section::Data; g.blocks as usize];
        section[0] = Section::Meta;
        section[1] = Section::Meta;
        let map0: Vec<Pbn> = (2..2 + slot_blocks).collect();
        let map1: Vec<Pbn> = (2 + slot_blocks..2 + 2 * slot_blocks).collect();
        for &b in map0.iter().chain(&map1) {
            section[b as usize] = Section::Map;
        }
        let log_section: Vec<Pbn> = (g.blocks - log_blocks..g.blocks).collect();
        for &b in &log_section {
            section[b as usize] = Section::Log;
        }
        let free = (0..g.blocks).filter(|&b| section[b as usize] == Section::Data).collect();
        Ok(LtFtl {
            ppb,
            pages,
            page_bytes: g.page_bytes,
            logical_pages,
            section,
            usage: vec![Use::Free; g.blocks as usize],
            written: vec![false; g.blocks as usize],
            programmed: vec![0; g.blocks as usize],
            free,
            frontier: None,
            gc_frontier: None,
            fwd: vec![NONE; logical_pages as usize],
            death: Vec::new(),
            valid_cnt: vec![0; g.blocks as usize],
            retr: vec![false; pages as usize],
            retr_cnt: vec![0; g.blocks as usize],
            // A page is briefly both valid and retractable while a write moves it, so a
            // block can briefly keep up to 2 x ppb.
            closed_by_kept: super::greedy::OrderedBuckets::new(g.blocks, 2 * g.pages_per_block as usize + 1),
            next_gt: 0,
            states: Vec::new(),
            next_id: 1,
            // Reserved at the first append (`append`), not here: a fresh state stays within
            // limits::state_bytes (tests/session_memory.rs).
            log: Vec::new(),
            flushed: 0,
            log_base: 0,
            log_diverged: false,
            since_dump: 0,
            old_ref: Vec::new(),
            log_pages: Vec::new(),
            log_section,
            chain: Vec::new(),
            chain_next: 0,
            slots: [map0, map1],
            cur_slot: 0,
            slot_next: 0,
            map_pages,
            dump_at: NONE,
            generation: 0,
            dump_gt: 0,
            meta_block: 0,
            meta_next: 0,
            meta_seq: 0,
            mounted: false,
            erases_since_wl: 0,
            wear_levelling: true,
            dumps: 0,
            released_states: 0,
            retractable_copies: 0,
            wl_swaps: 0,
            log_flushes: 0,
            traded: vec![None; g.blocks as usize],
        })
    }

    // ---- inspection (tests, UI) -------------------------------------------------

    pub fn states(&self) -> &[FrozenState] {
        &self.states
    }
    pub fn global_time(&self) -> u32 {
        self.next_gt
    }
    /// The intent log since the last map dump held in RAM (flushed part, then the RAM
    /// buffer): every entry at or after the oldest frozen epoch; while no state is
    /// frozen, the RAM buffer only (the rest is in the log section).
    pub fn log_entries(&self) -> &[LogEntry] {
        &self.log
    }
    /// Entries written since the last map dump, RAM buffer included (`log_entries` may
    /// hold fewer: see there).
    pub fn log_len(&self) -> usize {
        self.log_base + self.log.len()
    }
    /// Entries still in the one-page RAM buffer.
    pub fn log_buffer(&self) -> &[LogEntry] {
        &self.log[self.flushed..]
    }
    pub fn section_of(&self, pbn: Pbn) -> Section {
        self.section[pbn as usize]
    }
    /// Blocks of each section (metadata, mapping, data, log).
    pub fn sections(&self) -> [Vec<Pbn>; 4] {
        let of = |s: Section| (0..self.section.len() as u32).filter(|&b| self.section[b as usize] == s).collect();
        [of(Section::Meta), of(Section::Map), of(Section::Data), of(Section::Log)]
    }
    pub fn forward_map(&self) -> &[Ppn] {
        &self.fwd
    }
    pub fn entries_per_log_page(&self) -> usize {
        (self.page_bytes / ENTRY_BYTES) as usize
    }
    /// Log-size threshold that triggers a map dump: 16 B × pages per state (section 4);
    /// with no frozen state we still count the current one.
    pub fn dump_threshold_entries(&self) -> usize {
        self.pages as usize * self.states.len().max(1)
    }
    /// Turns section 5.1's wear levelling off or on (Figure 9 compares both).
    pub fn set_wear_levelling(&mut self, on: bool) {
        self.wear_levelling = on;
    }
    pub fn dumps(&self) -> u64 {
        self.dumps
    }
    pub fn released_states(&self) -> u64 {
        self.released_states
    }

    /// The image (sector → page) of a frozen state, computed as `revert` would
    /// (equation 1: undo the log backward to the epoch), without changing anything.
    pub fn image_of(&self, id: u32) -> Option<Vec<Ppn>> {
        let s = self.states.iter().find(|s| s.id == id)?;
        let mut img = self.fwd.clone();
        for (sector, old) in self.undo_targets(s.epoch) {
            img[sector as usize] = old;
        }
        Some(img)
    }

    /// For each sector changed at or after `epoch`: the page it had at the epoch
    /// (the `old` of its earliest host-write entry at or after the epoch).
    fn undo_targets(&self, epoch: u32) -> Vec<(Lpn, Ppn)> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for e in self.log.iter().filter(|e| !e.moved() && e.gt >= epoch) {
            if seen.insert(e.sector()) {
                out.push((e.sector(), e.old));
            }
        }
        out
    }

    /// Shares of the chip's pages (Figure 8): valid, invalid, retractable, log, map,
    /// metadata and free.
    pub fn space_shares(&self) -> SpaceShares {
        // From RAM alone (programmed, valid and retractable pages per block), so
        // `scheme_metrics` can report it.
        let mut s = SpaceShares::default();
        let ppb = self.ppb as f64;
        for b in 0..self.section.len() as u32 {
            let programmed = self.programmed[b as usize];
            match self.section[b as usize] {
                // The mapping and metadata sections are reserved whole (the paper's map
                // share, 1.59%, is two copies of a 4 B-per-page table); the log section
                // counts only its written pages (its size "changes dynamically").
                Section::Map => s.map += ppb,
                Section::Meta => s.meta += ppb,
                Section::Log => {
                    s.log += programmed as f64;
                    s.free += ppb - programmed as f64;
                }
                Section::Data => {
                    // The counters are kept equal to the definitions (`check_counters`);
                    // valid and retractable pages are among the programmed ones.
                    let (valid, retr) = (self.valid_cnt[b as usize], self.retr_cnt[b as usize]);
                    s.valid += valid as f64;
                    s.retractable += retr as f64;
                    s.invalid += (programmed - valid - retr) as f64;
                    s.free += ppb - programmed as f64;
                }
            }
        }
        let n = self.pages as f64;
        for v in [&mut s.valid, &mut s.invalid, &mut s.retractable, &mut s.log, &mut s.map, &mut s.meta, &mut s.free] {
            *v /= n;
        }
        s
    }

    // ---- flash helpers ----------------------------------------------------------

    fn prog(&mut self, flash: &mut Flash, ppn: Ppn, page: Page, cause: Cause) -> FlashResult<()> {
        let b = (ppn / self.ppb) as usize;
        self.written[b] = true;
        flash.program(ppn, page, cause)?;
        self.programmed[b] += 1;
        Ok(())
    }

    fn prog_meta(
        &mut self,
        flash: &mut Flash,
        ppn: Ppn,
        page: Page,
        payload: Vec<u32>,
        cause: Cause,
    ) -> FlashResult<()> {
        let b = (ppn / self.ppb) as usize;
        self.written[b] = true;
        flash.program_meta(ppn, page, payload, cause)?;
        self.programmed[b] += 1;
        Ok(())
    }

    fn erase(&mut self, flash: &mut Flash, pbn: Pbn, cause: Cause) -> FlashResult<()> {
        flash.erase(pbn, cause)?;
        self.written[pbn as usize] = false;
        self.programmed[pbn as usize] = 0;
        self.traded[pbn as usize] = None;
        let lo = (pbn * self.ppb) as usize;
        let kept = self.kept(pbn as usize);
        self.valid_cnt[pbn as usize] = 0;
        self.rebucket(pbn as usize, kept);
        for i in lo..lo + self.ppb as usize {
            self.set_retr(i as Ppn, false);
        }
        if !self.death.is_empty() {
            self.death[lo..lo + self.ppb as usize].fill(NONE);
            self.old_ref[lo..lo + self.ppb as usize].fill(NONE);
        }
        self.erases_since_wl += 1;
        Ok(())
    }

    fn erase_if_written(&mut self, flash: &mut Flash, pbn: Pbn, cause: Cause) -> FlashResult<()> {
        if self.written[pbn as usize] {
            self.erase(flash, pbn, cause)?;
        }
        Ok(())
    }

    fn kept(&self, b: usize) -> usize {
        (self.valid_cnt[b] + self.retr_cnt[b]) as usize
    }

    /// Moves a closed block to the bucket of its new kept count.
    fn rebucket(&mut self, b: usize, old_kept: usize) {
        let new_kept = self.kept(b);
        if new_kept != old_kept && self.usage[b] == Use::Closed {
            self.closed_by_kept.remove(old_kept, b as Pbn);
            self.closed_by_kept.insert(new_kept, b as Pbn);
        }
    }

    fn set_usage(&mut self, b: Pbn, u: Use) {
        let (i, kept) = (b as usize, self.kept(b as usize));
        if self.usage[i] == Use::Closed {
            self.closed_by_kept.remove(kept, b);
        }
        self.usage[i] = u;
        if u == Use::Closed {
            self.closed_by_kept.insert(kept, b);
        }
    }

    /// Whether a page is valid: the current page of the sector its spare area names
    /// (`fwd`). The inverted table the paper keeps in the mapping section (section 4) is
    /// this, read from the forward map and the pages, not a RAM array of its own.
    pub(super) fn is_valid(&self, flash: &Flash, ppn: Ppn) -> bool {
        let p = flash.peek(ppn);
        p.kind == PageKind::Data && self.fwd.get(p.lpn as usize) == Some(&ppn)
    }

    /// The sector page `ppn` holds if valid, else NONE (an inverted-table entry).
    pub(super) fn owner(&self, flash: &Flash, ppn: Ppn) -> Lpn {
        if self.is_valid(flash, ppn) {
            flash.peek(ppn).lpn
        } else {
            NONE
        }
    }

    /// Counts page `ppn` as turned valid (`on`) or invalid: called once per change,
    /// after `fwd` changed.
    fn count_valid(&mut self, ppn: Ppn, on: bool) {
        let b = (ppn / self.ppb) as usize;
        let old = self.kept(b);
        if on {
            self.valid_cnt[b] += 1;
        } else {
            self.valid_cnt[b] -= 1;
        }
        self.rebucket(b, old);
    }

    fn set_retr(&mut self, ppn: Ppn, on: bool) {
        if self.retr[ppn as usize] != on {
            let b = (ppn / self.ppb) as usize;
            let old = self.kept(b);
            self.retr[ppn as usize] = on;
            if on {
                self.retr_cnt[b] += 1;
            } else {
                self.retr_cnt[b] -= 1;
            }
            self.rebucket(b, old);
        }
    }

    // ---- metadata section ---------------------------------------------------------

    // ---- intent log -------------------------------------------------------------

    fn slot_ppn(&self, idx: u32) -> Ppn {
        self.slots[self.cur_slot][(idx / self.ppb) as usize] * self.ppb + idx % self.ppb
    }

    // ---- data section -----------------------------------------------------------

    // ---- time shift -------------------------------------------------------------

    // ---- recovery (section 4) -----------------------------------------------------
}

impl Ftl for LtFtl {
    fn name(&self) -> &'static str {
        "ltftl"
    }
    fn meta_kind(&self, tag: u8) -> Option<super::MetaKind> {
        use super::MetaKind as K;
        [(TAG_META, K::MapDirectory), (TAG_MAP, K::MapPage), (TAG_LOG, K::IntentLog)]
            .into_iter()
            .find_map(|(t, k)| (t == tag).then_some(k))
    }
    fn logical_pages(&self) -> u32 {
        self.logical_pages
    }

    /// Section 4: allocate a data page, write the data with ⟨sector, global_time⟩ in
    /// the spare area, update the forward map, add the intent-log entry.
    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        self.ensure_mounted(flash)?;
        let ppn = self.next_host_page(flash)?;
        let gt = self.next_gt;
        let page = Page { lpn, version, seq: gt, kind: PageKind::Data, tag: TAG_DATA };
        self.prog(flash, ppn, page, Cause::Host)?;
        if let Some((_, n)) = &mut self.frontier {
            *n += 1;
        }
        self.next_gt += 1;
        let old = self.fwd[lpn as usize];
        self.fwd[lpn as usize] = ppn;
        self.count_valid(ppn, true);
        if !self.death.is_empty() {
            self.death[ppn as usize] = NONE;
        }
        if old != NONE {
            self.count_valid(old, false);
            if !self.death.is_empty() {
                self.death[old as usize] = gt;
            }
            let pinned = self.needed_by_state(flash, old);
            self.set_retr(old, pinned);
        }
        self.append(LogEntry::write(lpn, old, ppn, gt));
        self.after_append(flash)
    }

    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        let ppn = self.fwd[lpn as usize];
        if ppn == NONE {
            return Ok(None);
        }
        flash.read(ppn, Cause::Host)?;
        Ok(Some(ppn))
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        self.fwd.get(lpn as usize).copied().filter(|&p| p != NONE)
    }

    fn run_closed(&mut self, parts: &mut super::host::Parts<'_>, reqs: &[crate::trace::Request]) -> Option<Result<(), (crate::trace::Request, FlashError)>> {
        self.closed_loop(parts, reqs)
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.traded[pbn as usize].unwrap_or(self.section[pbn as usize]) {
            Section::Meta => BlockRole::Metadata,
            Section::Map => BlockRole::MapBlock,
            Section::Log => BlockRole::Log,
            Section::Data => match self.usage[pbn as usize] {
                Use::Free => BlockRole::Free,
                Use::Frontier => BlockRole::Active,
                Use::GcFrontier => BlockRole::GcDestination,
                Use::Closed => BlockRole::Data,
            },
        }
    }

    fn page_state(&self, flash: &Flash, ppn: Ppn) -> PageState {
        match flash.peek(ppn).kind {
            PageKind::Erased => PageState::Erased,
            PageKind::Meta => PageState::Metadata,
            PageKind::Torn => PageState::Torn,
            PageKind::Data => {
                if self.is_valid(flash, ppn) {
                    PageState::Valid
                } else if self.needed_by_state(flash, ppn) {
                    PageState::Retractable
                } else {
                    PageState::Invalid
                }
            }
        }
    }

    /// Paper's accounting: the forward map (4 B per sector), the one-page log buffer,
    /// and 8 B per frozen state.
    fn ram_bytes(&self) -> u64 {
        4 * self.logical_pages as u64 + self.page_bytes as u64 + 8 * self.states.len() as u64
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        let sh = self.space_shares();
        serde_json::json!({
            "space_shares": {
                "valid": sh.valid, "invalid": sh.invalid, "retractable": sh.retractable,
                "log": sh.log, "map": sh.map, "metadata": sh.meta, "free": sh.free,
            },
            "frozen_states": self.states.len(),
            "global_time": self.next_gt,
            "log_entries": self.log_len(),
            "log_buffer_entries": self.log.len() - self.flushed,
            "log_flushes": self.log_flushes,
            "map_dumps": self.dumps,
            "states_released_automatically": self.released_states,
            "retractable_pages_copied_by_gc": self.retractable_copies,
            "wear_level_swaps": self.wl_swaps,
        })
    }

    fn panels(&self, flash: &Flash) -> Vec<Panel> {
        self.scheme_panels(flash)
    }

    fn time_shift(&self) -> bool {
        true
    }
    fn frozen_states(&self) -> Vec<u32> {
        self.states.iter().map(|s| s.id).collect()
    }
    fn frozen_image(&self, id: u32) -> Option<Vec<Ppn>> {
        self.image_of(id)
    }

    /// Section 4: the epoch is the global time after the last log entry; every page
    /// invalidated from now on is retractable for this state.
    fn freeze(&mut self, flash: &mut Flash) -> FlashResult<Result<u32, String>> {
        self.ensure_mounted(flash)?;
        self.flush_log(flash, Cause::Log)?;
        let s = FrozenState { id: self.next_id, epoch: self.next_gt };
        self.next_id += 1;
        self.states.push(s);
        self.sync_state_arrays();
        flash.note("freeze", || format!("freeze: state {} is S{}", s.id, s.epoch));
        self.write_meta(flash, false, Cause::Log)?;
        Ok(Ok(s.id))
    }

    fn unfreeze(&mut self, flash: &mut Flash, state: u32) -> FlashResult<Result<(), String>> {
        if !self.states.iter().any(|s| s.id == state) {
            return Ok(Err(format!("no frozen state {state}")));
        }
        self.ensure_mounted(flash)?;
        self.states.retain(|s| s.id != state);
        self.sync_state_arrays();
        self.recount_retractable(flash);
        flash.note("unfreeze", || format!("unfreeze: state {state} released; its retractable pages are invalid now"));
        self.write_meta(flash, false, Cause::Log)?;
        Ok(Ok(()))
    }

    fn revert(&mut self, flash: &mut Flash, state: u32) -> FlashResult<Result<(), String>> {
        if !self.states.iter().any(|s| s.id == state) {
            return Ok(Err(format!("no frozen state {state}")));
        }
        self.ensure_mounted(flash)?;
        self.do_revert(flash, state, Cause::Log)
    }
}
