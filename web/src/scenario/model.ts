// The scenario: plain data describing what to simulate. It is exactly the JSON that
// the wasm `Session` constructor takes (docs/session-api.md), so it can be saved,
// shared and replayed. View state (the step to open on) lives next to it in the app
// (scenario/share.ts). The scheme list comes from the core's catalog() (scenario/core.ts).
import { checkPattern, describePatternError } from './core';

export type ChipPreset = 'classroom' | 'fast2007' | 'rftl-small' | 'rftl-large' | 'fastcheck';

export interface SchemeParams {
  op?: number;
  log_blocks?: number;
  k?: number;
  switch_max?: number;
  fill_max?: number;
  utilisation?: number;
  checkpoint_lpns?: number;
  /** any other parameter the core's catalog() lists */
  [key: string]: number | undefined;
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
  | { kind: 'pattern'; text: string }
  /** the core's application-like generators (src/trace/gen.rs); their other knobs keep the core's defaults */
  | { kind: 'camera'; n: number; seed: number }
  | { kind: 'oltp'; n: number; seed: number; read_ratio: number }
  | { kind: 'postmark'; n: number; seed: number }
  /** live pages per logical block (RFTL Table 4; opened from links such as the Paper results page, not in the picker) */
  | { kind: 'live'; n: number; seed: number; read_ratio: number; block_pages: number; live: number }
  | TraceWorkload;

/**
 * An uploaded trace. Its requests live with the upload (never in a link): a link
 * carries only `{kind: 'trace', name, missing: true}`, and the app asks for the file again.
 */
export interface TraceWorkload {
  kind: 'trace';
  name: string;
  format?: string;
  /** further trace options (fit, device, ...) travel as they are */
  [option: string]: string | number | boolean | undefined;
  /** the trace text as uploaded (absent in a link) */
  text?: string;
  /** set when the trace was left out of a link or file and must be provided again */
  missing?: boolean;
}

export type WorkloadKind = Workload['kind'];

/**
 * Fill the device before measuring (core-wasm/crates/sim/src/precondition.rs): a
 * sequential fill of the logical space, then `random_writes` random writes; metrics
 * count only what runs after it (request 0 is the filled chip).
 */
export interface Precondition {
  fill: boolean;
  random_writes: number;
  seed: number;
}

export interface Scenario {
  scheme: string;
  params: SchemeParams;
  chip: ChipConfig;
  workload: Workload;
  /** absent: a fresh (empty) chip */
  precondition?: Precondition;
}

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

export interface ParamSpec {
  key: string;
  label: string;
  min: number;
  max: number;
  step: number | 'any';
  /** undefined: the field may be left empty, and the core picks its own default */
  default?: number;
  integer?: boolean;
  hint?: string;
}

/**
 * How the form edits each parameter, as the core's catalog() last described it (the
 * registry's ParamSpec, core-wasm/crates/sim/src/ftl/registry.rs); filled by applyCatalog.
 * Per key, the range every scheme reading it accepts (a scheme may narrow it: FAST needs
 * 2 log blocks) and the default they share (none when they differ).
 */
export const PARAM_SPECS: Record<string, ParamSpec> = {};
/** The same per scheme (a scheme may narrow a range or set its own default). */
const SCHEME_PARAM_SPECS: Record<string, Record<string, ParamSpec>> = {};

/** The spec of a parameter; one the UI does not know yet is a plain optional number. */
export function paramSpec(key: string): ParamSpec {
  return (
    PARAM_SPECS[key] ?? {
      key,
      label: key.charAt(0).toUpperCase() + key.slice(1).replace(/_/g, ' '),
      min: 0,
      max: Number.MAX_SAFE_INTEGER,
      step: 'any',
      hint: 'core default',
    }
  );
}

/** Scheme-specific panels of the app, by kind (the registry's PanelKind). */
export type PanelKind =
  | 'response_times'
  | 'gftl_bound'
  | 'rftl_block_map'
  | 'kraft_log_blocks'
  | 'kraft_ram'
  | 'kraft_ram_as_fast'
  | 'frozen_states';

export interface SchemeSpec {
  id: string;
  label: string;
  /** the shortest name ("O-FAST") */
  shortLabel?: string;
  description: string;
  params: ParamSpec[];
  /**
   * How the scheme cleans: "gc" (garbage collection runs, counted in gc_runs) or
   * "merges" (log-block merges, counted in merges; gc_runs stays 0). Absent: "gc".
   */
  cleaning?: Cleaning;
  /** its scheme-specific panels (absent: none) */
  panels?: PanelKind[];
}

export type Cleaning = 'gc' | 'merges';

/** A parameter as catalog() describes it (null: derived from the chip, see its rule). */
export interface CatalogParamSpec {
  key: string;
  label: string;
  help: string;
  min: number | null;
  min_rule?: string | null;
  min_exclusive: boolean;
  max: number | null;
  max_rule?: string | null;
  max_exclusive: boolean;
  step: number;
  integer: boolean;
  default: number | null;
  default_rule?: string | null;
}

/** The core's catalog() JSON. */
export interface CatalogJson {
  schemes: {
    id: string;
    /** the one-line description (older cores: the only name) */
    label: string;
    /** the picker's name (absent from cores older than issue 30) */
    name?: string;
    short_label?: string;
    description?: string;
    params: string[];
    /** absent from cores older than issue 30: the form keeps the specs it knows */
    param_specs?: CatalogParamSpec[];
    /** absent from cores older than issue 24: read as "gc" */
    cleaning?: string;
    panels?: string[];
  }[];
  chips?: string[];
  generators?: { kind: string; description: string }[];
}

/**
 * The form's spec of a catalog parameter. The form steps on a grid, so an excluded bound
 * becomes the next value of the grid (op < 1 → at most 1 − step); a bound derived from the
 * chip is left to the core (its message names it). A default derived from the chip leaves
 * the field empty: the core picks it (scheme_defaults() tells the value on a chip).
 */
export function formParamSpec(c: CatalogParamSpec): ParamSpec {
  const min = c.min === null ? 0 : c.min_exclusive ? round(c.min + c.step) : c.min;
  const max = c.max === null ? Number.MAX_SAFE_INTEGER : c.max_exclusive ? round(c.max - c.step) : c.max;
  const spec: ParamSpec = { key: c.key, label: c.label, min, max, step: c.step, hint: c.help };
  if (c.default !== null) spec.default = c.default;
  if (c.integer) spec.integer = true;
  return spec;
}

const round = (v: number) => Math.round(v * 1e9) / 1e9;

/** One sentence per workload generator, from the core's catalog(). */
const GENERATOR_HELP: Record<string, string> = {};
export function generatorHelp(kind: string): string | undefined {
  return GENERATOR_HELP[kind];
}

/**
 * Schemes the core implements: filled from catalog() when the core loads (applyCatalog);
 * empty until then (the app loads the core before it offers a scheme).
 */
export const SCHEMES: SchemeSpec[] = [];

/** Replace the scheme list by the core's catalog (in place, so importers see it). */
export function applyCatalog(cat: CatalogJson): void {
  if (!cat || !Array.isArray(cat.schemes) || cat.schemes.length === 0) return;
  const next: SchemeSpec[] = cat.schemes.map((s) => {
    const known = SCHEMES.find((x) => x.id === s.id);
    const specs = (SCHEME_PARAM_SPECS[s.id] ??= {});
    for (const c of s.param_specs ?? []) {
      specs[c.key] = formParamSpec(c);
      const seen = PARAM_SPECS[c.key];
      if (seen && seen !== specs[c.key]) {
        const merged: ParamSpec = {
          ...seen,
          min: Math.max(seen.min, specs[c.key].min),
          max: Math.min(seen.max, specs[c.key].max),
        };
        if (seen.default !== specs[c.key].default) delete merged.default;
        PARAM_SPECS[c.key] = merged;
      } else PARAM_SPECS[c.key] = specs[c.key];
    }
    const spec: SchemeSpec = {
      id: s.id,
      label: s.name ?? known?.label ?? s.id,
      description: s.description ?? s.label,
      params: s.params.map((k) => specs[k] ?? paramSpec(k)),
      cleaning: s.cleaning === 'merges' ? 'merges' : 'gc',
      panels: (s.panels ?? known?.panels ?? []) as PanelKind[],
    };
    const short = s.short_label ?? known?.shortLabel;
    if (short) spec.shortLabel = short;
    return spec;
  });
  SCHEMES.splice(0, SCHEMES.length, ...next);
  for (const g of cat.generators ?? []) GENERATOR_HELP[g.kind] = g.description;
}

export function hasScheme(id: string): boolean {
  return SCHEMES.some((s) => s.id === id);
}

/** How a scheme cleans, as the core's catalog says ("gc" when it does not say). */
export function schemeCleaning(id: string): Cleaning {
  return SCHEMES.find((s) => s.id === id)?.cleaning ?? 'gc';
}

/** Whether a scheme has a panel of this kind (the catalog's `panels`). */
export function hasPanel(id: string, kind: PanelKind): boolean {
  return SCHEMES.find((s) => s.id === id)?.panels?.includes(kind) ?? false;
}

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
  {
    id: 'fast2007',
    label: 'FAST 2007 (512 B, 32 pages/block)',
    blocks: 4096,
    pages_per_block: 32,
    suggestedBlocks: 32,
  },
  {
    id: 'rftl-small',
    label: 'RFTL small-block (512 B, 32 pages/block)',
    blocks: 1024,
    pages_per_block: 32,
    suggestedBlocks: 32,
  },
  {
    id: 'rftl-large',
    label: 'RFTL large-block (2 KB, 32 pages/block)',
    blocks: 2048,
    pages_per_block: 32,
    suggestedBlocks: 32,
  },
  {
    id: 'fastcheck',
    label: 'FastCheck (4 KB, 128 pages/block)',
    blocks: 16384,
    pages_per_block: 128,
    suggestedBlocks: 16,
  },
];

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

export function schemeSpec(id: string): SchemeSpec | undefined {
  return SCHEMES.find((s) => s.id === id);
}

export function chipSpec(id: string): ChipSpec | undefined {
  return CHIPS.find((c) => c.id === id);
}

export function defaultWorkload(kind: WorkloadKind, n = 400, seed = 1): Workload {
  if (kind === 'trace') return { kind, name: 'trace', missing: true };
  return generatedWorkload(kind, n, seed);
}

function generatedWorkload(kind: Exclude<WorkloadKind, 'trace'>, n: number, seed: number): Workload {
  switch (kind) {
    case 'sequential':
      return { kind, n };
    case 'uniform':
      return { kind, n, seed, read_ratio: 0.2 };
    case 'hotcold':
      return { kind, n, seed, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
    case 'camera':
    case 'postmark':
      return { kind, n, seed };
    case 'oltp':
      return { kind, n, seed, read_ratio: 0.5 };
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
      if (!Number.isInteger(w.seed) || w.seed < 0) errors.push('seed must be a whole number ≥ 0');
    }
    if ('read_ratio' in w && !(w.read_ratio >= 0 && w.read_ratio <= 1))
      errors.push('read ratio must be between 0 and 1');
    if (w.kind === 'live') {
      if (!Number.isInteger(w.block_pages) || w.block_pages < 1) errors.push('block pages must be a whole number ≥ 1');
      else if (!Number.isInteger(w.live) || w.live < 1 || w.live > w.block_pages)
        errors.push(`live pages must be a whole number from 1 to ${w.block_pages} (block pages)`);
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
  const s: Scenario = { scheme, params, chip, workload: workload as unknown as Workload };
  const precondition = preconditionFrom(raw.precondition);
  if (precondition) s.precondition = precondition;
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
      workload = `hot/cold ${Math.round(w.hot_ratio * 100)}/${Math.round(w.hot_fraction * 100)}, ${w.n} requests, seed ${w.seed}`;
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
