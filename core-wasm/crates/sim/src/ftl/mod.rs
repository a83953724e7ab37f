//! FTL schemes, one file each, behind the `Ftl` trait.

use serde::{Deserialize, Serialize};

use crate::nand::{Chip, Flash, FlashResult, Geometry, Lpn, PageKind, Pbn, Ppn};

pub mod bast;
pub mod fast;
pub mod fastcheck;
pub mod gftl;
pub mod greedy;
pub mod kraft;
pub mod ltftl;
pub mod nftl;
pub mod page;
pub mod ram;
pub mod rftl;
pub mod scan_recovery;

/// Role of a physical block: the colour language of the device view.
/// The numbers are the bytes of `Session.block_roles()` (docs/session-api.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum BlockRole {
    Free = 0,
    Data = 1,
    /// The write frontier of a page-mapping FTL.
    Active = 2,
    SwLog = 3,
    RwLog = 4,
    /// A log block dedicated to (BAST) or associated with (KAST/KRAFT) logical blocks.
    Log = 5,
    Primary = 6,
    Replacement = 7,
    Buffer = 8,
    Metadata = 9,
    MapBlock = 10,
    Checkpoint = 11,
    MapDirectory = 12,
    /// Destination of a GC or merge in progress.
    GcDestination = 13,
}

/// State of a physical page as the FTL sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum PageState {
    Erased = 0,
    Valid = 1,
    Invalid = 2,
    /// Invalid for the present but needed by a frozen state (LTFTL).
    Retractable = 3,
    Metadata = 4,
}

/// A scheme-specific table for the UI's panels (block map, sector map, ...).
#[derive(Clone, Debug, Serialize)]
pub struct Table {
    pub title: String,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<String>>,
}

/// Scheme name plus its parameters, as they come from a scenario or the CLI.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SchemeParams {
    /// Over-provisioning ratio of the page-mapping FTL (share of physical pages
    /// not exported as logical space).
    pub op: Option<f64>,
    /// Number of log blocks (hybrid schemes); for LTFTL, the size of the log section.
    pub log_blocks: Option<u32>,
    /// Associativity of KAST/KRAFT log blocks.
    pub k: Option<u32>,
    /// KRAFT: largest v_page (valid pages copied from the data block) for which a switch
    /// on an offset-0 write counts as "low cost" (Algorithm 1 line 8). Default N/2.
    pub switch_max: Option<u32>,
    /// KRAFT: largest number of valid pages a fill may copy to keep a log block serial
    /// (Algorithm 1 lines 14, 29: "fill cost is low"). Default max(1, N/4).
    pub fill_max: Option<u32>,
    /// Share of the logical space in use (RFTL Table 4 runs 50% and 100%).
    pub utilisation: Option<f64>,
    /// FastCheck: LPNs per log region, i.e. the checkpoint period P_fastcheck in log pages
    /// (default page size / 4 B; FastCheck Figure 8 also runs it twice as fast). For
    /// `fast-ltlog`: records per log page P_ltftl (default page size / 16 B).
    pub checkpoint_lpns: Option<u32>,
}

/// Clone into a box: keyframes snapshot the scheme with the chip.
pub trait FtlClone {
    fn box_clone(&self) -> Box<dyn Ftl>;
}
impl<T: Ftl + Clone + 'static> FtlClone for T {
    fn box_clone(&self) -> Box<dyn Ftl> {
        Box::new(self.clone())
    }
}

/// One FTL scheme. Every flash operation goes through `flash`, which counts it,
/// times it, records it and fails it on power loss.
pub trait Ftl: FtlClone + Send {
    /// Short id used in scenarios and the CLI (`page`, `fast`, ...).
    fn name(&self) -> &'static str;
    /// Number of logical pages exported to the host.
    fn logical_pages(&self) -> u32;
    /// Host write of `lpn`; the data written is `(lpn, version)`.
    fn write(&mut self, flash: &mut Flash, lpn: Lpn, version: u32) -> FlashResult<()>;
    /// Host read: the flash operations the scheme needs to find and read `lpn`,
    /// returning the page it read (None if never written).
    fn read(&mut self, flash: &mut Flash, lpn: Lpn) -> FlashResult<Option<Ppn>>;
    /// Where `lpn` lives now, without flash operations (verification and views).
    fn locate(&self, lpn: Lpn) -> Option<Ppn>;
    /// Role of a block for the device view.
    fn block_role(&self, pbn: Pbn) -> BlockRole;
    /// Logical block a physical block serves, if any.
    fn block_owner(&self, _pbn: Pbn) -> Option<u32> {
        None
    }
    /// Every logical block a physical block serves: one, except for a log block shared
    /// by several (KRAFT/KAST, K > 1), which the device view labels with all of them.
    fn block_owners_all(&self, pbn: Pbn) -> Vec<u32> {
        self.block_owner(pbn).into_iter().collect()
    }
    /// State of a page. The default derives it from `locate`: a data page is valid
    /// iff the map points at it.
    fn page_state(&self, flash: &Flash, ppn: Ppn) -> PageState {
        default_page_state(self, flash, ppn)
    }
    /// Mapping RAM in bytes by the paper's accounting.
    fn ram_bytes(&self) -> u64;
    /// Scheme-specific metrics (e.g. KRAFT's MRG, RFTL's GC steps), merged into the
    /// metrics JSON under `scheme_metrics`. Null when the scheme has none.
    fn scheme_metrics(&self) -> serde_json::Value {
        serde_json::Value::Null
    }
    /// Panels for the UI.
    fn tables(&self, _flash: &Flash) -> Vec<Table> {
        Vec::new()
    }

    /// Whether the scheme supports time shift (freeze / unfreeze / revert; LTFTL).
    fn time_shift(&self) -> bool {
        false
    }
    /// Freezes the current state; returns its id. The inner error is a refusal
    /// (nothing changed), the outer one a flash failure.
    fn freeze(&mut self, _flash: &mut Flash) -> FlashResult<Result<u32, String>> {
        Ok(Err(format!("{} has no time shift", self.name())))
    }
    fn unfreeze(&mut self, _flash: &mut Flash, _state: u32) -> FlashResult<Result<(), String>> {
        Ok(Err(format!("{} has no time shift", self.name())))
    }
    fn revert(&mut self, _flash: &mut Flash, _state: u32) -> FlashResult<Result<(), String>> {
        Ok(Err(format!("{} has no time shift", self.name())))
    }
    /// Ids of the live frozen states (time-shifting schemes; crash verification).
    fn frozen_states(&self) -> Vec<u32> {
        Vec::new()
    }
    /// Where each LPN of frozen state `id` lives, as a revert to it would map it,
    /// without changing anything (crash verification: a frozen state is intact).
    fn frozen_image(&self, _id: u32) -> Option<Vec<Ppn>> {
        None
    }
}

pub fn default_page_state<F: Ftl + ?Sized>(ftl: &F, flash: &Flash, ppn: Ppn) -> PageState {
    let p = flash.peek(ppn);
    match p.kind {
        PageKind::Erased => PageState::Erased,
        PageKind::Meta => PageState::Metadata,
        PageKind::Torn => PageState::Invalid,
        PageKind::Data => {
            if ftl.locate(p.lpn) == Some(ppn) {
                PageState::Valid
            } else {
                PageState::Invalid
            }
        }
    }
}

/// A data page holding the same version of its LPN as the page the map points at: the
/// source of a copy. Valid while the GC or merge that copied it is still in progress
/// (docs/architecture.md, "What a moment shows"): schemes whose cleaning spans requests
/// (RFTL, GFTL) use it in `page_state`.
pub fn copy_of_located<F: Ftl + ?Sized>(ftl: &F, flash: &Flash, ppn: Ppn) -> bool {
    let p = flash.peek(ppn);
    p.kind == PageKind::Data
        && ftl
            .locate(p.lpn)
            .is_some_and(|q| q != ppn && flash.peek(q).kind == PageKind::Data && flash.peek(q).version == p.version)
}

/// Schemes that exist, with a one-line description for the UI and `ftl --help`.
pub const SCHEMES: &[(&str, &str)] = &[
    ("page", "Page mapping with greedy garbage collection (the baseline)"),
    ("bast", "BAST: one log block dedicated to each logical block (block-associative sector translation)"),
    ("fast", "FAST: one SW log block plus fully-associative RW log blocks, eager merge"),
    ("ofast", "O-FAST: FAST with lazy merge (skips merges whose sectors have newer copies)"),
    ("fastcheck", "FastCheck: FAST with map directory, map blocks, log-region checkpoints and MSN-checked recovery"),
    (
        "fast-ltlog",
        "FAST with LTFTL-style recovery logging (mapping log records, page-map dumps), as FastCheck 6.2 compares",
    ),
    ("rftl", "RFTL: primary / replacement / buffer blocks, OOB sub-tables, distributed partial GC (real-time)"),
    ("gftl", "GFTL as the RFTL paper describes it: buffer blocks, central GC queue, partial block cleaning"),
    ("nftl", "NFTL: block mapping with a replacement block; merge when both are full"),
    ("kraft", "KRAFT: K-associative log blocks kept serial, relative addressing (Kang et al.)"),
    ("kast", "KAST-style K-associative log blocks (KRAFT without seriality maintenance)"),
    ("ltftl", "LTFTL: page mapping with time shift (freeze / unfreeze / revert) and power-loss roll-back"),
];

/// The parameters each scheme reads (the app's form shows just these).
pub fn scheme_params(scheme: &str) -> &'static [&'static str] {
    match scheme {
        "page" => &["op"],
        "bast" | "fast" | "ofast" => &["log_blocks"],
        "fastcheck" | "fast-ltlog" => &["log_blocks", "checkpoint_lpns"],
        "kraft" => &["log_blocks", "k", "switch_max", "fill_max"],
        "kast" => &["log_blocks", "k"],
        "rftl" | "gftl" | "nftl" => &["utilisation"],
        "ltftl" => &["op", "log_blocks"],
        _ => &[],
    }
}

/// How a scheme reclaims space, which names the counter its cleaning shows under
/// (docs/cli.md, "When a merge or a GC run counts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Cleaning {
    /// Garbage collection (page mapping, LTFTL, RFTL, GFTL): runs count in `gc_runs`.
    Gc,
    /// Merges of block-mapped log or replacement blocks (BAST, FAST and its variants,
    /// KRAFT, KAST, NFTL): they count in `switch_merges`, `partial_merges` and
    /// `full_merges` only, never in `gc_runs` (which stays 0: the app hides it).
    Merges,
}

/// The cleaning of a scheme of `SCHEMES` (the wasm catalog's `cleaning`). One rule: a
/// scheme whose cleaning merges block-mapped blocks (a log or replacement block with its
/// data block) reports merges; one that collects victim blocks (GFTL's partial block
/// cleaning and RFTL's distributed GC included, as their paper names them) reports GC runs.
pub fn scheme_cleaning(scheme: &str) -> Cleaning {
    match scheme {
        "bast" | "fast" | "ofast" | "fastcheck" | "fast-ltlog" | "kraft" | "kast" | "nftl" => Cleaning::Merges,
        _ => Cleaning::Gc,
    }
}

/// Builds a scheme on a chip: like `build`, but schemes whose parameters depend on the
/// chip's timing (RFTL's β, k, j; GFTL's step size) get it. Scenarios use this.
pub fn build_on_chip(scheme: &str, params: &SchemeParams, chip: &Chip) -> Result<Box<dyn Ftl>, String> {
    match scheme {
        "rftl" => Ok(Box::new(rftl::Rftl::new(&chip.geometry, &chip.timing, params)?)),
        "gftl" => Ok(Box::new(gftl::Gftl::new(&chip.geometry, &chip.timing, params)?)),
        _ => build(scheme, params, &chip.geometry),
    }
}

/// Rebuilds a scheme from the chip alone after a power cut (RAM is lost). The outer
/// error is a power loss during recovery; the inner one a scheme that cannot recover.
pub fn recover(scheme: &str, params: &SchemeParams, flash: &mut Flash) -> FlashResult<Result<Box<dyn Ftl>, String>> {
    Ok(Ok(match scheme {
        "page" => Box::new(page::PageFtl::recover(flash, params)?),
        "bast" => Box::new(scan_recovery::recover_bast(flash, params)?),
        "fast" => Box::new(scan_recovery::recover_fast(flash, params, false)?),
        "ofast" => Box::new(scan_recovery::recover_fast(flash, params, true)?),
        "fastcheck" => Box::new(fastcheck::recover(flash, params, fastcheck::Mode::FastCheck)?),
        "fast-ltlog" => Box::new(fastcheck::recover(flash, params, fastcheck::Mode::LtLog)?),
        "nftl" => Box::new(nftl::Nftl::recover(flash, params)?),
        "gftl" => Box::new(gftl::Gftl::recover(flash, params)?),
        "rftl" => Box::new(rftl::Rftl::recover(flash, params)?),
        "kraft" => Box::new(kraft::Kraft::recover(flash, params, kraft::Variant::Kraft)?),
        "kast" => Box::new(kraft::Kraft::recover(flash, params, kraft::Variant::Kast)?),
        // Back to the latest write (the app offers rebooting to the latest frozen state).
        "ltftl" => Box::new(ltftl::LtFtl::recover(flash, params, false)?),
        other => return Ok(Err(format!("scheme '{other}' has no recovery yet"))),
    }))
}

/// Builds a scheme on a chip geometry.
pub fn build(scheme: &str, params: &SchemeParams, geometry: &Geometry) -> Result<Box<dyn Ftl>, String> {
    match scheme {
        "page" => Ok(Box::new(page::PageFtl::new(geometry, params)?)),
        "bast" => Ok(Box::new(bast::BastFtl::new(geometry, params)?)),
        "fast" => Ok(Box::new(fast::FastFtl::new(geometry, params, false)?)),
        "ofast" => Ok(Box::new(fast::FastFtl::new(geometry, params, true)?)),
        "fastcheck" => Ok(Box::new(fastcheck::build(geometry, params, fastcheck::Mode::FastCheck)?)),
        "fast-ltlog" => Ok(Box::new(fastcheck::build(geometry, params, fastcheck::Mode::LtLog)?)),
        "nftl" => Ok(Box::new(nftl::Nftl::new(geometry, params)?)),
        "rftl" | "gftl" => Err(format!("scheme '{scheme}' needs the chip's timing: use ftl::build_on_chip")),
        "kraft" => Ok(Box::new(kraft::Kraft::new(geometry, params, kraft::Variant::Kraft)?)),
        "kast" => Ok(Box::new(kraft::Kraft::new(geometry, params, kraft::Variant::Kast)?)),
        "ltftl" => Ok(Box::new(ltftl::LtFtl::new(geometry, params)?)),
        other => Err(format!(
            "unknown scheme '{other}' (known: {})",
            SCHEMES.iter().map(|s| s.0).collect::<Vec<_>>().join(", ")
        )),
    }
}
