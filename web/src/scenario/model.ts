// The scenario: plain data describing what to simulate. It is exactly the JSON that
// the wasm `Session` constructor takes (docs/session-api.md), so it can be saved,
// shared and replayed. View state (the step to open on) lives next to it in the app.
import { parsePattern, PatternError } from './pattern';

export type ChipPreset = 'classroom' | 'fast2007' | 'rftl-small' | 'rftl-large' | 'fastcheck';

export interface SchemeParams {
  op?: number;
  log_blocks?: number;
  k?: number;
  utilisation?: number;
}

export interface ChipConfig {
  preset: ChipPreset;
  blocks?: number;
  pages_per_block?: number;
}

export type Workload =
  | { kind: 'sequential'; n: number }
  | { kind: 'uniform'; n: number; seed: number; read_ratio: number }
  | {
      kind: 'hotcold';
      n: number;
      seed: number;
      read_ratio: number;
      hot_fraction: number;
      hot_ratio: number;
    }
  | { kind: 'pattern'; text: string };

export type WorkloadKind = Workload['kind'];

export interface Scenario {
  scheme: string;
  params: SchemeParams;
  chip: ChipConfig;
  workload: Workload;
}

// ---- the data-driven catalogue of what the pickers offer -------------------------

export interface ParamSpec {
  key: keyof SchemeParams;
  label: string;
  min: number;
  max: number;
  step: number;
  default: number;
  integer?: boolean;
}

export interface SchemeSpec {
  id: string;
  label: string;
  description: string;
  params: ParamSpec[];
}

/** Schemes the core implements. Later issues add entries here (bast, fast, ...). */
export const SCHEMES: SchemeSpec[] = [
  {
    id: 'page',
    label: 'Page mapping (greedy GC)',
    description: 'Every logical page maps to any physical page; garbage collection erases the block with the fewest valid pages.',
    params: [{ key: 'op', label: 'Over-provisioning', min: 0.05, max: 0.9, step: 0.05, default: 0.25 }],
  },
];

export interface ChipSpec {
  id: ChipPreset;
  label: string;
  /** the preset's own geometry (the Rust presets are authoritative) */
  blocks: number;
  pages_per_block: number;
  /** blocks the form suggests, so the whole chip fits the device view */
  suggestedBlocks: number;
}

export const CHIPS: ChipSpec[] = [
  { id: 'classroom', label: 'Classroom (4 pages/block)', blocks: 16, pages_per_block: 4, suggestedBlocks: 16 },
  { id: 'fast2007', label: 'FAST 2007 (512 B, 32 pages/block)', blocks: 4096, pages_per_block: 32, suggestedBlocks: 32 },
  { id: 'rftl-small', label: 'RFTL small-block (512 B, 32 pages/block)', blocks: 1024, pages_per_block: 32, suggestedBlocks: 32 },
  { id: 'rftl-large', label: 'RFTL large-block (2 KB, 32 pages/block)', blocks: 2048, pages_per_block: 32, suggestedBlocks: 32 },
  { id: 'fastcheck', label: 'FastCheck (4 KB, 128 pages/block)', blocks: 16384, pages_per_block: 128, suggestedBlocks: 16 },
];

export const WORKLOAD_KINDS: { id: WorkloadKind; label: string }[] = [
  { id: 'hotcold', label: 'Hot/cold (80/20)' },
  { id: 'uniform', label: 'Uniform random' },
  { id: 'sequential', label: 'Sequential' },
  { id: 'pattern', label: 'Inline pattern' },
];

/**
 * Largest chip the device view draws: SVG up to 4,096 pages, a zoomable canvas beyond
 * (web/src/viz/CanvasGrid.tsx), up to 64K blocks × 64 pages (the FastCheck chip has 2 M).
 */
export const MAX_PAGES = 4_194_304;
export const MAX_REQUESTS = 10_000_000;

export function schemeSpec(id: string): SchemeSpec | undefined {
  return SCHEMES.find((s) => s.id === id);
}

export function chipSpec(id: string): ChipSpec | undefined {
  return CHIPS.find((c) => c.id === id);
}

export function defaultWorkload(kind: WorkloadKind, n = 400, seed = 1): Workload {
  switch (kind) {
    case 'sequential':
      return { kind, n };
    case 'uniform':
      return { kind, n, seed, read_ratio: 0.2 };
    case 'hotcold':
      return { kind, n, seed, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
    case 'pattern':
      return { kind, text: 'w0 w4 w8 w12 r3 (w1 w2)x3' };
  }
}

export function defaultParams(scheme: string): SchemeParams {
  const params: SchemeParams = {};
  for (const p of schemeSpec(scheme)?.params ?? []) params[p.key] = p.default;
  return params;
}

/** The scenario the app opens on: page mapping on a 16×4 classroom chip, hot/cold writes. */
export function defaultScenario(): Scenario {
  return {
    scheme: 'page',
    params: { op: 0.25 },
    chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
    workload: defaultWorkload('hotcold', 400, 1),
  };
}

/** Readable problems with a scenario; empty when it is fine to send to the core. */
export function validateScenario(s: Scenario): string[] {
  const errors: string[] = [];
  const scheme = schemeSpec(s.scheme);
  if (!scheme) errors.push(`unknown scheme "${s.scheme}"`);
  for (const p of scheme?.params ?? []) {
    const v = s.params[p.key];
    if (v === undefined) continue;
    if (!Number.isFinite(v) || v < p.min || v > p.max) {
      errors.push(`${p.label} must be between ${p.min} and ${p.max}`);
    } else if (p.integer && !Number.isInteger(v)) {
      errors.push(`${p.label} must be a whole number`);
    }
  }
  if (!chipSpec(s.chip.preset)) errors.push(`unknown chip preset "${s.chip.preset}"`);
  const { blocks, pages_per_block: ppb } = s.chip;
  if (blocks !== undefined && (!Number.isInteger(blocks) || blocks < 2)) errors.push('blocks must be a whole number ≥ 2');
  if (ppb !== undefined && (!Number.isInteger(ppb) || ppb < 1)) errors.push('pages per block must be a whole number ≥ 1');
  const geometry = chipSpec(s.chip.preset);
  const pages = (blocks ?? geometry?.blocks ?? 0) * (ppb ?? geometry?.pages_per_block ?? 0);
  if (pages > MAX_PAGES) errors.push(`the device view draws at most ${MAX_PAGES.toLocaleString('en-US')} pages (this chip has ${pages})`);
  const w = s.workload;
  if (w.kind === 'pattern') {
    try {
      parsePattern(w.text);
    } catch (e) {
      errors.push(`pattern: ${e instanceof PatternError ? e.message : String(e)}`);
    }
  } else {
    if (!Number.isInteger(w.n) || w.n < 1 || w.n > MAX_REQUESTS) errors.push(`requests must be a whole number from 1 to ${MAX_REQUESTS}`);
    if (w.kind !== 'sequential') {
      if (!Number.isInteger(w.seed) || w.seed < 0) errors.push('seed must be a whole number ≥ 0');
      if (!(w.read_ratio >= 0 && w.read_ratio <= 1)) errors.push('read ratio must be between 0 and 1');
    }
    if (w.kind === 'hotcold') {
      if (!(w.hot_fraction > 0 && w.hot_fraction < 1)) errors.push('hot fraction must be between 0 and 1 (exclusive)');
      if (!(w.hot_ratio >= 0 && w.hot_ratio <= 1)) errors.push('hot ratio must be between 0 and 1');
    }
  }
  return errors;
}

export function scenarioToJson(s: Scenario): string {
  return JSON.stringify(s);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parse scenario JSON (e.g. a saved file), filling defaults for missing optional
 * fields; throws an Error with a readable message when it is not a valid scenario.
 */
export function parseScenario(json: string): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new Error(`not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(raw)) throw new Error('a scenario must be a JSON object');
  const scheme = typeof raw.scheme === 'string' ? raw.scheme : 'page';
  const params: SchemeParams = { ...defaultParams(scheme) };
  if (isObject(raw.params)) {
    for (const key of ['op', 'log_blocks', 'k', 'utilisation'] as const) {
      const v = raw.params[key];
      if (typeof v === 'number') params[key] = v;
    }
  }
  if (!isObject(raw.chip) || typeof raw.chip.preset !== 'string') throw new Error('chip.preset is missing');
  const chip: ChipConfig = { preset: raw.chip.preset as ChipPreset };
  if (typeof raw.chip.blocks === 'number') chip.blocks = raw.chip.blocks;
  if (typeof raw.chip.pages_per_block === 'number') chip.pages_per_block = raw.chip.pages_per_block;
  if (!isObject(raw.workload) || typeof raw.workload.kind !== 'string') throw new Error('workload.kind is missing');
  const kind = raw.workload.kind as WorkloadKind;
  if (!WORKLOAD_KINDS.some((k) => k.id === kind)) throw new Error(`unknown workload kind "${kind}"`);
  const workload = { ...defaultWorkload(kind) } as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw.workload)) {
    if (k in workload && typeof v === typeof workload[k]) workload[k] = v;
  }
  const s: Scenario = { scheme, params, chip, workload: workload as unknown as Workload };
  const errors = validateScenario(s);
  if (errors.length) throw new Error(errors.join('; '));
  return s;
}

/** One line describing a scenario, for headers and titles. */
export function describeScenario(s: Scenario): string {
  const scheme = schemeSpec(s.scheme)?.label ?? s.scheme;
  const chip = chipSpec(s.chip.preset);
  const geometry = `${s.chip.blocks ?? chip?.blocks}×${s.chip.pages_per_block ?? chip?.pages_per_block}`;
  const w = s.workload;
  let workload: string;
  switch (w.kind) {
    case 'sequential':
      workload = `sequential, ${w.n} requests`;
      break;
    case 'uniform':
      workload = `uniform, ${w.n} requests, seed ${w.seed}`;
      break;
    case 'hotcold':
      workload = `hot/cold ${Math.round(w.hot_ratio * 100)}/${Math.round(w.hot_fraction * 100)}, ${w.n} requests, seed ${w.seed}`;
      break;
    case 'pattern':
      workload = `pattern “${w.text.length > 40 ? w.text.slice(0, 39) + '…' : w.text}”`;
      break;
  }
  return `${scheme} · ${s.chip.preset} ${geometry} · ${workload}`;
}
