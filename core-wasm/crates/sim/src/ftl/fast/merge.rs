//! FAST's merges (FAST paper section 3.4): switch, partial and full merges, the SW log block's retirement and the RW log victim's replacement.

use super::*;

impl FastFtl {
    /// A log block is replaced: counted at the first operation of the merge (or erase)
    /// that retires it (Flash::count_at_next_op).
    pub(super) fn record_replacement(flash: &mut Flash, written: u32, ppb: u32) {
        flash.count_at_next_op(Count::LogReplacement(written as f64 / ppb as f64));
    }

    /// Merges `lbn` into a new block from the free list (3.4 "merge operation in the RW
    /// log blocks"): the up-to-date copy of every sector is copied in, the new block
    /// becomes the data block and the old data block is erased. Every RW sector of `lbn` becomes −1.
    pub(super) fn merge_into_new(&mut self, flash: &mut Flash, lbn: u32, cause: Cause) -> FlashResult<Pbn> {
        let n = self.ppb;
        let dst = self.take_free(Use::Data, lbn)?;
        self.dest = Some(dst);
        let mut srcs = std::mem::take(&mut self.merge_srcs);
        srcs.clear();
        srcs.extend((0..n).map(|off| self.locate(lbn * n + off)));
        let old = self.bmt[lbn as usize];
        flash.note("merge", || {
            format!(
                "merge of LBN {lbn}: its {} copied into free block {dst} (DEST), which becomes its data block; then old data block {} is erased",
                sectors(srcs.iter().flatten().count(), "up-to-date sector"),
                if old == NONE { "-".to_string() } else { old.to_string() }
            )
        });
        // The −1 marks come right after the last copy's program (the map switches with
        // them), so their note is revealed with that program (issue 35).
        let marked = |flash: &mut Flash| {
            flash.note("merge", || {
                format!("block {dst} becomes LBN {lbn}'s data block and LBN {lbn}'s RW sectors are marked −1")
            })
        };
        let last = srcs.iter().rposition(|s| s.is_some());
        for (off, src) in srcs.iter().enumerate() {
            if let Some(src) = *src {
                let to = dst * n + off as u32;
                if Some(off) == last {
                    let p = flash.read(src, cause)?;
                    marked(flash);
                    self.program(flash, to, p.lpn, p.version, cause, tag::MERGE | tag::LAST)?;
                } else {
                    self.copy(flash, src, to, cause, tag::MERGE)?;
                }
            }
        }
        if last.is_none() {
            marked(flash);
        }
        self.merge_srcs = srcs;
        self.bmt[lbn as usize] = dst;
        self.map_changed(lbn);
        let k = self.invalidate_rw(lbn);
        self.merged(flash, lbn, k)?;
        if old != NONE {
            self.erase(flash, old, cause)?;
        }
        self.dest = None;
        Ok(dst)
    }

    /// Ends the SW log block's life: a switch if it holds all sectors of its owner in
    /// order, else the partial merge of 3.4 / Fig. 7a (copy only the missing sectors into
    /// it, exchange it with the data block, erase the data block). `host` is a sector
    /// written at its offset during the partial merge (case 2.2).
    pub(super) fn retire_sw(&mut self, flash: &mut Flash, host: Option<(Lpn, u32)>) -> FlashResult<()> {
        let Some(sw) = self.sw.take() else { return Ok(()) };
        let n = self.ppb;
        Self::record_replacement(flash, sw.next, n);
        let old = self.bmt[sw.lbn as usize];
        if sw.next == n {
            // Switch: the SW log block becomes the data block (3.4, first bullet).
            self.bmt[sw.lbn as usize] = sw.pbn;
            self.map_changed(sw.lbn);
            self.usage[sw.pbn as usize] = Use::Data;
            let k = self.invalidate_rw(sw.lbn);
            // Counted at the switch's erase (FastCheck logs the block map before it).
            flash.count_at_next_op(Count::SwitchMerge);
            flash.note("switch", || {
                format!("switch: SW log block {} holds LBN {} in order and becomes its data block; old data block {old} erased (1 erase, no copy)", sw.pbn, sw.lbn)
            });
            self.merged(flash, sw.lbn, k)?;
            if old != NONE {
                self.erase(flash, old, Cause::Switch)?;
            }
            return Ok(());
        }
        let srcs: Vec<Option<Ppn>> = (sw.next..n)
            .map(|off| {
                let lsn = sw.lbn * n + off;
                if host.is_some_and(|h| h.0 == lsn) {
                    None
                } else {
                    self.latest_outside_sw(lsn)
                }
            })
            .collect();
        flash.note("partial_merge", || {
            format!(
                "partial merge (Fig. 7a): SW log block {} holds {} of LBN {}'s {n} sectors; {} copied in{}; it becomes the data block, old data block {old} erased (1 erase)",
                sw.pbn,
                sw.next,
                sw.lbn,
                sectors(srcs.iter().flatten().count(), "missing sector"),
                if host.is_some() { " and the new sector written at its offset" } else { "" }
            )
        });
        // Counted at its first copy (a host sector programmed before it does not take the
        // count), or at the erase if nothing is copied.
        flash.count_at_next_op(Count::PartialMerge);
        let writes =
            |i: usize, s: &Option<Ppn>| s.is_some() || host.is_some_and(|h| h.0 == sw.lbn * n + sw.next + i as u32);
        let last = srcs.iter().enumerate().rposition(|(i, s)| writes(i, s));
        for (i, src) in srcs.iter().enumerate() {
            let off = sw.next + i as u32;
            let lsn = sw.lbn * n + off;
            let to = sw.pbn * n + off;
            let t = tag::MERGE | if Some(i) == last { tag::LAST } else { 0 };
            if let Some((h, version)) = host.filter(|h| h.0 == lsn) {
                self.program(flash, to, h, version, Cause::Host, t)?;
            } else if let Some(src) = *src {
                self.copy(flash, src, to, Cause::PartialMerge, t)?;
            }
        }
        self.bmt[sw.lbn as usize] = sw.pbn;
        self.map_changed(sw.lbn);
        self.usage[sw.pbn as usize] = Use::Data;
        let k = self.invalidate_rw(sw.lbn);
        self.merged(flash, sw.lbn, k)?;
        if old != NONE {
            self.erase(flash, old, Cause::PartialMerge)?;
        }
        Ok(())
    }

    /// Fig. 6 lines 21–25: the RW log blocks are full; the first of the list is the
    /// victim. FAST merges every logical block with a sector in it (eager merge); O-FAST
    /// skips a logical block whose sectors in the victim all have newer copies in
    /// non-victim log blocks (lazy merge, 3.6). Then the victim is erased.
    /// Returns the victim, already erased unless crash-recovery logging defers its erase
    /// until the replacement block is logged in the block map.
    pub(super) fn replace_rw_victim(&mut self, flash: &mut Flash) -> FlashResult<Pbn> {
        let victim = self.rw.pop_front().expect("RW log list is full");
        self.victim = Some(victim);
        let n = self.ppb;
        let base = victim * n;
        let mut lbns: Vec<u32> = Vec::new();
        let mut merged_marks = 0;
        for off in 0..n {
            let lsn = self.smt[(base + off) as usize];
            if lsn == MERGED {
                merged_marks += 1;
            } else if lsn != NONE && !lbns.contains(&(lsn / n)) {
                lbns.push(lsn / n);
            }
        }
        let mut merge: Vec<u32> = Vec::new();
        let mut skip: Vec<u32> = Vec::new();
        for &lbn in &lbns {
            if self.lazy && self.victim_sectors_superseded(victim, lbn) {
                skip.push(lbn);
            } else {
                merge.push(lbn);
            }
        }
        let lazy = self.lazy;
        flash.note("victim", || {
            let mut s = format!("RW log full: victim log block {victim} (round robin: the first of the RW list)");
            if lbns.is_empty() {
                s += &format!(" holds only −1 sectors ({merged_marks}) → no merge, only its erase");
            } else {
                s = format!("RW log full: victim log block {victim} holds sectors of LBN {}", join_and(&lbns));
                if merged_marks > 0 {
                    s += &format!(" and {merged_marks} −1 sector{}", if merged_marks == 1 { "" } else { "s" });
                }
                s += &format!(" → {} (round robin: the first of the RW list)", count_merges(merge.len()));
                if lazy && !skip.is_empty() {
                    s += &format!("; O-FAST lazy merge skips LBN {}: newer copies of all its victim sectors are in other log blocks", join_and(&skip));
                }
            }
            s
        });
        // The replacement counts at the victim's first operation (its first merge's first
        // copy, or its erase), the victim with it, each merge at its own first copy.
        Self::record_replacement(flash, n, n);
        if !merge.is_empty() {
            flash.count_at_next_op(Count::FullMergeVictim);
        } else {
            self.cases.victims_without_merge += 1;
        }
        for &lbn in &merge {
            flash.count_at_next_op(Count::FullMerge);
            self.merge_into_new(flash, lbn, Cause::FullMerge)?;
        }
        self.cases.lazy_skips += skip.len() as u64;
        // Entries left in the victim belong to skipped logical blocks: drop them from
        // the indexes (their newer copies live elsewhere).
        for off in 0..n {
            let ppn = base + off;
            let lsn = self.smt[ppn as usize];
            if lsn != NONE && lsn != MERGED {
                self.rw_of_lbn[(lsn / n) as usize].retain(|&p| p != ppn);
                if self.rw_latest[lsn as usize] == ppn {
                    self.rw_latest[lsn as usize] = NONE;
                }
            }
        }
        if self.meta.is_none() {
            self.erase(flash, victim, Cause::FullMerge)?;
            self.victim = None;
        }
        Ok(victim)
    }

    /// O-FAST's test (3.6): does every sector of `lbn` in the victim have a newer copy
    /// in a non-victim log block (a later RW log block or the SW log block)?
    pub(super) fn victim_sectors_superseded(&self, victim: Pbn, lbn: u32) -> bool {
        let n = self.ppb;
        (0..n).all(|off| {
            let lsn = self.smt[(victim * n + off) as usize];
            if lsn == NONE || lsn == MERGED || lsn / n != lbn {
                return true;
            }
            let in_sw = self.sw.is_some_and(|s| s.lbn == lbn && lsn % n < s.next);
            let r = self.rw_latest[lsn as usize];
            in_sw || (r != NONE && r / n != victim)
        })
    }

    /// Case 2.3's merge: the SW log block (already detached from `self.sw`) and the
    /// data block are merged into a free block holding the new sector; both are erased.
    pub(super) fn merge_into_new_with_sw(
        &mut self,
        flash: &mut Flash,
        sw: SwLog,
        lsn: Lpn,
        version: u32,
    ) -> FlashResult<()> {
        let n = self.ppb;
        let dst = self.take_free(Use::Data, sw.lbn)?;
        self.dest = Some(dst);
        let srcs: Vec<Option<Ppn>> = (0..n)
            .map(|off| {
                let l = sw.lbn * n + off;
                if l == lsn {
                    None
                } else if off < sw.next {
                    Some(sw.pbn * n + off)
                } else {
                    self.latest_outside_sw(l)
                }
            })
            .collect();
        let old = self.bmt[sw.lbn as usize];
        flash.note("merge", || {
            format!(
                "merge of LBN {}: {} copied into free block {dst} with S{lsn}; SW log block {} and old data block {old} erased (2 erases)",
                sw.lbn,
                sectors(srcs.iter().flatten().count(), "sector"),
                sw.pbn
            )
        });
        // Counted at the first copy's read.
        flash.count_at_next_op(Count::FullMerge);
        flash.count_at_next_op(Count::FullMergeVictim);
        let host_off = (lsn % n) as usize;
        let last = srcs.iter().enumerate().rposition(|(i, s)| s.is_some() || i == host_off);
        for (off, src) in srcs.iter().enumerate() {
            let to = dst * n + off as u32;
            let t = tag::MERGE | if Some(off) == last { tag::LAST | tag::RETIRE_SW } else { 0 };
            if sw.lbn * n + off as u32 == lsn {
                self.program(flash, to, lsn, version, Cause::Host, t)?;
            } else if let Some(src) = *src {
                self.copy(flash, src, to, Cause::FullMerge, t)?;
            }
        }
        self.bmt[sw.lbn as usize] = dst;
        self.map_changed(sw.lbn);
        let k = self.invalidate_rw(sw.lbn);
        self.merged(flash, sw.lbn, k)?;
        if old != NONE {
            self.erase(flash, old, Cause::FullMerge)?;
        }
        self.erase(flash, sw.pbn, Cause::FullMerge)?;
        self.dest = None;
        Ok(())
    }
}
