//! LTFTL's data section: write frontiers, garbage collection that keeps retractable pages, and wear levelling.

use super::*;

impl LtFtl {
    pub(super) fn take_free(&mut self, flash: &mut Flash, role: Use, cause: Cause) -> FlashResult<Pbn> {
        let pbn =
            self.free.pop_front().ok_or_else(|| FlashError::Violation("ltftl ran out of free data blocks".into()))?;
        self.erase_if_written(flash, pbn, cause)?;
        self.set_usage(pbn, role);
        Ok(pbn)
    }

    pub(super) fn next_host_page(&mut self, flash: &mut Flash) -> FlashResult<Ppn> {
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

    pub(super) fn next_gc_page(&mut self, flash: &mut Flash) -> FlashResult<Ppn> {
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

    pub(super) fn reclaimable(&self, pbn: Pbn) -> u32 {
        self.ppb - self.valid_cnt[pbn as usize] - self.retr_cnt[pbn as usize]
    }

    /// Garbage collection (section 4): the block with the highest share of
    /// reclaimable pages; valid and retractable pages are copied, the moves logged and
    /// flushed, then the block is erased. When no block has a reclaimable page, the
    /// oldest frozen state is released (our choice; the paper does not say).
    pub(super) fn collect(&mut self, flash: &mut Flash) -> FlashResult<()> {
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
            let valid = self.is_valid(flash, src);
            let retractable = !valid && self.retr[src as usize];
            if !valid && !retractable {
                continue;
            }
            let dst = self.next_gc_page(flash)?;
            let data = flash.read(src, Cause::Gc)?;
            self.prog(flash, dst, Page { tag: TAG_GC_COPY, ..data }, Cause::Gc)?;
            if let Some((_, n)) = &mut self.gc_frontier {
                *n += 1;
            }
            let sector = data.lpn;
            // The copy keeps the spare area's ⟨sector, global_time⟩, so its birth.
            if !self.death.is_empty() {
                self.death[dst as usize] = self.death[src as usize];
            }
            if valid {
                self.fwd[sector as usize] = dst;
                self.count_valid(dst, true);
                self.count_valid(src, false);
            } else {
                self.set_retr(dst, true);
                self.set_retr(src, false);
                self.retractable_copies += 1;
            }
            let r = self.old_ref.get(src as usize).copied().unwrap_or(NONE);
            if r != NONE {
                // Entries named by `old_ref` are in RAM (kept while a state is frozen).
                let i = r as usize - self.log_base;
                self.log_diverged |= i < self.flushed;
                self.log[i].old = dst;
                self.old_ref[dst as usize] = r;
            }
            // The time field of a move holds the moved data's birth: recovery uses it
            // to find the entry that invalidated the data (see `death_entry`).
            let gt = data.seq;
            self.append(LogEntry::gc_move(sector, src, dst, gt));
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
    pub(super) fn wear_level(&mut self, flash: &mut Flash) -> FlashResult<()> {
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

    pub(super) fn most_worn_free(&self, flash: &Flash) -> Option<Pbn> {
        self.free.iter().copied().max_by_key(|&b| flash.erase_count(b))
    }

    /// Data block `d` (free) joins section `to`; block `x` of that section joins the data pool.
    pub(super) fn swap_into_data(&mut self, d: Pbn, x: Pbn, to: Section) {
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
}
