//! What the app shows for DFTL, as plain tables (no panel kind fits a cache): the CMT's
//! entries in replacement order, the address-translation counters, and the GTD.

use super::Dftl;
use crate::ftl::panel::{first_rows, Cell, Panel, PanelData, PANEL_ROWS};
use crate::nand::NONE;

fn num(x: impl Into<f64>) -> Cell {
    Cell::Number(x.into())
}
fn text(s: &str) -> Cell {
    Cell::Text(s.into())
}

impl Dftl {
    pub(super) fn panel_list(&self) -> Vec<Panel> {
        let ppb = self.ppb;
        let entries = self.cmt.entries();
        let cmt_rows = entries
            .iter()
            .take(PANEL_ROWS)
            .map(|e| {
                let (blk, page) = if e.ppn == NONE { (text("—"), text("—")) } else { (num(e.ppn / ppb), num(e.ppn % ppb)) };
                vec![
                    num(e.lpn),
                    num(e.lpn / self.per_page),
                    blk,
                    page,
                    text(if e.dirty { "dirty" } else { "clean" }),
                    text(if e.protected { "protected" } else { "probationary" }),
                ]
            })
            .collect();
        let s = &self.stats;
        let lookups = s.cmt_hits + s.cmt_misses;
        let ratio = if lookups == 0 { 0.0 } else { (s.cmt_hits as f64 / lookups as f64 * 1000.0).round() / 1000.0 };
        let counters = vec![
            vec![text("CMT hits"), num(s.cmt_hits as f64)],
            vec![text("CMT misses"), num(s.cmt_misses as f64)],
            vec![text("hit ratio"), num(ratio)],
            vec![text("translation page reads"), num(s.translation_reads() as f64)],
            vec![text("  on a miss"), num(s.translation_reads_miss as f64)],
            vec![text("  before a write-back"), num(s.translation_reads_update as f64)],
            vec![text("  by GC batch updates"), num(s.translation_reads_gc as f64)],
            vec![text("translation page writes"), num(s.translation_writes() as f64)],
            vec![text("  evictions (batch)"), num(s.translation_writes_evict as f64)],
            vec![text("  GC batch updates"), num(s.translation_writes_gc as f64)],
            vec![text("translation blocks collected"), num(s.translation_gc_runs as f64)],
        ];
        let gtd_rows = self
            .gtd
            .iter()
            .enumerate()
            .take(PANEL_ROWS)
            .map(|(t, &p)| {
                let lo = t as u32 * self.per_page;
                let hi = (lo + self.per_page).min(self.logical_pages) - 1;
                let (blk, page) = if p == NONE { (text("not written"), text("—")) } else { (num(p / ppb), num(p % ppb)) };
                vec![num(t as u32), text(&format!("{lo}–{hi}")), blk, page]
            })
            .collect();
        let cols = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        vec![
            Panel::new(
                format!(
                    "CMT (cached mapping table, RAM): {} of {} entries, {} dirty — victim last{}",
                    entries.len(),
                    self.cmt.capacity(),
                    self.cmt.dirty_count(),
                    first_rows(entries.len(), "entries")
                ),
                PanelData::Table {
                    columns: cols(&["LPN", "translation page", "block", "page", "state", "segment"]),
                    rows: cmt_rows,
                },
            ),
            Panel::new(
                "Address translation (DFTL)",
                PanelData::Table { columns: cols(&["counter", "count"]), rows: counters },
            ),
            Panel::new(
                format!(
                    "GTD (global translation directory, RAM): {} translation pages of {} entries{}",
                    self.gtd.len(),
                    self.per_page,
                    first_rows(self.gtd.len(), "translation pages")
                ),
                PanelData::Table { columns: cols(&["translation page", "LPNs", "block", "page"]), rows: gtd_rows },
            ),
        ]
    }
}
