//! LTFTL's time shift: a released frozen state, and revert (the forward map rebuilt from a frozen state).

use super::*;

impl LtFtl {
    /// Unfreeze (section 4): the state's retractable pages become invalid (they are no
    /// longer needed by the birth/death rule), the record is rewritten, and log entries
    /// nothing needs any more are dropped at the next dump.
    pub(super) fn release(&mut self, flash: &mut Flash, id: u32, why: &str, persist: bool) -> FlashResult<()> {
        self.states.retain(|s| s.id != id);
        self.sync_state_arrays();
        self.recount_retractable(flash);
        self.released_states += 1;
        flash.note("unfreeze", || format!("state {id} released automatically: {why}"));
        if persist {
            self.write_meta(flash, false, Cause::Log)?;
        }
        Ok(())
    }

    pub(super) fn do_revert(&mut self, flash: &mut Flash, id: u32, cause: Cause) -> FlashResult<Result<(), String>> {
        let Some(s) = self.states.iter().copied().find(|s| s.id == id) else {
            return Ok(Err(format!("no frozen state {id}")));
        };
        // (1) the up-to-date map is in RAM; charge reading the log pages undone.
        // Entries before `log_base` were flushed while no state was frozen: all before
        // this state's epoch.
        let first_undone = self.log_base + self.log.iter().position(|e| e.gt >= s.epoch).unwrap_or(self.log.len());
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
                self.count_valid(cur, false);
                // Written after the epoch and undone: no state can need it again.
                self.death[cur as usize] = self.birth(flash, cur);
            }
            self.fwd[sector as usize] = old;
            if old != NONE {
                self.count_valid(old, true);
                self.death[old as usize] = NONE;
            }
        }
        // Time shift is linear: states frozen after this one are dropped with the
        // history they need.
        self.states.retain(|t| t.epoch <= s.epoch);
        self.recount_retractable(flash);
        let keep = self.log.iter().position(|e| e.gt >= s.epoch).unwrap_or(self.log.len());
        self.log.truncate(keep);
        self.flushed = self.flushed.min(keep);
        self.dump(flash, cause)?;
        Ok(Ok(()))
    }
}
