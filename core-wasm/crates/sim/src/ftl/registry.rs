//! The scheme registry: what a scheme is for the rest of the program. Each scheme file
//! declares its own `SchemeEntry` (id, labels, parameters with their ranges and defaults,
//! cleaning, panels, build and recover); `ftl::REGISTRY` lists them. The CLI, scenarios,
//! the wasm catalog and through it every form of the app read this (docs/architecture.md,
//! "How to add a scheme").

use serde::Serialize;
use ts_rs::TS;

use super::{Cleaning, Ftl, SchemeParams};
use crate::nand::{Chip, Flash, FlashResult, Geometry};

/// A number that is either fixed or derived from the chip's geometry.
#[derive(Clone, Copy, Debug)]
pub enum Value {
    Fixed(f64),
    /// Derived from the chip; the text says how (for the UI and `--help`).
    Chip(fn(&Geometry) -> f64, &'static str),
}

impl Value {
    pub fn resolve(&self, g: &Geometry) -> f64 {
        match self {
            Value::Fixed(v) => *v,
            Value::Chip(f, _) => f(g),
        }
    }
    pub fn fixed(&self) -> Option<f64> {
        match self {
            Value::Fixed(v) => Some(*v),
            Value::Chip(..) => None,
        }
    }
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            Value::Fixed(_) => None,
            Value::Chip(_, rule) => Some(rule),
        }
    }
}

/// One parameter a scheme reads: how the form edits it and the range the core accepts
/// (`scenario::check_params` and the scheme's own constructor check the same range).
#[derive(Clone, Copy, Debug)]
pub struct ParamSpec {
    /// The `SchemeParams` field.
    pub key: &'static str,
    pub label: &'static str,
    /// How the key is named in error messages ("k (associativity)").
    pub what: &'static str,
    /// One line for the form's placeholder and `--help`.
    pub help: &'static str,
    pub min: Value,
    /// The minimum itself is refused (utilisation: > 0).
    pub min_exclusive: bool,
    pub max: Value,
    /// The maximum itself is refused (op: < 1).
    pub max_exclusive: bool,
    pub step: f64,
    pub integer: bool,
    pub default: Value,
    /// Why a scheme narrows the shared range, appended to the range message ("" if none).
    pub why: &'static str,
}

impl ParamSpec {
    /// Whether `v` lies in the range on this chip; the message names the range.
    pub fn check(&self, v: f64, g: &Geometry) -> Result<(), String> {
        let (lo, hi) = (self.min.resolve(g), self.max.resolve(g));
        let above = if self.min_exclusive { v > lo } else { v >= lo };
        let below = if self.max_exclusive { v < hi } else { v <= hi };
        if v.is_finite() && above && below {
            return Ok(());
        }
        let why = if self.why.is_empty() { String::new() } else { format!(": {}", self.why) };
        let range = self.range_text(g);
        let be = if range.starts_with(['[', '(']) { "be in" } else { "be" };
        Err(format!("{} must {be} {range} (got {v}){why}", self.what))
    }

    /// "[0, 1)", "(0, 1]"; with a bound derived from the chip, "at least 1 and at most 15
    /// (fewer than the chip's blocks)".
    pub fn range_text(&self, g: &Geometry) -> String {
        let (lo, hi) = (self.min.resolve(g), self.max.resolve(g));
        let rule = [self.min.rule(), self.max.rule()].into_iter().flatten().collect::<Vec<_>>().join("; ");
        if rule.is_empty() {
            return format!(
                "{}{lo}, {hi}{}",
                if self.min_exclusive { "(" } else { "[" },
                if self.max_exclusive { ")" } else { "]" }
            );
        }
        format!(
            "{} {lo} and {} {hi} ({rule})",
            if self.min_exclusive { "more than" } else { "at least" },
            if self.max_exclusive { "less than" } else { "at most" }
        )
    }
}

/// Scheme-specific panels of the app, chosen by kind (never by scheme id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
#[serde(rename_all = "snake_case")]
pub enum PanelKind {
    /// Response time per request (strip) and its histogram: real-time schemes.
    ResponseTimes,
    /// The GFTL worst-case bound drawn beside RFTL's on the response-time chart.
    GftlBound,
    /// RFTL's primary / replacement / buffer groups (the device view groups blocks by 3).
    RftlBlockMap,
    /// KRAFT/KAST log blocks: strip, associativity chart.
    KraftLogBlocks,
    /// KRAFT's relative-addressing table (Figures 2/3); not KAST's, which has none.
    KraftRelative,
    /// Mapping RAM, FAST vs KRAFT accounting.
    KraftRam,
    /// The same, for a scheme whose own RAM is accounted as FAST's (KAST).
    KraftRamAsFast,
    /// LTFTL's frozen states and time-shift controls.
    FrozenStates,
}

/// How a scheme is built: most need the geometry only; real-time schemes need the
/// chip's timing too (their parameters derive from it).
#[derive(Clone, Copy)]
pub enum Builder {
    Geometry(fn(&SchemeParams, &Geometry) -> Built),
    Chip(fn(&SchemeParams, &Chip) -> Built),
}

/// A scheme built, or why not.
pub type Built = Result<Box<dyn Ftl>, String>;

/// How a scheme maps logical pages, in the papers' terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mapping {
    /// Page mapping (the page-mapping FTL, LTFTL).
    Page,
    /// Block mapping with replacement or buffer blocks (NFTL, RFTL, GFTL).
    Block,
    /// Hybrid log-block mapping (BAST, FAST and its variants, KRAFT, KAST): one log-block
    /// budget for all of them, `HYBRID_LOG_BLOCKS` (issue 27).
    Hybrid,
}

/// A kind of cleaning run a scheme performs, by the counter it shows under (docs/cli.md,
/// "When a merge or a GC run counts").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Run {
    /// A GC run within one request (page mapping, LTFTL): `gc_runs`.
    Gc,
    /// A partial GC: one GC run spread over several requests, one step per write (RFTL's
    /// distributed GC, GFTL's partial block cleaning): `gc_runs`, counted per logical block.
    PartialGc,
    /// A switch merge: `switch_merges`.
    Switch,
    /// A partial merge: `partial_merges`.
    PartialMerge,
    /// A full merge: `full_merges`.
    FullMerge,
}

impl Run {
    /// The cause its flash operations carry, as `nand::Cause` names it in events.
    pub fn cause(self) -> crate::nand::Cause {
        use crate::nand::Cause;
        match self {
            Run::Gc | Run::PartialGc => Cause::Gc,
            Run::Switch => Cause::Switch,
            Run::PartialMerge => Cause::PartialMerge,
            Run::FullMerge => Cause::FullMerge,
        }
    }
}

/// A scheme's geometry rule: whether it runs on this chip with these parameters (its
/// minimum sizes, RFTL's pi >= 2k + j, GFTL's pages per block ...), answered without
/// building anything; the scheme's constructor refuses exactly what this refuses, with the
/// same message (tests: `fit::tests`, which compare it with trial construction).
pub type Fits = fn(&SchemeParams, &Chip) -> Result<(), String>;

/// A scheme, as its file declares it.
#[derive(Clone, Copy)]
pub struct SchemeEntry {
    /// The id in scenarios and the CLI; the scheme's `name()`.
    pub id: &'static str,
    /// The picker's name ("O-FAST (lazy merge)").
    pub label: &'static str,
    /// The shortest name ("O-FAST").
    pub short_label: &'static str,
    /// One line for the UI and `ftl list`.
    pub description: &'static str,
    /// The parameters it reads, in form order.
    pub params: &'static [ParamSpec],
    pub cleaning: Cleaning,
    /// The kinds of cleaning run it performs (consistent with `cleaning`: GC runs for
    /// `Cleaning::Gc`, merges for `Cleaning::Merges`).
    pub runs: &'static [Run],
    /// The kinds of `runs` only particular states lead to, so that a random walk may show
    /// none (KAST's partial merge: a victim that happens to be serial and not full).
    pub seldom: &'static [Run],
    pub mapping: Mapping,
    pub panels: &'static [PanelKind],
    pub build: Builder,
    /// The geometry rule (`Fits`): what `build` refuses, without building.
    pub fits: Fits,
    /// Rebuilds the scheme from the chip alone after a power cut (RAM is lost).
    pub recover: fn(&mut Flash, &SchemeParams) -> FlashResult<Box<dyn Ftl>>,
}

impl SchemeEntry {
    pub fn param(&self, key: &str) -> Option<&'static ParamSpec> {
        self.params.iter().find(|p| p.key == key)
    }
    pub fn reads(&self, key: &str) -> bool {
        self.param(key).is_some()
    }
    /// Whether one GC run spreads over several requests (`Run::PartialGc`).
    pub fn partial_gc(&self) -> bool {
        self.runs.contains(&Run::PartialGc)
    }
}

/// Every parameter a scheme reads, with its value on this chip: the one given, or the
/// scheme's default resolved (what every output states beside a run, issue 27).
pub fn resolved_params(scheme: &str, params: &SchemeParams, g: &Geometry) -> Vec<(&'static str, f64)> {
    let Some(e) = super::entry(scheme) else { return Vec::new() };
    e.params.iter().map(|spec| (spec.key, params.get(spec.key).unwrap_or_else(|| spec.default.resolve(g)))).collect()
}

// Building blocks the scheme files share (each takes them as they are or overrides a field).

fn blocks_minus_one(g: &Geometry) -> f64 {
    g.blocks as f64 - 1.0
}
fn blocks(g: &Geometry) -> f64 {
    g.blocks as f64
}
/// The chip's pages, or FastCheck's default (a page of 4-byte LPNs) where that is more:
/// the default must be accepted when given (before the registry, `check_params` refused
/// page size / 4 on chips with fewer pages, e.g. 128 on the 64-page classroom chip).
fn pages_or_default(g: &Geometry) -> f64 {
    (g.blocks as f64 * g.pages_per_block as f64).max((g.page_bytes / 4) as f64)
}

pub const OP: ParamSpec = ParamSpec {
    key: "op",
    label: "Over-provisioning",
    what: "op (over-provisioning ratio)",
    help: "core default",
    min: Value::Fixed(0.0),
    min_exclusive: false,
    max: Value::Fixed(1.0),
    max_exclusive: true,
    step: 0.05,
    integer: false,
    default: Value::Fixed(0.25),
    why: "",
};

/// The one rule for the hybrid (log-block) schemes' defaults (issue 27): BAST, FAST and
/// its variants (O-FAST, FastCheck, fast-ltlog), KRAFT and KAST all default to the same
/// log-block budget, so that a comparison of defaults compares the schemes on one budget,
/// as the KRAFT paper does (section 3: FAST, KAST and FFTL with 128 log blocks each; its
/// "same RAM" comparison, KRAFT with twice as many, is `ftl ram` and the app's RAM
/// panel). The count is the FAST paper's smallest configuration of Figure 10 (and section
/// 3.7's examples): 4. LTFTL's log section is not a log-block budget (its own rule); NFTL
/// has replacement blocks, not a parameter.
pub const HYBRID_LOG_BLOCKS: u32 = 4;

/// Log blocks: fewer than the chip's blocks (this rules out overflow in each scheme's
/// own check of its exact minimum of log + spare + data blocks, which then gives the
/// message). The default is the hybrid rule (`HYBRID_LOG_BLOCKS`).
pub const LOG_BLOCKS: ParamSpec = ParamSpec {
    key: "log_blocks",
    label: "Log blocks",
    what: "log_blocks",
    help: "core default",
    min: Value::Fixed(1.0),
    min_exclusive: false,
    max: Value::Chip(blocks_minus_one, "fewer than the chip's blocks"),
    max_exclusive: false,
    step: 1.0,
    integer: true,
    default: Value::Fixed(HYBRID_LOG_BLOCKS as f64),
    why: "",
};

/// K = log blocks is full associativity and K > N is clamped to N slots (KRAFT); beyond
/// the chip's blocks it means nothing.
pub const K: ParamSpec = ParamSpec {
    key: "k",
    label: "Associativity K",
    what: "k (associativity)",
    help: "core default",
    min: Value::Fixed(1.0),
    min_exclusive: false,
    max: Value::Chip(blocks, "at most the chip's blocks"),
    max_exclusive: false,
    step: 1.0,
    integer: true,
    default: Value::Fixed(8.0),
    why: "",
};

/// A threshold on a page count: 0 = never, >= N = always; every u32 is meaningful.
pub const SWITCH_MAX: ParamSpec = ParamSpec {
    key: "switch_max",
    label: "Switch threshold (pages)",
    what: "switch_max",
    help: "default N/2",
    min: Value::Fixed(0.0),
    min_exclusive: false,
    max: Value::Fixed(u32::MAX as f64),
    max_exclusive: false,
    step: 1.0,
    integer: true,
    default: Value::Chip(|g| (g.pages_per_block / 2) as f64, "N/2"),
    why: "",
};

pub const FILL_MAX: ParamSpec = ParamSpec {
    key: "fill_max",
    label: "Fill threshold (pages)",
    what: "fill_max",
    help: "default N/4",
    default: Value::Chip(|g| (g.pages_per_block / 4).max(1) as f64, "max(1, N/4)"),
    ..SWITCH_MAX
};

pub const UTILISATION: ParamSpec = ParamSpec {
    key: "utilisation",
    label: "Utilisation",
    what: "utilisation",
    help: "core default",
    min: Value::Fixed(0.0),
    min_exclusive: true,
    max: Value::Fixed(1.0),
    max_exclusive: false,
    step: 0.05,
    integer: false,
    default: Value::Fixed(1.0),
    why: "",
};

pub const CHECKPOINT_LPNS: ParamSpec = ParamSpec {
    key: "checkpoint_lpns",
    label: "Checkpoint LPNs per region",
    what: "checkpoint_lpns",
    help: "core default",
    min: Value::Fixed(1.0),
    min_exclusive: false,
    max: Value::Chip(pages_or_default, "at most the chip's pages or page size / 4 B"),
    max_exclusive: false,
    step: 1.0,
    integer: true,
    default: Value::Chip(|g| (g.page_bytes / 4).max(1) as f64, "page size / 4 B"),
    why: "",
};

#[cfg(test)]
mod tests {
    use super::super::{build_on_chip, entry, recover, scheme_cleaning, scheme_params, REGISTRY, SCHEMES};
    use super::*;
    use crate::nand::PRESET_NAMES;

    /// The chips the tests try, smallest first.
    fn chips() -> Vec<Chip> {
        PRESET_NAMES.iter().map(|n| Chip::preset(n).unwrap()).collect()
    }

    #[test]
    fn ids_are_unique_and_every_lookup_reads_the_registry() {
        let mut ids: Vec<_> = REGISTRY.iter().map(|e| e.id).collect();
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), REGISTRY.len(), "duplicate ids in ftl::REGISTRY");
        assert_eq!(SCHEMES.len(), REGISTRY.len());
        for (e, s) in REGISTRY.iter().zip(SCHEMES) {
            assert_eq!((e.id, e.description), *s);
            assert_eq!(entry(e.id).map(|x| x.id), Some(e.id));
            assert_eq!(scheme_params(e.id).to_vec(), e.params.iter().map(|p| p.key).collect::<Vec<_>>());
            assert_eq!(scheme_cleaning(e.id), e.cleaning);
            // The runs name the counters `cleaning` says it uses.
            assert!(!e.runs.is_empty(), "{}: no kind of cleaning run", e.id);
            assert!(e.seldom.iter().all(|r| e.runs.contains(r)), "{}: seldom runs it does not perform", e.id);
            for r in e.runs {
                let gc = matches!(r, Run::Gc | Run::PartialGc);
                assert_eq!(gc, e.cleaning == Cleaning::Gc, "{}: run {r:?} with cleaning {:?}", e.id, e.cleaning);
            }
            assert!(!e.label.is_empty() && !e.short_label.is_empty() && !e.description.is_empty(), "{}", e.id);
            let mut keys: Vec<_> = e.params.iter().map(|p| p.key).collect();
            keys.sort();
            keys.dedup();
            assert_eq!(keys.len(), e.params.len(), "{}: a parameter listed twice", e.id);
            for p in e.params {
                assert!(SchemeParams::KEYS.contains(&p.key), "{}: '{}' is not a SchemeParams field", e.id, p.key);
            }
        }
        assert!(entry("no-such-scheme").is_none());
    }

    #[test]
    fn every_entry_builds_a_scheme_named_by_its_id_and_recovers_it() {
        for e in REGISTRY {
            // The first preset (smallest first) it runs on with its defaults.
            let built = chips()
                .into_iter()
                .find_map(|c| build_on_chip(e.id, &SchemeParams::default(), &c).ok().map(|f| (c, f)));
            let Some((chip, ftl)) = built else { panic!("{} builds on no preset chip", e.id) };
            assert_eq!(ftl.name(), e.id, "the scheme built by entry '{}' names itself '{}'", e.id, ftl.name());
            let mut flash = Flash::new(chip);
            let back = recover(e.id, &SchemeParams::default(), &mut flash).unwrap().unwrap();
            assert_eq!(back.name(), e.id, "the scheme recovered by entry '{}'", e.id);
        }
    }

    /// One rule for the hybrid schemes' log blocks (issue 27): the same default on every chip.
    #[test]
    fn every_hybrid_scheme_defaults_to_the_same_log_block_budget() {
        for e in REGISTRY {
            let hybrid = e.mapping == Mapping::Hybrid;
            let Some(p) = e.param("log_blocks") else {
                assert!(!hybrid, "{} is listed as hybrid but reads no log_blocks", e.id);
                continue;
            };
            for c in chips() {
                let d = p.default.resolve(&c.geometry);
                if hybrid {
                    assert_eq!(d, HYBRID_LOG_BLOCKS as f64, "{} on {}", e.id, c.name);
                    // The scheme's own default (no parameter given) is the registry's.
                    let given = SchemeParams { log_blocks: Some(HYBRID_LOG_BLOCKS), ..Default::default() };
                    if let (Ok(a), Ok(b)) =
                        (build_on_chip(e.id, &SchemeParams::default(), &c), build_on_chip(e.id, &given, &c))
                    {
                        assert_eq!(a.logical_pages(), b.logical_pages(), "{} on {}", e.id, c.name);
                    }
                } else {
                    // A scheme of another mapping with log blocks (LTFTL's log section) has its own rule.
                    assert_ne!(
                        d, HYBRID_LOG_BLOCKS as f64,
                        "{} on {}: not hybrid, but the hybrid default",
                        e.id, c.name
                    );
                }
            }
        }
    }

    #[test]
    fn every_default_lies_in_its_range_on_every_chip() {
        for e in REGISTRY {
            for c in chips() {
                let g = &c.geometry;
                for p in e.params {
                    let d = p.default.resolve(g);
                    assert_eq!(p.check(d, g), Ok(()), "{} {} on {}", e.id, p.key, c.name);
                    if p.integer {
                        assert_eq!(d.fract(), 0.0, "{} {}: an integer parameter with default {d}", e.id, p.key);
                    }
                    assert!(p.step > 0.0, "{} {}", e.id, p.key);
                }
            }
        }
    }

    #[test]
    fn a_default_given_explicitly_builds_the_same_scheme_as_no_parameter() {
        for e in REGISTRY {
            for c in chips() {
                let Ok(ftl) = build_on_chip(e.id, &SchemeParams::default(), &c) else { continue };
                let mut p = SchemeParams::default();
                for spec in e.params {
                    assert!(p.set(spec.key, spec.default.resolve(&c.geometry)), "no field for {}", spec.key);
                }
                let explicit = build_on_chip(e.id, &p, &c).unwrap();
                assert_eq!(explicit.logical_pages(), ftl.logical_pages(), "{} on {}", e.id, c.name);
                assert_eq!(explicit.ram_bytes(), ftl.ram_bytes(), "{} on {}", e.id, c.name);
                // Not scheme_metrics: FastCheck reports checkpoint_lpns also as LTFTL records per
                // page, whose own default differs (page size / 16 B).
            }
        }
    }

    /// docs/architecture.md's "How to add a scheme" shows every field of an entry and the
    /// registry line, and each entry is one line of ftl::REGISTRY in ftl/mod.rs.
    #[test]
    fn the_how_to_add_a_scheme_section_stays_true() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../..");
        let doc = std::fs::read_to_string(format!("{root}/docs/architecture.md")).unwrap();
        let at = doc.find("### How to add a scheme").expect("the section exists");
        let section = &doc[at..at + doc[at + 4..].find("\n#").map_or(doc.len() - at, |n| n + 4)];
        let e = &REGISTRY[0];
        let SchemeEntry {
            id: _,
            label: _,
            short_label: _,
            description: _,
            params: _,
            cleaning: _,
            runs: _,
            seldom: _,
            mapping: _,
            panels: _,
            build: _,
            fits: _,
            recover: _,
        } = **e;
        for field in [
            "id:",
            "label:",
            "short_label:",
            "description:",
            "params:",
            "cleaning:",
            "runs:",
            "seldom:",
            "mapping:",
            "panels:",
            "build:",
            "fits:",
            "recover:",
        ] {
            assert!(section.contains(field), "the example entry lacks `{field}`");
        }
        assert!(section.contains("ftl::REGISTRY") && section.contains("<scheme>: ENTRY;"));
        // Each line of the registry! block is `<module>: <entries>;`, and declares the module.
        let mod_rs = std::fs::read_to_string(format!("{root}/core-wasm/crates/sim/src/ftl/mod.rs")).unwrap();
        let block = &mod_rs[mod_rs.find("\nregistry! {").expect("the registry! block")..];
        let block = &block[..block.find("\n}").unwrap()];
        let entries: usize = block
            .lines()
            .map(str::trim)
            .filter(|l| !l.starts_with("//") && l.ends_with(';'))
            .map(|l| l.split_once(':').expect("<module>: <entries>;").1.split(',').count())
            .sum();
        assert_eq!(entries, REGISTRY.len(), "the registry! block lists every entry, one module a line");
        assert!(!mod_rs.contains("pub mod page;"), "scheme modules are declared by the registry! block");
    }
}
