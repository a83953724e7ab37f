// Sweeps: one parameter over a list of values, for several schemes, on one workload
// (FAST paper Figure 10: erases against the number of log blocks, in one click).
import { SCHEMES, chipSpec, paramSpec, schemeSpec, type ParamSpec, type Scenario } from '../scenario/model';
import { toCsv } from '../export/export';
import type { Metrics } from '../sim/protocol';
import { chipBlocks, latencyStats, metricAt } from './compare';

export interface SweepParam {
  key: string;
  label: string;
  /** a chip parameter (not a scheme parameter) */
  chip?: boolean;
  defaults: string;
}

/** The values a sweep of a parameter starts with (others: from the catalog's range). */
const SWEEP_VALUES: Record<string, string> = {
  log_blocks: '4, 8, 16, 32',
  k: '1, 2, 4, 8',
  op: '0.05, 0.1, 0.2, 0.3',
  utilisation: '0.5, 0.7, 0.9',
};

const CHIP_AXES: SweepParam[] = [
  { key: 'pages_per_block', label: 'Pages per block', chip: true, defaults: '4, 8, 16, 32' },
];

/** Four values on the parameter's grid from its range (integers: powers of two). */
function valuesFromSpec(p: ParamSpec): string {
  if (p.integer) return [1, 2, 4, 8].filter((v) => v >= p.min && v <= p.max).join(', ');
  const step = typeof p.step === 'number' ? p.step : 0.1;
  const lo = Math.max(p.min, step);
  const span = Math.min(p.max, 1) - lo;
  return [0, 1, 2, 3]
    .map((i) => Math.round((lo + (span * i) / 3) / step) * step)
    .map((v) => +v.toFixed(6))
    .join(', ');
}

/** The axes a sweep offers: every parameter the catalog's schemes read (the parameter axes
 * in the order the picker meets them, log blocks first), then the chip's. */
export function sweepParams(): SweepParam[] {
  const keys: string[] = [];
  for (const s of SCHEMES) for (const p of s.params) if (!keys.includes(p.key)) keys.push(p.key);
  const order = Object.keys(SWEEP_VALUES);
  keys.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const scheme = keys.map((key) => {
    const spec = paramSpec(key);
    return { key, label: spec.label, defaults: SWEEP_VALUES[key] ?? valuesFromSpec(spec) };
  });
  return [...scheme, ...CHIP_AXES];
}

export function sweepParam(key: string): SweepParam {
  return (
    sweepParams().find((p) => p.key === key) ?? {
      key,
      label: paramSpec(key).label,
      defaults: SWEEP_VALUES[key] ?? '',
    }
  );
}

/** The schemes that have the parameter (every scheme for a chip parameter). */
export function sweepSchemes(key: string): string[] {
  const p = sweepParam(key);
  return SCHEMES.filter((s) => p.chip || s.params.some((q) => q.key === key)).map((s) => s.id);
}

/** "4, 8, 16" → [4, 8, 16]: numbers, at most 12, each once, in the order given. */
export function parseValues(text: string): { values: number[] } | { error: string } {
  const parts = text.split(/[\s,;]+/).filter(Boolean);
  if (parts.length === 0) return { error: 'give at least one value' };
  const values: number[] = [];
  for (const p of parts) {
    const v = Number(p);
    if (!Number.isFinite(v) || v < 0) return { error: `“${p}” is not a number ≥ 0` };
    if (!values.includes(v)) values.push(v);
  }
  if (values.length > 12) return { error: 'at most 12 values' };
  return { values };
}

export interface SweepPoint {
  scheme: string;
  value: number;
  scenario: Scenario;
}

/**
 * The runs of a sweep: every scheme × every value, on the base scenario's chip and
 * workload. Pages per block keeps the chip's capacity (blocks × pages) constant.
 */
export function sweepPoints(base: Scenario, schemes: string[], key: string, values: number[]): SweepPoint[] {
  const p = sweepParam(key);
  const ppb0 = base.chip.pages_per_block ?? chipSpec(base.chip.preset)?.pages_per_block ?? 4;
  const pages = chipBlocks(base) * ppb0;
  return schemes.flatMap((scheme) =>
    values.map((value) => {
      const params = scheme === base.scheme ? { ...base.params } : { ...defaultsOf(scheme) };
      let chip = { ...base.chip };
      if (p.chip)
        chip = { ...chip, pages_per_block: value, blocks: Math.max(1, Math.round(pages / Math.max(1, value))) };
      else params[key] = value;
      return { scheme, value, scenario: { ...base, scheme, params, chip } };
    }),
  );
}

function defaultsOf(scheme: string) {
  const out: Record<string, number> = {};
  for (const q of schemeSpec(scheme)?.params ?? []) if (q.default !== undefined) out[q.key] = q.default;
  return out;
}

export interface SweepRow {
  scheme: string;
  value: number;
  blocks?: number;
  pages_per_block?: number;
  logical_pages?: number;
  /** the space the point's workload was generated or fitted in */
  workload_pages?: number;
  /** the request list's hash (equal hashes: equal requests) */
  request_hash?: string;
  metrics?: Metrics;
  /** latency percentiles from the exact histograms (µs) */
  lat?: { write: LatencyStats; read: LatencyStats };
  error?: string;
}

type LatencyStats = ReturnType<typeof latencyStats>;

/** A figure of a row by path: the metrics, or `lat.write.p99` etc. */
export function rowValue(r: SweepRow, path: string): number | undefined {
  return metricAt(path.startsWith('lat.') ? { lat: r.lat } : r.metrics, path);
}

export const SWEEP_METRICS: { key: string; title: string; y: string; path: string; scale?: number }[] = [
  { key: 'erases', title: 'Block erases', y: 'erases (count)', path: 'erases' },
  { key: 'wa', title: 'Write amplification', y: 'page programs ÷ host writes', path: 'write_amplification' },
  { key: 'mean', title: 'Mean write latency', y: 'write latency, mean (µs)', path: 'latency_us.write.mean' },
  { key: 'p99', title: 'Write latency p99', y: 'write latency, p99 (µs)', path: 'lat.write.p99' },
  { key: 'p999', title: 'Write latency p99.9', y: 'write latency, p99.9 (µs)', path: 'lat.write.p999' },
  { key: 'worst', title: 'Worst write latency', y: 'write latency, max (µs)', path: 'latency_us.write.worst' },
];

/** One line per row: the whole resolved configuration beside the numbers. */
export function sweepCsv(key: string, rows: SweepRow[], context: Record<string, string | number>): string {
  const head = [
    'scheme',
    key,
    'blocks',
    'pages_per_block',
    'logical_pages',
    'workload_pages',
    'request_hash',
    ...Object.keys(context),
    ...SWEEP_METRICS.map((m) => m.path),
    'error',
  ];
  return toCsv([
    head,
    ...rows.map((r) => [
      r.scheme,
      r.value,
      r.blocks ?? '',
      r.pages_per_block ?? '',
      r.logical_pages ?? '',
      r.workload_pages ?? '',
      r.request_hash ?? '',
      ...Object.values(context),
      ...SWEEP_METRICS.map((m) => rowValue(r, m.path) ?? ''),
      r.error ?? '',
    ]),
  ]);
}
