//! Mapping RAM of the log-block schemes by the KRAFT paper's bit widths (KRAFT section 2-B,
//! Figure 2), as pure functions of the configuration so every scheme (FAST, KAST, KRAFT)
//! and the CLI's `ftl ram` compute it the same way.
//!
//! Both schemes keep the same block-level map of data blocks (one PBN per logical block)
//! and one PBN per log block. They differ in the log mapping (2-B):
//! - FAST (and KAST, which keeps FAST's absolute addressing): every log page holds an
//!   absolute logical sector number: `N × bits(LSN)` per log block.
//! - KRAFT: `K` LBN slots per log block plus, per page, a reference index RI (0..K-1) and a
//!   relative sector number RLSN (0..N-1): `K × bits(LBN) + N × (bits(K) + bits(N))`.
//!
//! - BAST: a log block serves one logical block: `bits(LBN) + N × bits(N)` (offsets).
//! - FAST's own SW log (FAST section 3.2) needs only its owner and a count; the scheme's
//!   `ram_bytes` uses `fast_scheme_bits`, the KRAFT paper's comparison `fast_bits`.
//!
//! Every log-block scheme (BAST, FAST, O-FAST, KAST, KRAFT) reports its `ram_bytes` from
//! these functions; the real-time schemes (RFTL, GFTL, NFTL) keep the RFTL paper's own
//! byte accounting (section 5.3) so their figures compare with its 16 KB / 195 KB; page
//! mapping and LTFTL charge 4 B per logical page (docs/schemes/ram.md).
//!
//! "Sector" is a page here, as in the paper's Figure 2 (N = pages per block).

use serde::Serialize;

/// Bits needed to store the values 0..n-1 (at least 1).
pub fn bits_for(n: u64) -> u32 {
    if n <= 2 {
        1
    } else {
        64 - (n - 1).leading_zeros()
    }
}

/// The configuration the bit widths depend on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MapGeometry {
    /// Physical blocks (the range of a PBN).
    pub physical_blocks: u64,
    /// Logical blocks (entries of the block map; the range of an LBN).
    pub logical_blocks: u64,
    /// N: pages (sectors) per block.
    pub pages_per_block: u64,
}

impl MapGeometry {
    /// A device of `capacity_bytes` with `page_bytes` pages, `pages_per_block` per block;
    /// logical blocks = physical blocks (the few log blocks do not change any bit width).
    pub fn from_capacity(capacity_bytes: u64, page_bytes: u64, pages_per_block: u64) -> Result<MapGeometry, String> {
        if page_bytes == 0 || pages_per_block == 0 {
            return Err("page size and pages per block must be positive".into());
        }
        let block_bytes = page_bytes * pages_per_block;
        let blocks = capacity_bytes / block_bytes;
        if blocks == 0 {
            return Err(format!("capacity {capacity_bytes} B is smaller than one block ({block_bytes} B)"));
        }
        Ok(MapGeometry { physical_blocks: blocks, logical_blocks: blocks, pages_per_block })
    }

    pub fn pbn_bits(&self) -> u32 {
        bits_for(self.physical_blocks)
    }
    pub fn lbn_bits(&self) -> u32 {
        bits_for(self.logical_blocks)
    }
    /// An absolute logical sector (page) number.
    pub fn lsn_bits(&self) -> u32 {
        bits_for(self.logical_blocks * self.pages_per_block)
    }
    /// RLSN: 0..N-1 (2-B).
    pub fn rlsn_bits(&self) -> u32 {
        bits_for(self.pages_per_block)
    }
    /// RI: 0..K-1 (2-B).
    pub fn ri_bits(&self, k: u32) -> u32 {
        bits_for(k.max(1) as u64)
    }

    /// The block map of data blocks: one PBN per logical block (same for FAST and KRAFT).
    pub fn block_map_bits(&self) -> u64 {
        self.logical_blocks * self.pbn_bits() as u64
    }
    /// One FAST log block: its PBN plus an absolute LSN per page.
    pub fn fast_log_bits_per_block(&self) -> u64 {
        self.pbn_bits() as u64 + self.pages_per_block * self.lsn_bits() as u64
    }
    /// One KRAFT log block: its PBN, K LBN slots, and RI + RLSN per page (Figure 2).
    pub fn kraft_log_bits_per_block(&self, k: u32) -> u64 {
        self.pbn_bits() as u64
            + k as u64 * self.lbn_bits() as u64
            + self.pages_per_block * (self.ri_bits(k) + self.rlsn_bits()) as u64
    }
    /// FAST's SW log block (FAST section 3.2: "which logical block the current log block
    /// corresponds to, and how many sectors are currently stored in the log block"): its
    /// PBN, the owner LBN and a count 0..=N.
    pub fn fast_sw_log_bits(&self) -> u64 {
        self.pbn_bits() as u64 + self.lbn_bits() as u64 + bits_for(self.pages_per_block + 1) as u64
    }
    /// FAST as the scheme keeps it (section 3.2): one SW log block charged owner + count,
    /// `log_blocks - 1` RW log blocks with an absolute LSN per page, in bits. (The KRAFT
    /// paper's comparison, `fast_bits`, charges every log block a full page table.)
    pub fn fast_scheme_bits(&self, log_blocks: u64) -> u64 {
        let rw = log_blocks.saturating_sub(1);
        self.block_map_bits() + rw * self.fast_log_bits_per_block() + log_blocks.min(1) * self.fast_sw_log_bits()
    }
    /// One BAST log block: its PBN, the LBN it is dedicated to, and per page the offset
    /// (0..N-1) of the sector it holds: the sector-level table of BAST's Figure 2, which
    /// needs no absolute LSN because the log block serves one logical block (KRAFT's
    /// relative addressing with K = 1 and no RI).
    pub fn bast_log_bits_per_block(&self) -> u64 {
        self.pbn_bits() as u64 + self.lbn_bits() as u64 + self.pages_per_block * self.rlsn_bits() as u64
    }
    /// Whole mapping RAM of BAST with `log_blocks` log blocks, in bits.
    pub fn bast_bits(&self, log_blocks: u64) -> u64 {
        self.block_map_bits() + log_blocks * self.bast_log_bits_per_block()
    }
    /// Whole mapping RAM of FAST (or KAST) with `log_blocks` log blocks, in bits.
    pub fn fast_bits(&self, log_blocks: u64) -> u64 {
        self.block_map_bits() + log_blocks * self.fast_log_bits_per_block()
    }
    /// Whole mapping RAM of KRAFT with `log_blocks` log blocks of associativity `k`, in bits.
    pub fn kraft_bits(&self, log_blocks: u64, k: u32) -> u64 {
        self.block_map_bits() + log_blocks * self.kraft_log_bits_per_block(k)
    }
    /// With the RAM FAST needs for `fast_log_blocks` log blocks, how many log blocks KRAFT
    /// affords (section 3: 128 for FAST, 256 for KRAFT). The block map is the same in
    /// both, so this is the FAST log-map RAM divided by one KRAFT log block's RAM.
    pub fn kraft_log_blocks_for_fast_ram(&self, fast_log_blocks: u64, k: u32) -> u64 {
        fast_log_blocks * self.fast_log_bits_per_block() / self.kraft_log_bits_per_block(k)
    }

    /// Everything the UI's RAM panel and `ftl ram` print.
    pub fn compare(&self, fast_log_blocks: u64, k: u32) -> RamComparison {
        let kraft_logs = self.kraft_log_blocks_for_fast_ram(fast_log_blocks, k);
        RamComparison {
            geometry: *self,
            k,
            pbn_bits: self.pbn_bits(),
            lbn_bits: self.lbn_bits(),
            lsn_bits: self.lsn_bits(),
            ri_bits: self.ri_bits(k),
            rlsn_bits: self.rlsn_bits(),
            block_map_bytes: bytes(self.block_map_bits()),
            fast_log_bits_per_block: self.fast_log_bits_per_block(),
            kraft_log_bits_per_block: self.kraft_log_bits_per_block(k),
            fast_log_blocks,
            fast_bytes: bytes(self.fast_bits(fast_log_blocks)),
            kraft_bytes_same_log_blocks: bytes(self.kraft_bits(fast_log_blocks, k)),
            kraft_log_blocks: kraft_logs,
            kraft_bytes: bytes(self.kraft_bits(kraft_logs, k)),
        }
    }
}

/// Bits to whole bytes.
pub fn bytes(bits: u64) -> u64 {
    bits.div_ceil(8)
}

/// FAST vs KRAFT mapping RAM (`ftl ram --json`; docs/cli.md).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RamComparison {
    pub geometry: MapGeometry,
    pub k: u32,
    pub pbn_bits: u32,
    pub lbn_bits: u32,
    pub lsn_bits: u32,
    pub ri_bits: u32,
    pub rlsn_bits: u32,
    pub block_map_bytes: u64,
    pub fast_log_bits_per_block: u64,
    pub kraft_log_bits_per_block: u64,
    pub fast_log_blocks: u64,
    /// FAST's whole mapping RAM (block map + log map) with `fast_log_blocks`.
    pub fast_bytes: u64,
    /// KRAFT's with the same number of log blocks.
    pub kraft_bytes_same_log_blocks: u64,
    /// Log blocks KRAFT affords within FAST's RAM.
    pub kraft_log_blocks: u64,
    /// KRAFT's whole mapping RAM with `kraft_log_blocks` (≤ fast_bytes).
    pub kraft_bytes: u64,
}

/// "64GB", "512MB", "16KiB", "4096": binary units (1 GB = 2^30 bytes).
pub fn parse_capacity(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let split = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let n: u64 =
        num.parse().map_err(|_| format!("capacity '{s}': expected a number with an optional unit (KB, MB, GB, TB)"))?;
    let mult: u64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        "T" | "TB" | "TIB" => 1 << 40,
        other => return Err(format!("capacity '{s}': unknown unit '{other}' (KB, MB, GB, TB)")),
    };
    n.checked_mul(mult).ok_or_else(|| format!("capacity '{s}' is too large"))
}
