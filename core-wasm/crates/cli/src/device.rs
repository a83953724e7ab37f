//! The device flags (issue 40; docs/ssd.md, docs/cli.md): `--channels C
//! --dies-per-channel W --stripe page|block --channel-mb-s R`, one shape for `ftl run` and
//! `ftl crash-sweep`, lists of shapes for `ftl sweep`.

use clap::Args;
use ftl_sim::ssd::{Shape, Stripe};

#[derive(Args, Clone, Debug, Default)]
pub(crate) struct DeviceArgs {
    /// Channels of the device (docs/ssd.md); with --dies-per-channel, one FTL per die.
    #[arg(long, default_value_t = 1)]
    pub(crate) channels: u32,
    /// Dies on each channel.
    #[arg(long, default_value_t = 1)]
    pub(crate) dies_per_channel: u32,
    /// Stripe unit over the dies: page or block (default: page for page-mapped schemes,
    /// block for block and log-block mapped ones, whose logical blocks must stay whole).
    #[arg(long)]
    pub(crate) stripe: Option<String>,
    /// Channel bus rate of the device, MB/s (default 200: ONFI 2.1, docs/ssd.md).
    #[arg(long, value_name = "MB_S")]
    pub(crate) channel_mb_s: Option<u32>,
}

impl DeviceArgs {
    /// Any device flag given beyond one die's defaults.
    pub(crate) fn given(&self) -> bool {
        self.channels.saturating_mul(self.dies_per_channel) != 1 || self.stripe.is_some() || self.channel_mb_s.is_some()
    }

    /// The device shape asked for (None: one die, today's chip).
    pub(crate) fn shape(&self, scheme: &str) -> Result<Option<Shape>, String> {
        shape_of(self.channels, self.dies_per_channel, self.stripe.as_deref(), self.channel_mb_s, scheme)
    }
}

/// A shape for `scheme`, checked with this command line's hint (None: one die).
pub(crate) fn shape_of(
    channels: u32,
    dies_per_channel: u32,
    stripe: Option<&str>,
    bus_mb_s: Option<u32>,
    scheme: &str,
) -> Result<Option<Shape>, String> {
    let stripe = match stripe {
        Some(s) => Stripe::from_name(s)?,
        None => Stripe::default_for(scheme),
    };
    let shape = Shape { channels, dies_per_channel, stripe, bus_mb_s };
    // The core's reason, with this command's flag for it.
    shape.striping(scheme).map_err(|r| format!("{r}: use --stripe block"))?;
    shape.check(scheme)?;
    if shape.dies() == 1 {
        return Ok(None);
    }
    ftl_sim::limits::at_most("--channels x --dies-per-channel", shape.dies() as u64, 64)?;
    Ok(Some(shape))
}

/// `ftl sweep`'s device flags: each a list; every combination of channels and dies per
/// channel is a shape of the sweep (one die: the one chip of today).
#[derive(Args, Clone, Debug, Default)]
pub(crate) struct DeviceLists {
    /// Channels of the device, a list (e.g. 1,2,4,8): each a row (docs/ssd.md).
    #[arg(long, value_delimiter = ',')]
    pub(crate) channels: Vec<u32>,
    /// Dies on each channel, a list.
    #[arg(long, value_delimiter = ',')]
    pub(crate) dies_per_channel: Vec<u32>,
    /// Stripe unit over the dies: page or block (default: the scheme's, as `ftl run`).
    #[arg(long)]
    pub(crate) stripe: Option<String>,
    /// Channel bus rate of the device, MB/s (default 200).
    #[arg(long, value_name = "MB_S")]
    pub(crate) channel_mb_s: Option<u32>,
}

/// A shape of a sweep before its scheme is known: channels, dies per channel.
pub(crate) type ShapeSpec = (u32, u32);

impl DeviceLists {
    /// Every (channels, dies per channel) of the sweep, channels outermost; one die alone
    /// when none is given.
    pub(crate) fn specs(&self) -> Vec<ShapeSpec> {
        let one = [1u32];
        let c: &[u32] = if self.channels.is_empty() { &one } else { &self.channels };
        let w: &[u32] = if self.dies_per_channel.is_empty() { &one } else { &self.dies_per_channel };
        c.iter().flat_map(|&c| w.iter().map(move |&w| (c, w))).collect()
    }

    /// The shape of `spec` for `scheme` (None: one die).
    pub(crate) fn shape(&self, spec: ShapeSpec, scheme: &str) -> Result<Option<Shape>, String> {
        shape_of(spec.0, spec.1, self.stripe.as_deref(), self.channel_mb_s, scheme)
    }
}
