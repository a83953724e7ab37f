//! LTFTL's panels for the app: sections, frozen states, the intent log.

use super::*;

impl LtFtl {
    pub(super) fn panel_tables(&self, _flash: &Flash) -> Vec<Table> {
        let states = self
            .states
            .iter()
            .map(|s| {
                let pinned = (0..self.pages).filter(|&p| self.owner[p as usize] == NONE && self.pins(s, p)).count();
                vec![s.id.to_string(), format!("S{}", s.epoch), pinned.to_string()]
            })
            .collect();
        let entry_row = |i: usize, e: &LogEntry| {
            let pg = |p: Ppn| if p == NONE { "φ".to_string() } else { p.to_string() };
            vec![
                i.to_string(),
                if e.moved { "gc move".into() } else { "write".into() },
                e.sector.to_string(),
                pg(e.old),
                pg(e.new),
                e.gt.to_string(),
            ]
        };
        let cols = || ["#", "kind", "sector", "old page", "new page", "global_time"].map(String::from).to_vec();
        let start = self.flushed.saturating_sub(64);
        let log_rows = (start..self.flushed).map(|i| entry_row(i, &self.log[i])).collect();
        let buf_rows = (self.flushed..self.log.len()).map(|i| entry_row(i, &self.log[i])).collect();
        let shares = self.space_shares();
        let pct = |v: f64| format!("{:.1}%", v * 100.0);
        let [meta, map, data, log] = self.sections();
        let list = |v: &[Pbn]| v.iter().map(|b| b.to_string()).collect::<Vec<_>>().join(" ");
        // What reverting to each state would change (equation 1), newest state first.
        let mut diff_rows = Vec::new();
        for st in self.states.iter().rev() {
            for (sector, old) in self.undo_targets(st.epoch) {
                if diff_rows.len() >= 128 {
                    break;
                }
                let pg = |p: Ppn| if p == NONE { "-".to_string() } else { p.to_string() };
                diff_rows.push(vec![st.id.to_string(), sector.to_string(), pg(self.fwd[sector as usize]), pg(old)]);
            }
        }
        vec![
            Table {
                title: "Frozen states (time shift)".into(),
                columns: vec!["id".into(), "epoch".into(), "pages pinned (retractable)".into()],
                rows: states,
            },
            Table {
                title: format!("Intent log in the log section{}", if start > 0 { " — last 64 entries" } else { "" }),
                columns: cols(),
                rows: log_rows,
            },
            Table { title: "Log buffer (RAM, one page)".into(), columns: cols(), rows: buf_rows },
            Table {
                title: "Revert diff: sectors a revert would change (first 128)".into(),
                columns: vec!["state".into(), "sector".into(), "page now".into(), "page after revert".into()],
                rows: diff_rows,
            },
            Table {
                title: "Sections (Figure 5) and space (Figure 8)".into(),
                columns: vec!["section".into(), "blocks".into()],
                rows: vec![
                    vec!["metadata".into(), list(&meta)],
                    vec!["mapping".into(), list(&map)],
                    vec!["data".into(), format!("{} blocks", data.len())],
                    vec!["log".into(), list(&log)],
                    vec![
                        "valid / invalid / retractable".into(),
                        format!("{} / {} / {}", pct(shares.valid), pct(shares.invalid), pct(shares.retractable)),
                    ],
                    vec![
                        "log / map / metadata / free".into(),
                        format!(
                            "{} / {} / {} / {}",
                            pct(shares.log),
                            pct(shares.map),
                            pct(shares.meta),
                            pct(shares.free)
                        ),
                    ],
                ],
            },
        ]
    }
}
