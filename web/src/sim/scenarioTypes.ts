// The scenario as it crosses to the core: exactly the JSON the wasm `Session` constructor
// takes (docs/session-api.md), so it lives with the other wire types in the shared layer
// (sim/ and every feature read it), with the chip presets. Its model (defaults, checks,
// descriptions, the catalog's schemes) is web/src/scenario/model.ts, which re-exports these.

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
  | { kind: 'oltp'; n: number; seed: number; read_ratio: number; skew?: number }
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
  /** absent: the closed timing model (docs/timing.md) */
  timing?: TimingConfig;
}

/**
 * The run's timing model as scenarios carry it (core-wasm/crates/sim/src/timing.rs,
 * docs/timing.md): closed (each request starts when the previous ends) or open
 * (requests arrive at the trace's times × time_scale, or at `rate` per second).
 */
export interface TimingConfig {
  model: 'closed' | 'open';
  time_scale?: number;
  rate?: number;
  spacing?: 'fixed' | 'poisson';
  seed?: number;
  time_unit?: 's' | 'ms' | 'us' | 'ns' | 'filetime';
}

/** The chip presets the core knows (its `nand` presets), as the pickers offer them. */
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

export function chipSpec(id: string): ChipSpec | undefined {
  return CHIPS.find((c) => c.id === id);
}
