//! Preconditioning: fill the device before measuring, as fio's and the SNIA SSS PTS's
//! steady-state tests do (a sequential fill of the logical space, then random writes),
//! so that a scheme with plenty of free space (page mapping on a fresh chip) is not
//! measured before it ever has to collect garbage. None of the papers measures a fresh
//! chip either: FAST (section 4) and KAST run their traces on a chip whose logical space
//! is already written.
//!
//! Choices (docs/compare.md): the fill covers the configuration's own exported logical
//! space (it is the device that is filled, so over-provisioning and utilisation keep
//! their meaning; the measured workload is the same for every run of a comparison). The
//! preconditioned chip is the state at request 0; counters (operations, flash time,
//! merges, host latencies) start from zero there, the per-block erase counts (wear) are
//! kept, and the reference model keeps every preconditioning write so that reads of
//! filled pages are checked too.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::metrics::HostCounters;
use crate::sim::State;
use crate::trace::rng::SplitMix64;
use crate::trace::Request;

/// Fill the device before measuring: metrics count only what runs after it (request 0
/// is the filled chip).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
#[serde(default, deny_unknown_fields)]
pub struct Precondition {
    /// Write every logical page once, 0, 1, 2, ... (a sequential fill).
    pub fill: bool,
    /// Then this many writes to uniformly random logical pages.
    #[ts(type = "number")]
    pub random_writes: u64,
    /// Seed of the random writes.
    #[ts(type = "number")]
    pub seed: u64,
}

impl Default for Precondition {
    fn default() -> Self {
        Precondition { fill: true, random_writes: 0, seed: 1 }
    }
}

/// More preconditioning writes than this are refused (a run must stay interactive).
pub const MAX_RANDOM_WRITES: u64 = 50_000_000;

impl Precondition {
    /// `fill`, `fill,random=100000`, `random=5000,seed=3`, `none` (the CLI's `--precondition`).
    pub fn parse(spec: &str) -> Result<Option<Precondition>, String> {
        let spec = spec.trim();
        if spec.is_empty() || spec == "none" {
            return Ok(None);
        }
        let mut p = Precondition { fill: false, random_writes: 0, seed: 1 };
        for part in spec.split([',', '+']).map(str::trim).filter(|s| !s.is_empty()) {
            let (k, v) = part.split_once('=').map(|(k, v)| (k.trim(), Some(v.trim()))).unwrap_or((part, None));
            let num = |v: Option<&str>| -> Result<u64, String> {
                v.ok_or_else(|| format!("--precondition: '{k}' needs a value ({k}=N)"))?
                    .replace('_', "")
                    .parse::<u64>()
                    .map_err(|_| format!("--precondition: '{part}' is not {k}=<whole number>"))
            };
            match k {
                "fill" | "seq" | "sequential" => p.fill = true,
                "random" => p.random_writes = num(v)?,
                "seed" => p.seed = num(v)?,
                _ => {
                    return Err(format!(
                        "--precondition: unknown part '{part}' (expected fill, random=N, seed=S or none)"
                    ))
                }
            }
        }
        p.validate()?;
        Ok(Some(p))
    }

    pub fn validate(&self) -> Result<(), String> {
        if !self.fill && self.random_writes == 0 {
            return Err("preconditioning does nothing: choose a fill, random writes or both".into());
        }
        if self.random_writes > MAX_RANDOM_WRITES {
            return Err(format!(
                "at most {MAX_RANDOM_WRITES} preconditioning random writes (got {})",
                self.random_writes
            ));
        }
        Ok(())
    }

    /// The preconditioning writes over `logical_pages` pages.
    pub fn requests(&self, logical_pages: u32) -> impl Iterator<Item = Request> + '_ {
        let fill = if self.fill { logical_pages } else { 0 };
        let mut rng = SplitMix64::new(self.seed);
        let space = logical_pages.max(1) as u64;
        (0..fill)
            .map(|lpn| Request::Write { lpn })
            .chain((0..self.random_writes).map(move |_| Request::Write { lpn: rng.below(space) as u32 }))
    }

    pub fn writes(&self, logical_pages: u32) -> u64 {
        (if self.fill { logical_pages as u64 } else { 0 }) + self.random_writes
    }

    /// Runs the preconditioning on `state` (fresh, at request 0) and starts measuring:
    /// counters from zero, contents, wear and the reference model kept.
    pub fn apply(&self, state: &mut State) -> Result<(), String> {
        self.validate()?;
        if state.pos != 0 {
            return Err("preconditioning runs on a fresh chip only".into());
        }
        let recording = state.flash.recording();
        state.flash.set_recording(false);
        for (i, r) in self.requests(state.ftl.logical_pages()).enumerate() {
            state.exec(r).map_err(|e| format!("preconditioning write {} failed: {e}", i + 1))?;
        }
        state.flash.set_recording(recording);
        state.flash.reset_counters();
        state.host = HostCounters::default();
        state.pos = 0;
        Ok(())
    }
}
