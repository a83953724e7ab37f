// The run-wide log (markers, series, latency histogram) of the current Session, fetched
// when the simulation moves past what the log covers; and "run to end": run the rest of
// the workload in the worker in chunks (progress, cancel), then return to the moment
// the user was at, so the timeline and charts cover the whole run.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { RunLog, Snapshot, StepResult } from '../sim/protocol';

export interface RunAhead {
  running: boolean;
  done: number;
  total: number;
}

/**
 * Worker time per chunk of "Run to end": the progress bar's tick. Two chunks are in flight
 * (the worker never waits for the page between them), so Cancel answers within about two.
 */
const CHUNK_MS = 100;

type Exec = <T>(fn: (c: SimClient, sid: number) => Promise<T>) => Promise<T | undefined>;

export function useRunLog(
  sid: number | null,
  snap: Snapshot | null,
  exec: Exec,
  apply: (r: StepResult | undefined) => boolean,
  pause: () => void,
  wantLatency = true,
) {
  const [log, setLog] = useState<RunLog | null>(null);
  const [ahead, setAhead] = useState<RunAhead>({ running: false, done: 0, total: 0 });
  const cancel = useRef(false);
  const fetching = useRef(false);
  const lastFetch = useRef(0);
  const logRef = useRef<RunLog | null>(null);
  logRef.current = log;

  const refresh = useCallback(async () => {
    if (fetching.current) return;
    fetching.current = true;
    try {
      const l = await exec((c, s) => c.runLog(s));
      if (l) setLog(l);
    } finally {
      fetching.current = false;
      lastFetch.current = performance.now();
    }
  }, [exec]);

  // A new Session: start over.
  useEffect(() => {
    setLog(null);
    if (sid !== null) void refresh();
  }, [sid, refresh]);

  // Moving past the logged part: refresh, at most a few times a second.
  const step = snap?.step ?? 0;
  useEffect(() => {
    if (sid === null) return;
    const l = logRef.current;
    if (l && step <= l.logUpto) return;
    const wait = Math.max(0, 400 - (performance.now() - lastFetch.current));
    const t = setTimeout(() => void refresh(), wait);
    return () => clearTimeout(t);
  }, [sid, step, refresh]);

  // The response-time histogram is the state's at the moment shown, not the log's: the
  // log covers the whole run after "Run to end", the histogram must follow the step (and
  // the op within it). Fetched after the moment settles; a stale answer is dropped.
  const [latency, setLatency] = useState<{ at: string; hist: RunLog['latency'] } | null>(null);
  const at = snap ? `${sid}:${snap.step}:${snap.opCursor}` : '';
  const atRef = useRef(at);
  atRef.current = at;
  const latencyBusy = useRef(false);
  const [latencyTick, setLatencyTick] = useState(0);
  useEffect(() => {
    if (!wantLatency || sid === null || !snap || ahead.running || latencyBusy.current) return;
    if (latency?.at === at) return;
    latencyBusy.current = true;
    const want = at;
    void exec((c, s) => c.latency(s))
      .catch(() => undefined)
      .then((hist) => {
        latencyBusy.current = false;
        // Only the answer for the moment still shown is kept; otherwise ask again.
        if (hist && atRef.current === want) setLatency({ at: want, hist });
        else setLatencyTick((t) => t + 1);
      });
  }, [wantLatency, sid, at, snap, exec, ahead.running, latency?.at, latencyTick]);
  // Between two moments the last histogram stays up (no flicker while playing);
  // `latencyAt` says which request it is of. Kept apart from `log` so the timeline does
  // not redraw when only the histogram changes.
  const hist = useMemo(() => latency?.hist ?? { read: [], write: [] }, [latency]);
  const latencyAt = latency ? Number(latency.at.split(':')[1]) : null;
  const latencyCurrent = latency?.at === at;

  const runToEnd = useCallback(async () => {
    if (!snap || ahead.running) return;
    const back = { step: snap.step, ops: snap.opCursor };
    const total = snap.total;
    let at = snap.step;
    pause();
    cancel.current = false;
    // The whole run is one queued command, asked for before anything on the page renders
    // (the progress bar's first render then runs beside the worker's first chunk).
    const run = exec(async (c, s) => {
      // Two chunks in flight: the next is queued in the worker while the page handles the
      // last answer (the worker runs for about CHUNK_MS a chunk: sim/runAhead.ts), so a busy
      // main thread never holds the run. Each asks for the rest; past the end one runs none.
      let failed: unknown = null;
      const chunk = () =>
        c.runAhead(s, total, CHUNK_MS).catch((e: unknown) => {
          failed ??= e;
          return null;
        });
      const flight = [chunk(), chunk()];
      while (flight.length > 0) {
        const r = await flight.shift()!;
        if (r) at = Math.max(at, r.step);
        if (r) setAhead({ running: true, done: at, total });
        if (r && r.ran > 0 && at < total && !cancel.current && failed === null) flight.push(chunk());
      }
      // The run log first: the charts are drawn from it as soon as it comes (the moment
      // shown does not change: the return below goes back to it, deterministic, and sends
      // no chip). The return is asked for in the same breath, answered right after.
      const log = c.runLog(s);
      const ret = c.goto(s, back.step, back.ops).catch((e: unknown) => {
        failed ??= e;
        return undefined;
      });
      const l = await log.catch(() => null);
      setAhead({ running: false, done: at, total });
      if (l) setLog(l);
      apply(await ret);
      if (failed !== null) throw failed;
      return true;
    });
    setAhead({ running: true, done: snap.step, total });
    const done = await run;
    // No client or Session (nothing ran): the bar goes away.
    if (done === undefined) setAhead((a) => (a.running ? { ...a, running: false } : a));
  }, [snap, ahead.running, exec, apply, pause]);

  const cancelRun = useCallback(() => {
    cancel.current = true;
  }, []);

  return { log, latency: hist, latencyAt, latencyCurrent, ahead, runToEnd, cancelRun };
}
