//! BAST, the log block scheme of Kim et al. (2002), as the FAST paper (Lee et al.,
//! ACM TECS 2007) describes it in sections 2.2 and 2.4, with the victim rules that
//! paper assumes in 3.7.
//!
//! Pages are the paper's sectors (LPN = lsn, `lbn = lsn / sectors per block`). A first
//! write to a sector goes in place into its data block; a collision (the data block's
//! page is already written) goes to the log block dedicated to that logical block
//! (block-associative sector translation). A log block is merged when it is full and
//! its logical block collides again, or when it is chosen as a victim:
//! (1) the full dedicated log block of the colliding logical block, (2) a log block the
//! switch optimisation applies to, (3) round robin over the log-block slots.
//! A merge is a switch (the log block holds its logical block's sectors in order from
//! offset 0 to the end: 1 erase) or a full merge (copy the up-to-date sectors into a
//! free block: 2 erases). The partial merge of FAST 3.4 is not applied to BAST ("this
//! optimization could also be applied to BAST, but we first suggest the technique in
//! this paper").

use super::pool::BlockPool;
use super::panel::{first_rows, some, DataBlockEntry, DedicatedLog, PANEL_ROWS};
use super::registry::{self, Builder, Mapping, ParamSpec, Run, SchemeEntry, Value};
use super::scan_recovery::{erased_free_block, max_seq, newest, scan_all, Blk};
use super::{BlockRole, Cleaning, Ftl, Panel, PanelData, SchemeParams};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Geometry, Lpn, Page, PageKind, Pbn, Ppn, NONE};

/// Free blocks kept beyond data and log blocks: a full merge takes one free block
/// before it erases the data block and the log block.
pub const SPARE_BLOCKS: u32 = 1;
/// The hybrid schemes' one default (registry::HYBRID_LOG_BLOCKS).
pub const DEFAULT_LOG_BLOCKS: u32 = registry::HYBRID_LOG_BLOCKS;

/// The registry's BAST entry (ftl::REGISTRY).
pub const ENTRY: SchemeEntry = SchemeEntry {
    id: "bast",
    label: "BAST",
    short_label: "BAST",
    description: "BAST: one log block dedicated to each logical block (block-associative sector translation)",
    params: &[ParamSpec { default: Value::Fixed(DEFAULT_LOG_BLOCKS as f64), ..registry::LOG_BLOCKS }],
    cleaning: Cleaning::Merges,
    runs: &[Run::Switch, Run::FullMerge],
    seldom: &[],
    mapping: Mapping::Hybrid,
    panels: &[],
    build: Builder::Geometry(|p, g| Ok(Box::new(BastFtl::new(g, p)?))),
    fits: |p, c| BastFtl::fits(&c.geometry, p),
    recover: |flash, p| Ok(Box::new(recover_bast(flash, p)?)),
};

/// Spare-area tags of BAST's programs (recovery reads them; see ftl/scan_recovery.rs).
pub(crate) mod tag {
    /// Host write in place into a data block.
    pub const DATA: u8 = 1;
    /// Host write into a log block.
    pub const LOG: u8 = 2;
    /// A full-merge copy into a new data block.
    pub const MERGE: u8 = 4;
    /// The last copy of a merge: the new data block is complete.
    pub const LAST: u8 = 0x10;
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Use {
    Free,
    Data,
    Log,
}

/// One log block and its part of the sector-mapping table (the lsn of each page in
/// write order; the newest copy of an lsn is the last one).
#[derive(Clone, Debug)]
pub(crate) struct LogBlock {
    pub(crate) pbn: Pbn,
    pub(crate) lbn: u32,
    /// NONE marks a page torn by a power cut (recovered): it holds no sector.
    pub(crate) lsns: Vec<Lpn>,
}

#[derive(Clone, Default, Debug, serde::Serialize)]
pub(crate) struct VictimRules {
    in_place: u64,
    appended: u64,
    /// A free log-block slot was used (no replacement).
    new_log: u64,
    /// Rule (1): the colliding logical block's own log block was full.
    rule1_full: u64,
    /// Rule (2): a switchable log block was the victim.
    rule2_switchable: u64,
    /// Rule (3): round robin.
    rule3_round_robin: u64,
}

#[derive(Clone)]
pub struct BastFtl {
    pub(crate) ppb: u32,
    pub(crate) data_blocks: u32,
    /// Block-mapping table: lbn → data pbn.
    pub(crate) bmt: Vec<Pbn>,
    pub(crate) usage: Vec<Use>,
    pub(crate) owner: Vec<u32>,
    pub(crate) free: BlockPool,
    pub(crate) written: Vec<bool>,
    /// Log-block slots (the number of log blocks is a parameter).
    pub(crate) slots: Vec<Option<LogBlock>>,
    /// lbn → its slot, NONE if it has no log block.
    pub(crate) slot_of: Vec<u32>,
    /// Next slot rule (3) replaces.
    pub(crate) rr: usize,
    pub(crate) rules: VictimRules,
    /// Sequence number written to the spare area of every program.
    pub(crate) seq: u32,
    /// The merge's source page of each offset (NONE: none), kept between merges so a
    /// merge allocates nothing; no state of the scheme (not in ram_bytes).
    merge_srcs: Vec<Ppn>,
}

impl BastFtl {
    /// The registry's geometry rule (`registry::Fits`): what `new` refuses.
    pub fn fits(g: &Geometry, params: &SchemeParams) -> Result<(), String> {
        let log_blocks = params.log_blocks.unwrap_or(DEFAULT_LOG_BLOCKS);
        if (log_blocks as f64) < ENTRY.params[0].min.resolve(g) {
            return Err("BAST needs at least 1 log block".into());
        }
        if g.blocks < log_blocks + SPARE_BLOCKS + 1 {
            return Err(format!(
                "BAST with {log_blocks} log blocks needs at least {} blocks ({log_blocks} log, {SPARE_BLOCKS} spare, 1 data)",
                log_blocks + SPARE_BLOCKS + 1
            ));
        }
        Ok(())
    }

    pub fn new(g: &Geometry, params: &SchemeParams) -> Result<BastFtl, String> {
        Self::fits(g, params)?;
        let log_blocks = params.log_blocks.unwrap_or(DEFAULT_LOG_BLOCKS);
        let data_blocks = g.blocks - log_blocks - SPARE_BLOCKS;
        Ok(BastFtl {
            ppb: g.pages_per_block,
            data_blocks,
            bmt: vec![NONE; data_blocks as usize],
            usage: vec![Use::Free; g.blocks as usize],
            owner: vec![NONE; g.blocks as usize],
            free: BlockPool::new("BAST", 0..g.blocks),
            written: vec![false; g.pages() as usize],
            slots: vec![None; log_blocks as usize],
            slot_of: vec![NONE; data_blocks as usize],
            rr: 0,
            rules: VictimRules::default(),
            seq: 0,
            merge_srcs: Vec::with_capacity(g.pages_per_block as usize),
        })
    }

    pub(crate) fn take_free(&mut self, use_: Use, owner: u32) -> FlashResult<Pbn> {
        let pbn = self.free.take()?;
        self.usage[pbn as usize] = use_;
        self.owner[pbn as usize] = owner;
        Ok(pbn)
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
        self.seq += 1;
        flash.program(ppn, Page::stamped(lsn, version, self.seq, tag), cause)?;
        self.written[ppn as usize] = true;
        Ok(())
    }

    pub(crate) fn erase(&mut self, flash: &mut Flash, pbn: Pbn, cause: Cause) -> FlashResult<()> {
        flash.erase(pbn, cause)?;
        let n = self.ppb as usize;
        self.written[pbn as usize * n..(pbn as usize + 1) * n].fill(false);
        self.usage[pbn as usize] = Use::Free;
        self.owner[pbn as usize] = NONE;
        self.free.release(pbn);
        Ok(())
    }

    fn switchable(&self, log: &LogBlock) -> bool {
        log.lsns.len() as u32 == self.ppb
            && log.lsns.iter().enumerate().all(|(i, &l)| l == log.lbn * self.ppb + i as u32)
    }

    /// Merges the log block in `slot` with its data block and empties the slot.
    fn merge(&mut self, flash: &mut Flash, slot: usize) -> FlashResult<()> {
        // RAM changes in the order of the operations (docs/architecture.md, "What a moment
        // shows"): the slot keeps its log block until that block is erased, the block map
        // switches to the destination when the old data block is erased.
        // Not cloned (a Vec per merge, issue 37): the slot is read in place, the sources go
        // to a buffer kept between merges.
        let log = self.slots[slot].as_ref().expect("merge of an empty slot");
        let (pbn, lbn, len) = (log.pbn, log.lbn, log.lsns.len());
        let n = self.ppb;
        // The replacement and the merge count at the merge's first operation (Flash::count_at_next_op).
        flash.count_at_next_op(Count::LogReplacement(len as f64 / n as f64));
        let old = self.bmt[lbn as usize];
        if self.switchable(log) {
            self.bmt[lbn as usize] = pbn;
            self.usage[pbn as usize] = Use::Data;
            self.slots[slot] = None;
            self.slot_of[lbn as usize] = NONE;
            // A switch's one operation: the erase.
            flash.count_at_next_op(Count::SwitchMerge);
            flash.note("switch", || {
                format!("switch: log block {pbn} holds LBN {lbn}'s sectors in order and becomes its data block; old data block {old} erased (1 erase)")
            });
            return self.erase(flash, old, Cause::Switch);
        }
        // The newest log copy of each sector, else the data block's page if written (NONE:
        // neither): one pass over the log (later entries overwrite earlier ones), not a
        // search per sector.
        let mut srcs = std::mem::take(&mut self.merge_srcs);
        srcs.clear();
        srcs.resize(n as usize, NONE);
        if old != NONE {
            let base = (old * n) as usize;
            let written = &self.written[base..base + n as usize];
            for ((s, &w), p) in srcs.iter_mut().zip(written).zip(old * n..) {
                if w {
                    *s = p;
                }
            }
        }
        for (i, &l) in log.lsns.iter().enumerate() {
            // (A recovered log block may hold entries of no sector of this lbn: skipped.)
            if let Some(s) = srcs.get_mut(l.wrapping_sub(lbn * n) as usize) {
                *s = pbn * n + i as u32;
            }
        }
        let dst = self.take_free(Use::Data, lbn)?;
        flash.note("merge", || {
            format!(
                "full merge of LBN {lbn}: {} up-to-date sectors copied into free block {dst}, the new data block; data block {old} and log block {pbn} erased (2 erases)",
                srcs.iter().filter(|&&p| p != NONE).count(),
            )
        });
        let last = srcs.iter().rposition(|&p| p != NONE);
        // Counted at the first copy's read (or the first erase if nothing is copied).
        flash.count_at_next_op(Count::FullMerge);
        flash.count_at_next_op(Count::FullMergeVictim);
        let copied = srcs.iter().enumerate().filter(|&(_, &src)| src != NONE).try_for_each(|(off, &src)| {
            let p = flash.read(src, Cause::FullMerge)?;
            let t = tag::MERGE | if Some(off) == last { tag::LAST } else { 0 };
            self.program(flash, dst * n + off as u32, p.lpn, p.version, Cause::FullMerge, t)
        });
        self.merge_srcs = srcs;
        copied?;
        self.erase(flash, old, Cause::FullMerge)?;
        self.bmt[lbn as usize] = dst;
        self.slots[slot] = None;
        self.slot_of[lbn as usize] = NONE;
        self.erase(flash, pbn, Cause::FullMerge)
    }

    /// A log block for `lbn` in `slot` (which must be empty), from the free list.
    fn new_log(&mut self, flash: &mut Flash, slot: usize, lbn: u32) -> FlashResult<()> {
        let pbn = self.take_free(Use::Log, lbn)?;
        self.slots[slot] = Some(LogBlock { pbn, lbn, lsns: Vec::with_capacity(self.ppb as usize) });
        self.slot_of[lbn as usize] = slot as u32;
        flash.note("alloc", || format!("free block {pbn} becomes the log block of LBN {lbn}"));
        Ok(())
    }

    fn describe(&self, slot: usize) -> String {
        match &self.slots[slot] {
            Some(l) => format!("log block {} (LBN {}, {} of {} sectors written)", l.pbn, l.lbn, l.lsns.len(), self.ppb),
            None => "an empty slot".into(),
        }
    }
}

impl Ftl for BastFtl {
    fn name(&self) -> &'static str {
        "bast"
    }

    fn logical_pages(&self) -> u32 {
        self.data_blocks * self.ppb
    }

    fn write(&mut self, flash: &mut Flash, lsn: Lpn, version: u32) -> FlashResult<()> {
        let n = self.ppb;
        let (lbn, off) = (lsn / n, lsn % n);
        let mut data = self.bmt[lbn as usize];
        if data == NONE {
            data = self.take_free(Use::Data, lbn)?;
            self.bmt[lbn as usize] = data;
            flash.note("alloc", || format!("LBN {lbn} gets data block {data} from the free-block list"));
        }
        let ppn = data * n + off;
        if !self.written[ppn as usize] {
            self.rules.in_place += 1;
            flash.note("in_place", || {
                format!("S{lsn}: offset {off} of data block {data} (LBN {lbn}) is empty → written in place")
            });
            return self.program(flash, ppn, lsn, version, Cause::Host, tag::DATA);
        }
        // A collision: the sector goes to LBN's dedicated log block (2.2).
        let slot = self.slot_of[lbn as usize];
        if slot != NONE && self.slots[slot as usize].as_ref().unwrap().lsns.len() as u32 == n {
            // Rule (1): the dedicated log block is full.
            self.rules.rule1_full += 1;
            let s = slot as usize;
            flash.note("victim", || {
                format!(
                    "S{lsn} collides in data block {data}; LBN {lbn}'s {} is full → victim by rule (1), merged",
                    self.describe(s)
                )
            });
            self.merge(flash, s)?;
            self.new_log(flash, s, lbn)?;
        } else if slot == NONE {
            if let Some(s) = self.slots.iter().position(|x| x.is_none()) {
                self.rules.new_log += 1;
                self.new_log(flash, s, lbn)?;
            } else {
                let (s, rule) = match self.slots.iter().position(|x| self.switchable(x.as_ref().unwrap())) {
                    Some(s) => {
                        self.rules.rule2_switchable += 1;
                        (s, "rule (2): it can be switched")
                    }
                    None => {
                        self.rules.rule3_round_robin += 1;
                        let s = self.rr;
                        self.rr = (self.rr + 1) % self.slots.len();
                        (s, "rule (3): round robin")
                    }
                };
                let k = self.slots.len();
                flash.note("victim", || {
                    format!("S{lsn} collides in data block {data}; LBN {lbn} has no log block and all {k} are in use → victim {} by {rule}", self.describe(s))
                });
                self.merge(flash, s)?;
                self.new_log(flash, s, lbn)?;
            }
        }
        let s = self.slot_of[lbn as usize] as usize;
        let log = self.slots[s].as_ref().unwrap();
        let ppn = log.pbn * n + log.lsns.len() as u32;
        self.program(flash, ppn, lsn, version, Cause::Host, tag::LOG)?;
        let log = self.slots[s].as_mut().unwrap();
        log.lsns.push(lsn);
        self.rules.appended += 1;
        Ok(())
    }

    fn read(&mut self, flash: &mut Flash, lsn: Lpn) -> FlashResult<Option<Ppn>> {
        let Some(ppn) = self.locate(lsn) else { return Ok(None) };
        flash.read(ppn, Cause::Host)?;
        Ok(Some(ppn))
    }

    fn locate(&self, lsn: Lpn) -> Option<Ppn> {
        if lsn >= self.logical_pages() {
            return None;
        }
        let n = self.ppb;
        let (lbn, off) = (lsn / n, lsn % n);
        let s = self.slot_of[lbn as usize];
        if s != NONE {
            let log = self.slots[s as usize].as_ref().unwrap();
            if let Some(i) = log.lsns.iter().rposition(|&l| l == lsn) {
                return Some(log.pbn * n + i as u32);
            }
        }
        let d = self.bmt[lbn as usize];
        if d == NONE {
            return None;
        }
        Some(d * n + off).filter(|&p| self.written[p as usize])
    }

    fn block_role(&self, pbn: Pbn) -> BlockRole {
        match self.usage[pbn as usize] {
            Use::Free => BlockRole::Free,
            // A full merge's new block is LBN's data block only once the block map points
            // at it (after its copies); until then it is the merge's destination.
            Use::Data if self.owner[pbn as usize] != NONE && self.bmt[self.owner[pbn as usize] as usize] != pbn => {
                BlockRole::GcDestination
            }
            Use::Data => BlockRole::Data,
            Use::Log => BlockRole::Log,
        }
    }

    fn block_owner(&self, pbn: Pbn) -> Option<u32> {
        Some(self.owner[pbn as usize]).filter(|&o| o != NONE)
    }

    /// The KRAFT paper's bit widths (ftl/ram.rs), as FAST and KRAFT count: a PBN per
    /// logical block, and per log block its PBN, owner LBN and a page offset per page.
    fn ram_bytes(&self) -> u64 {
        let g = super::ram::MapGeometry {
            // Data blocks, log blocks and the spare blocks (the range of a PBN).
            physical_blocks: self.usage.len() as u64,
            logical_blocks: self.data_blocks as u64,
            pages_per_block: self.ppb as u64,
        };
        super::ram::bytes(g.bast_bits(self.slots.len() as u64))
    }

    fn scheme_metrics(&self) -> serde_json::Value {
        serde_json::to_value(&self.rules).unwrap_or(serde_json::Value::Null)
    }

    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        let entries = self
            .bmt
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(lbn, &p)| DataBlockEntry { lbn: lbn as u32, pbn: some(p) });
        let slots = self
            .slots
            .iter()
            .enumerate()
            .map(|(i, s)| DedicatedLog {
                slot: i as u32,
                pbn: s.as_ref().map(|l| l.pbn),
                lbn: s.as_ref().map(|l| l.lbn),
                lsns: s.as_ref().map(|l| l.lsns.clone()).unwrap_or_default(),
            })
            .collect();
        vec![
            Panel::new(
                format!("Block-mapping table (LBN → data PBN){}", first_rows(self.bmt.len(), "LBNs")),
                PanelData::DataBlockMap { entries: entries.collect() },
            ),
            Panel::new(
                format!(
                    "Sector-mapping table: log blocks (lsn per page, · = empty; round robin replaces slot {} next)",
                    self.rr
                ),
                PanelData::DedicatedLogBlocks { pages_per_block: self.ppb, next_victim: self.rr as u32, slots },
            ),
        ]
    }
}

// ---- BAST -----------------------------------------------------------------------------

/// BAST: scan every spare area, then rebuild. Per logical block the blocks holding its
/// sectors, oldest first: a merge destination without LAST is undone; the newest complete
/// data block (in place or merged) makes every older block garbage; of what is left the
/// newest log-born block is the log block if an older block exists (the data block: a
/// switched log block or the merged one), else it is the data block (its switch
/// completed). The round-robin cursor restarts at slot 0 (RAM state, not on the chip).
// Offsets index both the block's pages and the scan: an index loop reads clearest.
#[allow(clippy::needless_range_loop)]
pub fn recover_bast(flash: &mut Flash, params: &SchemeParams) -> FlashResult<BastFtl> {
    let g = *flash.geometry();
    let n = g.pages_per_block;
    let mut ftl = BastFtl::new(&g, params).map_err(FlashError::Violation)?;
    flash.note("recovery", || {
        format!("recovery: read the spare area (LPN, sequence number, tag) of all {} pages", g.pages())
    });
    let scans = scan_all(flash)?;
    let mut blks: Vec<Blk> = scans.into_iter().enumerate().map(|(i, p)| Blk::new(i as Pbn, p, n, tag::MERGE)).collect();
    ftl.seq = max_seq(&blks);
    ftl.free.reset([]);
    for i in 0..blks.len() {
        let b = &blks[i];
        let undo = b.readable() && b.role == tag::MERGE && !b.last;
        if b.programmed && (!b.readable() || undo) {
            let pbn = b.pbn;
            flash.note("recovery", || {
                format!("block {pbn}: torn pages only, or a merge destination without its last copy → erased")
            });
            flash.erase(pbn, Cause::Recovery)?;
            blks[i].empty();
        }
    }
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); ftl.data_blocks as usize];
    for (i, b) in blks.iter().enumerate() {
        if b.readable() {
            groups[b.lbn as usize].push(i);
        }
    }
    let mut logs: Vec<(u32, LogBlock)> = Vec::new();
    for lbn in 0..ftl.data_blocks {
        let mut group = std::mem::take(&mut groups[lbn as usize]);
        if group.is_empty() {
            continue;
        }
        group.sort_by_key(|&i| blks[i].birth);
        let base = group.iter().rposition(|&i| blks[i].role != tag::LOG).unwrap_or(0);
        let mut garbage: Vec<usize> = group[..base].to_vec();
        let rest = &group[base..];
        let (mut d, mut log) = if rest.len() == 1 {
            (Some(rest[0]), None)
        } else {
            garbage.extend_from_slice(&rest[..rest.len() - 2]);
            (Some(rest[rest.len() - 2]), Some(rest[rest.len() - 1]))
        };
        if d.is_some_and(|i| blks[i].torn) {
            let todo: Vec<(u32, Ppn)> =
                (0..n).filter_map(|o| newest(&blks, &group, lbn * n + o, n).map(|(_, p)| (o, p))).collect();
            let dst = erased_free_block(flash, &blks, &[], |p| ftl.usage[p as usize] == Use::Free)?;
            flash.note("merge_redo", || {
                format!("LBN {lbn}: its data block holds a torn page → merged into free block {dst}, old blocks erased")
            });
            for (j, &(o, src)) in todo.iter().enumerate() {
                let p = flash.read(src, Cause::Recovery)?;
                let t = tag::MERGE | if j + 1 == todo.len() { tag::LAST } else { 0 };
                ftl.program(flash, dst * n + o, p.lpn, p.version, Cause::Recovery, t)?;
            }
            ftl.usage[dst as usize] = Use::Data;
            ftl.owner[dst as usize] = lbn;
            ftl.bmt[lbn as usize] = dst;
            garbage = group.clone();
            d = None;
            log = None;
        }
        for &gi in &garbage {
            flash.erase(blks[gi].pbn, Cause::Recovery)?;
            blks[gi].empty();
        }
        if let Some(di) = d {
            let b = &blks[di];
            ftl.bmt[lbn as usize] = b.pbn;
            ftl.usage[b.pbn as usize] = Use::Data;
            ftl.owner[b.pbn as usize] = lbn;
        }
        if let Some(li) = log {
            let b = &blks[li];
            let lsns: Vec<Lpn> = b.pages[..b.fill() as usize]
                .iter()
                .map(|p| if p.kind == PageKind::Data { p.lpn } else { NONE })
                .collect();
            ftl.usage[b.pbn as usize] = Use::Log;
            ftl.owner[b.pbn as usize] = lbn;
            logs.push((b.birth, LogBlock { pbn: b.pbn, lbn, lsns }));
        }
    }
    if logs.len() > ftl.slots.len() {
        return Err(FlashError::Violation(format!(
            "recovery found {} log blocks, more than {}",
            logs.len(),
            ftl.slots.len()
        )));
    }
    logs.sort_by_key(|l| l.0);
    for (slot, (_, l)) in logs.into_iter().enumerate() {
        ftl.slot_of[l.lbn as usize] = slot as u32;
        ftl.slots[slot] = Some(l);
    }
    for pbn in 0..blks.len() as Pbn {
        let base = (pbn * n) as usize;
        for off in 0..n as usize {
            ftl.written[base + off] = !flash.peek(pbn * n + off as u32).is_erased();
        }
        if ftl.usage[pbn as usize] == Use::Free {
            if flash.block_pages(pbn).iter().any(|p| !p.is_erased()) {
                flash.erase(pbn, Cause::Recovery)?;
                ftl.written[base..base + n as usize].fill(false);
            }
            ftl.free.release(pbn);
        }
    }
    Ok(ftl)
}
