// Does the core accept a scheme on a chip? The answer is the core's own, from free
// functions of the core (sim/pageCore.ts, no Session): `fit_chip` answers from the scheme
// registry (each parameter's range, each scheme's geometry rule: RFTL's pi >= 2k + j, GFTL's
// pages per block, BAST's blocks >= log blocks + 2 ...; core ftl_sim::fit), so the form
// never restates those rules and cannot drift from them.
import { CHIPS, chipSpec, type Scenario } from './scenarioTypes';
import { loadPageCore, peekPageCore, type PageCore } from './pageCore';
import type { ChipFit } from './generated/ChipFit';

export type { PageCore };

/** The core's free functions on the page, or null when the module cannot load. */
export function coreReady(): Promise<PageCore | null> {
  return loadPageCore().catch(() => null);
}

/** The core once loaded, else null (synchronous, for checks while typing). */
export function peekCore(): PageCore | null {
  return peekPageCore();
}

/** Requests the check generates at most: the workload's rules do not depend on its length. */
const CHECK_REQUESTS = 2000;

function forCheck(s: Scenario, geometryOnly: boolean): Scenario {
  const w = s.workload;
  if (geometryOnly || w.kind === 'trace') return { ...s, workload: { kind: 'pattern', text: 'w0' } };
  if ('n' in w && w.n > CHECK_REQUESTS) return { ...s, workload: { ...w, n: CHECK_REQUESTS } };
  return s;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * null when the core runs this scenario, else its message. `geometryOnly`: scheme,
 * parameters and chip by the registry's rules (cheap, for every edit); otherwise the whole
 * scenario as the worker's Session would take it (its workload capped for the check).
 */
export function coreError(core: PageCore, s: Scenario, geometryOnly = false): string | null {
  try {
    return core.scenario_error(JSON.stringify(forCheck(s, geometryOnly)), geometryOnly) ?? null;
  } catch (e) {
    return message(e);
  }
}

export interface Fit {
  chip: Scenario['chip'];
  /** what was changed and why, for the form to say; null when the chip already fits */
  note: string | null;
}

/** Candidate chips, nearest first: more pages per block, then more blocks, then the other presets. */
function candidates(chip: Scenario['chip']): Scenario['chip'][] {
  const spec = chipSpec(chip.preset);
  const blocks = chip.blocks ?? spec?.blocks ?? 16;
  const ppb = chip.pages_per_block ?? spec?.pages_per_block ?? 4;
  const out: Scenario['chip'][] = [];
  for (const p of [ppb, 8, 16, 32, 64].filter((p) => p >= ppb)) {
    for (const b of [blocks, 16, 24, 32, 48, 64].filter((b) => b >= blocks))
      out.push({ preset: chip.preset, blocks: b, pages_per_block: p });
  }
  for (const c of CHIPS)
    if (c.id !== chip.preset) out.push({ preset: c.id, blocks: c.suggestedBlocks, pages_per_block: c.pages_per_block });
  return out;
}

/**
 * The chip to run `s.scheme` on: the form's own when the core accepts it, else the nearest
 * one it accepts (the candidates are the form's, the answer the core's), with a sentence
 * saying what changed and the core's reason.
 */
export function fitChip(core: PageCore, s: Scenario): Fit | { error: string } {
  let fit: ChipFit;
  try {
    fit = core.fit_chip(JSON.stringify(forCheck(s, true)), JSON.stringify(candidates(s.chip)));
  } catch (e) {
    return { error: message(e) };
  }
  if (fit.refused === null) return { chip: s.chip, note: null };
  const chip: Scenario['chip'] = { preset: fit.chip.preset as Scenario['chip']['preset'] };
  if (fit.chip.blocks !== null) chip.blocks = fit.chip.blocks;
  if (fit.chip.pages_per_block !== null) chip.pages_per_block = fit.chip.pages_per_block;
  const spec = chipSpec(chip.preset);
  const what =
    chip.preset === s.chip.preset
      ? `${chip.blocks} blocks × ${chip.pages_per_block} pages`
      : `the ${spec?.label ?? chip.preset} chip (${chip.blocks} blocks × ${chip.pages_per_block} pages)`;
  return { chip, note: `Chip changed to ${what}: on the previous chip the core says “${fit.refused}”.` };
}
