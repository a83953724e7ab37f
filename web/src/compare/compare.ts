// Compare: the pure part — which runs, their labels, the metrics table and its best values.
import {
  SCHEMES,
  chipSpec,
  defaultParams,
  paramSpec,
  schemeSpec,
  type Scenario,
  type SchemeParams,
} from '../scenario/model';
import { COMPARE_DEFAULTS } from '../scenario/presets';
import type { Plan } from '../sim/protocol';
import type { CompareSpec } from '../scenario/share';

export type Run = CompareSpec['runs'][number];

export const MAX_RUNS = 6;
export const MIN_RUNS = 2;

/** Okabe–Ito, distinguishable for the common colour-vision deficiencies. */
export const RUN_COLORS = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9'];

export function runLabel(run: Run): string {
  const spec = schemeSpec(run.scheme);
  const name = spec?.label ?? run.scheme;
  const params = (spec?.params ?? [])
    .filter((p) => run.params[p.key] !== undefined)
    .map((p) => `${p.label} ${run.params[p.key]}`);
  return params.length ? `${name} · ${params.join(', ')}` : name;
}

/** Blocks of the scenario's chip. */
export function chipBlocks(s: Scenario): number {
  return s.chip.blocks ?? chipSpec(s.chip.preset)?.blocks ?? 16;
}

/**
 * Log-block counts that fit the chip (a hybrid scheme needs its log blocks plus at
 * least a couple of data and free blocks): the largest three of 2, 4, 8, ... up to half
 * the blocks, so the default runs on the default 16-block chip too (BAST with 16 log
 * blocks needs 18 blocks).
 */
export function logBlockCounts(blocks: number): number[] {
  const fit = [2, 4, 8, 16].filter((n) => n <= Math.max(2, Math.floor(blocks / 2)));
  return fit.slice(-3);
}

/** Log-block variants of a scheme that fit the chip, or the scheme beside page mapping. */
export function defaultRuns(base: Scenario): Run[] {
  if (schemeSpec(base.scheme)?.params.some((p) => p.key === 'log_blocks'))
    return logBlockSweep(base.scheme, base.params, logBlockCounts(chipBlocks(base)));
  // The catalog's first scheme is the baseline (the core's ftl::REGISTRY order).
  const baseline = SCHEMES[0]?.id;
  const other = base.scheme === baseline ? COMPARE_DEFAULTS.besideBaseline : baseline;
  const runs: Run[] = [{ scheme: base.scheme, params: { ...base.params } }];
  if (other && schemeSpec(other)) runs.push({ scheme: other, params: defaultParams(other) });
  return runs;
}

export function logBlockSweep(scheme: string, params: SchemeParams, counts = [4, 8, 16]): Run[] {
  return counts.map((n) => ({ scheme, params: { ...params, log_blocks: n } }));
}

/** A planned run: its scenario on its chip and workload space, or why it cannot run. */
export type Planned =
  { scenario: Scenario & { workload_space: { logical_pages: number; pages_per_block: number } } } | { error: string };

/** The page-side mirror of scenario::plan::PlanRun::apply (core-wasm/crates/sim/src/scenario/plan.rs). */
export function applyPlan(scenarios: Scenario[], plan: Plan): Planned[] {
  return scenarios.map((s, i) => {
    const r = plan.runs[i];
    if (!r) return { error: 'not planned' };
    if (r.error || r.workload_pages === null) return { error: r.error ?? 'not planned' };
    return {
      scenario: {
        ...s,
        chip: { ...s.chip, blocks: r.blocks, pages_per_block: r.pages_per_block },
        workload_space: { logical_pages: r.workload_pages, pages_per_block: r.pages_per_block },
      },
    };
  });
}

/** The scenario JSON the planner reads (scheme, params, chip; the workload is not read). */
export function planInput(s: Scenario): unknown {
  return { scheme: s.scheme, params: s.params, chip: s.chip, workload: { kind: 'sequential', n: 1 } };
}

/** Nearest-rank percentile of an exact histogram of [value, count] pairs (as metrics.rs). */
export function percentile(hist: [number, number][], p: number): number | undefined {
  const n = hist.reduce((a, [, c]) => a + c, 0);
  if (n === 0) return undefined;
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  let seen = 0;
  for (const [v, c] of hist) {
    seen += c;
    if (seen >= rank) return v;
  }
  return hist[hist.length - 1][0];
}

/** [value, % of requests ≤ value] steps of a histogram. */
export function cdfPoints(hist: [number, number][]): [number, number][] {
  const n = hist.reduce((a, [, c]) => a + c, 0);
  let seen = 0;
  return hist.map(([v, c]) => {
    seen += c;
    return [v, (100 * seen) / Math.max(1, n)];
  });
}

/** p50 / p99 / p99.9 / max of a histogram, in its unit. */
export function latencyStats(hist: [number, number][]) {
  return {
    p50: percentile(hist, 50),
    p99: percentile(hist, 99),
    p999: percentile(hist, 99.9),
    max: hist.length ? hist[hist.length - 1][0] : undefined,
  };
}

export function runScenario(base: Scenario, run: Run): Scenario {
  return { ...base, scheme: run.scheme, params: { ...run.params } };
}

export interface MetricRow {
  key: string;
  label: string;
  /** lower is better for every row here */
  path: string;
  format: (v: number) => string;
}

const int = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 0 });
const dec = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 2, minimumFractionDigits: 2 });
const us = (v: number) => (v >= 1e6 ? `${dec(v / 1e6)} s` : v >= 1000 ? `${dec(v / 1000)} ms` : `${int(v)} µs`);
const bytes = (v: number) => `${int(v)} B`;

export const METRIC_ROWS: MetricRow[] = [
  { key: 'erases', label: 'Block erases', path: 'erases', format: int },
  { key: 'page_programs', label: 'Page programs', path: 'page_programs', format: int },
  { key: 'write_amplification', label: 'Write amplification', path: 'write_amplification', format: dec },
  { key: 'page_reads', label: 'Page reads', path: 'page_reads', format: int },
  { key: 'elapsed_us', label: 'Flash time', path: 'elapsed_us', format: us },
  { key: 'write_mean', label: 'Write latency, mean', path: 'latency_us.write.mean', format: us },
  { key: 'write_p50', label: 'Write latency, p50', path: 'lat.write.p50', format: us },
  { key: 'write_p99', label: 'Write latency, p99', path: 'lat.write.p99', format: us },
  { key: 'write_p999', label: 'Write latency, p99.9', path: 'lat.write.p999', format: us },
  { key: 'write_worst', label: 'Write latency, max', path: 'latency_us.write.worst', format: us },
  { key: 'read_mean', label: 'Read latency, mean', path: 'latency_us.read.mean', format: us },
  { key: 'read_p99', label: 'Read latency, p99', path: 'lat.read.p99', format: us },
  { key: 'read_worst', label: 'Read latency, max', path: 'latency_us.read.worst', format: us },
  { key: 'merges_full', label: 'Full merges', path: 'merges.full', format: int },
  { key: 'erase_max', label: 'Most erases on a block', path: 'erase_count.max', format: int },
  { key: 'ram_bytes', label: 'Mapping RAM', path: 'ram_bytes', format: bytes },
];

export function metricAt(metrics: unknown, path: string): number | undefined {
  let cur = metrics;
  for (const k of path.split('.'))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return typeof cur === 'number' && Number.isFinite(cur) ? cur : undefined;
}

/** Indices of the best (lowest) values; none when every value is the same or missing. */
export function bestOf(values: (number | undefined)[]): Set<number> {
  const present = values.filter((v): v is number => v !== undefined);
  if (present.length < 2) return new Set();
  const lo = Math.min(...present);
  if (present.every((v) => v === lo)) return new Set();
  return new Set(values.flatMap((v, i) => (v === lo ? [i] : [])));
}

/** "Log blocks 4 (default), Associativity K 8 (default)": every parameter the run's scheme read, with the
 * defaults resolved on its chip (the core's info.params_resolved) marked as such. */
export function resolvedParamsText(resolved: Record<string, number> | undefined, given: SchemeParams): string {
  if (!resolved) return '—';
  const parts = Object.entries(resolved).map(([k, v]) => {
    const label = paramLabel(k);
    return given[k] === undefined ? `${label} ${v} (default)` : `${label} ${v}`;
  });
  return parts.length ? parts.join(', ') : 'none';
}

/** A parameter's label as the scenario form shows it (the catalog's parameter spec). */
function paramLabel(key: string): string {
  return paramSpec(key).label;
}

/** Parameter fields a run may edit. */
export function runParams(scheme: string) {
  return schemeSpec(scheme)?.params ?? [];
}
