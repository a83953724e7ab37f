// Worker side of the scheme panels: response-time timeline (binned here, so a long run
// never ships megabytes to the page) and the latency histogram.
import type { LatencyHistogram, SchemeData, TimelineSession } from './types';
import { binTimeline } from './types';

/** Timelines are recorded for runs up to this many requests (8 bytes per request in wasm). */
export const TIMELINE_MAX_REQUESTS = 4_000_000;

/** Turn on per-request response times for a new session (before anything runs). */
export function startTimeline(s: TimelineSession, totalRequests: number): void {
  if (totalRequests <= TIMELINE_MAX_REQUESTS) s.record_timeline?.(true);
}

export function schemeData(s: TimelineSession, bins: number, upto: number): SchemeData {
  const flat = s.timeline?.();
  const histogram = s.latency_histogram ? (JSON.parse(s.latency_histogram()) as LatencyHistogram) : null;
  return { timeline: flat && flat.length > 0 ? binTimeline(flat, upto, bins) : flat ? binTimeline([], 0, bins) : null, histogram };
}

export function workloadPattern(s: TimelineSession, from: number, to: number): string {
  if (!s.workload_pattern) throw new Error('this build of the core cannot list its workload (workload_pattern)');
  return s.workload_pattern(Math.max(0, Math.floor(from)), Math.max(0, Math.floor(to)));
}
