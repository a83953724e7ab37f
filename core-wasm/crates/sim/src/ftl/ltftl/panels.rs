//! LTFTL's panels for the app: sections, frozen states, the intent log.

use super::*;
use crate::ftl::panel::{some, FrozenStateRow, IntentEntry, RevertRow, Sections};
use crate::ftl::PanelData;

impl LtFtl {
    pub(super) fn scheme_panels(&self, flash: &Flash) -> Vec<Panel> {
        let states = self
            .states
            .iter()
            .map(|s| FrozenStateRow {
                id: s.id,
                epoch: s.epoch,
                pinned: (0..self.pages).filter(|&p| !self.is_valid(flash, p) && self.pins(flash, s, p)).count()
                    as u32,
            })
            .collect();
        let entry = |(i, e): (usize, LogEntry)| {
            IntentEntry {
                n: i as u32,
                moved: e.moved(),
                sector: e.sector(),
                old: some(e.old),
                new: some(e.new),
                global_time: e.gt,
            }
        };
        let flushed = self.log_base + self.flushed;
        let start = flushed.saturating_sub(64);
        let in_flash = self.logged(flash, start..flushed).into_iter().map(entry).collect();
        let in_ram = self.logged(flash, flushed..self.log_len()).into_iter().map(entry).collect();
        let [meta, map, data, log] = self.sections();
        // What reverting to each state would change (equation 1), newest state first.
        let mut diff = Vec::new();
        for st in self.states.iter().rev() {
            for (sector, old) in self.undo_targets(st.epoch) {
                if diff.len() >= 128 {
                    break;
                }
                diff.push(RevertRow { state: st.id, sector, now: some(self.fwd[sector as usize]), after: some(old) });
            }
        }
        vec![
            Panel::new("Frozen states (time shift)", PanelData::FrozenStates { states }),
            Panel::new(
                format!("Intent log in the log section{}", if start > 0 { " — last 64 entries" } else { "" }),
                PanelData::IntentLog { first: start as u32, entries: in_flash },
            ),
            Panel::new("Log buffer (RAM, one page)", PanelData::LogBuffer { entries: in_ram }),
            Panel::new("Revert diff: sectors a revert would change (first 128)", PanelData::RevertDiff { rows: diff }),
            Panel::new(
                "Sections (Figure 5) and space (Figure 8)",
                PanelData::Sections(Sections {
                    metadata: meta,
                    mapping: map,
                    data_blocks: data.len() as u32,
                    log,
                    shares: self.space_shares(),
                }),
            ),
        ]
    }
}
