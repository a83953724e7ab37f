//! LTFTL's intent log and map dumps: log records appended, flushed a page at a time, compacted, and the inverted page map dumped to the mapping section.

use super::*;

impl LtFtl {
    pub(super) fn append(&mut self, e: LogEntry) {
        if !e.moved() && e.old != NONE && !self.old_ref.is_empty() {
            self.old_ref[e.old as usize] = self.log_len() as u32;
        }
        if self.log.len() == self.log.capacity() {
            // While no state is frozen RAM holds the one-page buffer (`log_base`);
            // otherwise one threshold of entries (plus the one that trips the dump),
            // reserved once: grown by doubling it would peak at twice that while copying.
            let want = if self.keeps_flushed() { self.pages as usize + 1 } else { self.entries_per_log_page() + 1 };
            self.log.reserve_exact(want.max(self.log.len() + 1) - self.log.len());
        }
        self.log.push(e);
        self.since_dump += 1;
    }

    /// Flushes the one-page RAM buffer when full, and dumps the map when the log
    /// passes the threshold.
    pub(super) fn after_append(&mut self, flash: &mut Flash) -> FlashResult<()> {
        if self.log.len() - self.flushed >= self.entries_per_log_page() {
            self.flush_log(flash, Cause::Log)?;
        }
        if self.since_dump > self.dump_threshold_entries() {
            self.dump(flash, Cause::Map)?;
        }
        Ok(())
    }

    /// Writes the buffered entries as one log page.
    pub(super) fn flush_log(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
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
        self.log_pages.push((ppn, self.log_base + self.flushed));
        self.chain_next += 1;
        self.flushed = self.log.len();
        self.log_flushes += 1;
        if !self.keeps_flushed() {
            // In the log section now, and nothing will undo or compact them.
            self.log_base += self.log.len();
            self.log.clear();
            self.flushed = 0;
        }
        Ok(())
    }

    /// Flushed entries stay in RAM while a state is frozen (undo and compaction read
    /// them, and GC moves substitute their old pages) or while RAM differs from the log
    /// section; otherwise RAM keeps only the buffer.
    fn keeps_flushed(&self) -> bool {
        !self.states.is_empty() || self.log_diverged
    }

    /// Entries `range` of the log since the last dump (numbered from 0 at the dump), from
    /// RAM where held, else decoded from the log pages (the panels; no flash operation:
    /// what the log section holds, shown). Inside a dump, once it has erased the old
    /// chain's blocks, their entries are gone from the chip and are not listed.
    pub(super) fn logged(&self, flash: &Flash, range: std::ops::Range<usize>) -> Vec<(usize, LogEntry)> {
        range
            .filter_map(|i| {
                if i >= self.log_base {
                    return Some((i, self.log[i - self.log_base]));
                }
                let k = self.log_pages.partition_point(|&(_, first)| first <= i).checked_sub(1)?;
                let (ppn, first) = self.log_pages[k];
                let w = flash.payload(ppn)?.get((i - first) * 4..(i - first + 1) * 4)?;
                Some((i, LogEntry::decode(w)))
            })
            .collect()
    }

    pub(super) fn free_log_blocks(&self) -> Vec<Pbn> {
        self.log_section.iter().copied().filter(|b| !self.chain.contains(b)).collect()
    }

    /// The next page of the log chain, opening a block if needed; None when opening
    /// one would leave too little room to rewrite the log at the next dump.
    pub(super) fn next_log_page(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<Option<Ppn>> {
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
    pub(super) fn compacted_log(&self) -> Vec<LogEntry> {
        let Some(first) = self.states.first() else { return Vec::new() };
        let epochs: Vec<u32> = self.states.iter().map(|s| s.epoch).collect();
        let mut seen = vec![NONE; self.logical_pages as usize];
        let mut out = Vec::new();
        let mut interval = 0u32;
        for e in self.log.iter().filter(|e| !e.moved() && e.gt >= first.epoch) {
            while (interval as usize) + 1 < epochs.len() && e.gt >= epochs[interval as usize + 1] {
                interval += 1;
            }
            if seen[e.sector() as usize] != interval {
                seen[e.sector() as usize] = interval;
                out.push(*e);
            }
        }
        out
    }

    /// Writes the up-to-date inverted table to the mapping section, rewrites the
    /// (compacted) log into fresh log blocks, commits both with a metadata record,
    /// then erases the old log chain (section 4).
    pub(super) fn dump(&mut self, flash: &mut Flash, cause: Cause) -> FlashResult<()> {
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
        let first = self.slot_ppn(self.slot_next);
        let tables = self.inverted_table();
        debug_assert!(
            tables.concat() == self.inverted_table_by_scan(flash),
            "map dump: the inverted table from the forward map differs from the page scan"
        );
        for (i, payload) in (0..self.map_pages).zip(tables) {
            let ppn = self.slot_ppn(self.slot_next);
            let page = Page { lpn: i, version: 0, seq: gen, kind: PageKind::Meta, tag: TAG_MAP };
            self.prog_meta(flash, ppn, page, payload, cause)?;
            self.slot_next += 1;
        }
        // 2. the log, compacted, into fresh log blocks.
        // The new chain's pages: `log_pages` names the old chain's until the log in RAM
        // is renumbered with them (step 5), so a moment inside the dump reads the old.
        let mut log_pages = Vec::new();
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
            log_pages.push((ppn, k * per_page));
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
        // 5. Into the same buffer: it keeps its capacity for the next threshold of entries.
        self.log_pages = log_pages;
        self.log.clear();
        self.log.extend_from_slice(&kept);
        drop(kept);
        self.flushed = self.log.len();
        self.log_base = 0;
        self.log_diverged = false;
        self.since_dump = 0;
        self.rebuild_old_ref();
        self.dumps += 1;
        self.wear_level(flash)
    }

    /// The up-to-date inverted table (page -> sector, NONE where no valid sector lives),
    /// one Vec per map page, generated from the forward map in RAM as the paper's dump
    /// does (section 4): `inv[fwd[s]] = s`. One pass over `fwd`, where reading every
    /// page's spare area and then `fwd` (`inverted_table_by_scan`) cost a pass over the
    /// whole chip per dump (issue 37: LTFTL's wasm profile). The same table, since a
    /// `fwd` entry always names a page that holds its sector (recovery refuses others).
    pub(super) fn inverted_table(&self) -> Vec<Vec<Lpn>> {
        let per_map = (self.page_bytes / 4) as usize;
        let pages = self.pages as usize;
        let mut tables: Vec<Vec<Lpn>> = (0..self.map_pages as usize)
            .map(|i| vec![NONE; (pages - (i * per_map).min(pages)).min(per_map)])
            .collect();
        for (s, &p) in self.fwd.iter().enumerate() {
            if p != NONE {
                tables[p as usize / per_map][p as usize % per_map] = s as Lpn;
            }
        }
        tables
    }

    /// The inverted table read page by page (`owner`: each page's spare area, then
    /// `fwd`): the reference `inverted_table` is checked against (debug builds' dumps,
    /// `check_counters`).
    pub(super) fn inverted_table_by_scan(&self, flash: &Flash) -> Vec<Lpn> {
        (0..self.pages).map(|p| self.owner(flash, p)).collect()
    }

    /// Points every page at the log entry that invalidated its data. An entry can
    /// name a page number that has since been erased and reused ("stale"); only the
    /// entry whose time is the page's recorded death is the page's own.
    pub(super) fn rebuild_old_ref(&mut self) {
        if self.old_ref.is_empty() {
            return;
        }
        self.old_ref.fill(NONE);
        for (i, e) in self.log.iter().enumerate() {
            if !e.moved() && e.old != NONE && self.death[e.old as usize] == e.gt {
                self.old_ref[e.old as usize] = (self.log_base + i) as u32;
            }
        }
    }

    /// Recovery: the entry that invalidated the data (sector, born at `birth`) is the
    /// sector's first host-write entry after `birth` — the data was current until then.
    pub(super) fn death_entry(log: &[LogEntry], by_sector: &[Vec<u32>], sector: Lpn, birth: u32) -> Option<usize> {
        let list = by_sector.get(sector as usize)?;
        let k = list.partition_point(|&i| log[i as usize].gt <= birth);
        list.get(k).map(|&i| i as usize)
    }

    pub(super) fn free_log_blocks_excluding(&self, old_chain: &[Pbn]) -> Vec<Pbn> {
        let mut v: Vec<Pbn> = self.log_section.iter().copied().filter(|b| !old_chain.contains(b)).collect();
        v.sort_by_key(|&b| b);
        v
    }
}
