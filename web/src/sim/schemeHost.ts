// Worker side of the scheme panels: response-time timeline (binned here, so a long run
// never ships megabytes to the page) and the latency histogram.
import type { Session } from './pkg/ftlscope_wasm';
import type { Metrics } from './generated/Metrics';
import type { AssociativitySeries, SchemeData } from './schemeTypes';
import { binTimeline } from './schemeTypes';

/** Timelines are recorded for runs up to this many requests (8 bytes per request in wasm). */
export const TIMELINE_MAX_REQUESTS = 4_000_000;

/** Turn on per-request response times for a new session (before anything runs). */
export function startTimeline(s: Session, totalRequests: number): void {
  if (totalRequests <= TIMELINE_MAX_REQUESTS) s.record_timeline(true);
}

export function schemeData(s: Session, bins: number, upto: number): SchemeData {
  const flat = s.timeline();
  return {
    timeline: flat.length > 0 ? binTimeline(flat, upto, bins) : binTimeline([], 0, bins),
    histogram: s.latency_histogram(),
  };
}

export function workloadPattern(s: Session, from: number, to: number): string {
  return s.workload_pattern(Math.max(0, Math.floor(from)), Math.max(0, Math.floor(to)));
}

/** Runs longer than this are not sampled for the associativity chart (each sample is a seek). */
export const SERIES_MAX_REQUESTS = 100_000;

/**
 * Associativity of each KRAFT/KAST log block at `points` evenly spaced steps of the run,
 * read from scheme_metrics after a seek; the session is put back where it was.
 */
export function associativitySeries(s: Session, points: number): AssociativitySeries | null {
  const total = s.total();
  if (total > SERIES_MAX_REQUESTS) return null;
  const [step, ops] = [s.step(), s.op_cursor()];
  const n = Math.max(1, Math.min(Math.floor(points), total));
  const out: AssociativitySeries = { steps: [], slots: [], mean: [] };
  try {
    for (let i = 0; i <= n; i++) {
      const k = Math.round((i * total) / n);
      if (out.steps.length && out.steps[out.steps.length - 1] === k) continue;
      s.seek(k);
      const sm = (JSON.parse(s.metrics()) as Metrics).scheme_metrics;
      if (!sm || !Array.isArray(sm.associativity)) return null;
      out.steps.push(k);
      out.slots.push(sm.associativity as number[]);
      out.mean.push(typeof sm.mean_associativity === 'number' ? sm.mean_associativity : 0);
    }
  } finally {
    s.goto(step, ops);
  }
  return out;
}
