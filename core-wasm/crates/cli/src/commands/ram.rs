//! `ftl ram`: mapping RAM of FAST and KRAFT by the KRAFT paper's bit widths.

use std::process::ExitCode;

use clap::Args;

use crate::output::fail;

#[derive(Args)]
pub(crate) struct RamArgs {
    /// Device capacity, binary units (64GB = 64·2^30 bytes).
    #[arg(long, default_value = "64GB")]
    pub(crate) capacity: String,
    /// Page (sector) size in bytes (the paper's MLC chip: 2048).
    #[arg(long, default_value_t = 2048)]
    pub(crate) page_bytes: u64,
    /// Pages per block, N (the paper's MLC chip: 128).
    #[arg(long, default_value_t = 128)]
    pub(crate) pages_per_block: u64,
    /// FAST's number of log blocks.
    #[arg(long, default_value_t = 128)]
    pub(crate) log_blocks: u64,
    /// KRAFT's associativity K.
    #[arg(long, default_value_t = 8)]
    pub(crate) k: u32,
    /// Print one JSON object (docs/cli.md).
    #[arg(long)]
    pub(crate) json: bool,
}

fn ram(a: &RamArgs) -> Result<(), String> {
    use ftl_sim::ftl::ram::{parse_capacity, MapGeometry};
    if a.k == 0 {
        return Err("--k must be at least 1".into());
    }
    let g = MapGeometry::from_capacity(parse_capacity(&a.capacity)?, a.page_bytes, a.pages_per_block)?;
    let c = g.compare(a.log_blocks, a.k);
    if a.json {
        println!("{}", serde_json::to_string(&c).expect("serialise"));
    } else {
        println!(
            "{} blocks of {} pages; PBN {} bits, LBN {} bits, LSN {} bits, RI {} bits, RLSN {} bits",
            g.physical_blocks, g.pages_per_block, c.pbn_bits, c.lbn_bits, c.lsn_bits, c.ri_bits, c.rlsn_bits
        );
        println!("  block map (both)          {} bytes", c.block_map_bytes);
        println!("  FAST log block            {} bits", c.fast_log_bits_per_block);
        println!("  KRAFT log block (K = {:2})  {} bits", a.k, c.kraft_log_bits_per_block);
        println!("  FAST with {} log blocks    {} bytes", c.fast_log_blocks, c.fast_bytes);
        println!("  KRAFT with {} log blocks   {} bytes", c.fast_log_blocks, c.kraft_bytes_same_log_blocks);
        println!("  KRAFT affords {} log blocks in FAST's RAM ({} bytes)", c.kraft_log_blocks, c.kraft_bytes);
    }
    Ok(())
}

pub(crate) fn execute(args: RamArgs) -> ExitCode {
    match ram(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => fail(e),
    }
}
