// The scenario: plain data describing what to simulate. It is exactly the JSON that
// the wasm `Session` constructor takes (docs/session-api.md), so it can be saved,
// shared and replayed. View state (the step to open on) lives next to it in the app
// (scenario/share.ts). The scheme list comes from the core's catalog() (scenario/core.ts).
import { timingFrom } from './timing';
import type {
  ChipConfig,
  ChipPreset,
  Precondition,
  Scenario,
  SchemeParams,
  Workload,
  WorkloadKind,
} from '../sim/scenarioTypes';
import { chipSpec } from '../sim/scenarioTypes';
export { CHIPS, chipSpec, type ChipSpec } from '../sim/scenarioTypes';
export type {
  ChipConfig,
  ChipPreset,
  Precondition,
  Scenario,
  SchemeParams,
  TraceWorkload,
  Workload,
  WorkloadKind,
} from '../sim/scenarioTypes';
import { checkPattern, describePatternError } from './core';
export * from './catalog';
import { generatorDefaults, schemeSpec } from './catalog';

/** The precondition of a parsed object, or undefined (throws on a malformed one). */
export function preconditionFrom(raw: unknown): Precondition | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('precondition must be an object');
  const r = raw as Record<string, unknown>;
  const fill = r.fill === undefined ? true : r.fill === true;
  const random = r.random_writes === undefined ? 0 : r.random_writes;
  const seed = r.seed === undefined ? 1 : r.seed;
  if (typeof random !== 'number' || !Number.isInteger(random) || random < 0 || random > 50_000_000) {
    throw new Error('precondition.random_writes must be a whole number from 0 to 50,000,000');
  }
  if (typeof seed !== 'number' || !Number.isInteger(seed) || seed < 0)
    throw new Error('precondition.seed must be a whole number ≥ 0');
  if (!fill && random === 0) return undefined;
  return { fill, random_writes: random, seed };
}

// ---- the data-driven catalogue of what the pickers offer -------------------------
// (the chip presets, CHIPS, are in sim/scenarioTypes.ts with the Scenario type)

export const WORKLOAD_KINDS: { id: WorkloadKind; label: string }[] = [
  { id: 'hotcold', label: 'Hot/cold (80/20)' },
  { id: 'uniform', label: 'Uniform random' },
  { id: 'sequential', label: 'Sequential' },
  { id: 'camera', label: 'Digital camera' },
  { id: 'oltp', label: 'OLTP database' },
  { id: 'postmark', label: 'Postmark (mail server)' },
  { id: 'pattern', label: 'Inline pattern' },
];

/** Every kind a scenario may hold (uploaded traces are not picked in the form here). */
const ALL_KINDS: WorkloadKind[] = [
  'hotcold',
  'uniform',
  'sequential',
  'camera',
  'oltp',
  'postmark',
  'pattern',
  'trace',
  'live',
];

/**
 * Largest chip the device view draws: SVG up to 4,096 pages, a zoomable canvas beyond
 * (web/src/viz/CanvasGrid.tsx), up to 64K blocks × 64 pages (the FastCheck chip has 2 M).
 */
export const MAX_PAGES = 4_194_304;
export const MAX_REQUESTS = 10_000_000;

export function defaultWorkload(kind: WorkloadKind, n = 400, seed = 1): Workload {
  if (kind === 'trace') return { kind, name: 'trace', missing: true };
  return generatedWorkload(kind, n, seed);
}

function generatedWorkload(kind: Exclude<WorkloadKind, 'trace'>, n: number, seed: number): Workload {
  // One set of defaults for app and CLI (issue 27): the core's serde defaults, as its
  // catalog states them once loaded; before that, the same numbers written out here
  // (core-wasm/crates/sim/src/trace/gen.rs): the uniform and hot/cold generators write
  // only, as `ftl run --gen uniform:n=...` does.
  const core = generatorDefaults(kind);
  if (core) return { ...core, kind, n, ...('seed' in core ? { seed } : {}) } as Workload;
  switch (kind) {
    case 'sequential':
      return { kind, n };
    case 'uniform':
      return { kind, n, seed, read_ratio: 0 };
    case 'hotcold':
      return { kind, n, seed, read_ratio: 0, hot_fraction: 0.2, hot_ratio: 0.8 };
    case 'camera':
    case 'postmark':
      return { kind, n, seed };
    case 'oltp':
      return { kind, n, seed, read_ratio: 0.3 };
    case 'live':
      return { kind, n, seed, read_ratio: 0.3, block_pages: 32, live: 4 };
    case 'pattern':
      return { kind, text: 'w0 w4 w8 w12 r3 (w1 w2)x3' };
  }
}

export function defaultParams(scheme: string): SchemeParams {
  const params: SchemeParams = {};
  for (const p of schemeSpec(scheme)?.params ?? []) if (p.default !== undefined) params[p.key] = p.default;
  return params;
}

/** The scenario the app opens on: page mapping on a 16×4 classroom chip, hot/cold writes. */
export function defaultScenario(): Scenario {
  return {
    scheme: 'page',
    params: { op: 0.25 },
    chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
    // Written out (not the generator's defaults): the opening scenario keeps its 10 % reads.
    workload: { kind: 'hotcold', n: 400, seed: 1, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 },
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
  if (blocks !== undefined && (!Number.isInteger(blocks) || blocks < 2))
    errors.push('blocks must be a whole number ≥ 2');
  if (ppb !== undefined && (!Number.isInteger(ppb) || ppb < 1))
    errors.push('pages per block must be a whole number ≥ 1');
  const geometry = chipSpec(s.chip.preset);
  const pages = (blocks ?? geometry?.blocks ?? 0) * (ppb ?? geometry?.pages_per_block ?? 0);
  if (pages > MAX_PAGES)
    errors.push(`the device view draws at most ${MAX_PAGES.toLocaleString('en-US')} pages (this chip has ${pages})`);
  const w = s.workload;
  if (w.kind === 'pattern') {
    if (typeof w.text !== 'string' || w.text.trim() === '') errors.push('pattern: the pattern has no requests');
    else {
      // The core's own parser (null until the core is loaded; the Session checks again).
      const c = checkPattern(w.text);
      if (c && !c.ok) errors.push(`pattern: ${describePatternError(c)}`);
    }
  } else if (w.kind === 'trace') {
    if (w.missing || (!w.text && typeof w.upload !== 'number'))
      errors.push(`the trace "${w.name}" must be provided again (traces are never stored in links)`);
  } else {
    if (!Number.isInteger(w.n) || w.n < 1 || w.n > MAX_REQUESTS)
      errors.push(`requests must be a whole number from 1 to ${MAX_REQUESTS}`);
    if (w.kind !== 'sequential') {
      // An absent field takes the core's default (generated Workload: optional fields).
      if (w.seed !== undefined && (!Number.isInteger(w.seed) || w.seed < 0))
        errors.push('seed must be a whole number ≥ 0');
    }
    if ('read_ratio' in w && w.read_ratio !== undefined && !(w.read_ratio >= 0 && w.read_ratio <= 1))
      errors.push('read ratio must be between 0 and 1');
    if (w.kind === 'live') {
      if (!Number.isInteger(w.block_pages) || w.block_pages < 1) errors.push('block pages must be a whole number ≥ 1');
      else if (w.live !== undefined && (!Number.isInteger(w.live) || w.live < 1 || w.live > w.block_pages))
        errors.push(`live pages must be a whole number from 1 to ${w.block_pages} (block pages)`);
    }
    if (w.kind === 'hotcold') {
      if (w.hot_fraction !== undefined && !(w.hot_fraction > 0 && w.hot_fraction < 1))
        errors.push('hot fraction must be between 0 and 1 (exclusive)');
      if (w.hot_ratio !== undefined && !(w.hot_ratio >= 0 && w.hot_ratio <= 1))
        errors.push('hot ratio must be between 0 and 1');
    }
  }
  return errors;
}

export function scenarioToJson(s: Scenario): string {
  return JSON.stringify(s);
}

/**
 * A scenario's canonical form: its JSON with every object's keys sorted. Two scenarios are
 * the same by value when these are equal, whatever order their fields were written or
 * decoded in (a link's workload comes back in the generator's field order).
 */
export function canonicalScenario(s: Scenario): string {
  const sorted = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(sorted)
      : isObject(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, sorted(v[k])]),
          )
        : v;
  return JSON.stringify(sorted(s));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Parse scenario JSON (e.g. a saved file), filling defaults for missing optional
 * fields; throws an Error with a readable message when it is not a valid scenario.
 */
export function parseScenario(json: string, opts: { allowMissingTrace?: boolean } = {}): Scenario {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch (e) {
    throw new Error(`not valid JSON: ${(e as Error).message}`);
  }
  return scenarioFromObject(raw, opts);
}

/** The same checks as parseScenario, on an already-parsed value. */
export function scenarioFromObject(
  raw: unknown,
  opts: { allowMissingTrace?: boolean; exactParams?: boolean } = {},
): Scenario {
  if (!isObject(raw)) throw new Error('a scenario must be a JSON object');
  const scheme = typeof raw.scheme === 'string' ? raw.scheme : defaultScenario().scheme;
  // A link or file reproduces exactly what it says: no defaults added (the core's own apply).
  const params: SchemeParams = opts.exactParams ? {} : { ...defaultParams(scheme) };
  if (isObject(raw.params)) {
    for (const [key, v] of Object.entries(raw.params)) {
      if (typeof v === 'number' && /^[a-z][a-z0-9_]{0,40}$/.test(key)) params[key] = v;
    }
  }
  if (!isObject(raw.chip) || typeof raw.chip.preset !== 'string') throw new Error('chip.preset is missing');
  const chip: ChipConfig = { preset: raw.chip.preset as ChipPreset };
  if (typeof raw.chip.blocks === 'number') chip.blocks = raw.chip.blocks;
  if (typeof raw.chip.pages_per_block === 'number') chip.pages_per_block = raw.chip.pages_per_block;
  if (!isObject(raw.workload) || typeof raw.workload.kind !== 'string') throw new Error('workload.kind is missing');
  const kind = raw.workload.kind as WorkloadKind;
  if (!ALL_KINDS.includes(kind)) throw new Error(`unknown workload kind "${kind}"`);
  const workload = { ...defaultWorkload(kind) } as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw.workload)) {
    if (k in workload && typeof v === typeof workload[k]) workload[k] = v;
    // A trace keeps its own options (format, fit, device, ...: docs/session-api.md).
    else if (kind === 'trace' && ['string', 'number', 'boolean'].includes(typeof v)) workload[k] = v;
  }
  if (kind === 'trace' && typeof workload.text === 'string' && raw.workload.missing !== true) delete workload.missing;
  const s: Scenario = { scheme, params, chip, workload: workload as Workload };
  const precondition = preconditionFrom(raw.precondition);
  if (precondition) s.precondition = precondition;
  const timing = timingFrom(raw.timing);
  if (timing) s.timing = timing;
  const errors = validateScenario(s).filter((e) => !(opts.allowMissingTrace && e.startsWith('the trace ')));
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
      {
        // An absent field is the core's default (its catalog's generator defaults).
        const d = generatorDefaults('hotcold') ?? {};
        const ratio = w.hot_ratio ?? d.hot_ratio;
        const fraction = w.hot_fraction ?? d.hot_fraction;
        workload = `hot/cold ${Math.round(ratio * 100)}/${Math.round(fraction * 100)}, ${w.n} requests, seed ${w.seed}`;
      }
      break;
    case 'camera':
    case 'oltp':
    case 'postmark':
      workload = `${w.kind}, ${w.n} requests, seed ${w.seed}`;
      break;
    case 'live':
      workload = `${w.live} live pages of ${w.block_pages} per logical block, ${w.n} requests, seed ${w.seed}`;
      break;
    case 'pattern':
      workload = `pattern “${w.text.length > 40 ? w.text.slice(0, 39) + '…' : w.text}”`;
      break;
    case 'trace':
      workload = `trace ${w.name}${w.missing ? ' (not provided)' : ''}`;
      break;
  }
  const pre = s.precondition ? ` · ${describePrecondition(s.precondition)}` : '';
  return `${scheme} · ${s.chip.preset} ${geometry} · ${workload}${pre}`;
}

/** "preconditioned: fill + 10,000 random writes" */
export function describePrecondition(p: Precondition | undefined): string {
  if (!p) return 'no preconditioning (fresh chip)';
  const parts = [
    p.fill ? 'sequential fill' : '',
    p.random_writes ? `${p.random_writes.toLocaleString('en-US')} random writes (seed ${p.seed})` : '',
  ].filter(Boolean);
  return `preconditioned: ${parts.join(' + ')}`;
}
