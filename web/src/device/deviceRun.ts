// Device shapes side by side (issue 40, item 5: 1 die against 8 for the same scheme): the
// pure part. Each shape's run is the core's `device_run` (crates/wasm/src/device_run.rs),
// which computes what `ftl run --channels C --dies-per-channel W --json` prints under
// `device`. All shapes replay one request list: the smallest device (fewest dies) runs in
// its own logical space, the others in that space too (`--space N`), as the compare's
// default "one request list in the smallest own space" (docs/compare.md).
import type { Scenario } from '../scenario/model';
import type { DevicesSpec, ShapeSpec } from '../sim/deviceTypes';
export type { DevicesSpec, ShapeSpec } from '../sim/deviceTypes';

export const MAX_SHAPES = 4;
export const SHAPE_CHANNELS = [1, 2, 4, 8];
export const SHAPE_DIES = [1, 2, 4];
/** 1 die against 8: the comparison. */
export const DEFAULT_SHAPES: ShapeSpec[] = [
  { channels: 1, diesPerChannel: 1 },
  { channels: 8, diesPerChannel: 1 },
];

/** Host response times of one kind, µs (ssd::Responses). */
export interface Responses {
  count: number;
  mean_us: number;
  p50_us: number;
  p99_us: number;
  max_us: number;
  delayed_by_gc: number;
  delayed_by_gc_share: number;
}

/** One die of a device run (ssd::DieSummary). */
export interface DieSummary {
  die: number;
  channel: number;
  page_requests: number;
  jobs: number;
  busy_us: number;
  utilisation: number;
  mean_wait_us: number;
  mean_channel_wait_us: number;
  gc_us: number;
  delayed_by_gc: number;
  wrong_reads: number;
  erases: number;
  write_amplification: number;
}

/** The CLI's `device` object (ssd::DeviceSummary). */
export interface DeviceSummary {
  channels: number;
  dies_per_channel: number;
  dies: number;
  stripe: 'page' | 'block';
  stripe_unit_pages: number;
  bus_mb_s: number;
  channel_transfer_us: number;
  logical_pages: number;
  host_requests: number;
  wrong_reads: number;
  makespan_us: number;
  read: Responses;
  write: Responses;
  per_die: DieSummary[];
}

/** What `device_run` returns. */
export interface DeviceRun {
  scenario: Scenario;
  logical_pages: number | null;
  workload_pages: number | null;
  requests: number;
  request_hash: string;
  device: DeviceSummary;
}

/** One shape's outcome in the comparison. */
export type ShapeResult = { shape: ShapeSpec; run: DeviceRun } | { shape: ShapeSpec; error: string };

export const diesOf = (s: ShapeSpec) => s.channels * s.diesPerChannel;

export function shapeLabel(s: ShapeSpec): string {
  const d = diesOf(s);
  if (d === 1) return '1 die';
  return s.diesPerChannel === 1
    ? `${d} dies (${s.channels} channels)`
    : `${d} dies (${s.channels} × ${s.diesPerChannel})`;
}

/**
 * The scenario a shape runs: the base with the comparison's scheme (its parameters kept when
 * it is the base's scheme), the device shape striped the way the scheme needs (`stripe`,
 * the core's device_stripe_for), and Poisson arrivals at `rate` when given.
 */
export function shapeScenario(base: Scenario, spec: DevicesSpec, shape: ShapeSpec, stripe: 'page' | 'block'): Scenario {
  const s: Scenario = {
    ...base,
    scheme: spec.scheme,
    params: spec.scheme === base.scheme ? { ...base.params } : {},
    device: { channels: shape.channels, dies_per_channel: shape.diesPerChannel, stripe },
  };
  if (spec.rate !== undefined) s.timing = { model: 'open', rate: spec.rate, spacing: 'poisson', seed: 1 };
  return s;
}

/** Shapes with the fewest dies first (it fixes the common space); ties keep their order. */
export function runOrder(shapes: ShapeSpec[]): number[] {
  return shapes.map((_, i) => i).sort((a, b) => diesOf(shapes[a]) - diesOf(shapes[b]) || a - b);
}

/**
 * Runs every shape through `run(scenario, space)` (space 0: the device's own): the fewest
 * dies first in its own space, then the others in that space, so all replay one request
 * list. Results come back in the shapes' order. A shape that fails fails alone.
 */
export async function runShapes(
  run: (scenario: Scenario, space: number) => Promise<DeviceRun>,
  base: Scenario,
  spec: DevicesSpec,
  stripe: 'page' | 'block',
  progress?: (done: number) => void,
): Promise<ShapeResult[]> {
  const out: ShapeResult[] = spec.shapes.map((shape) => ({ shape, error: 'not run' }));
  let space = 0;
  let done = 0;
  for (const i of runOrder(spec.shapes)) {
    const shape = spec.shapes[i];
    try {
      const r = await run(shapeScenario(base, spec, shape, stripe), space);
      if (space === 0 && r.workload_pages) space = r.workload_pages;
      out[i] = { shape, run: r };
    } catch (e) {
      out[i] = { shape, error: e instanceof Error ? e.message : String(e) };
    }
    progress?.(++done);
  }
  return out;
}

/** Mean and largest per-die utilisation. */
export function utilisation(d: DeviceSummary): { mean: number; max: number; min: number } {
  const u = d.per_die.map((x) => x.utilisation);
  return { mean: u.reduce((a, b) => a + b, 0) / Math.max(1, u.length), max: Math.max(...u), min: Math.min(...u) };
}

/** The CLI command that prints the same figures (`trace`: the uploaded file's name, for a trace workload). */
export function cliCommand(r: DeviceRun, trace?: string): string {
  const s = r.scenario;
  const d = s.device;
  const parts = ['ftl run', `--scheme ${s.scheme}`, `--chip ${s.chip.preset}`];
  if (s.chip.blocks !== undefined) parts.push(`--blocks ${s.chip.blocks}`);
  if (s.chip.pages_per_block !== undefined) parts.push(`--pages-per-block ${s.chip.pages_per_block}`);
  const w = s.workload as unknown as Record<string, unknown>;
  if (w.kind === 'trace') {
    parts.push(`--trace ${trace ?? 'FILE'}`);
    if (typeof w.format === 'string') parts.push(`--format ${w.format}`);
    if (typeof w.fit === 'string' && w.fit !== 'none') parts.push(`--fit ${w.fit}`);
  } else if (w.kind !== 'pattern') {
    const args = Object.entries(w)
      .filter(([k, v]) => k !== 'kind' && v !== undefined && typeof v !== 'object')
      .map(([k, v]) => `${k}=${String(v)}`);
    parts.push(`--gen ${String(w.kind)}${args.length ? ':' + args.join(',') : ''}`);
  }
  const t = s.timing;
  if (t?.model === 'open' && t.rate === undefined) parts.push('--timing open');
  if (t?.model === 'open' && t.rate !== undefined)
    parts.push(
      `--rate ${t.rate}`,
      `--spacing ${t.spacing ?? 'fixed'}`,
      ...(t.seed ? [`--arrival-seed ${t.seed}`] : []),
    );
  if (d && d.channels * d.dies_per_channel > 1) {
    parts.push(`--channels ${d.channels}`);
    if (d.dies_per_channel > 1) parts.push(`--dies-per-channel ${d.dies_per_channel}`);
    if (r.workload_pages !== null) parts.push(`--space ${r.workload_pages}`);
  }
  parts.push('--json');
  return parts.join(' ');
}
