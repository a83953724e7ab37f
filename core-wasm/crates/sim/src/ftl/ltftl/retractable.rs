//! LTFTL's retractable pages (Figure 3, equation 2): a page's birth read from its spare
//! area, its death, the per-page flags GC reads and their check.

use super::*;

impl LtFtl {
    /// Global time a data page was written: the `global_time` its spare area holds
    /// (section 4 piggybacks ⟨sector, global_time⟩ on each write; a GC copy keeps its
    /// original's), NONE for a page holding no LTFTL data (erased, torn, metadata).
    pub(super) fn birth(&self, flash: &Flash, ppn: Ppn) -> u32 {
        let p = flash.peek(ppn);
        let data = p.kind == PageKind::Data && (p.tag == TAG_DATA || p.tag == TAG_GC_COPY);
        if data && p.lpn < self.logical_pages {
            p.seq
        } else {
            NONE
        }
    }

    /// A page is retractable when no longer current but held by a frozen state's
    /// image: born before the state's epoch, invalidated at or after it (equation 2).
    pub(super) fn needed_by_state(&self, flash: &Flash, ppn: Ppn) -> bool {
        if self.states.is_empty() {
            return false;
        }
        let d = self.death[ppn as usize];
        if d == NONE {
            return false;
        }
        let b = self.birth(flash, ppn);
        b != NONE && self.states.iter().any(|s| b < s.epoch && s.epoch <= d)
    }

    pub(super) fn pins(&self, flash: &Flash, s: &FrozenState, ppn: Ppn) -> bool {
        let d = self.death[ppn as usize];
        let b = if d == NONE { NONE } else { self.birth(flash, ppn) };
        d != NONE && b != NONE && b < s.epoch && s.epoch <= d
    }

    /// `death` and `old_ref` exist while a state is frozen (see there): allocated at the
    /// first freeze, freed when the last state goes.
    pub(super) fn sync_state_arrays(&mut self) {
        if self.states.is_empty() {
            self.death = Vec::new();
            self.old_ref = Vec::new();
        } else if self.death.is_empty() {
            self.death = vec![NONE; self.pages as usize];
            self.old_ref = vec![NONE; self.pages as usize];
        }
    }

    /// Recomputes every page's retractable flag (after unfreeze, revert, recovery).
    pub(super) fn recount_retractable(&mut self, flash: &Flash) {
        for p in 0..self.pages {
            let on = !self.is_valid(flash, p) && self.needed_by_state(flash, p);
            self.set_retr(p, on);
        }
    }

    /// Checks the per-block counters against the definitions (tests).
    pub fn check_counters(&self, flash: &Flash) -> Result<(), String> {
        for b in 0..self.section.len() as u32 {
            let pages = b * self.ppb..(b + 1) * self.ppb;
            let valid = pages.clone().filter(|&p| self.is_valid(flash, p)).count() as u32;
            let retr = pages.clone().filter(|&p| !self.is_valid(flash, p) && self.needed_by_state(flash, p)).count() as u32;
            if valid != self.valid_cnt[b as usize] || retr != self.retr_cnt[b as usize] {
                return Err(format!(
                    "block {b}: valid {valid} (counter {}), retractable {retr} (counter {})",
                    self.valid_cnt[b as usize], self.retr_cnt[b as usize]
                ));
            }
            if pages
                .clone()
                .any(|p| self.retr[p as usize] != (!self.is_valid(flash, p) && self.needed_by_state(flash, p)))
            {
                return Err(format!("block {b}: a retractable flag is stale"));
            }
        }
        // What a map dump writes (from `fwd`) is what the pages say.
        if self.inverted_table().concat() != self.inverted_table_by_scan(flash) {
            return Err("the inverted table from the forward map differs from the page scan".into());
        }
        Ok(())
    }
}
