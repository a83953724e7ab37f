//! Chip geometry and timing, with the presets the papers use.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Physical shape of the chip. Pages are addressed as `ppn = pbn * pages_per_block + page`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Geometry {
    pub blocks: u32,
    pub pages_per_block: u32,
    /// Data area of a page (a "sector" in the FAST paper), in bytes.
    pub page_bytes: u32,
    /// Spare (OOB) area of a page, in bytes.
    pub spare_bytes: u32,
}

/// `BlockSplit::shift` when pages per block is not a power of two.
const NO_SHIFT: u32 = u32::MAX;

/// A page's block and offset in it by a shift and a mask when pages per block is a power of
/// two (every preset), by a division otherwise, with that choice made once per chip
/// (`Geometry::block_split`): working it out per page was 14 instructions of a page-mapping
/// host write (issue 37).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlockSplit {
    ppb: u32,
    shift: u32,
}

impl BlockSplit {
    #[inline]
    pub fn pbn(self, ppn: u32) -> u32 {
        if self.shift != NO_SHIFT {
            ppn >> self.shift
        } else {
            ppn / self.ppb
        }
    }
    #[inline]
    pub fn offset(self, ppn: u32) -> u32 {
        if self.shift != NO_SHIFT {
            ppn & (self.ppb - 1)
        } else {
            ppn % self.ppb
        }
    }
}

impl Geometry {
    pub fn pages(&self) -> u32 {
        self.blocks * self.pages_per_block
    }
    pub fn ppn(&self, pbn: u32, page: u32) -> u32 {
        pbn * self.pages_per_block + page
    }
    /// Block of a page: a shift when pages per block is a power of two (every preset),
    /// not a division per flash operation.
    #[inline]
    pub fn pbn_of(&self, ppn: u32) -> u32 {
        self.block_split().pbn(ppn)
    }
    /// Offset of a page in its block (a mask for a power-of-two block).
    #[inline]
    pub fn offset_of(&self, ppn: u32) -> u32 {
        self.block_split().offset(ppn)
    }
    /// `pbn_of` and `offset_of` with the shift worked out once, for a hot path to keep.
    #[inline]
    pub fn block_split(&self) -> BlockSplit {
        let ppb = self.pages_per_block;
        BlockSplit { ppb, shift: if ppb.is_power_of_two() { ppb.trailing_zeros() } else { NO_SHIFT } }
    }
    pub fn validate(&self) -> Result<(), String> {
        if self.blocks < 2 {
            return Err(format!("a chip needs at least 2 blocks (got {})", self.blocks));
        }
        if self.pages_per_block < 1 || self.pages_per_block > 4096 {
            return Err(format!("pages per block must be 1..=4096 (got {})", self.pages_per_block));
        }
        if (self.blocks as u64) * (self.pages_per_block as u64) > 1 << 26 {
            return Err(format!(
                "chip too large: {} blocks x {} pages exceeds 64 M pages",
                self.blocks, self.pages_per_block
            ));
        }
        Ok(())
    }
}

/// Operation latencies in nanoseconds (integers, so sums are exact and deterministic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Timing {
    pub read_ns: u64,
    pub read_oob_ns: u64,
    pub program_ns: u64,
    pub erase_ns: u64,
}

impl Timing {
    pub const fn us(read: u64, read_oob: u64, program: u64, erase: u64) -> Timing {
        Timing {
            read_ns: read * 1000,
            read_oob_ns: read_oob * 1000,
            program_ns: program * 1000,
            erase_ns: erase * 1000,
        }
    }
}

/// A named chip: geometry plus timing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Chip {
    pub name: String,
    pub geometry: Geometry,
    pub timing: Timing,
    /// MLC rule: pages of a block must be programmed in order. Off for the 2000s SLC
    /// schemes that write data blocks in place (FAST, BAST).
    pub in_order_programming: bool,
}

/// The chip presets `Chip::preset` knows, by the name scenarios give (`chip.preset`). The
/// web's `ChipPreset` (the union its pickers and links use) is generated from this enum
/// (ts-rs, scripts/gen-types.mjs), so the two cannot drift.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(rename_all = "kebab-case")]
pub enum ChipPreset {
    Classroom,
    #[serde(rename = "fast2007")]
    Fast2007,
    RftlSmall,
    RftlLarge,
    Fastcheck,
}

impl ChipPreset {
    pub const ALL: [ChipPreset; 5] = [
        ChipPreset::Classroom,
        ChipPreset::Fast2007,
        ChipPreset::RftlSmall,
        ChipPreset::RftlLarge,
        ChipPreset::Fastcheck,
    ];

    /// Its name, as serde writes it.
    pub const fn name(self) -> &'static str {
        match self {
            ChipPreset::Classroom => "classroom",
            ChipPreset::Fast2007 => "fast2007",
            ChipPreset::RftlSmall => "rftl-small",
            ChipPreset::RftlLarge => "rftl-large",
            ChipPreset::Fastcheck => "fastcheck",
        }
    }
}

/// Every preset's name, in `ChipPreset::ALL`'s order.
pub const PRESET_NAMES: &[&str] = &{
    let mut out = [""; ChipPreset::ALL.len()];
    let mut i = 0;
    while i < out.len() {
        out[i] = ChipPreset::ALL[i].name();
        i += 1;
    }
    out
};

impl Chip {
    /// Presets from the papers.
    pub fn preset(name: &str) -> Result<Chip, String> {
        let (geometry, timing) = match name {
            // A tiny chip like the papers' figures: 4 pages per block.
            "classroom" => (
                Geometry { blocks: 16, pages_per_block: 4, page_bytes: 512, spare_bytes: 16 },
                Timing::us(15, 15, 200, 2000),
            ),
            // FAST paper section 4: 512 B sectors, 32 sectors per block,
            // read 15 us, write 200 us, erase 2 ms. 64 MB by default.
            "fast2007" => (
                Geometry { blocks: 4096, pages_per_block: 32, page_bytes: 512, spare_bytes: 16 },
                Timing::us(15, 15, 200, 2000),
            ),
            // RFTL Table 1, Samsung 16 MB small block: 16 KB blocks of 512 B pages (+16 B OOB);
            // read page 36 us, read OOB 10 us, write page 200 us, erase 2000 us.
            "rftl-small" => (
                Geometry { blocks: 1024, pages_per_block: 32, page_bytes: 512, spare_bytes: 16 },
                Timing::us(36, 10, 200, 2000),
            ),
            // RFTL Table 1, Samsung 128 MB large block: 64 KB blocks of 2 KB pages (+64 B OOB);
            // read page 25 us, read OOB 25 us, write page 300 us, erase 2000 us (used by Table 4).
            "rftl-large" => (
                Geometry { blocks: 2048, pages_per_block: 32, page_bytes: 2048, spare_bytes: 64 },
                Timing::us(25, 25, 300, 2000),
            ),
            // FastCheck section 6: 4 KB pages, 512 KB blocks (128 pages); 8 GB = 16384 blocks.
            // The paper counts operations only; we borrow large-block SLC timing (25 us read and
            // OOB read, 200 us program, 2 ms erase) so elapsed time is defined (docs/chips.md).
            "fastcheck" => (
                Geometry { blocks: 16384, pages_per_block: 128, page_bytes: 4096, spare_bytes: 128 },
                Timing::us(25, 25, 200, 2000),
            ),
            other => return Err(format!("unknown chip preset '{other}' (known: {})", PRESET_NAMES.join(", "))),
        };
        Ok(Chip { name: name.to_string(), geometry, timing, in_order_programming: false })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names the web's generated `ChipPreset` union holds (serde's) are `name()`, and
    /// `Chip::preset` builds each.
    #[test]
    fn every_preset_name_is_its_serde_name_and_builds() {
        for p in ChipPreset::ALL {
            assert_eq!(serde_json::to_string(&p).unwrap(), format!("\"{}\"", p.name()));
            assert_eq!(serde_json::from_str::<ChipPreset>(&format!("\"{}\"", p.name())).unwrap(), p);
            assert_eq!(Chip::preset(p.name()).unwrap().name, p.name());
        }
        assert!(Chip::preset("nope").is_err());
    }
}
