//! LTFTL's metadata section: the alternating meta pages (mounted flag, the committed dump, global time) and a clean shutdown.

use super::*;

impl LtFtl {
    /// Writes a metadata record (clean flag, states, dump and chain locations) to the
    /// metadata section, alternating between its two blocks.
    pub(super) fn write_meta(&mut self, flash: &mut Flash, clean: bool, cause: Cause) -> FlashResult<()> {
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
    pub(super) fn ensure_mounted(&mut self, flash: &mut Flash) -> FlashResult<()> {
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
}
