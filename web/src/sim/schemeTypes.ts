// Scheme-specific run-wide data (RFTL Figure 8 timeline, latency histogram) and the
// worker commands for the scheme panels. A leaf: it imports only generated types.
import type { CrashHere } from './generated/CrashHere';
import type { CrashOutcome } from './generated/CrashOutcome';
import type { LatencyHistogram } from './generated/LatencyHistogram';

export type { CrashHere, CrashOutcome, LatencyHistogram };

export interface TimelineBins {
  /** requests covered (0..n-1) */
  n: number;
  /** requests per bin (1 = one bar per request) */
  binSize: number;
  /** per bin: the longest response time (µs) */
  total: number[];
  /** per bin: the GC part of that longest request (µs) */
  gc: number[];
  /** over all n requests: longest total and longest GC part (µs) */
  maxTotal: number;
  maxGc: number;
}

export interface SchemeData {
  timeline: TimelineBins | null;
  histogram: LatencyHistogram | null;
}

export type SchemeCommand =
  | { type: 'scheme_data'; sid: number; bins: number; upto: number }
  /** requests from..to of the workload as pattern text (time shift inserts a request) */
  | { type: 'workload_pattern'; sid: number; from: number; to: number }
  /** KRAFT/KAST: associativity of each log block sampled over the whole run */
  | { type: 'associativity_series'; sid: number; points: number }
  /** power cut at the current operation, recovery from the chip alone, verification */
  | { type: 'crash_here'; sid: number }
  /** power cut in the session itself; recover() then reveals the recovery op by op */
  | { type: 'power_cut'; sid: number }
  | { type: 'recover'; sid: number }
  | { type: 'verdict'; sid: number };

export interface AssociativitySeries {
  steps: number[];
  /** per sample, the associativity of each log slot */
  slots: number[][];
  mean: number[];
}

// SchemeResultMap (the worker's answers to SchemeCommand) is in protocol.ts, next to the
// StepResult it names, so this file stays a leaf.

/** Bin a flat [total_ns, gc_ns, ...] timeline: per bin the longest request, in µs. */
export function binTimeline(flat: ArrayLike<number>, upto: number, bins: number): TimelineBins {
  const n = Math.max(0, Math.min(Math.floor(flat.length / 2), Math.floor(upto)));
  const count = Math.max(1, Math.floor(bins));
  const binSize = Math.max(1, Math.ceil(n / count));
  const total: number[] = [];
  const gc: number[] = [];
  let maxTotal = 0;
  let maxGc = 0;
  for (let b = 0; b * binSize < n; b++) {
    let t = 0;
    let g = 0;
    for (let i = b * binSize; i < Math.min(n, (b + 1) * binSize); i++) {
      const ti = flat[2 * i];
      const gi = flat[2 * i + 1];
      if (ti > t) {
        t = ti;
        g = gi;
      }
      if (gi > maxGc) maxGc = gi;
    }
    if (t > maxTotal) maxTotal = t;
    total.push(t / 1000);
    gc.push(g / 1000);
  }
  return { n, binSize, total, gc, maxTotal: maxTotal / 1000, maxGc: maxGc / 1000 };
}
