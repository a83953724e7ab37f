//! A scenario: scheme and parameters, chip, workload — plain data shared by the
//! app (as JSON, in the URL) and the CLI.

use serde::{Deserialize, Serialize};
use std::sync::Arc;
use ts_rs::TS;

use crate::ftl::{self, SchemeParams};
use crate::nand::{Chip, Flash};
use crate::precondition::Precondition;
use crate::sim::{Simulator, State};
use crate::trace::gen::Workload;
use crate::trace::Request;

pub mod device;
pub mod load;
pub mod plan;

/// A scenario's chip: a preset, optionally resized (`ScenarioChip` in TypeScript: the web's
/// `ChipSpec` is a preset's description).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(default, deny_unknown_fields)]
#[ts(export, rename = "ScenarioChip")]
pub struct ChipSpec {
    /// A `ChipPreset` name (a string here: an unknown one gets `Chip::preset`'s message).
    #[ts(as = "crate::nand::ChipPreset")]
    pub preset: String,
    #[ts(optional)]
    pub blocks: Option<u32>,
    #[ts(optional)]
    pub pages_per_block: Option<u32>,
}

impl Default for ChipSpec {
    fn default() -> Self {
        ChipSpec { preset: "classroom".into(), blocks: None, pages_per_block: None }
    }
}

impl ChipSpec {
    pub fn chip(&self) -> Result<Chip, String> {
        let mut chip = Chip::preset(&self.preset)?;
        if let Some(b) = self.blocks {
            chip.geometry.blocks = b;
        }
        if let Some(p) = self.pages_per_block {
            chip.geometry.pages_per_block = p;
        }
        chip.geometry.validate()?;
        Ok(chip)
    }
}

/// Unknown top-level fields are ignored (the app keeps view options beside these). The
/// web's scenario type is generated from this one (scripts/gen-types.mjs).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Scenario {
    pub scheme: String,
    #[serde(default)]
    pub params: SchemeParams,
    #[serde(default)]
    pub chip: ChipSpec,
    pub workload: Workload,
    /// A comparison's or sweep's common workload space and preconditioning (issue 16).
    #[serde(flatten)]
    pub run: RunOptions,
}

/// The logical space a comparison's or sweep's workload is generated or fitted in, the
/// same for every run (scenario::plan::plan decides it once for all runs).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(deny_unknown_fields)]
pub struct WorkloadSpace {
    pub logical_pages: u32,
    /// The unit compact renumbers in (the first run's pages per block).
    pub pages_per_block: u32,
}

/// Options of a run beside scheme, chip and workload; absent fields = a plain run.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct RunOptions {
    /// None: the workload fills the scheme's own logical space (a single run).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub workload_space: Option<WorkloadSpace>,
    /// Fill the device before measuring (src/precondition.rs); absent: a fresh (empty) chip.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub precondition: Option<Precondition>,
    /// The timing model (timing.rs, docs/timing.md); None: closed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub timing: Option<crate::timing::TimingConfig>,
    /// A device of channels × dies (ssd, docs/ssd.md): `workload_space` is then the
    /// device's and the chip is each die's. None: one chip, as always.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub device: Option<crate::ssd::Shape>,
}

impl Scenario {
    pub fn from_json(json: &str) -> Result<Scenario, String> {
        // A UTF-8 byte-order mark (editors on Windows write one) is not JSON: skip it.
        let json = json.strip_prefix('\u{feff}').unwrap_or(json);
        serde_json::from_str(json).map_err(|e| format!("invalid scenario: {e}"))
    }

    /// Checks the scheme's parameters before anything is built: a parameter the scheme
    /// does not read is refused (naming the ones it reads, `ftl::scheme_params`), and every
    /// number is range-checked against the chip, in u64 so that values near 2^32 cannot
    /// overflow the schemes' own minimum-block checks. The CLI and the app (through the
    /// Session) both get these messages.
    pub fn validate(&self) -> Result<(), String> {
        let chip = self.chip.chip()?;
        check_params(&self.scheme, &self.params, &chip.geometry)
    }

    /// A fresh chip and scheme, checked once so the factory cannot fail later; with
    /// preconditioning, the chip after it (counters from zero: measuring starts here).
    pub fn fresh(&self) -> Result<State, String> {
        let chip = self.chip.chip()?;
        check_params(&self.scheme, &self.params, &chip.geometry)?;
        let ftl = ftl::build_on_chip(&self.scheme, &self.params, &chip)?;
        let mut state = State::new(Flash::new(chip), ftl);
        if let Some(p) = &self.run.precondition {
            p.apply(&mut state)?;
        }
        Ok(state)
    }

    /// The factory of the state at request 0 given that state built once: a
    /// preconditioned state is kept and cloned (preconditioning a large chip again on
    /// every seek back to the start would cost as much as the fill).
    pub fn factory(&self, first: &State) -> crate::sim::Fresh {
        if self.run.precondition.is_some() {
            // A Mutex makes the kept state Sync (the factory is shared); it is only cloned.
            let keep = std::sync::Mutex::new(first.clone());
            return Arc::new(move || keep.lock().unwrap_or_else(|e| e.into_inner()).clone());
        }
        let mut me = self.clone();
        // The factory needs scheme and chip only: do not keep a trace text alive in it.
        if let Workload::Trace { text, .. } = &mut me.workload {
            *text = String::new();
        }
        Arc::new(move || me.fresh().expect("scenario was validated"))
    }

    /// The logical space the workload is generated or fitted in: the common space of a
    /// comparison, or the scheme's own `logical_pages`. A configuration whose scheme
    /// exports fewer pages than the common space cannot hold the workload: an error,
    /// never another workload.
    pub fn workload_pages(&self, logical_pages: u32) -> Result<u32, String> {
        match self.run.workload_space {
            None => Ok(logical_pages),
            Some(ws) if ws.logical_pages <= logical_pages => Ok(ws.logical_pages),
            Some(ws) => Err(format!(
                "this configuration exports {logical_pages} logical pages, fewer than the {} pages of the comparison's workload: it cannot hold the workload",
                ws.logical_pages
            )),
        }
    }

    pub fn requests(&self, logical_pages: u32, time_shift: bool) -> Result<Vec<Request>, String> {
        let reqs = self.workload.requests(logical_pages)?;
        if !time_shift && reqs.iter().any(|r| r.lpn().is_none()) {
            return Err(format!(
                "the workload uses freeze / unfreeze / revert, which scheme '{}' does not support",
                self.scheme
            ));
        }
        Ok(reqs)
    }

    /// Recovery from the chip alone for this scenario's scheme.
    pub fn recoverer(&self) -> crate::crash::Recover {
        let (scheme, params) = (self.scheme.clone(), self.params.clone());
        Arc::new(move |flash| ftl::recover(&scheme, &params, flash))
    }

    // `build` (the simulator for this scenario) is in trace/load.rs: a trace workload
    // is parsed there, and the parsers sit below the scenario (no module cycle).
}

/// The first JSON value of a file (a scenario, or the first of a file of sweep rows, one
/// per line), streamed: at most `limit` bytes are read, a UTF-8 byte-order mark is
/// skipped, and the errors are one line naming `name` (issue 34: `/dev/zero` grew to
/// 4.1 GB, a BOM gave "expected value at line 1 column 1").
pub fn read_json_value(r: impl std::io::Read, limit: u64, name: &str) -> Result<serde_json::Value, String> {
    use std::io::{BufRead, Read};
    struct Counted<R> {
        inner: R,
        n: u64,
    }
    impl<R: Read> Read for Counted<R> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let k = self.inner.read(buf)?;
            self.n += k as u64;
            Ok(k)
        }
    }
    let mut r = std::io::BufReader::with_capacity(64 << 10, Counted { inner: r.take(limit.saturating_add(1)), n: 0 });
    let head = r.fill_buf().map_err(|e| format!("cannot read {name}: {e}"))?;
    if head.starts_with(b"\xef\xbb\xbf") {
        r.consume(3);
    }
    let first = serde_json::Deserializer::from_reader(&mut r).into_iter::<serde_json::Value>().next();
    let over = r.get_ref().n > limit;
    match first {
        Some(Ok(v)) => Ok(v),
        _ if over => Err(format!("{name} is larger than {} MB: not a scenario file?", limit >> 20)),
        None => Err(format!("{name} is empty")),
        Some(Err(e)) => Err(format!("invalid scenario {name}: {e}")),
    }
}

/// See `Scenario::validate`. The ranges are the registry's (`ftl::ParamSpec`).
pub fn check_params(scheme: &str, p: &SchemeParams, g: &crate::nand::Geometry) -> Result<(), String> {
    let Some(entry) = ftl::entry(scheme) else {
        return Err(format!(
            "unknown scheme '{scheme}' (known: {})",
            ftl::REGISTRY.iter().map(|e| e.id).collect::<Vec<_>>().join(", ")
        ));
    };
    for name in SchemeParams::KEYS {
        if p.get(name).is_some() && !entry.reads(name) {
            let reads = ftl::scheme_params(scheme);
            return Err(format!(
                "scheme '{scheme}' does not read '{name}'; its parameters: {}",
                if reads.is_empty() { "none".to_string() } else { reads.join(", ") }
            ));
        }
    }
    for spec in entry.params {
        if let Some(v) = p.get(spec.key) {
            spec.check(v, g)?;
        }
    }
    Ok(())
}

/// The chip as `Session.info()` states it.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ChipInfo {
    pub name: String,
    pub blocks: u32,
    pub pages_per_block: u32,
    pub page_bytes: u32,
    pub spare_bytes: u32,
    pub timing: ChipTimingInfo,
}

/// A chip's operation times, µs.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ChipTimingInfo {
    pub read_us: f64,
    pub read_oob_us: f64,
    pub program_us: f64,
    pub erase_us: f64,
}

/// Preconditioning as run (`writes`: the random writes and the fill together).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct PreconditionInfo {
    pub fill: bool,
    #[ts(type = "number")]
    pub random_writes: u64,
    #[ts(type = "number")]
    pub seed: u64,
    #[ts(type = "number")]
    pub writes: u64,
}

/// The `Session.info()` / `ftl info` record.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct SessionInfo {
    pub scheme: String,
    /// The scheme's one-line description.
    pub scheme_label: String,
    pub chip: ChipInfo,
    pub logical_pages: u32,
    /// Hybrid schemes: the log blocks the run uses (the parameter or the scheme's default).
    pub log_blocks_used: Option<u32>,
    /// The space the workload was generated or fitted in (a comparison's run), when set.
    pub workload_space: Option<u32>,
    pub precondition: Option<PreconditionInfo>,
    pub total_requests: u32,
    /// FNV-1a 64 of the request list (trace::request_hash): equal hashes, equal requests.
    pub request_hash: String,
    /// The parameters as given.
    #[ts(type = "Record<string, number>")]
    pub params: SchemeParams,
    /// Every parameter the scheme reads with its value on this chip (given or default):
    /// what the app shows beside each run (issue 27).
    #[ts(type = "Record<string, number>")]
    pub params_resolved: std::collections::BTreeMap<&'static str, f64>,
    pub keyframe_interval: u32,
}

/// The `Session.info()` / `ftl info` record.
pub fn info(scenario: &Scenario, sim: &Simulator) -> SessionInfo {
    let s = &sim.state;
    let c = &s.flash.chip;
    let t = c.timing;
    let us = |ns: u64| ns as f64 / 1000.0;
    SessionInfo {
        scheme: s.ftl.name().to_string(),
        scheme_label: ftl::entry(s.ftl.name()).map_or("", |e| e.description).to_string(),
        chip: ChipInfo {
            name: c.name.clone(),
            blocks: c.geometry.blocks,
            pages_per_block: c.geometry.pages_per_block,
            page_bytes: c.geometry.page_bytes,
            spare_bytes: c.geometry.spare_bytes,
            timing: ChipTimingInfo {
                read_us: us(t.read_ns),
                read_oob_us: us(t.read_oob_ns),
                program_us: us(t.program_ns),
                erase_us: us(t.erase_ns),
            },
        },
        logical_pages: s.ftl.logical_pages(),
        log_blocks_used: log_blocks_used(&scenario.scheme, &scenario.params, &c.geometry),
        workload_space: scenario.run.workload_space.map(|w| w.logical_pages),
        precondition: scenario.run.precondition.as_ref().map(|p| PreconditionInfo {
            fill: p.fill,
            random_writes: p.random_writes,
            seed: p.seed,
            writes: p.writes(s.ftl.logical_pages()),
        }),
        total_requests: sim.total() as u32,
        request_hash: sim.request_hash(),
        params: scenario.params.clone(),
        params_resolved: ftl::registry::resolved_params(&scenario.scheme, &scenario.params, &c.geometry)
            .into_iter()
            .collect(),
        keyframe_interval: sim.keyframe_interval() as u32,
    }
}

/// `info` as JSON.
pub fn info_json(scenario: &Scenario, sim: &Simulator) -> String {
    serde_json::to_string(&info(scenario, sim)).unwrap_or_default()
}

/// The number of log blocks a hybrid scheme runs with: the parameter, or the scheme's
/// default on this chip (the registry's; exports state it; None for schemes without log
/// blocks).
pub fn log_blocks_used(scheme: &str, params: &SchemeParams, g: &crate::nand::Geometry) -> Option<u32> {
    let spec = ftl::entry(scheme)?.param("log_blocks")?;
    Some(params.log_blocks.unwrap_or_else(|| spec.default.resolve(g) as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sc(scheme: &str, params: SchemeParams, preset: &str) -> Scenario {
        Scenario {
            scheme: scheme.into(),
            params,
            chip: ChipSpec { preset: preset.into(), blocks: None, pages_per_block: None },
            workload: Workload::Sequential { n: 10 },
            run: Default::default(),
        }
    }

    #[test]
    fn a_parameter_the_scheme_does_not_read_is_refused_naming_its_parameters() {
        let e = sc("bast", SchemeParams { utilisation: Some(0.5), ..Default::default() }, "classroom")
            .build()
            .err()
            .unwrap();
        assert_eq!(e, "scheme 'bast' does not read 'utilisation'; its parameters: log_blocks");
        let e = sc("bast", SchemeParams { k: Some(2), ..Default::default() }, "classroom").validate().unwrap_err();
        assert!(e.contains("'k'") && e.ends_with("log_blocks"), "{e}");
        let e = sc("rftl", SchemeParams { log_blocks: Some(2), ..Default::default() }, "rftl-large")
            .validate()
            .unwrap_err();
        assert!(e.ends_with("its parameters: utilisation"), "{e}");
        // Every scheme accepts exactly the parameters it lists.
        for (scheme, _) in ftl::SCHEMES {
            for &name in ftl::scheme_params(scheme) {
                let mut p = SchemeParams::default();
                match name {
                    "op" => p.op = Some(0.25),
                    "log_blocks" => p.log_blocks = Some(4),
                    "k" => p.k = Some(2),
                    "switch_max" => p.switch_max = Some(2),
                    "fill_max" => p.fill_max = Some(1),
                    "utilisation" => p.utilisation = Some(1.0),
                    "checkpoint_lpns" => p.checkpoint_lpns = Some(8),
                    "cmt_entries" => p.cmt_entries = Some(16),
                    other => panic!("no test value for {other}"),
                }
                let g = Chip::preset("fast2007").unwrap().geometry;
                assert_eq!(check_params(scheme, &p, &g), Ok(()), "{scheme} {name}");
            }
        }
    }

    #[test]
    fn every_number_is_range_checked() {
        let bad = [
            ("page", SchemeParams { op: Some(-1.0), ..Default::default() }, "op"),
            ("page", SchemeParams { op: Some(1.0), ..Default::default() }, "op"),
            ("page", SchemeParams { op: Some(f64::NAN), ..Default::default() }, "op"),
            ("rftl", SchemeParams { utilisation: Some(1.5), ..Default::default() }, "utilisation"),
            ("nftl", SchemeParams { utilisation: Some(0.0), ..Default::default() }, "utilisation"),
            ("gftl", SchemeParams { utilisation: Some(-1.0), ..Default::default() }, "utilisation"),
            ("fast", SchemeParams { log_blocks: Some(u32::MAX), ..Default::default() }, "log_blocks"),
            ("bast", SchemeParams { log_blocks: Some(u32::MAX - 1), ..Default::default() }, "log_blocks"),
            ("kraft", SchemeParams { log_blocks: Some(0), ..Default::default() }, "log_blocks"),
            ("kraft", SchemeParams { k: Some(0), ..Default::default() }, "k (associativity)"),
            ("kast", SchemeParams { k: Some(1 << 20), ..Default::default() }, "k (associativity)"),
            ("fastcheck", SchemeParams { checkpoint_lpns: Some(0), ..Default::default() }, "checkpoint_lpns"),
        ];
        for (scheme, p, name) in bad {
            let e = sc(scheme, p.clone(), "rftl-large").validate().unwrap_err();
            assert!(e.starts_with(name), "{scheme} {p:?}: {e}");
            // The builder refuses it too (no overflow, no panic).
            assert!(sc(scheme, p, "rftl-large").build().is_err());
        }
    }
}
