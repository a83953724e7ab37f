//! A copy of the chip made in parts (a step back's state made while the app is idle, issue
//! 37 item 3): the copy of a chip of millions of pages is one long task otherwise.

use super::Flash;

impl Flash {
    /// A copy of this chip but for its pages, which `copy_pages` then copies in parts: a
    /// copy of a chip of millions of pages is one long task otherwise (a step back's state
    /// made while the app is idle, issue 37 item 3). Every field is named, so a new one
    /// must be copied here too.
    pub fn clone_but_pages(&self) -> Flash {
        Flash {
            chip: self.chip.clone(),
            pages: Vec::with_capacity(self.pages.len()),
            write_ptr: self.write_ptr.clone(),
            erase_counts: self.erase_counts.clone(),
            payloads: self.payloads.clone(),
            counts: self.counts,
            elapsed_ns: self.elapsed_ns,
            time_by_cause: self.time_by_cause,
            counters: self.counters.clone(),
            cleaned: self.cleaned,
            pending: self.pending.clone(),
            power_budget: self.power_budget,
            power_lost: self.power_lost,
            torn_model: self.torn_model,
            pause: self.pause,
            recording: self.recording,
            events: self.events.clone(),
            blocks_of: self.blocks_of,
            plain: self.plain,
        }
    }

    /// Copies up to `n` more of `from`'s pages onto a copy made by `clone_but_pages` of a
    /// chip with `from`'s contents; true once all of them are.
    pub fn copy_pages(&mut self, from: &Flash, n: usize) -> bool {
        let at = self.pages.len();
        let end = at.saturating_add(n).min(from.pages.len());
        self.pages.extend_from_slice(&from.pages[at..end]);
        end == from.pages.len()
    }
}
