//! FTL schemes, one file each, behind the `Ftl` trait.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::nand::{Chip, Flash, FlashError, FlashResult, Geometry, Lpn, PageKind, Pbn, Ppn};
use crate::trace::Request;
pub use host::Parts;
pub use panel::{Panel, PanelData};
pub use registry::{Builder, Mapping, PanelKind, ParamSpec, Run, SchemeEntry, Value};

pub mod greedy;
pub mod host;
pub mod panel;
pub mod pool;
pub mod ram;
pub mod registry;
pub mod scan_recovery;

/// Kinds of metadata page (the cuts `crash::chain` aims right after each kind of program).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MetaKind {
    /// A checkpoint of a table (FastCheck's log-region checkpoint, a dump of the
    /// log-page-mapping table).
    Checkpoint,
    /// A page of the mapping table (FastCheck's map page, LTFTL's map dump).
    MapPage,
    /// Where the map is (FastCheck's map directory, LTFTL's metadata record).
    MapDirectory,
    /// A page of log records (LTFTL's intent log, fast-ltlog's record pages).
    IntentLog,
}

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
    /// The program a power cut interrupted: half-programmed, unreadable, holding no data
    /// until its block's erase (issue 35: drawn apart from invalid pages).
    Torn = 5,
}

/// A scheme parameter's type: a ratio (`f64`) or a count (`u32`).
pub trait ParamValue: Copy {
    const INTEGER: bool;
    fn to_f64(self) -> f64;
    /// From a number (a count takes `v` rounded down).
    fn from_f64(v: f64) -> Self;
}
impl ParamValue for f64 {
    const INTEGER: bool = false;
    fn to_f64(self) -> f64 {
        self
    }
    fn from_f64(v: f64) -> f64 {
        v
    }
}
impl ParamValue for u32 {
    const INTEGER: bool = true;
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
    fn from_f64(v: f64) -> u32 {
        v as u32
    }
}

/// A parameter as its one declaration gives it: what the CLI makes its flag from
/// (`--log-blocks`, help = the doc) and what the registry's `ParamSpec::key` names.
#[derive(Clone, Copy, Debug)]
pub struct ParamField {
    pub key: &'static str,
    pub integer: bool,
    /// The field's doc comment, one line per line.
    pub doc: &'static str,
}

/// One declaration per scheme parameter (issue 36): the field of `SchemeParams` (an
/// `Option`: None = the scheme's default), its key in `KEYS` and `FIELDS`, `get` and
/// `set`; the CLI's flag comes from `FIELDS`, the app's form field from the registry's
/// `ParamSpec` of the same key (through `catalog()`).
macro_rules! scheme_params {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[doc = $doc:expr])* $field:ident: $ty:ty,)* }) => {
        $(#[$meta])*
        pub struct $name {
            $($(#[doc = $doc])* #[ts(optional)] pub $field: Option<$ty>,)*
        }

        /// Every parameter's key as a type (the web's TS: the union of the keys; ts-rs).
        #[derive(TS)]
        #[ts(export)]
        #[allow(non_camel_case_types, dead_code)]
        pub enum SchemeParamKey {
            $($field,)*
        }

        impl $name {
            /// Every parameter, in declaration order.
            pub const FIELDS: &'static [ParamField] = &[$(ParamField {
                key: stringify!($field),
                integer: <$ty as ParamValue>::INTEGER,
                doc: concat!($($doc, "\n",)*),
            },)*];

            /// Every parameter's key, as the registry's `ParamSpec::key` names it.
            pub const KEYS: [&'static str; Self::FIELDS.len()] = [$(stringify!($field),)*];

            /// A parameter by key, as a number (None: not set, or not a parameter).
            pub fn get(&self, key: &str) -> Option<f64> {
                match key {
                    $(stringify!($field) => self.$field.map(ParamValue::to_f64),)*
                    _ => None,
                }
            }

            /// Sets a parameter by key (integer parameters take `v` rounded down); false
            /// for an unknown key.
            pub fn set(&mut self, key: &str, v: f64) -> bool {
                match key {
                    $(stringify!($field) => self.$field = Some(ParamValue::from_f64(v)),)*
                    _ => return false,
                }
                true
            }
        }
    };
}

scheme_params! {
    /// Scheme name plus its parameters, as they come from a scenario or the CLI.
    /// (The web's scenario type is generated from it: scripts/gen-types.mjs.)
    #[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
    #[ts(export)]
    #[serde(default, deny_unknown_fields)]
    pub struct SchemeParams {
        /// Over-provisioning ratio of the page-mapping FTL: the share of physical pages not
        /// exported as logical space (LTFTL: the spare share of its data section).
        op: f64,
        /// Number of log blocks (hybrid schemes); for LTFTL, the blocks of its log section.
        log_blocks: u32,
        /// Associativity K of KAST/KRAFT log blocks.
        k: u32,
        /// KRAFT: largest v_page (valid pages copied from the data block) for which a switch
        /// on an offset-0 write counts as "low cost" (Algorithm 1 line 8). Default N/2.
        switch_max: u32,
        /// KRAFT: largest number of valid pages a fill may copy to keep a log block serial
        /// (Algorithm 1 lines 14, 29: "fill cost is low"). Default max(1, N/4).
        fill_max: u32,
        /// RFTL / GFTL / NFTL: share of the logical space in use, in (0, 1] (RFTL Table 4
        /// runs 50% and 100%).
        utilisation: f64,
        /// FastCheck: LPNs per log region, i.e. the checkpoint period P_fastcheck in log pages
        /// (default page size / 4 B; FastCheck Figure 8 also runs it twice as fast). For
        /// `fast-ltlog`: records per log page P_ltftl (default page size / 16 B).
        checkpoint_lpns: u32,
        /// DFTL: entries of the cached mapping table (CMT) in RAM. Default: the chip's pages
        /// / 32, at least 4.
        cmt_entries: u32,
    }
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
    /// Panels for the UI, as typed data (ftl/panel.rs).
    fn panels(&self, _flash: &Flash) -> Vec<Panel> {
        Vec::new()
    }

    /// The kind of metadata page a program with spare-area `tag` writes (None: data).
    fn meta_kind(&self, _tag: u8) -> Option<MetaKind> {
        None
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
    /// A bound the scheme's own GC holds pool `role` to whatever the history (a structural
    /// cap, enforced wherever GC runs, recovery's included). The crash chain judges every
    /// recovery against it instead of the cut-free run's figure, which for such a pool is one
    /// history's sample, not a bound (DFTL's map blocks; docs/schemes/dftl.md).
    fn pool_cap(&self, _role: BlockRole) -> Option<u32> {
        None
    }
    /// The pool a block of `role` counts in when the crash chain holds pools to their bound
    /// (default: its own role). A scheme whose two roles are one pool split by a moment of
    /// its algorithm names one of them here (GFTL's job destination and buffers).
    fn pool_of(&self, role: BlockRole) -> BlockRole {
        role
    }

    /// Host writes from now on that certainly do no flash work but their own program: no
    /// garbage collection, merge or metadata write, so no request among them is a run-log
    /// marker (runlog.rs). `Stepper::run_ahead` runs a stretch with more writes than this
    /// logged at once, where run unlogged it would be found not quiet and run again from
    /// the nearest kept state: from step 0 on a chip too large for a keyframe (issue 37).
    /// `None` (the default): the scheme does not say, and every stretch is tried unlogged.
    fn quiet_writes(&self) -> Option<u64> {
        None
    }

    /// Runs `reqs` in the closed model at full speed in a loop compiled for this scheme's
    /// own type (`host::run_closed(self, ..)`), its `write` and `read` called directly, not
    /// through `Box<dyn Ftl>` once a request (issue 37). `None` (the default): the
    /// simulator runs the same loop on `dyn Ftl`. Page mapping has its own (273 -> 256
    /// instructions a request in `ftl bench`, callgrind); the schemes whose `write` stays
    /// a call ran 0.4-0.8 % more instructions in a loop of their own than in the shared one.
    fn run_closed(&mut self, _parts: &mut Parts<'_>, _reqs: &[Request]) -> Option<Result<(), (Request, FlashError)>> {
        None
    }
}

pub fn default_page_state<F: Ftl + ?Sized>(ftl: &F, flash: &Flash, ppn: Ppn) -> PageState {
    let p = flash.peek(ppn);
    match p.kind {
        PageKind::Erased => PageState::Erased,
        PageKind::Meta => PageState::Metadata,
        PageKind::Torn => PageState::Torn,
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

/// Declares each scheme's module and lists its entries in `REGISTRY`, one line a module.
macro_rules! registry {
    ($(#[$doc:meta])* $($module:ident: $($entry:ident),+;)*) => {
        $(pub mod $module;)*
        $(#[$doc])*
        pub const REGISTRY: &[&SchemeEntry] = &[$($(&$module::$entry,)+)*];
    };
}

registry! {
    /// Every scheme: one line each, `<module>: <its entries>;` (the module is its file,
    /// `ftl/<module>.rs` or `ftl/<module>/mod.rs`, which declares its own entries;
    /// docs/architecture.md, "How to add a scheme"). The order is the pickers' order; the
    /// first is the baseline.
    page: ENTRY;
    bast: ENTRY;
    fast: ENTRY, OFAST_ENTRY;
    fastcheck: ENTRY, LTLOG_ENTRY;
    rftl: ENTRY;
    gftl: ENTRY;
    nftl: ENTRY;
    kraft: ENTRY, KAST_ENTRY;
    ltftl: ENTRY;
    dftl: ENTRY;
}

/// The registry's entry of a scheme id.
pub fn entry(scheme: &str) -> Option<&'static SchemeEntry> {
    REGISTRY.iter().copied().find(|e| e.id == scheme)
}

/// (id, one-line description) of every scheme of the registry, for the UI and `ftl --help`.
pub const SCHEMES: &[(&str, &str)] = &{
    let mut out = [("", ""); REGISTRY.len()];
    let mut i = 0;
    while i < REGISTRY.len() {
        out[i] = (REGISTRY[i].id, REGISTRY[i].description);
        i += 1;
    }
    out
};

/// The parameters a scheme reads (the app's form shows just these), from the registry.
pub fn scheme_params(scheme: &str) -> &'static [&'static str] {
    static KEYS: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let keys = KEYS.get_or_init(|| REGISTRY.iter().map(|e| e.params.iter().map(|p| p.key).collect()).collect());
    REGISTRY.iter().position(|e| e.id == scheme).map_or(&[], |i| &keys[i])
}

/// How a scheme reclaims space, which names the counter its cleaning shows under
/// (docs/cli.md, "When a merge or a GC run counts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum Cleaning {
    /// Garbage collection (page mapping, LTFTL, RFTL, GFTL): runs count in `gc_runs`.
    Gc,
    /// Merges of block-mapped log or replacement blocks (BAST, FAST and its variants,
    /// KRAFT, KAST, NFTL): they count in `switch_merges`, `partial_merges` and
    /// `full_merges` only, never in `gc_runs` (which stays 0: the app hides it).
    Merges,
}

/// The cleaning of a scheme of the registry (the wasm catalog's `cleaning`). One rule: a
/// scheme whose cleaning merges block-mapped blocks (a log or replacement block with its
/// data block) reports merges; one that collects victim blocks (GFTL's partial block
/// cleaning and RFTL's distributed GC included, as their paper names them) reports GC runs.
pub fn scheme_cleaning(scheme: &str) -> Cleaning {
    entry(scheme).map_or(Cleaning::Gc, |e| e.cleaning)
}

fn unknown(scheme: &str) -> String {
    format!("unknown scheme '{scheme}' (known: {})", REGISTRY.iter().map(|e| e.id).collect::<Vec<_>>().join(", "))
}

/// Builds a scheme on a chip: like `build`, but schemes whose parameters depend on the
/// chip's timing (RFTL's β, k, j; GFTL's step size) get it. Scenarios use this.
pub fn build_on_chip(scheme: &str, params: &SchemeParams, chip: &Chip) -> Result<Box<dyn Ftl>, String> {
    match entry(scheme).map(|e| e.build) {
        Some(Builder::Chip(build)) => build(params, chip),
        _ => build(scheme, params, &chip.geometry),
    }
}

/// Rebuilds a scheme from the chip alone after a power cut (RAM is lost). The outer
/// error is a power loss during recovery; the inner one a scheme that cannot recover.
pub fn recover(scheme: &str, params: &SchemeParams, flash: &mut Flash) -> FlashResult<Result<Box<dyn Ftl>, String>> {
    match entry(scheme) {
        Some(e) => Ok(Ok((e.recover)(flash, params)?)),
        None => Ok(Err(format!("scheme '{scheme}' has no recovery yet"))),
    }
}

/// Builds a scheme on a chip geometry.
pub fn build(scheme: &str, params: &SchemeParams, geometry: &Geometry) -> Result<Box<dyn Ftl>, String> {
    match entry(scheme).map(|e| e.build) {
        Some(Builder::Geometry(build)) => build(params, geometry),
        Some(Builder::Chip(_)) => Err(format!("scheme '{scheme}' needs the chip's timing: use ftl::build_on_chip")),
        None => Err(unknown(scheme)),
    }
}
