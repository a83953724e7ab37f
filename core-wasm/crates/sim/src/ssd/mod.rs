//! An SSD of C channels × W dies per channel (issue 40): each die a flash chip with its own
//! FTL instance (any scheme of the registry, unchanged) over a striped share of the
//! logical space, the arrangement of the papers' FTLs in a multi-chip device.
//!
//! Striping: logical page `lpn` is in stripe unit `lpn / unit` (unit = 1 page, or one
//! block of `pages_per_block` pages); unit `u` goes to die `u % D`, where it is unit
//! `u / D` of the die's own logical space. A block-mapped or hybrid scheme (NFTL, RFTL,
//! GFTL, BAST, FAST, ...) keeps whole logical blocks on one die only with block striping,
//! so page striping is refused for them (docs/ssd.md).
//!
//! `device.rs` runs a request list on the dies in time (open or closed model, one FIFO
//! queue per die, one bus per channel); `scenario::device` plans the workload over the
//! device's logical space (D × a die's) and builds its request list.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::ftl::registry::Mapping;

pub mod crash;
pub mod cut;
mod device;

pub use device::{exec_page, transfer_ns, Device, DeviceClock, DeviceHost, PageTime, PageWork};
pub use device::{DeviceSummary, DieStats, DieSummary, PageRecord, Responses};

/// The channel bus rate when none is given, MB/s (10^6 bytes a second): ONFI 2.1's
/// 200 MT/s synchronous interface on an 8-bit bus (docs/ssd.md). At this rate every
/// preset's page transfer fits inside its read and program times (a 4 KB page: 20.48 µs
/// of a 25 µs read), which is how a one-chip run already counts it.
pub const DEFAULT_BUS_MB_S: u32 = 200;

/// Stripe unit of the logical space over the dies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export, rename = "DeviceStripe")]
pub enum Stripe {
    Page,
    Block,
}

impl Stripe {
    pub fn from_name(s: &str) -> Result<Stripe, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "page" => Ok(Stripe::Page),
            "block" => Ok(Stripe::Block),
            o => Err(format!("unknown stripe unit '{o}': expected page or block")),
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Stripe::Page => "page",
            Stripe::Block => "block",
        }
    }
    /// The stripe a scheme gets when none is given: page for page-mapped schemes, block
    /// for block and log-block mapped ones (their logical blocks must stay whole).
    pub fn default_for(scheme: &str) -> Stripe {
        match crate::ftl::entry(scheme).map(|e| e.mapping) {
            Some(m) if m != Mapping::Page => Stripe::Block,
            _ => Stripe::Page,
        }
    }
}

/// The device's shape: C channels × W dies per channel, the stripe unit and the channel
/// bus rate. A scenario carries it as `device` (absent: one die, today's chip).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(deny_unknown_fields)]
#[ts(export, rename = "DeviceShape")]
pub struct Shape {
    pub channels: u32,
    pub dies_per_channel: u32,
    pub stripe: Stripe,
    /// Channel bus rate, MB/s; None: `DEFAULT_BUS_MB_S`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub bus_mb_s: Option<u32>,
}

impl Shape {
    /// A shape at the default bus rate.
    pub fn new(channels: u32, dies_per_channel: u32, stripe: Stripe) -> Shape {
        Shape { channels, dies_per_channel, stripe, bus_mb_s: None }
    }
    pub fn dies(&self) -> u32 {
        self.channels * self.dies_per_channel
    }
    pub fn bus_mb_s(&self) -> u32 {
        self.bus_mb_s.unwrap_or(DEFAULT_BUS_MB_S)
    }
    /// Time to move `bytes` over the channel bus, ns (rounded up).
    pub fn transfer_ns(&self, bytes: u32) -> u64 {
        // bytes / (MB/s · 10^6) s = bytes · 1000 / (MB/s) ns.
        (bytes as u64 * 1000).div_ceil(self.bus_mb_s().max(1) as u64)
    }
    /// Stripe unit in pages on a chip of `pages_per_block`.
    pub fn unit(&self, pages_per_block: u32) -> u32 {
        match self.stripe {
            Stripe::Page => 1,
            Stripe::Block => pages_per_block,
        }
    }
    /// Refuses an empty device and page striping for a scheme whose logical blocks must
    /// stay whole (block or hybrid mapping).
    pub fn check(&self, scheme: &str) -> Result<(), String> {
        if self.channels == 0 || self.dies_per_channel == 0 {
            return Err("a device needs at least one channel and one die per channel".into());
        }
        crate::limits::at_most(
            "channels x dies per channel",
            self.channels as u64 * self.dies_per_channel as u64,
            256,
        )?;
        if self.bus_mb_s == Some(0) {
            return Err("the channel bus rate must be at least 1 MB/s".into());
        }
        self.striping(scheme).map_err(|r| r.to_string())
    }

    /// Whether `scheme` can be striped as this shape says (typed, for callers that add
    /// their own hint: the CLI names its `--stripe block` flag).
    pub fn striping(&self, scheme: &str) -> Result<(), StripeRefusal> {
        let mapping = crate::ftl::entry(scheme).map(|e| e.mapping);
        if self.stripe == Stripe::Page && self.dies() > 1 && mapping.is_some_and(|m| m != Mapping::Page) {
            return Err(StripeRefusal::BlockMappedNeedsBlockStripe { scheme: scheme.to_string() });
        }
        Ok(())
    }
}

/// Why a shape's striping is refused for a scheme (`Shape::striping`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StripeRefusal {
    /// A block- or log-block-mapped scheme keeps its logical blocks whole: it needs block
    /// striping, never page striping.
    BlockMappedNeedsBlockStripe { scheme: String },
}

impl std::fmt::Display for StripeRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StripeRefusal::BlockMappedNeedsBlockStripe { scheme } => write!(
                f,
                "{scheme} maps logical blocks (block or log-block mapping): page striping would split each logical \
                 block over the dies; it needs block striping"
            ),
        }
    }
}

/// Die and die-local LPN of logical page `lpn` for `dies` dies of stripe unit `unit` pages.
pub fn place(lpn: u32, dies: u32, unit: u32) -> (u32, u32) {
    let (chunk, off) = (lpn / unit, lpn % unit);
    (chunk % dies, (chunk / dies) * unit + off)
}

/// Logical pages a device of `dies` dies exports when each die's scheme exports
/// `die_pages`: whole stripe units only, so every device LPN below it lands inside its
/// die's space (`place`).
pub fn device_pages(die_pages: u32, dies: u32, unit: u32) -> u64 {
    (die_pages / unit * unit) as u64 * dies as u64
}

/// Logical pages each die must export so the device holds `device_pages` (the inverse of
/// `device_pages`, rounded up to whole stripe units).
pub fn die_pages_for(device_pages: u64, dies: u32, unit: u32) -> u64 {
    device_pages.div_ceil(unit as u64).div_ceil(dies as u64) * unit as u64
}
