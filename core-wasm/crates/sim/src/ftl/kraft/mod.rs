//! KRAFT: K-associative Relative Addressing FTL (Kang et al.; papers/kraft-k-associative-
//! relative-addressing.txt), and `kast`, our reading of KAST-style K-associativity as the
//! same scheme without KRAFT's seriality maintenance and relative addressing.
//!
//! - Data blocks are block-mapped (one PBN per logical block). As in FAST, a page is
//!   written in place in its data block when that page is still erased (its first write).
//! - M log blocks; a log block holds pages of at most K logical blocks (2-A
//!   "Associativity"). A logical block is associated with at most one log block: a write
//!   goes to that log block (Algorithm 1 line 1), else to the log block with the lowest
//!   associativity (line 19). When none can take it without exceeding K, a victim is
//!   merged (lines 20-23).
//! - KRAFT keeps log blocks serial (page i holds page offset i of one logical block) by
//!   filling gaps with valid data when the fill cost is low (lines 14-16, 29-31) and by
//!   switching a serial log early when an offset-0 write arrives and the switch cost is
//!   low (lines 7-11). A serial log is merged by a switch (Table 1: Tc·v_page + Te), any
//!   other by a full merge ((Nd+1)·(Tc·v_page + Te)).
//! - Relative addressing (2-B, Figure 2): each log block's map is K LBN slots plus, per
//!   page, RI and RLSN; LSN = LBN[RI[PSN]]·N + RLSN[PSN]. Lookups go through this table.
//!
//! Choices where the paper is silent are in docs/schemes/kraft.md.

use serde_json::json;

use super::pool::BlockPool;
use super::ram::MapGeometry;
use super::registry::{self, Builder, Mapping, PanelKind, ParamSpec, Run, SchemeEntry, Value};
use super::{BlockRole, Cleaning, Ftl, Panel, SchemeParams};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

mod panels;

mod recovery;

/// RI of a page that holds nothing (erased, or skipped by a fill).
const NO_RI: u16 = u16::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Algorithm 1 with fill, early switch and relative addressing.
    Kraft,
    /// The same K limit, placement and victim selection, without seriality maintenance;
    /// log pages mapped by absolute LSN (RAM accounted as FAST's).
    Kast,
}

/// One log block and its relative-addressing table (Figure 2).
#[derive(Clone, Debug)]
pub struct LogBlock {
    pub pbn: Pbn,
    /// LBN[0..K): the associated logical blocks, in order of association.
    pub lbns: Vec<u32>,
    /// RI[PSN]: index into `lbns`, NO_RI for an erased page.
    pub ri: Vec<u16>,
    /// RLSN[PSN]: page offset inside the logical block.
    pub rlsn: Vec<u16>,
    /// Next page to program ("Top").
    pub top: u32,
    /// Page i (if programmed) holds offset i of its only logical block.
    pub serial: bool,
    /// Logical time of the last append (LRU victim selection).
    pub last_used: u64,
}

impl LogBlock {
    fn new(pbn: Pbn, ppb: u32) -> LogBlock {
        LogBlock {
            pbn,
            lbns: Vec::new(),
            ri: vec![NO_RI; ppb as usize],
            rlsn: vec![0; ppb as usize],
            top: 0,
            serial: true,
            last_used: 0,
        }
    }
    pub fn associativity(&self) -> usize {
        self.lbns.len()
    }
    pub fn is_free(&self) -> bool {
        self.top == 0 && self.lbns.is_empty()
    }
    /// LSN = LBN[RI[PSN]]·N + RLSN[PSN] (2-B); `page` is the PSN's offset in this block.
    pub fn lsn(&self, page: u32, n: u32) -> Option<Lpn> {
        let ri = self.ri[page as usize];
        if ri == NO_RI {
            return None;
        }
        Some(self.lbns[ri as usize] * n + self.rlsn[page as usize] as u32)
    }
    /// The latest page of this log holding `lpn` (the last one appended).
    fn find(&self, lpn: Lpn, n: u32) -> Option<u32> {
        (0..self.top).rev().find(|&p| self.lsn(p, n) == Some(lpn))
    }
    /// `find` for every offset of logical block `lbn` at once, in one pass over the log:
    /// `latest[o]` = the last page appended holding offset `o`, NONE if none. A full merge
    /// asks this of each associated block (one pass, not one backward scan an offset).
    fn latest_pages(&self, lbn: u32, n: u32, latest: &mut [u32]) {
        latest.fill(NONE);
        for p in 0..self.top {
            if let Some(l) = self.lsn(p, n) {
                if l / n == lbn {
                    latest[(l % n) as usize] = p;
                }
            }
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Use {
    Free,
    Data(u32),
    Log(u32),
}

/// Why a log block was merged (scheme_metrics; tests of the two ends of K).
#[derive(Clone, Debug, Default)]
struct Stats {
    merges: u64,
    merge_ns: u64,
    merge_max_ns: u64,
    /// Line 3-5: the associated log block was full.
    merges_associated_full: u64,
    /// Lines 8-9: early switch on an offset-0 write.
    early_switches: u64,
    /// Line 20: victim because the lowest associativity reached K while some log block
    /// still had free pages.
    victims_at_k: u64,
    /// Victim because no log block had a free page.
    victims_logs_full: u64,
    fills: u64,
    fill_pages: u64,
    /// Full merges (victim log blocks) and the sum of their Nd.
    full_merges: u64,
    full_merge_nd: u64,
    /// nd_hist[d - 1]: full merges of a victim associated with d logical blocks.
    nd_hist: Vec<u64>,
    reads: u64,
    read_ns: u64,
    writes: u64,
    write_ns: u64,
}

#[derive(Clone)]
pub struct Kraft {
    variant: Variant,
    ppb: u32,
    k: u32,
    logical_blocks: u32,
    /// Largest v_page for which a switch counts as low cost (lines 8-9).
    switch_max: u32,
    /// Largest number of pages a fill may copy (lines 14, 29).
    fill_max: u32,
    /// Block map: logical block → data block (NONE before its first write).
    data: Vec<Pbn>,
    /// Logical block → index of its associated log block, NONE if none.
    log_of: Vec<u32>,
    logs: Vec<LogBlock>,
    usage: Vec<Use>,
    free: BlockPool,
    clock: u64,
    stats: Stats,
    blocks: u32,
    /// Sequence number written to the spare area of every program (host writes and every
    /// copy), so that a spare-area scan after a power cut finds the newest copy of an LPN.
    seq: u32,
    /// Pages of data blocks that recovery found torn (an in-place first write cut short):
    /// never mapped. Empty except after a recovery; dropped when their block is erased.
    unreadable: Vec<Ppn>,
}

/// Spare-area tags: an in-place host write, a log-block program (append, fill, switch
/// copy), a full-merge copy into a new data block.
const TAG_HOST: u8 = 0;
const TAG_LOG: u8 = 1;
const TAG_MERGE: u8 = 2;

pub const DEFAULT_K: u32 = 8;

/// Default number of log blocks M: the hybrid schemes' one default
/// (registry::HYBRID_LOG_BLOCKS), the same budget as BAST's and FAST's (issue 27; before,
/// max(2, blocks / 8) gave KRAFT 512 times FAST's log blocks on the FastCheck chip).
pub const DEFAULT_LOG_BLOCKS: u32 = registry::HYBRID_LOG_BLOCKS;

const PARAMS: [ParamSpec; 4] = [
    registry::LOG_BLOCKS,
    ParamSpec { default: Value::Fixed(DEFAULT_K as f64), ..registry::K },
    registry::SWITCH_MAX,
    registry::FILL_MAX,
];

/// The registry's KRAFT entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "kraft",
    label: "KRAFT",
    short_label: "KRAFT",
    description: "KRAFT: K-associative log blocks kept serial, relative addressing (Kang et al.)",
    params: &PARAMS,
    cleaning: Cleaning::Merges,
    runs: &[Run::Switch, Run::PartialMerge, Run::FullMerge],
    seldom: &[],
    mapping: Mapping::Hybrid,
    panels: &[PanelKind::KraftLogBlocks, PanelKind::KraftRelative, PanelKind::KraftRam],
    build: Builder::Geometry(|p, g| Ok(Box::new(Kraft::new(g, p, Variant::Kraft)?))),
    fits: |p, c| Kraft::fits(&c.geometry, p),
    recover: |flash, p| Ok(Box::new(Kraft::recover(flash, p, Variant::Kraft)?)),
};

/// The registry's KAST entry (ftl::REGISTRY).
pub const KAST_ENTRY: SchemeEntry = SchemeEntry {
    id: "kast",
    label: "KAST (K-associative)",
    short_label: "KAST",
    description: "KAST-style K-associative log blocks (KRAFT without seriality maintenance)",
    params: &[PARAMS[0], PARAMS[1]],
    // It keeps no log block serial by fills: only a victim that happens to be serial and
    // not full is switched with copies (a partial merge, docs/schemes/kraft.md).
    seldom: &[Run::PartialMerge],
    panels: &[PanelKind::KraftLogBlocks, PanelKind::KraftRamAsFast],
    build: Builder::Geometry(|p, g| Ok(Box::new(Kraft::new(g, p, Variant::Kast)?))),
    recover: |flash, p| Ok(Box::new(Kraft::recover(flash, p, Variant::Kast)?)),
    ..ENTRY
};

impl Kraft {
    /// The registry's geometry rule (`registry::Fits`): what `new` refuses (KRAFT and KAST).
    pub fn fits(g: &Geometry, params: &SchemeParams) -> Result<(), String> {
        let n = g.pages_per_block;
        let m = params.log_blocks.unwrap_or(DEFAULT_LOG_BLOCKS);
        let k = params.k.unwrap_or(DEFAULT_K);
        if (m as f64) < PARAMS[0].min.resolve(g) {
            return Err("KRAFT/KAST need at least 1 log block".into());
        }
        if (k as f64) < PARAMS[1].min.resolve(g) {
            return Err("associativity K must be at least 1".into());
        }
        if n > u16::MAX as u32 {
            return Err("too many pages per block for the relative-addressing table".into());
        }
        // M log blocks + one spare block for merges + at least one data block.
        if g.blocks < m + 2 {
            return Err(format!("{} log blocks need a chip of at least {} blocks (got {})", m, m + 2, g.blocks));
        }
        Ok(())
    }

    pub fn new(g: &Geometry, params: &SchemeParams, variant: Variant) -> Result<Kraft, String> {
        Self::fits(g, params)?;
        let n = g.pages_per_block;
        let m = params.log_blocks.unwrap_or(DEFAULT_LOG_BLOCKS);
        let k = params.k.unwrap_or(DEFAULT_K);
        let logical_blocks = g.blocks - m - 1;
        let switch_max = params.switch_max.unwrap_or(n / 2);
        let fill_max = params.fill_max.unwrap_or((n / 4).max(1));
        let mut usage = vec![Use::Free; g.blocks as usize];
        let logs: Vec<LogBlock> = (0..m)
            .map(|i| {
                usage[i as usize] = Use::Log(i);
                LogBlock::new(i, n)
            })
            .collect();
        Ok(Kraft {
            variant,
            ppb: n,
            k,
            logical_blocks,
            switch_max,
            fill_max,
            data: vec![NONE; logical_blocks as usize],
            log_of: vec![NONE; logical_blocks as usize],
            logs,
            usage,
            free: BlockPool::new("KRAFT", m..g.blocks),
            clock: 0,
            stats: Stats::default(),
            blocks: g.blocks,
            seq: 0,
            unreadable: Vec::new(),
        })
    }

    fn stamp(&mut self, page: Page, tag: u8) -> Page {
        self.seq += 1;
        Page { tag, ..page.with_seq(self.seq) }
    }

    /// A copy under a new sequence number (one read + one program, as `Flash::copy`).
    fn copy(&mut self, flash: &mut Flash, src: Ppn, dst: Ppn, tag: u8, cause: Cause) -> FlashResult<()> {
        let d = flash.read(src, cause)?;
        let page = self.stamp(Page::data(d.lpn, d.version), tag);
        flash.program(dst, page, cause)
    }

    fn erased_block(&mut self, pbn: Pbn) {
        if !self.unreadable.is_empty() {
            let n = self.ppb;
            self.unreadable.retain(|&q| q / n != pbn);
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn k(&self) -> u32 {
        self.k
    }
    /// The log blocks with their relative-addressing tables.
    pub fn log_blocks(&self) -> &[LogBlock] {
        &self.logs
    }
    /// The data block of a logical block, if it has one.
    pub fn data_block(&self, lbn: u32) -> Option<Pbn> {
        self.data.get(lbn as usize).copied().filter(|&p| p != NONE)
    }
    /// The log block a logical block is associated with (index into `log_blocks()`).
    pub fn associated_log(&self, lbn: u32) -> Option<usize> {
        self.log_of.get(lbn as usize).copied().filter(|&l| l != NONE).map(|l| l as usize)
    }

    fn kraft(&self) -> bool {
        self.variant == Variant::Kraft
    }

    fn take_free(&mut self) -> FlashResult<Pbn> {
        self.free.take()
    }

    fn data_valid(&self, flash: &Flash, lbn: u32, off: u32) -> bool {
        let d = self.data[lbn as usize];
        d != NONE && flash.peek(d * self.ppb + off).kind == PageKind::Data
    }

    /// v_page of a switch of serial log `a`: valid data pages its erased pages still need.
    fn switch_copies(&self, flash: &Flash, a: usize) -> u32 {
        let log = &self.logs[a];
        let lbn = log.lbns[0];
        (0..self.ppb).filter(|&o| log.ri[o as usize] == NO_RI && self.data_valid(flash, lbn, o)).count() as u32
    }

    /// Valid data pages between the log's top and `off` (the fill cost, in pages copied).
    fn fill_copies(&self, flash: &Flash, a: usize, lbn: u32, off: u32) -> u32 {
        (self.logs[a].top..off).filter(|&o| self.data_valid(flash, lbn, o)).count() as u32
    }

    /// Appends `page` (lpn `lbn·N + off`) at the top of log `a`, updating the
    /// relative-addressing table (2-B).
    fn append(&mut self, flash: &mut Flash, a: usize, lbn: u32, off: u32, page: Page) -> FlashResult<()> {
        let n = self.ppb;
        let log = &self.logs[a];
        let top = log.top;
        debug_assert!(top < n);
        // Narrated before the program, so stepping shows it with its operation.
        let (was_free, had) = (log.is_free(), log.lbns.contains(&lbn));
        let assoc = log.associativity() + usize::from(!had);
        let serial_after = log.serial && assoc == 1 && off == top;
        if !had {
            let pbn = log.pbn;
            flash.note("associate", || {
                if was_free {
                    format!(
                        "logical block {lbn} takes free log block {a} (pbn {pbn}){}",
                        if serial_after { ": a new serial log" } else { "" }
                    )
                } else {
                    format!("logical block {lbn} joins log block {a} (pbn {pbn}), the lowest associativity: now {assoc} of K = {}", self.k)
                }
            });
        }
        if log.serial && !was_free && !serial_after {
            flash.note("serial", || {
                format!("log block {a} is no longer serial (page {top} takes offset {off} of logical block {lbn})")
            });
        }
        let pbn = log.pbn;
        let page = self.stamp(page, TAG_LOG);
        flash.program(pbn * n + top, page, Cause::Host)?;
        self.place(a, lbn, off, top);
        self.logs[a].top = top + 1;
        Ok(())
    }

    /// Records in log `a`'s table that page `at` holds offset `off` of `lbn`.
    fn place(&mut self, a: usize, lbn: u32, off: u32, at: u32) {
        self.clock += 1;
        let clock = self.clock;
        let log = &mut self.logs[a];
        let ri = match log.lbns.iter().position(|&l| l == lbn) {
            Some(i) => i,
            None => {
                log.lbns.push(lbn);
                log.lbns.len() - 1
            }
        };
        debug_assert!(log.lbns.len() as u32 <= self.k);
        log.ri[at as usize] = ri as u16;
        log.rlsn[at as usize] = off as u16;
        log.serial = log.serial && log.lbns.len() == 1 && off == at;
        log.last_used = clock;
        self.log_of[lbn as usize] = a as u32;
    }

    /// Fill (lines 15, 30): copy the valid data pages between the log's top and `off`
    /// into their own offsets, so the log stays serial; pages with no valid data are skipped.
    fn fill(&mut self, flash: &mut Flash, a: usize, lbn: u32, off: u32) -> FlashResult<()> {
        let n = self.ppb;
        let top = self.logs[a].top;
        let d = self.data[lbn as usize];
        flash.note("fill", || {
            format!(
                "fill: log block {} copies valid pages {top}..{off} of logical block {lbn} to stay serial",
                self.logs[a].pbn
            )
        });
        self.stats.fills += 1;
        for o in top..off {
            if self.data_valid(flash, lbn, o) {
                let dst = self.logs[a].pbn * n + o;
                self.copy(flash, d * n + o, dst, TAG_LOG, Cause::Fill)?;
                self.place(a, lbn, o, o);
                self.stats.fill_pages += 1;
            }
        }
        self.logs[a].top = off;
        Ok(())
    }

    /// Utilisation of a log block when it leaves the log role (FAST Figure 4 metric),
    /// counted at the first operation of the merge that retires it (Flash::count_at_next_op).
    fn count_replacement(&self, flash: &mut Flash, a: usize) {
        let log = &self.logs[a];
        let n = self.ppb;
        let valid = (0..log.top)
            .filter(|&p| log.lsn(p, n).is_some_and(|lpn| self.locate(lpn) == Some(log.pbn * n + p)))
            .count();
        flash.count_at_next_op(Count::LogReplacement(valid as f64 / n as f64));
    }

    /// Switch (Figure 1, Table 1): the serial log block takes the data block's remaining
    /// valid pages (v_page copies) and becomes the data block; the old data block is erased.
    /// With v_page = 0 it is a pure switch, otherwise a partial merge in BAST/FAST terms.
    fn switch(&mut self, flash: &mut Flash, a: usize) -> FlashResult<()> {
        let t0 = flash.elapsed_ns;
        let n = self.ppb;
        let lbn = self.logs[a].lbns[0];
        let v = self.switch_copies(flash, a);
        let (cause, kind) =
            if v == 0 { (Cause::Switch, "switch") } else { (Cause::PartialMerge, "switch (partial merge)") };
        let pbn = self.logs[a].pbn;
        let old = self.data[lbn as usize];
        let t = *flash.timing();
        flash.note("merge", || {
            format!(
                "{kind}: serial log block {pbn} becomes the data block of logical block {lbn}, copying {v} valid pages, erasing block {old} (Table 1: Tc·v_page + Te = {} µs)",
                ((t.read_ns + t.program_ns) * v as u64 + t.erase_ns) as f64 / 1000.0
            )
        });
        self.count_replacement(flash, a);
        // Counted at its first operation: the first copy, or the erase of a pure switch.
        flash.count_at_next_op(if v == 0 { Count::SwitchMerge } else { Count::PartialMerge });
        for o in 0..n {
            if self.logs[a].ri[o as usize] == NO_RI && self.data_valid(flash, lbn, o) {
                self.copy(flash, old * n + o, pbn * n + o, TAG_LOG, cause)?;
            }
        }
        // (No old data block only after a recovery that found none with a live page.)
        if old != NONE {
            flash.erase(old, cause)?;
            self.erased_block(old);
        }
        if old != NONE {
            self.usage[old as usize] = Use::Free;
            self.free.release(old);
        }
        self.data[lbn as usize] = pbn;
        self.usage[pbn as usize] = Use::Data(lbn);
        self.log_of[lbn as usize] = NONE;
        // The slot gets a free block: the "free log" of line 10.
        let fresh = self.take_free()?;
        self.usage[fresh as usize] = Use::Log(a as u32);
        self.logs[a] = LogBlock::new(fresh, n);
        self.end_merge(flash, t0);
        Ok(())
    }

    /// Full merge (Figure 1, Table 1): for each of the Nd associated logical blocks, copy
    /// the latest of every page into a free block and erase the old data block; then
    /// erase the log block.
    fn full_merge(&mut self, flash: &mut Flash, a: usize) -> FlashResult<()> {
        let t0 = flash.elapsed_ns;
        let n = self.ppb;
        let lbns = self.logs[a].lbns.clone();
        let pbn = self.logs[a].pbn;
        flash.note("merge", || {
            format!("full merge: log block {pbn} is associated with {} logical blocks {:?}; each is rebuilt in a free block", lbns.len(), lbns)
        });
        self.count_replacement(flash, a);
        // The victim counts at its first operation, each logical block's merge at its own first copy.
        flash.count_at_next_op(Count::FullMergeVictim);
        let mut latest = vec![NONE; n as usize];
        for &lbn in &lbns {
            flash.count_at_next_op(Count::FullMerge);
            let fresh = self.take_free()?;
            let old = self.data[lbn as usize];
            self.logs[a].latest_pages(lbn, n, &mut latest);
            for o in 0..n {
                let src = match latest[o as usize] {
                    NONE if self.data_valid(flash, lbn, o) => Some(old * n + o),
                    NONE => None,
                    p => Some(pbn * n + p),
                };
                if let Some(s) = src {
                    self.copy(flash, s, fresh * n + o, TAG_MERGE, Cause::FullMerge)?;
                }
            }
            if old != NONE {
                flash.erase(old, Cause::FullMerge)?;
                self.erased_block(old);
                self.usage[old as usize] = Use::Free;
                self.free.release(old);
            }
            self.data[lbn as usize] = fresh;
            self.usage[fresh as usize] = Use::Data(lbn);
            self.log_of[lbn as usize] = NONE;
        }
        flash.erase(pbn, Cause::FullMerge)?;
        self.stats.full_merges += 1;
        self.stats.full_merge_nd += lbns.len() as u64;
        let d = lbns.len();
        if self.stats.nd_hist.len() < d {
            self.stats.nd_hist.resize(d, 0);
        }
        self.stats.nd_hist[d - 1] += 1;
        self.logs[a] = LogBlock::new(pbn, n);
        self.end_merge(flash, t0);
        Ok(())
    }

    fn end_merge(&mut self, flash: &mut Flash, t0: u64) {
        let dt = flash.elapsed_ns - t0;
        flash.note("merge_end", || format!("merge done in {} µs (counted in MRG)", dt as f64 / 1000.0));
        self.stats.merges += 1;
        self.stats.merge_ns += dt;
        self.stats.merge_max_ns = self.stats.merge_max_ns.max(dt);
    }

    /// Switch if serial, full merge otherwise (lines 4-5, 22-23).
    fn merge(&mut self, flash: &mut Flash, a: usize) -> FlashResult<()> {
        if self.logs[a].serial {
            self.switch(flash, a)
        } else {
            self.full_merge(flash, a)
        }
    }

    /// Victim selection (2-A): the most-filled serial log block, else the least
    /// recently used one.
    fn victim(&self) -> usize {
        let used = || self.logs.iter().enumerate().filter(|(_, l)| !l.is_free());
        used()
            .filter(|(_, l)| l.serial)
            .max_by_key(|(_, l)| (l.top, std::cmp::Reverse(l.last_used)))
            .or_else(|| used().min_by_key(|(_, l)| l.last_used))
            .map(|(i, _)| i)
            .expect("a victim exists when every log block is used")
    }

    fn write_inner(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        let n = self.ppb;
        let (lbn, off) = (lpn / n, lpn % n);
        let page = Page::data(lpn, version);
        loop {
            // First write of the page: in place in the data block (as FAST).
            if self.data[lbn as usize] == NONE {
                let d = self.take_free()?;
                self.data[lbn as usize] = d;
                self.usage[d as usize] = Use::Data(lbn);
            }
            let d = self.data[lbn as usize];
            // (After a recovery a log may hold a page whose home is still erased: the log
            // copy is then the latest, so the write goes to the log. Never otherwise.)
            if flash.peek(d * n + off).is_erased()
                && self.associated_log(lbn).is_none_or(|a| self.logs[a].find(lpn, n).is_none())
            {
                let page = self.stamp(page, TAG_HOST);
                return flash.program(d * n + off, page, Cause::Host);
            }
            // Line 1: the log block associated with this logical block.
            if let Some(a) = self.associated_log(lbn) {
                let log = &self.logs[a];
                if log.top == n {
                    // Lines 3-5.
                    self.stats.merges_associated_full += 1;
                    self.merge(flash, a)?;
                    continue;
                }
                if off == 0 {
                    // Lines 7-12.
                    if self.kraft() && log.serial && self.switch_copies(flash, a) <= self.switch_max {
                        self.stats.early_switches += 1;
                        self.switch(flash, a)?;
                        // Lines 10-11: the slot's fresh block is a free log; a new serial log.
                    }
                    // Line 12 otherwise: append, breaking seriality.
                    return self.append(flash, a, lbn, 0, page);
                }
                // Lines 13-17.
                if self.kraft() && log.serial && log.top < off && self.fill_copies(flash, a, lbn, off) <= self.fill_max
                {
                    self.fill(flash, a, lbn, off)?;
                }
                return self.append(flash, a, lbn, off, page);
            }
            // Line 19: the lowest-associativity log block that has a free page.
            let cand = self
                .logs
                .iter()
                .enumerate()
                .filter(|(_, l)| l.top < n)
                .min_by_key(|(i, l)| (l.associativity(), *i))
                .map(|(i, l)| (i, l.associativity()));
            match cand {
                Some((l, assoc)) if (assoc as u32) < self.k => {
                    if off != 0
                        && self.kraft()
                        && self.logs[l].is_free()
                        && self.fill_copies(flash, l, lbn, off) <= self.fill_max
                    {
                        // Lines 29-31: a new serial log, filled up to the offset.
                        self.fill(flash, l, lbn, off)?;
                    }
                    // Lines 25-27, 31-32.
                    return self.append(flash, l, lbn, off, page);
                }
                other => {
                    // Lines 20-23.
                    if other.is_some() {
                        self.stats.victims_at_k += 1;
                    } else {
                        self.stats.victims_logs_full += 1;
                    }
                    let v = self.victim();
                    let (vp, serial, top, k) = (self.logs[v].pbn, self.logs[v].serial, self.logs[v].top, self.k);
                    flash.note("victim", || {
                        let why = if other.is_some() {
                            format!("lowest associativity reached K = {k}")
                        } else {
                            "every log block is full".to_string()
                        };
                        if serial {
                            format!("{why}: victim log block {vp} (the most-filled serial log, {top} pages)")
                        } else {
                            format!("{why}: no serial log block; victim log block {vp} (least recently used)")
                        }
                    });
                    self.merge(flash, v)?;
                }
            }
        }
    }
}

impl Ftl for Kraft {
    fn name(&self) -> &'static str {
        match self.variant {
            Variant::Kraft => "kraft",
            Variant::Kast => "kast",
        }
    }
    fn logical_pages(&self) -> u32 {
        self.logical_blocks * self.ppb
    }

    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()> {
        let t0 = flash.elapsed_ns;
        self.write_inner(flash, lpn, version)?;
        self.stats.writes += 1;
        self.stats.write_ns += flash.elapsed_ns - t0;
        Ok(())
    }

    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>> {
        let t0 = flash.elapsed_ns;
        let r = match self.locate(lpn) {
            Some(p) => {
                flash.read(p, Cause::Host)?;
                Some(p)
            }
            None => None,
        };
        self.stats.reads += 1;
        self.stats.read_ns += flash.elapsed_ns - t0;
        Ok(r)
    }

    fn locate(&self, lpn: Lpn) -> Option<Ppn> {
        let n = self.ppb;
        let lbn = lpn / n;
        if lbn >= self.logical_blocks {
            return None;
        }
        if let Some(a) = self.associated_log(lbn) {
            let log = &self.logs[a];
            if let Some(p) = log.find(lpn, n) {
                return Some(log.pbn * n + p);
            }
        }
        let d = self.data[lbn as usize];
        // The block map says where the page would be; the oracle check compares contents.
        let q = d.wrapping_mul(n).wrapping_add(lpn % n);
        (d != NONE && !self.unreadable.contains(&q)).then_some(q)
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.usage[pbn as usize] {
            Use::Free => BlockRole::Free,
            Use::Data(_) => BlockRole::Data,
            Use::Log(_) => BlockRole::Log,
        }
    }

    fn block_owner(&self, pbn: Pbn) -> Option<u32> {
        match self.usage[pbn as usize] {
            Use::Free => None,
            Use::Data(lbn) => Some(lbn),
            Use::Log(i) => self.logs[i as usize].lbns.first().copied(),
        }
    }

    fn block_owners_all(&self, pbn: Pbn) -> Vec<u32> {
        match self.usage[pbn as usize] {
            Use::Free => Vec::new(),
            Use::Data(lbn) => vec![lbn],
            // A log block associated with up to K logical blocks (KRAFT 2-A).
            Use::Log(i) => self.logs[i as usize].lbns.clone(),
        }
    }

    fn ram_bytes(&self) -> u64 {
        let g = self.map_geometry();
        let m = self.logs.len() as u64;
        super::ram::bytes(match self.variant {
            Variant::Kraft => g.kraft_bits(m, self.table_k()),
            Variant::Kast => g.fast_bits(m),
        })
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        let s = &self.stats;
        let mean = |ns: u64, n: u64| {
            if n == 0 {
                0.0
            } else {
                ns as f64 / n as f64 / 1000.0
            }
        };
        let assoc: Vec<usize> = self.logs.iter().map(|l| l.associativity()).collect();
        let g = self.map_geometry();
        let m = self.logs.len() as u64;
        json!({
            "k": self.k,
            "log_blocks": m,
            "mrg_us": mean(s.merge_ns, s.merges),
            "mrg_max_us": s.merge_max_ns as f64 / 1000.0,
            "merges": s.merges,
            "late_us": mean(s.read_ns + s.write_ns, s.reads + s.writes),
            "late_read_us": mean(s.read_ns, s.reads),
            "late_write_us": mean(s.write_ns, s.writes),
            "associativity": assoc,
            "mean_associativity": if assoc.is_empty() { 0.0 } else { assoc.iter().sum::<usize>() as f64 / assoc.len() as f64 },
            "serial_log_blocks": self.logs.iter().filter(|l| !l.is_free() && l.serial).count(),
            "full_merges": s.full_merges,
            "full_merge_nd_histogram": s.nd_hist,
            "mean_full_merge_nd": if s.full_merges == 0 { 0.0 } else { s.full_merge_nd as f64 / s.full_merges as f64 },
            "merges_associated_full": s.merges_associated_full,
            "early_switches": s.early_switches,
            "victims_at_k": s.victims_at_k,
            "victims_logs_full": s.victims_logs_full,
            "fills": s.fills,
            "fill_pages": s.fill_pages,
            "switch_max": self.switch_max,
            "fill_max": self.fill_max,
            "ram": {
                "fast_bytes": super::ram::bytes(g.fast_bits(m)),
                "kraft_bytes": super::ram::bytes(g.kraft_bits(m, self.table_k())),
                "kraft_log_blocks_for_fast_ram": g.kraft_log_blocks_for_fast_ram(m, self.table_k()),
            },
        })
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        self.scheme_panels()
    }
}

impl Kraft {}
