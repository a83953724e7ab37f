// Compare: the pure part — which runs, their labels, the metrics table and its best values.
import { defaultParams, schemeSpec, type Scenario, type SchemeParams } from '../scenario/model';
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
    .map((p) => `${p.key === 'log_blocks' ? 'log blocks' : p.key === 'utilisation' ? 'util.' : p.key === 'op' ? 'OP' : p.key} ${run.params[p.key]}`);
  return params.length ? `${name} · ${params.join(', ')}` : name;
}

/** Log-block variants of a scheme (4, 8, 16), or the scheme beside page mapping. */
export function defaultRuns(base: Scenario): Run[] {
  if (schemeSpec(base.scheme)?.params.some((p) => p.key === 'log_blocks')) return logBlockSweep(base.scheme, base.params);
  const other = base.scheme === 'page' ? 'fast' : 'page';
  const runs: Run[] = [{ scheme: base.scheme, params: { ...base.params } }];
  if (schemeSpec(other)) runs.push({ scheme: other, params: defaultParams(other) });
  return runs;
}

export function logBlockSweep(scheme: string, params: SchemeParams, counts = [4, 8, 16]): Run[] {
  return counts.map((n) => ({ scheme, params: { ...params, log_blocks: n } }));
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
  { key: 'write_worst', label: 'Write latency, worst', path: 'latency_us.write.worst', format: us },
  { key: 'read_mean', label: 'Read latency, mean', path: 'latency_us.read.mean', format: us },
  { key: 'merges_full', label: 'Full merges', path: 'merges.full', format: int },
  { key: 'erase_max', label: 'Most erases on a block', path: 'erase_count.max', format: int },
  { key: 'ram_bytes', label: 'Mapping RAM', path: 'ram_bytes', format: bytes },
];

export function metricAt(metrics: unknown, path: string): number | undefined {
  let cur = metrics;
  for (const k of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
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

/** Parameter fields a run may edit. */
export function runParams(scheme: string) {
  return schemeSpec(scheme)?.params ?? [];
}
