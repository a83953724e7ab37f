//! KRAFT's panels for the app: block map, log blocks with their associations and relative addresses.

use super::*;
use crate::ftl::panel::{first_rows, AssociativeLog, DataAndLogEntry, MappingRam, RelativeRow, PANEL_ROWS};
use crate::ftl::PanelData;

impl Kraft {
    /// K as the RAM table needs it: a log block of N pages never holds more than N
    /// logical blocks, so slots beyond N would be unused.
    pub(super) fn table_k(&self) -> u32 {
        self.k.min(self.ppb)
    }

    pub(super) fn map_geometry(&self) -> MapGeometry {
        MapGeometry {
            physical_blocks: self.blocks as u64,
            logical_blocks: self.logical_blocks as u64,
            pages_per_block: self.ppb as u64,
        }
    }

    pub(super) fn scheme_panels(&self) -> Vec<Panel> {
        let n = self.ppb;
        let mut out = Vec::new();
        let log_blocks = self
            .logs
            .iter()
            .enumerate()
            .map(|(i, l)| AssociativeLog {
                slot: i as u32,
                pbn: l.pbn,
                associativity: l.associativity() as u32,
                lbns: if l.is_free() { Vec::new() } else { l.lbns.clone() },
                free: l.is_free(),
                serial: (!l.is_free()).then_some(l.serial),
                top: l.top,
                last_used: l.last_used,
            })
            .collect();
        out.push(Panel::new(
            format!("Log blocks (K = {}, {} log blocks)", self.k, self.logs.len()),
            PanelData::AssociativeLogBlocks { k: self.k, log_blocks },
        ));
        // Figure 2/3: the relative-addressing table of each used log block, with the
        // worked computation LSN = LBN[RI[PSN]]·N + RLSN[PSN]. KRAFT's technique only:
        // KAST has no relative addressing (issue 25).
        let relative = if self.variant == Variant::Kraft { 16 } else { 0 };
        for (i, l) in self.logs.iter().enumerate().filter(|(_, l)| !l.is_free()).take(relative) {
            let rows = (0..l.top)
                .map(|p| {
                    let psn = l.pbn * n + p;
                    let skipped = RelativeRow { psn, page: p, ri: None, lbn: None, rlsn: None, lsn: None };
                    l.lsn(p, n).map_or(skipped, |lsn| {
                        let ri = l.ri[p as usize] as u32;
                        RelativeRow {
                            ri: Some(ri),
                            lbn: Some(l.lbns[ri as usize]),
                            rlsn: Some(l.rlsn[p as usize] as u32),
                            lsn: Some(lsn),
                            ..skipped
                        }
                    })
                })
                .collect();
            out.push(Panel::new(
                format!(
                    "Relative addressing, log block {i} (pbn {}): LBN[] = [{}]",
                    l.pbn,
                    l.lbns.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                ),
                PanelData::RelativeAddressing {
                    slot: i as u32,
                    pbn: l.pbn,
                    pages_per_block: n,
                    lbns: l.lbns.clone(),
                    rows,
                },
            ));
        }
        let entries = (0..self.logical_blocks.min(PANEL_ROWS as u32))
            .map(|lbn| DataAndLogEntry {
                lbn,
                data: self.data_block(lbn),
                log: self.associated_log(lbn).map(|l| l as u32),
            })
            .collect();
        out.push(Panel::new(
            format!("Block map (data blocks){}", first_rows(self.data.len(), "LBNs")),
            PanelData::DataAndLogMap { entries },
        ));
        let c = self.map_geometry().compare(self.logs.len() as u64, self.table_k());
        out.push(Panel::new(
            "Mapping RAM by the KRAFT paper's bit widths (2-B)",
            PanelData::MappingRam(MappingRam {
                pages_per_block: n,
                k: self.table_k(),
                pbn_bits: c.pbn_bits,
                lbn_bits: c.lbn_bits,
                lsn_bits: c.lsn_bits,
                ri_bits: c.ri_bits,
                rlsn_bits: c.rlsn_bits,
                fast_log_bits_per_block: c.fast_log_bits_per_block,
                kraft_log_bits_per_block: c.kraft_log_bits_per_block,
                fast_log_blocks: c.fast_log_blocks,
                fast_bytes: c.fast_bytes,
                kraft_bytes_same_log_blocks: c.kraft_bytes_same_log_blocks,
                kraft_log_blocks: c.kraft_log_blocks,
            }),
        ));
        out
    }
}
