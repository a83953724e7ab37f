// "Run to end" in the worker (sim/host.ts's `run_ahead`): the run in timed slices, and
// which Sessions record the per-request response times that keep a run off the scheme's
// closed loop (issue 37 item 4).
import type { Session } from './pkg/ftlscope_wasm';

/**
 * The schemes whose panels show each request's response time (the core's catalog: the
 * `response_times` panel, RFTL-like schemes): the Sessions that record the per-request
 * timeline (SessionHost's `showsResponseTimes`).
 */
export function responseTimeSchemes(cat: { schemes: { id: string; panels?: readonly string[] }[] }): Set<string> {
  return new Set(cat.schemes.filter((e) => e.panels?.includes('response_times')).map((e) => e.id));
}

/** Requests run per slice of a timed run-ahead at first (doubled while slices are quick). */
const FIRST_SLICE = 1024;
/** Largest slice: a FAST or BAST request with a full merge costs up to ~1 ms in wasm. */
const MAX_SLICE = 1 << 16;

/**
 * Runs up to `count` requests of `s` with `Session.run_ahead` (the core's run loop: no
 * snapshot, no events; keyframes and the response-time timeline kept as the player keeps
 * them, and the run log taken a stretch at a time while the run is quiet, checked by the
 * chip's counts, not probed a request: ftl_sim stepper/ahead.rs), so Back and the charts
 * cover what ran. With `ms`, in slices that stop once `ms` milliseconds have passed: a chunk
 * of "Run to end" takes about that long, so the page's progress and Cancel answer within it
 * whatever a request costs (a merge storm is slower per request than a run of hits).
 * Returns the requests run.
 */
export function runAhead(s: Pick<Session, 'run_ahead'>, count: number, ms?: number): number {
  if (ms === undefined) return s.run_ahead(count);
  const until = performance.now() + Math.max(1, ms);
  let ran = 0;
  let slice = FIRST_SLICE;
  while (ran < count) {
    const r = s.run_ahead(Math.min(slice, count - ran));
    ran += r;
    if (r === 0 || performance.now() >= until) break;
    slice = Math.min(MAX_SLICE, slice * 2);
  }
  return ran;
}
