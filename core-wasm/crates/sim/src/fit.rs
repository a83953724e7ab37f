//! Does a scheme run on a chip, and if not, on which of the form's candidate chips: the
//! answer comes from the registry (each parameter's range, `ParamSpec::check`, and the
//! scheme's geometry rule, `SchemeEntry::fits`), never from building the scheme. The app's
//! scenario form asks on every edit and when a scheme is picked (web/src/sim/schemeFit.ts).

use serde::Serialize;
use ts_rs::TS;

use crate::ftl::{self, SchemeParams};
use crate::nand::Chip;
use crate::scenario::{check_params, ChipSpec, Scenario};

/// Whether `scheme` with `params` runs on `chip`: the chip's geometry, the parameters'
/// ranges on it, then the scheme's own rule; the message is the one building it would give.
pub fn check(scheme: &str, params: &SchemeParams, chip: &ChipSpec) -> Result<(), String> {
    check_chip(scheme, params, &chip.chip()?)
}

/// `check` on a chip itself (a preset whose geometry a caller changed in place).
pub fn check_chip(scheme: &str, params: &SchemeParams, chip: &Chip) -> Result<(), String> {
    chip.geometry.validate()?;
    check_params(scheme, params, &chip.geometry)?;
    match ftl::entry(scheme) {
        Some(e) => (e.fits)(params, chip),
        None => Err(format!("unknown scheme '{scheme}'")),
    }
}

/// Whether the scheme takes this chip (`check_chip`): the power-cut tests' chip
/// generators (`min_blocks`, `min_pages_per_block`) ask this for many sizes.
pub fn accepts(scheme: &str, params: &SchemeParams, chip: &Chip) -> bool {
    check_chip(scheme, params, chip).is_ok()
}

/// The fewest pages per block, doubling from `from` up to 4096, on which the scheme takes
/// `chip` with its blocks (RFTL and GFTL need more than small blocks: section 4.5's
/// pi >= 2k + j, GFTL's steps; the rule is the registry's, on the chip's timing).
pub fn min_pages_per_block(scheme: &str, params: &SchemeParams, chip: &Chip, from: u32) -> Option<u32> {
    let mut c = chip.clone();
    std::iter::successors(Some(from.max(1)), |p| (*p < 4096).then_some(p * 2)).find(|&ppb| {
        c.geometry.pages_per_block = ppb;
        accepts(scheme, params, &c)
    })
}

/// The fewest blocks a chip of `chip`'s preset with `pages_per_block` pages a block may have
/// for `scheme` with `params`: the smallest block count the registry accepts — its
/// parameter ranges (`ParamSpec::check`, as scenarios check them) and its geometry rule
/// (`fit::accepts`), answered without building — tried
/// upwards to `MIN_BLOCKS_SEARCH`. None when no such chip builds (RFTL on 2-page blocks).
/// Generators of chips for power-cut tests start here, so no per-scheme table of minimums
/// can drift from the schemes.
pub fn min_blocks(scheme: &str, params: &SchemeParams, chip: &str, pages_per_block: u32) -> Option<u32> {
    ftl::entry(scheme)?;
    let mut c = Chip::preset(chip).ok()?;
    c.geometry.pages_per_block = pages_per_block;
    (2..=MIN_BLOCKS_SEARCH).find(|&b| {
        c.geometry.blocks = b;
        accepts(scheme, params, &c)
    })
}

/// How far `min_blocks` looks.
pub const MIN_BLOCKS_SEARCH: u32 = 1024;

/// `check` for a scenario's scheme, parameters and chip, and the run options that are
/// checked without a run (preconditioning, timing); the workload is not looked at.
pub fn check_geometry(s: &Scenario) -> Result<(), String> {
    check(&s.scheme, &s.params, &s.chip)?;
    check_run_options(s)
}

fn check_run_options(s: &Scenario) -> Result<(), String> {
    if let Some(p) = &s.run.precondition {
        p.validate()?;
    }
    if let Some(t) = &s.run.timing {
        t.check()?;
    }
    Ok(())
}

/// `fit_chip` for a scenario: run options no chip can mend (preconditioning, timing) are
/// refused on every chip, so no chip is picked: the scenario chip's message, else theirs.
pub fn fit_scenario(s: &Scenario, candidates: &[ChipSpec]) -> Result<Fit, String> {
    if let Err(e) = check_run_options(s) {
        return Err(check(&s.scheme, &s.params, &s.chip).err().unwrap_or(e));
    }
    fit_chip(&s.scheme, &s.params, &s.chip, candidates)
}

/// The chip to run a scheme on (`fit_chip()` of the wasm module; `ChipFit` in TypeScript,
/// beside the trace's `Fit`).
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
#[ts(export, rename = "ChipFit")]
pub struct Fit {
    pub chip: ChipSpec,
    /// Why the chip asked for was refused (`check`'s message); None when it fits.
    pub refused: Option<String>,
}

/// The chip asked for when the scheme runs on it, else the first of `candidates` (the
/// caller's, nearest first) it runs on; Err: the first chip's refusal when none does.
pub fn fit_chip(scheme: &str, params: &SchemeParams, chip: &ChipSpec, candidates: &[ChipSpec]) -> Result<Fit, String> {
    let Err(first) = check(scheme, params, chip) else {
        return Ok(Fit { chip: chip.clone(), refused: None });
    };
    match candidates.iter().find(|c| check(scheme, params, c).is_ok()) {
        Some(c) => Ok(Fit { chip: c.clone(), refused: Some(first) }),
        None => Err(first),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nand::{Chip, PRESET_NAMES};
    use crate::trace::gen::Workload;

    /// The old method, kept here as the oracle: build the scenario (one write) and report
    /// its error, as the app's page did with a throw-away Session before `fits` existed.
    fn by_construction(scheme: &str, params: &SchemeParams, chip: &ChipSpec) -> Result<(), String> {
        let s = Scenario {
            scheme: scheme.into(),
            params: params.clone(),
            chip: chip.clone(),
            workload: Workload::Pattern { text: "w0".into() },
            run: Default::default(),
        };
        s.validate()?;
        s.build().map(|_| ())
    }

    /// Chips around every scheme's limits: each preset (its page and spare sizes, timing)
    /// at small block counts and pages per block.
    fn chips() -> Vec<ChipSpec> {
        let mut out = Vec::new();
        for preset in PRESET_NAMES {
            for blocks in [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 16, 17, 20, 24, 32, 48, 64] {
                for ppb in [1, 2, 3, 4, 6, 8, 12, 16, 24, 32, 48, 64] {
                    out.push(ChipSpec { preset: preset.to_string(), blocks: Some(blocks), pages_per_block: Some(ppb) });
                }
            }
            out.push(ChipSpec { preset: preset.to_string(), blocks: Some(16), pages_per_block: None });
        }
        out
    }

    /// The scheme's defaults, then each parameter at its minimum, maximum, default and a
    /// few small values on this chip (read from the registry).
    fn params_of(scheme: &str, chip: &ChipSpec) -> Vec<SchemeParams> {
        let mut out = vec![SchemeParams::default()];
        let (Some(e), Ok(c)) = (ftl::entry(scheme), chip.chip()) else { return out };
        let g = &c.geometry;
        for spec in e.params {
            let mut values = vec![spec.min.resolve(g), spec.max.resolve(g), spec.default.resolve(g)];
            if spec.integer {
                values.extend([0.0, 1.0, 2.0, 3.0, 5.0, 8.0, 15.0, 31.0]);
            } else {
                values.extend([0.1, 0.5, 0.9]);
            }
            for v in values {
                let mut p = SchemeParams::default();
                if v.is_finite() && v >= 0.0 && v <= u32::MAX as f64 && p.set(spec.key, v) {
                    out.push(p);
                }
            }
        }
        out
    }

    /// The old `registry::accepts`, kept as the oracle: the parameters given in range, and
    /// the scheme built on the chip with some logical space.
    fn accepts_by_construction(scheme: &str, params: &SchemeParams, chip: &Chip) -> bool {
        let Some(e) = ftl::entry(scheme) else { return false };
        let g = &chip.geometry;
        g.validate().is_ok()
            && e.params.iter().all(|spec| params.get(spec.key).is_none_or(|v| spec.check(v, g).is_ok()))
            && ftl::build_on_chip(scheme, params, chip).is_ok_and(|f| f.logical_pages() > 0)
    }

    /// `accepts` answers as building did, for every scheme on every preset's chips of 1..=64
    /// blocks x 1..=16 pages per block (the defaults), and on the classroom ones with each
    /// parameter at its bounds and small values.
    #[test]
    fn accepts_answers_as_trial_construction_did() {
        let (mut tried, mut taken) = (0u32, 0u32);
        for e in ftl::REGISTRY {
            for preset in PRESET_NAMES {
                let mut chip = Chip::preset(preset).unwrap();
                for blocks in 1..=64 {
                    for ppb in 1..=16 {
                        chip.geometry.blocks = blocks;
                        chip.geometry.pages_per_block = ppb;
                        let spec =
                            ChipSpec { preset: preset.to_string(), blocks: Some(blocks), pages_per_block: Some(ppb) };
                        let sets =
                            if *preset == "classroom" { params_of(e.id, &spec) } else { vec![SchemeParams::default()] };
                        for p in sets {
                            let old = accepts_by_construction(e.id, &p, &chip);
                            assert_eq!(accepts(e.id, &p, &chip), old, "{} {p:?} on {preset} {blocks}x{ppb}", e.id);
                            tried += 1;
                            taken += old as u32;
                        }
                    }
                }
            }
        }
        eprintln!("accepts: {taken} taken of {tried} (scheme, chip, parameters)");
        assert!(taken > 10_000 && tried - taken > 10_000, "{taken} taken of {tried}");
    }

    #[test]
    fn min_pages_per_block_is_the_doubling_search_over_accepts() {
        for e in ftl::REGISTRY {
            for blocks in [8, 16, 32, 64] {
                let mut chip = Chip::preset("classroom").unwrap();
                chip.geometry.blocks = blocks;
                let p = SchemeParams::default();
                let old = std::iter::successors(Some(2u32), |p| (*p < 4096).then_some(p * 2)).find(|&ppb| {
                    chip.geometry.pages_per_block = ppb;
                    accepts_by_construction(e.id, &p, &chip)
                });
                assert_eq!(min_pages_per_block(e.id, &p, &chip, 2), old, "{} on {blocks} blocks", e.id);
            }
        }
    }

    #[test]
    fn the_registry_rule_refuses_what_construction_refuses_with_the_same_message() {
        let (mut tried, mut refused) = (0, 0);
        for e in ftl::REGISTRY {
            for chip in chips() {
                for params in params_of(e.id, &chip) {
                    let want = by_construction(e.id, &params, &chip);
                    assert_eq!(check(e.id, &params, &chip), want, "{} {:?} on {:?}", e.id, params, chip);
                    tried += 1;
                    refused += want.is_err() as u32;
                }
            }
        }
        // Both answers occur often enough for the comparison to mean something.
        assert!(refused > 1000 && tried - refused > 1000, "{refused} refused of {tried}");
    }

    /// The form's candidates (web/src/sim/schemeFit.ts): more pages per block, then more
    /// blocks, then the other presets.
    fn candidates(chip: &ChipSpec) -> Vec<ChipSpec> {
        let g = Chip::preset(&chip.preset).unwrap().geometry;
        let (blocks, ppb) = (chip.blocks.unwrap_or(g.blocks), chip.pages_per_block.unwrap_or(g.pages_per_block));
        let mut out = Vec::new();
        for p in [ppb, 8, 16, 32, 64].into_iter().filter(|&p| p >= ppb) {
            for b in [blocks, 16, 24, 32, 48, 64].into_iter().filter(|&b| b >= blocks) {
                out.push(ChipSpec { preset: chip.preset.clone(), blocks: Some(b), pages_per_block: Some(p) });
            }
        }
        for other in PRESET_NAMES.iter().filter(|&&n| n != chip.preset) {
            let g = Chip::preset(other).unwrap().geometry;
            out.push(ChipSpec {
                preset: other.to_string(),
                blocks: Some(16),
                pages_per_block: Some(g.pages_per_block),
            });
        }
        out
    }

    #[test]
    fn fit_chip_picks_the_chip_trial_construction_picks() {
        for e in ftl::REGISTRY {
            for chip in chips().into_iter().filter(|c| c.blocks.unwrap_or(0) <= 16) {
                let cands = candidates(&chip);
                for params in params_of(e.id, &chip).into_iter().take(3) {
                    // The old method: construct on the chip, then on each candidate in turn.
                    let old = match by_construction(e.id, &params, &chip) {
                        Ok(()) => Ok(Fit { chip: chip.clone(), refused: None }),
                        Err(first) => match cands.iter().find(|c| by_construction(e.id, &params, c).is_ok()) {
                            Some(c) => Ok(Fit { chip: c.clone(), refused: Some(first) }),
                            None => Err(first),
                        },
                    };
                    assert_eq!(fit_chip(e.id, &params, &chip, &cands), old, "{} {:?} on {:?}", e.id, params, chip);
                }
            }
        }
    }

    #[test]
    fn the_default_chip_moves_rftl_and_gftl_and_keeps_page_mapping() {
        let classroom = ChipSpec::default();
        let cands = candidates(&classroom);
        let fit = |id: &str| fit_chip(id, &SchemeParams::default(), &classroom, &cands).unwrap();
        assert_eq!(fit("page"), Fit { chip: classroom.clone(), refused: None });
        for id in ["rftl", "gftl"] {
            let f = fit(id);
            assert!(f.refused.as_deref().is_some_and(|r| r.contains("pages per block")), "{id}: {f:?}");
            assert!(check(id, &SchemeParams::default(), &f.chip).is_ok());
        }
        let bad = SchemeParams { log_blocks: Some(15), ..Default::default() };
        assert_eq!(
            fit_chip("bast", &bad, &classroom, &[]),
            Err("BAST with 15 log blocks needs at least 17 blocks (15 log, 1 spare, 1 data)".into())
        );
    }
}
