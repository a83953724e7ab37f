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

use super::registry::{self, Builder, PanelKind, ParamSpec, SchemeEntry, Value};
use super::{BlockRole, Cleaning, Ftl, PageState, SchemeParams, Table};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

/// Spare-area tags of the page kinds LTFTL writes.
pub const TAG_DATA: u8 = 1;
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
    panels: &[PanelKind::FrozenStates],
    build: Builder::Geometry(|p, g| Ok(Box::new(LtFtl::new(g, p)?))),
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

/// One intent-log entry ⟨sector, old page, new page, global_time⟩ (section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LogEntry {
    pub sector: Lpn,
    /// NONE = φ (the sector had no page).
    pub old: Ppn,
    pub new: Ppn,
    pub gt: u32,
    /// A GC relocation of `old` to `new` (not a host write; never undone). For a move,
    /// `gt` is the global time at which the moved data was written.
    pub moved: bool,
}

impl LogEntry {
    fn encode(&self, out: &mut Vec<u32>) {
        out.extend_from_slice(&[self.sector | if self.moved { MOVE_FLAG } else { 0 }, self.old, self.new, self.gt]);
    }
    fn decode(w: &[u32]) -> LogEntry {
        LogEntry { sector: w[0] & !MOVE_FLAG, old: w[1], new: w[2], gt: w[3], moved: w[0] & MOVE_FLAG != 0 }
    }
}

/// A frozen state: `epoch` is the global time of the next write after the freeze, so
/// the state is S_epoch in the paper's notation (S8 after writes at t = 0..7).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrozenState {
    pub id: u32,
    pub epoch: u32,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SpaceShares {
    pub valid: f64,
    pub invalid: f64,
    pub retractable: f64,
    pub log: f64,
    pub map: f64,
    pub meta: f64,
    pub free: f64,
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
    /// RAM copy of the inverted table: the sector a valid page holds, NONE otherwise.
    owner: Vec<Lpn>,
    /// Global time a data page was written (its spare `seq`; kept through GC copies).
    birth: Vec<u32>,
    /// Global time of the write that invalidated a page (NONE: none recorded).
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

    /// The intent log since the last dump, in RAM: `log[..flushed]` is in the log
    /// section, `log[flushed..]` is the one-page RAM buffer.
    log: Vec<LogEntry>,
    flushed: usize,
    /// Entries appended since the last map dump (threshold check).
    since_dump: usize,
    /// Index of the log entry whose `old` is this page (substituted on GC moves).
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
    pub fn new(g: &Geometry, params: &SchemeParams) -> Result<LtFtl, String> {
        let op = params.op.unwrap_or(DEFAULT_OP);
        if ENTRY.params[0].check(op, g).is_err() {
            return Err(format!("over-provisioning ratio must be in [0, 1) (got {op})"));
        }
        if g.page_bytes < ENTRY_BYTES {
            return Err(format!("ltftl needs pages of at least {ENTRY_BYTES} bytes"));
        }
        let ppb = g.pages_per_block;
        let pages = g.pages();
        let map_pages = div_ceil(pages, g.page_bytes / 4);
        let slot_blocks = div_ceil(map_pages, ppb);
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
            owner: vec![NONE; pages as usize],
            birth: vec![NONE; pages as usize],
            death: vec![NONE; pages as usize],
            valid_cnt: vec![0; g.blocks as usize],
            retr: vec![false; pages as usize],
            retr_cnt: vec![0; g.blocks as usize],
            // A page is briefly both valid and retractable while a write moves it, so a
            // block can briefly keep up to 2 x ppb.
            closed_by_kept: super::greedy::OrderedBuckets::new(g.blocks, 2 * g.pages_per_block as usize + 1),
            next_gt: 0,
            states: Vec::new(),
            next_id: 1,
            log: Vec::new(),
            flushed: 0,
            since_dump: 0,
            old_ref: vec![NONE; pages as usize],
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
    /// The intent log since the last map dump (flushed part, then the RAM buffer).
    pub fn log_entries(&self) -> &[LogEntry] {
        &self.log
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

    /// A page is retractable when no longer current but held by a frozen state's
    /// image: born before the state's epoch, invalidated at or after it (equation 2).
    fn needed_by_state(&self, ppn: Ppn) -> bool {
        let (b, d) = (self.birth[ppn as usize], self.death[ppn as usize]);
        d != NONE && b != NONE && self.states.iter().any(|s| b < s.epoch && s.epoch <= d)
    }

    fn pins(&self, s: &FrozenState, ppn: Ppn) -> bool {
        let (b, d) = (self.birth[ppn as usize], self.death[ppn as usize]);
        d != NONE && b != NONE && b < s.epoch && s.epoch <= d
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
        for e in self.log.iter().filter(|e| !e.moved && e.gt >= epoch) {
            if seen.insert(e.sector) {
                out.push((e.sector, e.old));
            }
        }
        out
    }

    /// Shares of the chip's pages (Figure 8): valid, invalid, retractable, log, map,
    /// metadata and free.
    pub fn space_shares(&self) -> SpaceShares {
        // From RAM alone (programmed-page counts per block, the inverted table and the
        // birth/death times), so `scheme_metrics` can report it.
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
                    for p in b * self.ppb..b * self.ppb + programmed {
                        if self.owner[p as usize] != NONE {
                            s.valid += 1.0;
                        } else if self.needed_by_state(p) {
                            s.retractable += 1.0;
                        } else {
                            s.invalid += 1.0;
                        }
                    }
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
        for i in lo..lo + self.ppb as usize {
            self.set_owner(i as Ppn, NONE);
            self.set_retr(i as Ppn, false);
            self.birth[i] = NONE;
            self.death[i] = NONE;
            self.old_ref[i] = NONE;
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

    fn set_owner(&mut self, ppn: Ppn, sector: Lpn) {
        let b = (ppn / self.ppb) as usize;
        let old = self.kept(b);
        match (self.owner[ppn as usize] == NONE, sector == NONE) {
            (true, false) => self.valid_cnt[b] += 1,
            (false, true) => self.valid_cnt[b] -= 1,
            _ => {}
        }
        self.owner[ppn as usize] = sector;
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

    /// Recomputes every page's retractable flag (after unfreeze, revert, recovery).
    fn recount_retractable(&mut self) {
        for p in 0..self.pages {
            let on = self.owner[p as usize] == NONE && self.needed_by_state(p);
            self.set_retr(p, on);
        }
    }

    /// Checks the per-block counters against the definitions (tests).
    pub fn check_counters(&self) -> Result<(), String> {
        for b in 0..self.section.len() as u32 {
            let pages = b * self.ppb..(b + 1) * self.ppb;
            let valid = pages.clone().filter(|&p| self.owner[p as usize] != NONE).count() as u32;
            let retr =
                pages.clone().filter(|&p| self.owner[p as usize] == NONE && self.needed_by_state(p)).count() as u32;
            if valid != self.valid_cnt[b as usize] || retr != self.retr_cnt[b as usize] {
                return Err(format!(
                    "block {b}: valid {valid} (counter {}), retractable {retr} (counter {})",
                    self.valid_cnt[b as usize], self.retr_cnt[b as usize]
                ));
            }
            if pages
                .clone()
                .any(|p| self.retr[p as usize] != (self.owner[p as usize] == NONE && self.needed_by_state(p)))
            {
                return Err(format!("block {b}: a retractable flag is stale"));
            }
        }
        Ok(())
    }

    // ---- metadata section ---------------------------------------------------------

    /// Writes a metadata record (clean flag, states, dump and chain locations) to the
    /// metadata section, alternating between its two blocks.
    fn write_meta(&mut self, flash: &mut Flash, clean: bool, cause: Cause) -> FlashResult<()> {
        if self.meta_next >= self.ppb {
            let other = 1 - self.meta_block;
            self.erase(flash, other, cause)?;
            self.meta_block = other;
            self.meta_next = 0;
        }
        let mut payload = vec![
            MAGIC,
            clean as u32,
            self.next_id,
            self.generation,
            self.dump_gt,
            self.dump_at,
            self.cur_slot as u32,
            self.next_gt,
            // Figure 5's "oldest revertible state id" (NONE when there is none).
            self.states.first().map_or(NONE, |s| s.id),
        ];
        payload.push(self.slots[self.cur_slot].len() as u32);
        payload.extend_from_slice(&self.slots[self.cur_slot]);
        payload.push(self.chain.len() as u32);
        payload.extend_from_slice(&self.chain);
        payload.push(self.states.len() as u32);
        for s in &self.states {
            payload.extend_from_slice(&[s.id, s.epoch]);
        }
        self.meta_seq += 1;
        let ppn = self.meta_block * self.ppb + self.meta_next;
        self.prog_meta(flash, ppn, Page::meta(TAG_META, self.meta_seq), payload, cause)?;
        self.meta_next += 1;
        Ok(())
    }

    /// Before the first change after mount, the record says "not cleanly shut down".
    fn ensure_mounted(&mut self, flash: &mut Flash) -> FlashResult<()> {
        if !self.mounted {
            self.write_meta(flash, false, Cause::Log)?;
            self.mounted = true;
        }
        Ok(())
    }

    /// Clean shutdown: flush the log buffer and record the clean flag.
    pub fn shutdown(&mut self, flash: &mut Flash) -> FlashResult<()> {
        self.flush_log(flash, Cause::Log)?;
        self.write_meta(flash, true, Cause::Log)?;
        self.mounted = false;
        Ok(())
    }

    // ---- intent log -------------------------------------------------------------

    fn append(&mut self, e: LogEntry) {
        if !e.moved && e.old != NONE {
            self.old_ref[e.old as usize] = self.log.len() as u32;
        }
        self.log.push(e);
        self.since_dump += 1;
    }

    /// Flushes the one-page RAM buffer when full, and dumps the map when the log
    /// passes the threshold.
    fn after_append(&mut self, flash: &mut Flash) -> FlashResult<()> {
        if self.log.len() - self.flushed >= self.entries_per_log_page() {
            self.flush_log(flash, Cause::Log)?;
        }
        if self.since_dump > self.dump_threshold_entries() {
            self.dump(flash, Cause::Map)?;
        }
        Ok(())
    }

    /// Writes the buffered entries as one log page.
    fn flush_log(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
        if self.flushed == self.log.len() {
            return Ok(());
        }
        let Some(ppn) = self.next_log_page(flash, cause)? else {
            // No room in the log section: the dump rewrites the whole log.
            return self.dump(flash, cause);
        };
        let mut payload = Vec::with_capacity((self.log.len() - self.flushed) * 4);
        for e in &self.log[self.flushed..] {
            e.encode(&mut payload);
        }
        let page = Page {
            lpn: self.log_pages.len() as u32,
            version: 0,
            seq: self.generation,
            kind: PageKind::Meta,
            tag: TAG_LOG,
        };
        self.prog_meta(flash, ppn, page, payload, cause)?;
        self.log_pages.push((ppn, self.flushed));
        self.chain_next += 1;
        self.flushed = self.log.len();
        self.log_flushes += 1;
        Ok(())
    }

    fn free_log_blocks(&self) -> Vec<Pbn> {
        self.log_section.iter().copied().filter(|b| !self.chain.contains(b)).collect()
    }

    /// The next page of the log chain, opening a block if needed; None when opening
    /// one would leave too little room to rewrite the log at the next dump.
    fn next_log_page(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<Option<Ppn>> {
        if let Some(&last) = self.chain.last() {
            if self.chain_next < self.ppb {
                return Ok(Some(last * self.ppb + self.chain_next));
            }
        }
        let free = self.free_log_blocks();
        if free.len() < self.chain.len() + 2 {
            return Ok(None);
        }
        let b = *free.iter().min_by_key(|&&b| flash.erase_count(b)).unwrap();
        self.erase_if_written(flash, b, cause)?;
        self.chain.push(b);
        self.chain_next = 0;
        // The metadata names every chain block before a page is written there.
        self.write_meta(flash, false, cause)?;
        Ok(Some(b * self.ppb))
    }

    /// Log entries a dump keeps: those at or after the oldest frozen epoch, and of
    /// those only the first per sector between consecutive epochs (undoing to any
    /// frozen state needs only the page each sector had at its epoch).
    fn compacted_log(&self) -> Vec<LogEntry> {
        let Some(first) = self.states.first() else { return Vec::new() };
        let epochs: Vec<u32> = self.states.iter().map(|s| s.epoch).collect();
        let mut seen = vec![NONE; self.logical_pages as usize];
        let mut out = Vec::new();
        let mut interval = 0u32;
        for e in self.log.iter().filter(|e| !e.moved && e.gt >= first.epoch) {
            while (interval as usize) + 1 < epochs.len() && e.gt >= epochs[interval as usize + 1] {
                interval += 1;
            }
            if seen[e.sector as usize] != interval {
                seen[e.sector as usize] = interval;
                out.push(*e);
            }
        }
        out
    }

    /// Writes the up-to-date inverted table to the mapping section, rewrites the
    /// (compacted) log into fresh log blocks, commits both with a metadata record,
    /// then erases the old log chain (section 4).
    fn dump(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
        let per_page = self.entries_per_log_page();
        let free = self.free_log_blocks_excluding(&self.chain);
        let room = free.len() * self.ppb as usize;
        let mut kept = self.compacted_log();
        while kept.len().div_ceil(per_page) > room && !self.states.is_empty() {
            let s = self.states[0];
            // Persisted by this dump's own metadata record.
            self.release(flash, s.id, "the log section cannot hold its log", false)?;
            kept = self.compacted_log();
        }
        let old_chain = std::mem::take(&mut self.chain);
        self.generation += 1;
        let gen = self.generation;
        flash.note("dump", || {
            format!(
                "map dump #{gen}: inverted table written to the mapping section; log rewritten with {} entries",
                kept.len()
            )
        });
        // 1. the inverted table (page → sector), into the current slot if it still has
        // room, else into the other slot (which holds only an older dump).
        let slot_cap = self.slots[self.cur_slot].len() as u32 * self.ppb;
        if self.dump_at == NONE || self.slot_next + self.map_pages > slot_cap {
            let other = if self.dump_at == NONE { self.cur_slot } else { 1 - self.cur_slot };
            for b in self.slots[other].clone() {
                self.erase_if_written(flash, b, cause)?;
            }
            self.cur_slot = other;
            self.slot_next = 0;
        }
        let per_map = (self.page_bytes / 4) as usize;
        let first = self.slot_ppn(self.slot_next);
        for i in 0..self.map_pages {
            let lo = i as usize * per_map;
            let hi = (lo + per_map).min(self.pages as usize);
            let payload = self.owner[lo..hi].to_vec();
            let ppn = self.slot_ppn(self.slot_next);
            let page = Page { lpn: i, version: 0, seq: gen, kind: PageKind::Meta, tag: TAG_MAP };
            self.prog_meta(flash, ppn, page, payload, cause)?;
            self.slot_next += 1;
        }
        // 2. the log, compacted, into fresh log blocks.
        self.log_pages.clear();
        self.chain_next = self.ppb;
        let mut free_iter = free.into_iter();
        for (k, chunk) in kept.chunks(per_page).enumerate() {
            if self.chain_next >= self.ppb {
                let b = free_iter.next().expect("room was checked");
                self.erase_if_written(flash, b, cause)?;
                self.chain.push(b);
                self.chain_next = 0;
            }
            let mut payload = Vec::with_capacity(chunk.len() * 4);
            for e in chunk {
                e.encode(&mut payload);
            }
            let ppn = *self.chain.last().unwrap() * self.ppb + self.chain_next;
            let page = Page { lpn: k as u32, version: 0, seq: gen, kind: PageKind::Meta, tag: TAG_LOG };
            self.prog_meta(flash, ppn, page, payload, cause)?;
            self.log_pages.push((ppn, k * per_page));
            self.chain_next += 1;
        }
        // 3. commit.
        self.dump_at = first;
        self.dump_gt = self.next_gt;
        self.write_meta(flash, false, cause)?;
        self.mounted = true;
        // 4. the old chain is garbage now.
        for b in old_chain {
            if !self.chain.contains(&b) {
                self.erase_if_written(flash, b, cause)?;
            }
        }
        self.log = kept;
        self.flushed = self.log.len();
        self.since_dump = 0;
        self.rebuild_old_ref();
        self.dumps += 1;
        self.wear_level(flash)
    }

    /// Points every page at the log entry that invalidated its data. An entry can
    /// name a page number that has since been erased and reused ("stale"); only the
    /// entry whose time is the page's recorded death is the page's own.
    fn rebuild_old_ref(&mut self) {
        self.old_ref.fill(NONE);
        for (i, e) in self.log.iter().enumerate() {
            if !e.moved && e.old != NONE && self.death[e.old as usize] == e.gt {
                self.old_ref[e.old as usize] = i as u32;
            }
        }
    }

    /// Recovery: the entry that invalidated the data (sector, born at `birth`) is the
    /// sector's first host-write entry after `birth` — the data was current until then.
    fn death_entry(log: &[LogEntry], by_sector: &[Vec<u32>], sector: Lpn, birth: u32) -> Option<usize> {
        let list = by_sector.get(sector as usize)?;
        let k = list.partition_point(|&i| log[i as usize].gt <= birth);
        list.get(k).map(|&i| i as usize)
    }

    fn free_log_blocks_excluding(&self, old_chain: &[Pbn]) -> Vec<Pbn> {
        let mut v: Vec<Pbn> = self.log_section.iter().copied().filter(|b| !old_chain.contains(b)).collect();
        v.sort_by_key(|&b| b);
        v
    }

    fn slot_ppn(&self, idx: u32) -> Ppn {
        self.slots[self.cur_slot][(idx / self.ppb) as usize] * self.ppb + idx % self.ppb
    }

    // ---- data section -----------------------------------------------------------

    fn take_free(&mut self, flash: &mut Flash, role: Use, cause: Cause) -> FlashResult<Pbn> {
        let pbn =
            self.free.pop_front().ok_or_else(|| FlashError::Violation("ltftl ran out of free data blocks".into()))?;
        self.erase_if_written(flash, pbn, cause)?;
        self.set_usage(pbn, role);
        Ok(pbn)
    }

    fn next_host_page(&mut self, flash: &mut Flash) -> FlashResult<Ppn> {
        if let Some((b, n)) = self.frontier {
            if n < self.ppb {
                return Ok(b * self.ppb + n);
            }
            self.set_usage(b, Use::Closed);
            self.frontier = None;
        }
        while self.free.len() < MIN_FREE {
            self.collect(flash)?;
        }
        let b = self.take_free(flash, Use::Frontier, Cause::Host)?;
        flash.note("alloc", || format!("write frontier full: data block {b} opened"));
        self.frontier = Some((b, 0));
        Ok(b * self.ppb)
    }

    fn next_gc_page(&mut self, flash: &mut Flash) -> FlashResult<Ppn> {
        if let Some((b, n)) = self.gc_frontier {
            if n < self.ppb {
                return Ok(b * self.ppb + n);
            }
            self.set_usage(b, Use::Closed);
        }
        let b = self.take_free(flash, Use::GcFrontier, Cause::Gc)?;
        self.gc_frontier = Some((b, 0));
        Ok(b * self.ppb)
    }

    fn reclaimable(&self, pbn: Pbn) -> u32 {
        self.ppb - self.valid_cnt[pbn as usize] - self.retr_cnt[pbn as usize]
    }

    /// Garbage collection (section 4): the block with the highest share of
    /// reclaimable pages; valid and retractable pages are copied, the moves logged and
    /// flushed, then the block is erased. When no block has a reclaimable page, the
    /// oldest frozen state is released (our choice; the paper does not say).
    fn collect(&mut self, flash: &mut Flash) -> FlashResult<()> {
        let (victim, gain) = loop {
            // The fewest kept pages = the most reclaimable; the lowest pbn among equals.
            let best = self.closed_by_kept.first().map(|b| (b, self.reclaimable(b)));
            match best {
                Some((b, r)) if r > 0 => break (b, r),
                _ => {
                    let Some(s) = self.states.first().copied() else {
                        return Err(FlashError::Violation("ltftl garbage collection found no reclaimable page".into()));
                    };
                    self.release(flash, s.id, "no block has a reclaimable page", true)?;
                }
            }
        };
        // Counts at its first operation with cause gc (a copy's read, a lazily erased GC
        // frontier, or the victim's erase): a log flush before it does not take it.
        flash.count_at_next_op(Count::GcRun);
        let ppb = self.ppb;
        flash.note("gc", || {
            format!("GC picks data block {victim}: {gain} of {ppb} pages reclaimable; valid and retractable pages are copied")
        });
        for src in victim * ppb..(victim + 1) * ppb {
            let valid = self.owner[src as usize] != NONE;
            let retractable = !valid && self.retr[src as usize];
            if !valid && !retractable {
                continue;
            }
            let dst = self.next_gc_page(flash)?;
            let data = flash.read(src, Cause::Gc)?;
            self.prog(flash, dst, data, Cause::Gc)?;
            if let Some((_, n)) = &mut self.gc_frontier {
                *n += 1;
            }
            let sector = data.lpn;
            self.birth[dst as usize] = self.birth[src as usize];
            self.death[dst as usize] = self.death[src as usize];
            if valid {
                self.fwd[sector as usize] = dst;
                self.set_owner(dst, sector);
                self.set_owner(src, NONE);
            } else {
                self.set_retr(dst, true);
                self.set_retr(src, false);
                self.retractable_copies += 1;
            }
            let r = self.old_ref[src as usize];
            if r != NONE {
                self.log[r as usize].old = dst;
                self.old_ref[dst as usize] = r;
            }
            // The time field of a move holds the moved data's birth: recovery uses it
            // to find the entry that invalidated the data (see `death_entry`).
            let gt = self.birth[src as usize];
            self.append(LogEntry { sector, old: src, new: dst, gt, moved: true });
            if self.log.len() - self.flushed >= self.entries_per_log_page() {
                self.flush_log(flash, Cause::Log)?;
            }
        }
        // The moves must be in the log section before the originals disappear.
        self.flush_log(flash, Cause::Log)?;
        self.erase(flash, victim, Cause::Gc)?;
        self.set_usage(victim, Use::Free);
        self.free.push_back(victim);
        self.wear_level(flash)
    }

    /// Section 5.1: after every 50 erases, one block of the mapping and of the log
    /// section trade places with a data block, so blocks that held the map or the log
    /// also serve data. We swap only blocks holding nothing live: the least-worn block of
    /// the mapping slot not in use and the least-worn free log block, each with the
    /// most-worn free data block, when that one is more worn.
    fn wear_level(&mut self, flash: &mut Flash) -> FlashResult<()> {
        if !self.wear_levelling || self.erases_since_wl < WEAR_LEVEL_PERIOD {
            return Ok(());
        }
        self.erases_since_wl = 0;
        let other = 1 - self.cur_slot;
        // The current slot is in use once a dump exists; before, neither is.
        let map_candidates: Vec<(usize, usize)> = (0..2)
            .filter(|&s| s == other || self.dump_at == NONE)
            .flat_map(|s| (0..self.slots[s].len()).map(move |i| (s, i)))
            .collect();
        if let Some(&(s, i)) = map_candidates.iter().min_by_key(|&&(s, i)| flash.erase_count(self.slots[s][i])) {
            let m = self.slots[s][i];
            if let Some(d) = self.most_worn_free(flash) {
                if flash.erase_count(d) > flash.erase_count(m) {
                    self.swap_into_data(d, m, Section::Map);
                    self.slots[s][i] = d;
                    flash.note("wear_level", || {
                        format!("wear levelling: mapping block {m} and data block {d} trade places")
                    });
                }
            }
        }
        let free_log = self.free_log_blocks();
        if let Some(&l) = free_log.iter().min_by_key(|&&b| flash.erase_count(b)) {
            if let Some(d) = self.most_worn_free(flash) {
                if flash.erase_count(d) > flash.erase_count(l) {
                    self.swap_into_data(d, l, Section::Log);
                    let pos = self.log_section.iter().position(|&b| b == l).unwrap();
                    self.log_section[pos] = d;
                    flash.note("wear_level", || {
                        format!("wear levelling: log block {l} and data block {d} trade places")
                    });
                }
            }
        }
        Ok(())
    }

    fn most_worn_free(&self, flash: &Flash) -> Option<Pbn> {
        self.free.iter().copied().max_by_key(|&b| flash.erase_count(b))
    }

    /// Data block `d` (free) joins section `to`; block `x` of that section joins the data pool.
    fn swap_into_data(&mut self, d: Pbn, x: Pbn, to: Section) {
        self.free.retain(|&b| b != d);
        self.section[d as usize] = to;
        if self.written[x as usize] {
            self.traded[x as usize] = Some(self.section[x as usize]);
        }
        self.section[x as usize] = Section::Data;
        self.set_usage(x, Use::Free);
        self.free.push_back(x);
        self.wl_swaps += 1;
    }

    // ---- time shift -------------------------------------------------------------

    /// Unfreeze (section 4): the state's retractable pages become invalid (they are no
    /// longer needed by the birth/death rule), the record is rewritten, and log entries
    /// nothing needs any more are dropped at the next dump.
    fn release(&mut self, flash: &mut Flash, id: u32, why: &str, persist: bool) -> FlashResult<()> {
        self.states.retain(|s| s.id != id);
        self.recount_retractable();
        self.released_states += 1;
        flash.note("unfreeze", || format!("state {id} released automatically: {why}"));
        if persist {
            self.write_meta(flash, false, Cause::Log)?;
        }
        Ok(())
    }

    fn do_revert(&mut self, flash: &mut Flash, id: u32, cause: Cause) -> FlashResult<Result<(), String>> {
        let Some(s) = self.states.iter().copied().find(|s| s.id == id) else {
            return Ok(Err(format!("no frozen state {id}")));
        };
        // (1) the up-to-date map is in RAM; charge reading the log pages undone.
        let first_undone = self.log.iter().position(|e| e.gt >= s.epoch).unwrap_or(self.log.len());
        let reads: Vec<Ppn> = self
            .log_pages
            .iter()
            .filter(|&&(_, start)| start + self.entries_per_log_page() > first_undone)
            .map(|&(p, _)| p)
            .collect();
        for p in reads {
            flash.read(p, cause)?;
        }
        // (2) undo log entries backward to the epoch (equation 1).
        let targets = self.undo_targets(s.epoch);
        let n = targets.len();
        flash.note("revert", || {
            format!(
                "revert to state {id} (S{}): {n} sector{} take{} back {} old page{}",
                s.epoch,
                if n == 1 { "" } else { "s" },
                if n == 1 { "s" } else { "" },
                if n == 1 { "its" } else { "their" },
                if n == 1 { "" } else { "s" }
            )
        });
        for (sector, old) in targets {
            let cur = self.fwd[sector as usize];
            if cur != NONE {
                self.set_owner(cur, NONE);
                // Written after the epoch and undone: no state can need it again.
                self.death[cur as usize] = self.birth[cur as usize];
            }
            self.fwd[sector as usize] = old;
            if old != NONE {
                self.set_owner(old, sector);
                self.death[old as usize] = NONE;
            }
        }
        // Time shift is linear: states frozen after this one are dropped with the
        // history they need.
        self.states.retain(|t| t.epoch <= s.epoch);
        self.recount_retractable();
        let keep = self.log.iter().position(|e| e.gt >= s.epoch).unwrap_or(self.log.len());
        self.log.truncate(keep);
        self.flushed = self.flushed.min(keep);
        self.dump(flash, cause)?;
        Ok(Ok(()))
    }

    // ---- recovery (section 4) -----------------------------------------------------

    /// Rebuilds LTFTL from the chip alone after power comes back. Reads the latest
    /// metadata record; if the clean-shutdown flag is missing, the RAM log buffer was
    /// lost, and the entries are rebuilt from the spare areas of data pages newer than
    /// the last logged global time. Then the map is dumped (section 4: "when LTFTL is
    /// initialized"); with `reboot_to_frozen` the latest frozen state is reverted to
    /// first. Every read of the rebuild is charged to `Cause::Recovery`.
    pub fn recover(flash: &mut Flash, params: &SchemeParams, reboot_to_frozen: bool) -> FlashResult<LtFtl> {
        let g = *flash.geometry();
        let mut f = LtFtl::new(&g, params).map_err(FlashError::Violation)?;
        let ppb = f.ppb;
        let rc = Cause::Recovery;
        flash.note("recovery", || "recovery: reading the metadata section".into());
        // 1. metadata: the record with the highest sequence number.
        let mut best: Option<(u32, Ppn)> = None;
        for b in 0..2 {
            for off in 0..ppb {
                let ppn = b * ppb + off;
                let p = flash.read_oob(ppn, rc)?;
                if p.kind == PageKind::Meta && p.tag == TAG_META && best.is_none_or(|(s, _)| p.seq > s) {
                    best = Some((p.seq, ppn));
                }
            }
        }
        let mut clean = false;
        let mut chain = Vec::new();
        if let Some((seq, ppn)) = best {
            flash.read(ppn, rc)?;
            let r = flash.payload(ppn).unwrap_or(&[]).to_vec();
            if r.first() != Some(&MAGIC) {
                return Err(FlashError::Violation("ltftl metadata record without magic".into()));
            }
            clean = r[1] == 1;
            f.next_id = r[2];
            f.generation = r[3];
            f.dump_gt = r[4];
            f.dump_at = r[5];
            f.cur_slot = r[6] as usize;
            f.next_gt = r[7];
            // r[8]: the oldest revertible state, also the first of the list below.
            let mut i = 9;
            let n = r[i] as usize;
            let slot: Vec<Pbn> = r[i + 1..i + 1 + n].to_vec();
            i += 1 + n;
            let n = r[i] as usize;
            chain = r[i + 1..i + 1 + n].to_vec();
            i += 1 + n;
            let n = r[i] as usize;
            for k in 0..n {
                f.states.push(FrozenState { id: r[i + 1 + 2 * k], epoch: r[i + 2 + 2 * k] });
            }
            f.meta_seq = seq;
            f.meta_block = ppn / ppb;
            f.slots[f.cur_slot] = slot;
        }
        // Records are written in order; continue after the last programmed page (the
        // OOB reads above saw them; a torn record counts as programmed).
        let blk = f.meta_block;
        f.meta_next = (0..ppb).rev().find(|&o| !flash.peek(blk * ppb + o).is_erased()).map_or(0, |o| o + 1);
        for b in 0..2 {
            f.written[b] = flash.block_pages(b as Pbn).iter().any(|p| !p.is_erased());
            f.programmed[b] =
                flash.block_pages(b as Pbn).iter().rposition(|p| !p.is_erased()).map_or(0, |o| o as u32 + 1);
        }
        // 2. scan the spare area of every page outside the metadata section.
        let mut data_pages: Vec<(u32, Ppn, Lpn)> = Vec::new();
        let mut has_data = vec![false; g.blocks as usize];
        for ppn in 2 * ppb..g.pages() {
            let p = flash.read_oob(ppn, rc)?;
            let b = (ppn / ppb) as usize;
            if p.kind != PageKind::Erased {
                f.written[b] = true;
                // Blocks fill in order: the last programmed (or torn) page ends the prefix.
                f.programmed[b] = ppn % ppb + 1;
            }
            if p.kind == PageKind::Data && p.tag == TAG_DATA && p.lpn < f.logical_pages {
                has_data[b] = true;
                f.birth[ppn as usize] = p.seq;
                data_pages.push((p.seq, ppn, p.lpn));
                f.next_gt = f.next_gt.max(p.seq + 1);
            }
        }
        // 3. sections: metadata fixed; the committed map slot and log chain from the
        // record; blocks holding data are data blocks; the other blocks (empty or stale)
        // fill the other map slot, the rest of the log section and the free data pool.
        let cur_slot_blocks = f.slots[f.cur_slot].clone();
        let slot_len = f.slots[0].len().max(f.slots[1].len());
        let has_dump = f.dump_at != NONE;
        let taken =
            |b: Pbn| b < 2 || (has_dump && cur_slot_blocks.contains(&b)) || chain.contains(&b) || has_data[b as usize];
        let mut spare: Vec<Pbn> = (0..g.blocks).filter(|&b| !taken(b)).collect();
        spare.sort_by_key(|&b| (flash.erase_count(b), b));
        let mut spare = VecDeque::from(spare);
        let mut other_slot = Vec::new();
        if f.dump_at != NONE {
            while other_slot.len() < slot_len {
                other_slot.push(
                    spare
                        .pop_front()
                        .ok_or_else(|| FlashError::Violation("recovery: no room for the map slots".into()))?,
                );
            }
        } else {
            // No dump yet: both slots come from spare blocks.
            f.slots[f.cur_slot].clear();
            for _ in 0..slot_len {
                let b = spare
                    .pop_front()
                    .ok_or_else(|| FlashError::Violation("recovery: no room for the map slots".into()))?;
                f.slots[f.cur_slot].push(b);
            }
            while other_slot.len() < slot_len {
                other_slot.push(
                    spare
                        .pop_front()
                        .ok_or_else(|| FlashError::Violation("recovery: no room for the map slots".into()))?,
                );
            }
        }
        f.slots[1 - f.cur_slot] = other_slot;
        let log_blocks = f.log_section.len();
        let mut log_section = chain.clone();
        while log_section.len() < log_blocks {
            log_section.push(
                spare
                    .pop_front()
                    .ok_or_else(|| FlashError::Violation("recovery: no room for the log section".into()))?,
            );
        }
        f.log_section = log_section;
        f.section.fill(Section::Data);
        f.section[0] = Section::Meta;
        f.section[1] = Section::Meta;
        for s in 0..2 {
            for &b in &f.slots[s] {
                f.section[b as usize] = Section::Map;
            }
        }
        for &b in &f.log_section {
            f.section[b as usize] = Section::Log;
        }
        f.usage.fill(Use::Free);
        f.closed_by_kept.clear();
        // Spare blocks still holding metadata (a traded or old map block) show it until
        // erased; display only, no flash operation.
        for &b in &spare {
            if flash.block_pages(b).iter().any(|p| p.kind == PageKind::Meta) {
                f.traded[b as usize] = Some(Section::Map);
            }
        }
        f.free = spare;
        for b in 0..g.blocks {
            if has_data[b as usize] {
                f.set_usage(b, Use::Closed);
            }
        }
        // 4. the committed map dump: the inverted table gives the forward map.
        if f.dump_at != NONE {
            f.slot_next = 0;
            let slot = f.slots[f.cur_slot].clone();
            let idx = slot.iter().position(|&b| b == f.dump_at / ppb).unwrap_or(0) as u32 * ppb + f.dump_at % ppb;
            f.slot_next = idx;
            for i in 0..f.map_pages {
                let ppn = f.slot_ppn(f.slot_next);
                f.slot_next += 1;
                flash.read(ppn, rc)?;
                let payload = flash.payload(ppn).unwrap_or(&[]).to_vec();
                let base = i * (f.page_bytes / 4);
                for (k, &sector) in payload.iter().enumerate() {
                    if sector != NONE && sector < f.logical_pages {
                        f.fwd[sector as usize] = base + k as u32;
                    }
                }
            }
        }
        // An uncommitted later dump may have used the rest of this slot: the next dump
        // goes to the other slot (erased first).
        f.slot_next = f.slots[f.cur_slot].len() as u32 * ppb;
        // 5. the log chain: history before the dump, then entries to replay.
        let mut last_logged: Option<u32> = None;
        let mut by_sector: Vec<Vec<u32>> = vec![Vec::new(); f.logical_pages as usize];
        f.chain = chain.clone();
        f.chain_next = ppb;
        'chain: for &b in chain.iter() {
            for off in 0..ppb {
                let ppn = b * ppb + off;
                let p = flash.read_oob(ppn, rc)?;
                // Chain pages are written in order: the first page that is not a
                // complete log page of this generation ends the log.
                if p.kind != PageKind::Meta || p.tag != TAG_LOG || p.seq != f.generation {
                    break 'chain;
                }
                flash.read(ppn, rc)?;
                let words = flash.payload(ppn).unwrap_or(&[]).to_vec();
                f.log_pages.push((ppn, f.log.len()));
                for w in words.chunks(4) {
                    let e = LogEntry::decode(w);
                    // Moves are never in the history part (a dump resolves them).
                    if e.moved || e.gt >= f.dump_gt {
                        if e.moved {
                            if f.fwd[e.sector as usize] == e.old {
                                f.fwd[e.sector as usize] = e.new;
                            }
                            // A moved page that a frozen state needs: the entry that
                            // invalidated its data now names the copy. (A move entry's
                            // time field holds the moved data's birth.)
                            if let Some(i) = Self::death_entry(&f.log, &by_sector, e.sector, e.gt) {
                                if f.log[i].old == e.old {
                                    f.log[i].old = e.new;
                                }
                            }
                        } else {
                            f.fwd[e.sector as usize] = e.new;
                            last_logged = Some(last_logged.map_or(e.gt, |l| l.max(e.gt)));
                        }
                    }
                    if !e.moved && (e.sector as usize) < by_sector.len() {
                        by_sector[e.sector as usize].push(f.log.len() as u32);
                    }
                    f.log.push(e);
                }
                f.chain_next = off + 1;
            }
        }
        f.flushed = f.log.len();
        f.since_dump = f.log.len();
        // 6. unclean shutdown: the RAM buffer was lost. Rebuild its entries from the
        // spare areas of pages newer than the last logged global time.
        if !clean {
            let from = last_logged.map_or(f.dump_gt, |l| l + 1).max(f.dump_gt);
            let mut tail: Vec<(u32, Ppn, Lpn)> = data_pages.iter().copied().filter(|&(gt, _, _)| gt >= from).collect();
            tail.sort();
            tail.dedup_by_key(|t| t.0); // a GC copy carries its original's ⟨sector, time⟩
            let n = tail.len();
            flash.note("recovery", || format!("unclean shutdown: {n} log entries rebuilt from spare areas"));
            for (gt, ppn, sector) in tail {
                let old = f.fwd[sector as usize];
                f.fwd[sector as usize] = ppn;
                by_sector[sector as usize].push(f.log.len() as u32);
                f.log.push(LogEntry { sector, old, new: ppn, gt, moved: false });
            }
        }
        // 7. RAM indexes: owner from the map, deaths from the log.
        for (sector, ppn) in f.fwd.clone().into_iter().enumerate() {
            if ppn != NONE {
                let p = flash.peek(ppn);
                if p.kind != PageKind::Data || p.lpn != sector as u32 {
                    return Err(FlashError::Violation(format!(
                        "recovery: sector {sector} maps to page {ppn}, which does not hold it ({:?}); gen {} dump_gt {} clean {clean} last_logged {last_logged:?} log {:?}",
                        p, f.generation, f.dump_gt, f.log.iter().filter(|e| e.sector == sector as u32).collect::<Vec<_>>()
                    )));
                }
                f.set_owner(ppn, sector as u32);
            }
        }
        for &(birth, ppn, sector) in &data_pages {
            if f.owner[ppn as usize] != NONE {
                continue;
            }
            if let Some(i) = Self::death_entry(&f.log, &by_sector, sector, birth) {
                if f.log[i].old == ppn {
                    f.death[ppn as usize] = f.log[i].gt;
                }
            }
        }
        f.rebuild_old_ref();
        f.recount_retractable();
        f.mounted = true;
        // 8. "when LTFTL is initialized": dump the up-to-date map (or revert first).
        match f.states.last().copied() {
            Some(s) if reboot_to_frozen => {
                f.do_revert(flash, s.id, rc)?.map_err(FlashError::Violation)?;
            }
            _ => f.dump(flash, rc)?,
        }
        Ok(f)
    }
}

impl Ftl for LtFtl {
    fn name(&self) -> &'static str {
        "ltftl"
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
        self.set_owner(ppn, lpn);
        self.birth[ppn as usize] = gt;
        self.death[ppn as usize] = NONE;
        if old != NONE {
            self.set_owner(old, NONE);
            self.death[old as usize] = gt;
            let pinned = self.needed_by_state(old);
            self.set_retr(old, pinned);
        }
        self.append(LogEntry { sector: lpn, old, new: ppn, gt, moved: false });
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
            PageKind::Torn => PageState::Invalid,
            PageKind::Data => {
                if self.owner[ppn as usize] != NONE {
                    PageState::Valid
                } else if self.needed_by_state(ppn) {
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
            "log_entries": self.log.len(),
            "log_buffer_entries": self.log.len() - self.flushed,
            "log_flushes": self.log_flushes,
            "map_dumps": self.dumps,
            "states_released_automatically": self.released_states,
            "retractable_pages_copied_by_gc": self.retractable_copies,
            "wear_level_swaps": self.wl_swaps,
        })
    }

    fn tables(&self, _flash: &Flash) -> Vec<Table> {
        let states = self
            .states
            .iter()
            .map(|s| {
                let pinned = (0..self.pages).filter(|&p| self.owner[p as usize] == NONE && self.pins(s, p)).count();
                vec![s.id.to_string(), format!("S{}", s.epoch), pinned.to_string()]
            })
            .collect();
        let entry_row = |i: usize, e: &LogEntry| {
            let pg = |p: Ppn| if p == NONE { "φ".to_string() } else { p.to_string() };
            vec![
                i.to_string(),
                if e.moved { "gc move".into() } else { "write".into() },
                e.sector.to_string(),
                pg(e.old),
                pg(e.new),
                e.gt.to_string(),
            ]
        };
        let cols = || ["#", "kind", "sector", "old page", "new page", "global_time"].map(String::from).to_vec();
        let start = self.flushed.saturating_sub(64);
        let log_rows = (start..self.flushed).map(|i| entry_row(i, &self.log[i])).collect();
        let buf_rows = (self.flushed..self.log.len()).map(|i| entry_row(i, &self.log[i])).collect();
        let shares = self.space_shares();
        let pct = |v: f64| format!("{:.1}%", v * 100.0);
        let [meta, map, data, log] = self.sections();
        let list = |v: &[Pbn]| v.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(" ");
        // What reverting to each state would change (equation 1), newest state first.
        let mut diff_rows = Vec::new();
        for st in self.states.iter().rev() {
            for (sector, old) in self.undo_targets(st.epoch) {
                if diff_rows.len() >= 128 {
                    break;
                }
                let pg = |p: Ppn| if p == NONE { "-".to_string() } else { p.to_string() };
                diff_rows.push(vec![st.id.to_string(), sector.to_string(), pg(self.fwd[sector as usize]), pg(old)]);
            }
        }
        vec![
            Table {
                title: "Frozen states (time shift)".into(),
                columns: vec!["id".into(), "epoch".into(), "pages pinned (retractable)".into()],
                rows: states,
            },
            Table {
                title: format!("Intent log in the log section{}", if start > 0 { " — last 64 entries" } else { "" }),
                columns: cols(),
                rows: log_rows,
            },
            Table { title: "Log buffer (RAM, one page)".into(), columns: cols(), rows: buf_rows },
            Table {
                title: "Revert diff: sectors a revert would change (first 128)".into(),
                columns: vec!["state".into(), "sector".into(), "page now".into(), "page after revert".into()],
                rows: diff_rows,
            },
            Table {
                title: "Sections (Figure 5) and space (Figure 8)".into(),
                columns: vec!["section".into(), "blocks".into()],
                rows: vec![
                    vec!["metadata".into(), list(&meta)],
                    vec!["mapping".into(), list(&map)],
                    vec!["data".into(), format!("{} blocks", data.len())],
                    vec!["log".into(), list(&log)],
                    vec![
                        "valid / invalid / retractable".into(),
                        format!("{} / {} / {}", pct(shares.valid), pct(shares.invalid), pct(shares.retractable)),
                    ],
                    vec![
                        "log / map / metadata / free".into(),
                        format!(
                            "{} / {} / {} / {}",
                            pct(shares.log),
                            pct(shares.map),
                            pct(shares.meta),
                            pct(shares.free)
                        ),
                    ],
                ],
            },
        ]
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
        self.recount_retractable();
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
