//! KRAFT's panels for the app: block map, log blocks with their associations and relative addresses.

use super::*;

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

    pub(super) fn panel_tables(&self, _flash: &Flash) -> Vec<Table> {
        let n = self.ppb;
        let mut out = Vec::new();
        out.push(Table {
            title: format!("Log blocks (K = {}, {} log blocks)", self.k, self.logs.len()),
            columns: ["log", "pbn", "associativity", "LBN[0..K)", "serial", "top", "last used"]
                .iter()
                .map(|s| s.to_string())
                .collect(),
            rows: self
                .logs
                .iter()
                .enumerate()
                .map(|(i, l)| {
                    vec![
                        i.to_string(),
                        l.pbn.to_string(),
                        l.associativity().to_string(),
                        if l.is_free() {
                            "free".into()
                        } else {
                            l.lbns.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
                        },
                        if l.is_free() {
                            "-".into()
                        } else if l.serial {
                            "yes".into()
                        } else {
                            "no".into()
                        },
                        l.top.to_string(),
                        l.last_used.to_string(),
                    ]
                })
                .collect(),
        });
        // Figure 2/3: the relative-addressing table of each used log block, with the
        // worked computation LSN = LBN[RI[PSN]]·N + RLSN[PSN]. KRAFT's technique only:
        // KAST has no relative addressing (issue 25).
        let relative = if self.variant == Variant::Kraft { 16 } else { 0 };
        for (i, l) in self.logs.iter().enumerate().filter(|(_, l)| !l.is_free()).take(relative) {
            let rows = (0..l.top)
                .map(|p| {
                    let psn = l.pbn * n + p;
                    match l.lsn(p, n) {
                        None => {
                            vec![psn.to_string(), p.to_string(), "-".into(), "-".into(), "-".into(), "(skipped)".into()]
                        }
                        Some(lsn) => {
                            let ri = l.ri[p as usize];
                            let lbn = l.lbns[ri as usize];
                            let r = l.rlsn[p as usize];
                            vec![
                                psn.to_string(),
                                p.to_string(),
                                ri.to_string(),
                                lbn.to_string(),
                                r.to_string(),
                                format!("{lbn}·{n} + {r} = {lsn}"),
                            ]
                        }
                    }
                })
                .collect();
            out.push(Table {
                title: format!(
                    "Relative addressing, log block {i} (pbn {}): LBN[] = [{}]",
                    l.pbn,
                    l.lbns.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(", ")
                ),
                columns: ["PSN", "page", "RI", "LBN[RI]", "RLSN", "LSN = LBN[RI]·N + RLSN"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                rows,
            });
        }
        out.push(Table {
            title: format!("Block map (data blocks){}", if self.data.len() > 256 { " — first 256 LBNs" } else { "" }),
            columns: vec!["lbn".into(), "data pbn".into(), "log".into()],
            rows: (0..self.logical_blocks.min(256))
                .map(|lbn| {
                    vec![
                        lbn.to_string(),
                        self.data_block(lbn).map(|p| p.to_string()).unwrap_or("-".into()),
                        self.associated_log(lbn).map(|l| l.to_string()).unwrap_or("-".into()),
                    ]
                })
                .collect(),
        });
        let g = self.map_geometry();
        let c = g.compare(self.logs.len() as u64, self.table_k());
        out.push(Table {
            title: "Mapping RAM by the KRAFT paper's bit widths (2-B)".into(),
            columns: vec!["".into(), "FAST / KAST".into(), "KRAFT".into()],
            rows: vec![
                vec![
                    "bits per log block".into(),
                    format!("{} (PBN {} + {}×LSN {})", c.fast_log_bits_per_block, c.pbn_bits, n, c.lsn_bits),
                    format!(
                        "{} (PBN {} + {}×LBN {} + {}×(RI {} + RLSN {}))",
                        c.kraft_log_bits_per_block,
                        c.pbn_bits,
                        self.table_k(),
                        c.lbn_bits,
                        n,
                        c.ri_bits,
                        c.rlsn_bits
                    ),
                ],
                vec![
                    format!("RAM with {} log blocks (bytes)", c.fast_log_blocks),
                    c.fast_bytes.to_string(),
                    c.kraft_bytes_same_log_blocks.to_string(),
                ],
                vec![
                    "log blocks within FAST's RAM".into(),
                    c.fast_log_blocks.to_string(),
                    c.kraft_log_blocks.to_string(),
                ],
            ],
        });
        out
    }
}
