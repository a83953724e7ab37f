//! DFTL after a power cut: RAM (the GTD and the CMT) is gone. The paper says the GTD can be
//! rebuilt from the translation pages' spare area and leaves the rest open; the choices
//! (docs/schemes/dftl.md, "Power cuts"):
//!
//! - Durable before a write is acknowledged: the data page only, with its LPN and a
//!   sequence number in the spare area. Its mapping may live in the CMT alone (dirty).
//! - The CMT entry of a write is made (room made, the entry loaded) before the data page is
//!   programmed, and GC updates a cached entry in the CMT, an uncached one in its
//!   translation page before the victim's erase. So a mapping its translation page does
//!   not hold is always a CMT entry: after a cut there are at most `cmt_entries` of them.
//! - Every program of a data page (host write or GC copy) and every translation write-back
//!   takes the next sequence number, so numbers increase in program order; a translation
//!   block's GC copy keeps its page's number (same contents).
//! - Recovery reads only what it needs (issue 38: the paper leaves recovery open; cheaper
//!   than the full scan of every spare area this replaced):
//!   1. the first page's spare area of every block: erased (a free block), a translation
//!      page (a translation block: all its spare areas are read; the newest copy of each
//!      translation page gives the GTD and its number T), or data;
//!   2. `T_min`, the smallest T over the translation pages (0 if one was never written);
//!   3. each data block's last page: if it holds data numbered below `T_min`, every page of
//!      the block is older than every translation page and the block is not read further
//!      (see below); otherwise all its spare areas are read;
//!   4. each translation page once. For an LPN whose translation page has number T, a copy
//!      numbered above T was programmed after that page was written and lags it (a dirty
//!      CMT entry at the cut); the newest such copy, if any, is found in step 3's reads (a
//!      skipped block holds only numbers below `T_min` <= T), and goes back into the CMT as
//!      a dirty entry (no flash write). Otherwise the translation page's entry is right: a
//!      write or GC move of the LPN after T would have a number above T, and every copy
//!      numbered below T was written back into that page (or superseded) by its write T,
//!      which wrote every dirty CMT entry of the page.
//!
//!   `ftl_sim::ftl::dftl::RecoveryReads` counts what the scan read and what it skipped.
//! - Closed translation blocks with no valid translation page are erased (the map-block
//!   pool as a cut-free run leaves it; `erase_dead_translation_blocks`).
//! - Then GC runs until the reserve is back, as before any request.

use std::collections::BTreeMap;

use super::{BlockUse, Dftl, Frontier, SchemeParams, GC_LOW, TAG_GC, TAG_TRANS};
use crate::nand::{Cause, Count, Flash, FlashError, FlashResult, Lpn, Page, PageKind, Pbn, Ppn, NONE};

/// What a DFTL recovery read (docs/schemes/dftl.md, "Power cuts"): spare areas read, of
/// how many on the chip, and the data blocks whose pages were not read past the last one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecoveryReads {
    pub spare_reads: u64,
    pub chip_pages: u64,
    pub skipped_blocks: u32,
    /// The smallest newest-copy number of a translation page (the scan's bound).
    pub t_min: u32,
}

impl Dftl {
    pub fn recover(flash: &mut Flash, params: &SchemeParams) -> FlashResult<Dftl> {
        Self::recover_counted(flash, params).map(|(ftl, _)| ftl)
    }

    /// `recover`, with what its scan read.
    pub fn recover_counted(flash: &mut Flash, params: &SchemeParams) -> FlashResult<(Dftl, RecoveryReads)> {
        let g = *flash.geometry();
        flash.note("recovery", || {
            "DFTL recovery: read each block's first spare area and every translation block's; the newest copy of each translation page rebuilds the GTD; data blocks older than every translation page are skipped, the others scanned; mappings newer than their translation page go into the CMT as dirty entries".into()
        });
        let mut ftl = Dftl::new(&g, params).map_err(FlashError::Violation)?;
        let mut reads = RecoveryReads { chip_pages: g.pages() as u64, ..Default::default() };
        let lp = ftl.logical_pages as usize;
        // The newest copy of each LPN among the pages read (its number and place).
        let mut best_seq = vec![0u32; lp];
        let mut best_ppn = vec![NONE; lp];
        let mut gtd_seq = vec![0u32; ftl.gtd.len()];
        // Partly written blocks: (role of the last readable page, frontier).
        let mut partial: Vec<(Option<BlockUse>, Frontier)> = Vec::new();
        // Blocks whose first page holds data or is unreadable: (block, that page).
        let mut data_blocks: Vec<(Pbn, Page)> = Vec::new();
        ftl.free.clear();
        // 1. The first page of every block; translation blocks whole.
        for pbn in 0..g.blocks {
            let first = flash.read_oob(pbn * g.pages_per_block, Cause::Recovery)?;
            reads.spare_reads += 1;
            match first.kind {
                PageKind::Erased => ftl.free.push_back(pbn),
                PageKind::Meta if first.tag == TAG_TRANS => ftl.scan_block(
                    flash,
                    pbn,
                    first,
                    None,
                    &mut reads,
                    &mut best_seq,
                    &mut best_ppn,
                    &mut gtd_seq,
                    &mut partial,
                )?,
                _ => data_blocks.push((pbn, first)),
            }
        }
        // 2. The bound: every translation page is at least this new.
        let t_min = gtd_seq.iter().copied().min().unwrap_or(0);
        reads.t_min = t_min;
        // 3. Data blocks: skipped when their last page is older than every translation page.
        for (pbn, first) in data_blocks {
            let mut last = None;
            if g.pages_per_block > 1 && first.kind == PageKind::Data {
                let l = flash.read_oob(pbn * g.pages_per_block + g.pages_per_block - 1, Cause::Recovery)?;
                reads.spare_reads += 1;
                if l.kind == PageKind::Data && l.seq < t_min {
                    reads.skipped_blocks += 1;
                    ftl.close(pbn, BlockUse::Data);
                    continue;
                }
                last = Some(l);
            }
            // The last page's spare area, read above, is not read (or counted) again.
            ftl.scan_block(flash, pbn, first, last, &mut reads, &mut best_seq, &mut best_ppn, &mut gtd_seq, &mut partial)?;
        }
        // The partly written blocks become the frontiers again (one per role; a block with
        // no readable page serves a data role left open, else it is closed like a full one).
        partial.sort_by_key(|&(role, f)| (role.is_none(), f.pbn));
        for (role, f) in partial {
            let slot = match role {
                Some(BlockUse::Host) => 0,
                Some(BlockUse::DataGc) => 1,
                Some(_) => 2,
                None if ftl.gc.is_none() => 1,
                None if ftl.host.is_none() => 0,
                None => 3,
            };
            let (frontier, open) = match slot {
                0 => (&mut ftl.host, BlockUse::Host),
                1 => (&mut ftl.gc, BlockUse::DataGc),
                2 => (&mut ftl.trans, BlockUse::TransOpen),
                _ => {
                    let u = ftl.usage[f.pbn as usize];
                    ftl.close(f.pbn, u);
                    continue;
                }
            };
            if frontier.is_none() {
                *frontier = Some(f);
                ftl.usage[f.pbn as usize] = open;
            } else {
                let u = ftl.usage[f.pbn as usize];
                ftl.close(f.pbn, u);
            }
        }
        // 4. The translation pages, once each: an LPN with a copy newer than its translation
        // page lags it (a dirty CMT entry at the cut); it goes back into the CMT, dirty.
        let per_page = ftl.per_page;
        let mut lagging: Vec<(u32, Ppn)> = Vec::new();
        for tvpn in 0..ftl.gtd.len() as u32 {
            let entries = ftl.read_translation(flash, tvpn, Cause::Recovery)?;
            let t = gtd_seq[tvpn as usize];
            for (i, &entry) in entries.iter().enumerate() {
                let lpn = tvpn * per_page + i as u32;
                if lpn as usize >= lp {
                    break;
                }
                let l = lpn as usize;
                let newer = best_ppn[l] != NONE && best_seq[l] > t;
                let at = if newer { best_ppn[l] } else { entry };
                if at != NONE {
                    ftl.at[l] = at;
                    ftl.valid.incr(at / ftl.ppb);
                }
                if newer {
                    lagging.push((lpn, at));
                }
            }
        }
        for p in ftl.gtd.clone() {
            if p != NONE {
                ftl.valid.incr(p / ftl.ppb);
            }
        }
        flash.note("recovery", || {
            format!(
                "{} mappings lagged their translation pages: back in the CMT, dirty; {} spare areas read of {} ({} data blocks older than every translation page skipped)",
                lagging.len(),
                reads.spare_reads,
                reads.chip_pages,
                reads.skipped_blocks
            )
        });
        // Into the CMT, dirty. When they do not all fit, an eviction writes its translation
        // page back with the lagging entries of that page not yet inserted too: a translation
        // page written now must hold every mapping older than it, or the next recovery
        // (a cut during this one) would trust it for them.
        // Blocks holding nothing valid are erased before anything is programmed: lagging
        // entries beyond the CMT's room make the refill below write a translation page, and
        // a cut tearing that write-back in a fresh block (recut after recut) leaves the scan
        // no free block, only closed ones with nothing valid (11 x 2: two torn write-backs,
        // 0 free, "ran out of free blocks" before GC could run). Erasing them is the
        // copy-free part of the GC that follows (no mapping changes).
        ftl.erase_empty_blocks(flash)?;
        let mut pending: BTreeMap<Lpn, Ppn> = lagging.into_iter().collect();
        while let Some((&lpn, _)) = pending.first_key_value() {
            // Room first, with this entry still pending (an eviction may write it back).
            while ftl.cmt.is_full() && pending.contains_key(&lpn) {
                ftl.evict_in_recovery(flash, &mut pending)?;
            }
            if let Some(ppn) = pending.remove(&lpn) {
                ftl.cmt.insert(lpn, ppn, true);
            }
        }
        ftl.erase_dead_translation_blocks(flash)?;
        ftl.ensure_free(flash, Cause::Recovery)?;
        ftl.restore_translation_cap(flash)?;
        Ok((ftl, reads))
    }

    /// Erases every closed translation block with no valid translation page (only older
    /// copies, torn pages, or an open block the scan closed as a second frontier). Normal
    /// operation reclaims such a block at the next GC, which prefers the block that lost its
    /// last valid page most recently; the scan rebuilds the GC candidates in block order, so
    /// after a cut (most of all one inside a write-back or a recovery's own, cut again) dead
    /// translation blocks could outnumber any cut-free run's (chains on 8-11 x 2-16 found 3
    /// map blocks where the cut-free run has at most 2). Recovery restores the pool itself:
    /// erasing a block of stale copies changes no mapping (the GTD holds only the newest copy
    /// of each translation page), and an erase cut short leaves torn pages only, which the
    /// next recovery closes as a data block with nothing valid (GC's next victim).
    fn erase_dead_translation_blocks(&mut self, flash: &mut Flash) -> FlashResult<()> {
        let dead: Vec<Pbn> =
            (0..self.usage.len() as Pbn).filter(|&b| self.usage[b as usize] == BlockUse::Trans && self.valid.valid(b) == 0).collect();
        if !dead.is_empty() {
            flash.note("recovery", || format!("translation blocks {dead:?} hold no valid translation page: erased"));
        }
        for pbn in dead {
            self.erase(flash, pbn, Cause::Recovery)?;
        }
        Ok(())
    }

    /// GC of translation blocks until the closed ones are within `translation_block_cap`
    /// (docs/schemes/dftl.md, step 7). Greedy GC bounds them only by history: a translation
    /// block holding one valid translation page is its victim only when no block holds
    /// fewer valid pages, which never happens while data blocks die whole (sequential
    /// writes); a recovered CMT (the lagging entries only, in LPN order) evicts in another
    /// order than the run before the cut did, so a chain's translation pages spread over more
    /// blocks than one cut-free run's (256 x 32 sequential: 4 map blocks against 3). Each run
    /// erases a block and opens at most one (it copies less than a block), so the free
    /// reserve that `ensure_free` restored holds; each leaves fewer translation pages written,
    /// so the loop ends.
    fn restore_translation_cap(&mut self, flash: &mut Flash) -> FlashResult<()> {
        while self.translation_blocks_closed() > self.translation_block_cap() {
            self.collect_over_cap(flash, Cause::Recovery)?;
        }
        Ok(())
    }

    /// GC of the closed translation block with the fewest valid pages, the translation
    /// blocks being over their cap (`restore_translation_cap`).
    fn collect_over_cap(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
        let victim = (0..self.usage.len() as Pbn)
            .filter(|&b| self.usage[b as usize] == BlockUse::Trans)
            .min_by_key(|&b| self.valid.valid(b))
            .ok_or_else(|| FlashError::Violation("no translation block to collect".into()))?;
        let valid = self.valid.valid(victim);
        if valid >= self.ppb {
            return Err(FlashError::Violation("translation blocks over their cap hold no invalid page".into()));
        }
        flash.count_at_next_op(Count::GcRun);
        let (closed, cap) = (self.trans_closed, self.translation_block_cap());
        flash.note("recovery", || {
            format!("{closed} translation blocks, over their cap of {cap}: GC picks translation block {victim} ({valid} valid translation pages), copies them, updates the GTD, erases it")
        });
        self.collect_translation(flash, victim, cause, false)
    }

    /// Erases closed blocks with no valid page while fewer than `GC_LOW` are free: what GC
    /// would erase first (greedy: fewest valid), without a copy or a translation write.
    fn erase_empty_blocks(&mut self, flash: &mut Flash) -> FlashResult<()> {
        while (self.free.len() as u32) < GC_LOW {
            match self.valid.min() {
                Some(b) if self.valid.valid(b) == 0 => {
                    flash.note("recovery", || format!("block {b} holds nothing valid: erased before any program"));
                    self.erase(flash, b, Cause::Recovery)?;
                }
                _ => break,
            }
        }
        Ok(())
    }

    /// `evict`, taking the lagging entries of the victim's translation page still to be
    /// inserted (`pending`) into its write-back.
    fn evict_in_recovery(&mut self, flash: &mut Flash, pending: &mut BTreeMap<Lpn, Ppn>) -> FlashResult<()> {
        let Some(victim) = self.cmt.victim() else { return Ok(()) };
        if self.cmt.peek(victim).is_some_and(|(_, dirty)| dirty) {
            let tvpn = victim / self.per_page;
            let first = tvpn * self.per_page;
            let extra: Vec<(Lpn, Ppn)> = pending.range(first..first.saturating_add(self.per_page)).map(|(&l, &p)| (l, p)).collect();
            for (l, _) in &extra {
                pending.remove(l);
            }
            if self.write_back(flash, tvpn, &extra, Cause::Recovery)? {
                self.stats.translation_reads_update += 1;
            }
            self.stats.translation_writes_evict += 1;
        }
        self.cmt.remove(victim);
        Ok(())
    }

    /// Reads the spare areas of block `pbn` after its first page (`first`, read already)
    /// up to the first erased page: the newest copies of LPNs and translation pages, the
    /// write sequence, and whether the block is full or a frontier left open. `last`: the
    /// last page's spare area if step 3 read it already (each spare area is read once).
    #[allow(clippy::too_many_arguments)]
    fn scan_block(
        &mut self,
        flash: &mut Flash,
        pbn: Pbn,
        first: Page,
        last: Option<Page>,
        reads: &mut RecoveryReads,
        best_seq: &mut [u32],
        best_ppn: &mut [Ppn],
        gtd_seq: &mut [u32],
        partial: &mut Vec<(Option<BlockUse>, Frontier)>,
    ) -> FlashResult<()> {
        let ppb = self.ppb;
        let (mut next, mut role, mut trans) = (ppb, None, false);
        for off in 0..ppb {
            let ppn = pbn * ppb + off;
            let p = match (off, last) {
                (0, _) => first,
                (o, Some(l)) if o + 1 == ppb => l,
                _ => {
                    reads.spare_reads += 1;
                    flash.read_oob(ppn, Cause::Recovery)?
                }
            };
            match p.kind {
                PageKind::Erased => {
                    next = off;
                    break;
                }
                PageKind::Data if p.lpn < self.logical_pages => {
                    role = Some(if p.tag == TAG_GC { BlockUse::DataGc } else { BlockUse::Host });
                    self.seq = self.seq.max(p.seq);
                    let l = p.lpn as usize;
                    if p.seq >= best_seq[l] {
                        best_seq[l] = p.seq;
                        best_ppn[l] = ppn;
                    }
                }
                PageKind::Meta if p.tag == TAG_TRANS && (p.lpn as usize) < self.gtd.len() => {
                    role = Some(BlockUse::TransOpen);
                    trans = true;
                    self.seq = self.seq.max(p.seq);
                    let t = p.lpn as usize;
                    // Among equal numbers (a translation block's GC copy and its source,
                    // same contents) the later-found one.
                    if p.seq >= gtd_seq[t] {
                        gtd_seq[t] = p.seq;
                        self.gtd[t] = ppn;
                    }
                }
                _ => {}
            }
        }
        if next == 0 {
            self.free.push_back(pbn);
            return Ok(());
        }
        let full = if trans { BlockUse::Trans } else { BlockUse::Data };
        if next < ppb {
            partial.push((role, Frontier { pbn, next }));
            self.usage[pbn as usize] = full;
        } else {
            self.close(pbn, full);
        }
        Ok(())
    }
}
