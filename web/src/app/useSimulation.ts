// App-side state of one simulation: the Session in the worker, its latest snapshot,
// playback, and every user command. Commands are serialised by useCommandQueue.
import { startTransition, useCallback, useEffect, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { SessionInfo, Snapshot, StepResult } from '../sim/protocol';
import type { Scenario } from '../scenario/model';
import { REVEAL_FRAME_MS, revealDone, revealMove } from './reveal';
import { useCommandQueue } from './useCommandQueue';

export interface Speed {
  id: string;
  label: string;
  unit: 'op' | 'request';
  count: number;
  intervalMs: number;
}

export const SPEEDS: Speed[] = [
  { id: '1op', label: '1 op/s', unit: 'op', count: 1, intervalMs: 1000 },
  { id: '3op', label: '3 ops/s', unit: 'op', count: 1, intervalMs: 333 },
  { id: '10op', label: '10 ops/s', unit: 'op', count: 1, intervalMs: 100 },
  { id: '5req', label: '5 requests/s', unit: 'request', count: 1, intervalMs: 200 },
  { id: '20req', label: '20 requests/s', unit: 'request', count: 1, intervalMs: 50 },
  { id: '200req', label: '200 requests/s', unit: 'request', count: 10, intervalMs: 50 },
  { id: '2000req', label: '2,000 requests/s', unit: 'request', count: 100, intervalMs: 50 },
];
export const DEFAULT_SPEED = '3op';

/** Chips with more pages than this play with fewer, larger snapshots. */
export const HUGE_PAGES = 1 << 18;

/** How far (in flash operations) opening a scenario looks for a multi-operation request. */
const OPEN_SEARCH_OPS = 60;

export interface Loaded {
  sid: number;
  scenario: Scenario;
  info: SessionInfo;
  snapshot: Snapshot;
}

export interface SimState {
  loaded: Loaded | null;
  /** true while the first scenario is being created */
  loading: boolean;
  /** the last error from the core (bad scenario, worker failure) */
  error: string | null;
  playing: boolean;
  speed: Speed;
  /** Step request is revealing a request op by op (the state lands on its end) */
  revealing: boolean;
}

/** A request being revealed: how far, and whether it ended (on the current session). */
interface Reveal {
  frame: number;
  last: Snapshot | null;
  /** the request is complete (by the reveal itself or by the completion queued at its end) */
  done: boolean;
  /** another command took over: no more frames */
  cancelled: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function useSimulation(client: SimClient | null) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speedId, setSpeedId] = useState(DEFAULT_SPEED);
  const speed = SPEEDS.find((s) => s.id === speedId) ?? SPEEDS[1];

  const loadedRef = useRef<Loaded | null>(null);
  loadedRef.current = loaded;
  // The session commands act on: set when a load lands, before React renders it, so a
  // command queued behind a load never names the session the load disposed.
  const sidRef = useRef<number | null>(null);
  // The drawn snapshot catches up with the last one sent through a transition.
  const lastSnapshot = useRef<Snapshot | null>(null);
  const { enqueue, pending } = useCommandQueue(
    (e) => {
      setError(message(e));
      setPlaying(false);
    },
    () => checkSettled(),
  );

  const apply = useCallback((r: StepResult | undefined) => {
    if (!r) return false;
    lastSnapshot.current = r.snapshot;
    // A transition: React renders the panels in slices, so a big snapshot never makes one long task.
    startTransition(() => setLoaded((cur) => (cur ? { ...cur, snapshot: r.snapshot } : cur)));
    return r.moved;
  }, []);

  // Step request's reveal (reveal.ts). Every other command ends it first: endReveal(true)
  // queues the rest of the request (step_request) unless the reveal already finished it,
  // so a key pressed mid-reveal acts on the request's end state: no input is lost and no
  // request is stepped twice. Jumps (load, seek, goto) only stop it.
  const revealRef = useRef<Reveal | null>(null);
  const [revealing, setRevealing] = useState(false);
  const endReveal = useCallback(
    (complete: boolean) => {
      const r = revealRef.current;
      if (!r) return;
      r.cancelled = true;
      revealRef.current = null;
      setRevealing(false);
      if (!complete || !client) return;
      void enqueue(async () => {
        if (r.done) return undefined;
        r.done = true;
        return client.stepRequest(sidRef.current!);
      }).then(apply);
    },
    [client, enqueue, apply],
  );

  const load = useCallback(
    (scenario: Scenario, openAt = 0, at?: { step: number; op: number }): Promise<boolean> => {
      if (!client) return Promise.resolve(false);
      endReveal(false);
      setPlaying(false);
      return enqueue(async () => {
        let created;
        try {
          created = await client.create(scenario);
        } catch (e) {
          setError(`Could not start this scenario: ${message(e)}`);
          return false;
        }
        let snapshot = created.snapshot;
        const target = Math.floor(created.info.total_requests * openAt);
        if (at) {
          // Exactly the moment asked for (a shared link, a tour stop).
          if (at.step > 0 || at.op > 0) snapshot = (await client.goto(created.sid, at.step, at.op)).snapshot;
        } else if (target > 0) {
          snapshot = (await client.seek(created.sid, target)).snapshot;
          // Open on an interesting moment: step on, a flash operation at a time, into the
          // middle of a request that does more than one operation (GC, merge, ...).
          for (let i = 0; i < OPEN_SEARCH_OPS; i++) {
            const r = await client.stepOp(created.sid);
            snapshot = r.snapshot;
            if (!r.moved || (snapshot.opCount > 2 && snapshot.opCursor >= 2)) break;
          }
        }
        const previous = sidRef.current;
        sidRef.current = created.sid;
        lastSnapshot.current = snapshot;
        setLoaded({ sid: created.sid, scenario, info: created.info, snapshot });
        setError(null);
        if (previous !== null) void client.dispose(previous).catch(() => undefined);
        return true;
      }).then((ok) => {
        setLoading(false);
        return ok ?? false;
      });
    },
    [client, enqueue, endReveal],
  );

  const withSession = useCallback(
    (fn: (c: SimClient, sid: number) => Promise<StepResult>) => {
      if (!client || sidRef.current === null) return Promise.resolve(false);
      return enqueue(() => fn(client, sidRef.current!)).then(apply);
    },
    [client, enqueue, apply],
  );

  const stepOp = useCallback(() => {
    endReveal(true);
    return withSession((c, sid) => c.stepOp(sid));
  }, [withSession, endReveal]);
  /** Jump to a moment: `step` requests done and `ops` operations of the next revealed. */
  const goto = useCallback(
    (step: number, ops: number) => {
      endReveal(false);
      return withSession((c, sid) => c.goto(sid, step, ops));
    },
    [withSession, endReveal],
  );
  /** Run any command against the current Session, serialised with the others. */
  const exec = useCallback(
    <T>(fn: (c: SimClient, sid: number) => Promise<T>): Promise<T | undefined> => {
      if (!client || sidRef.current === null) return Promise.resolve(undefined);
      return enqueue(() => fn(client, sidRef.current!));
    },
    [client, enqueue],
  );
  /** Reveal one flash operation and return the new snapshot (undefined if nothing moved). */
  const stepOpSnapshot = useCallback(async (): Promise<Snapshot | undefined> => {
    endReveal(true);
    if (!client || sidRef.current === null) return undefined;
    const r = await enqueue(() => client.stepOp(sidRef.current!));
    return apply(r) && r ? r.snapshot : undefined;
  }, [client, enqueue, apply, endReveal]);
  /** Finish the request (or recovery) under way, or run the next one, in one step. */
  const stepRequest = useCallback(() => {
    endReveal(true);
    return withSession((c, sid) => c.stepRequest(sid));
  }, [withSession, endReveal]);
  /**
   * Step request with motion: reveal the request from the state before it, a frame every
   * REVEAL_FRAME_MS (one operation, or several when there are more operations than
   * frames), the last frame finishing it; `revealing` is true until it lands.
   */
  const revealRequest = useCallback(async (): Promise<boolean> => {
    endReveal(true);
    if (!client || sidRef.current === null) return false;
    const r: Reveal = { frame: 0, last: null, done: false, cancelled: false };
    revealRef.current = r;
    setRevealing(true);
    let moved = false;
    try {
      while (!r.cancelled) {
        const res = await enqueue(async () => {
          if (r.cancelled || r.done) return undefined;
          const m = revealMove(r.last, r.frame);
          const out =
            m.kind === 'op'
              ? await client.stepOp(sidRef.current!)
              : m.kind === 'ops'
                ? await client.advance(sidRef.current!, 'op', m.count)
                : await client.stepRequest(sidRef.current!);
          r.frame++;
          r.last = out.snapshot;
          if (!out.moved || revealDone(out.snapshot)) r.done = true;
          return out;
        });
        // Applied even when another command took over meanwhile: it was the state then.
        moved = apply(res) || moved;
        if (!res || r.done) break;
        await sleep(REVEAL_FRAME_MS);
      }
      // The last frame stays for its animation before the reveal ends.
      if (moved && !r.cancelled) await sleep(REVEAL_FRAME_MS);
    } finally {
      if (revealRef.current === r) {
        revealRef.current = null;
        setRevealing(false);
      }
    }
    return moved;
  }, [client, enqueue, apply, endReveal]);
  /** End a reveal now, on the request's final state. */
  const finishReveal = useCallback(() => endReveal(true), [endReveal]);
  const backOp = useCallback(() => {
    endReveal(true);
    return withSession((c, sid) => c.backOp(sid));
  }, [withSession, endReveal]);
  // Power cut in the session itself, and the recovery whose operations are then revealed.
  const powerCut = useCallback(() => {
    endReveal(true);
    setPlaying(false);
    return withSession((c, sid) => c.request('power_cut', { sid }));
  }, [withSession, endReveal]);
  const recover = useCallback(() => {
    endReveal(true);
    // Power is back: an error that came from the power being off ("recover first") no
    // longer holds, so its banner goes with it.
    return withSession(async (c, sid) => {
      const r = await c.request('recover', { sid });
      setError(null);
      return r;
    });
  }, [withSession, endReveal]);

  // Scrubbing: keep at most one seek in flight and always land on the latest value.
  const seekTarget = useRef<number | null>(null);
  const seeking = useRef(false);
  const seek = useCallback(
    (step: number) => {
      endReveal(false);
      seekTarget.current = step;
      if (seeking.current) return;
      seeking.current = true;
      const pump = async (): Promise<void> => {
        const target = seekTarget.current;
        seekTarget.current = null;
        if (target === null) {
          seeking.current = false;
          return;
        }
        await withSession((c, sid) => c.seek(sid, target));
        return pump();
      };
      void pump();
    },
    [withSession, endReveal],
  );

  // Playback: one advance at a time, the next scheduled after the answer arrives.
  useEffect(() => {
    if (!playing) return;
    let cancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Huge chips (a 2 MB page-state array per snapshot): at most 5 snapshots a second,
    // with proportionally more requests each, so the page is not swamped with garbage.
    const pages = loadedRef.current
      ? loadedRef.current.info.chip.blocks * loadedRef.current.info.chip.pages_per_block
      : 0;
    const interval =
      pages > HUGE_PAGES && speed.unit === 'request' ? Math.max(speed.intervalMs, 200) : speed.intervalMs;
    const count = Math.max(1, Math.round((speed.count * interval) / speed.intervalMs));
    const tick = async () => {
      const moved = await withSession((c, sid) => c.advance(sid, speed.unit, count));
      if (cancelled) return;
      if (!moved) {
        setPlaying(false);
        return;
      }
      timer = setTimeout(tick, interval);
    };
    timer = setTimeout(tick, Math.min(interval, 150));
    return () => {
      cancelled = true;
      if (timer) clearTimeout(timer);
    };
  }, [playing, speed, withSession]);

  const playingRef = useRef(playing);
  playingRef.current = playing;
  const togglePlay = useCallback(() => {
    const cur = loadedRef.current;
    if (!cur) return;
    endReveal(true);
    if (playingRef.current) {
      setPlaying(false);
      return;
    }
    // At the end, play starts again from the beginning.
    if (cur.snapshot.step >= cur.snapshot.total && cur.snapshot.opCount === 0) seek(0);
    setPlaying(true);
  }, [seek, endReveal]);

  const pause = useCallback(() => {
    endReveal(true);
    setPlaying(false);
  }, [endReveal]);
  const dismissError = useCallback(() => setError(null), []);

  // Settled: nothing queued, revealing or playing, and the snapshot drawn is the last
  // one sent. Marked on the document (`data-settled`), not in React state, so it costs no
  // render; checked after each commit that could change it and when the queue drains.
  const revealingRef = useRef(revealing);
  revealingRef.current = revealing;
  const checkSettled = useCallback(() => {
    const cur = loadedRef.current;
    const settled =
      !!cur &&
      !playingRef.current &&
      !revealingRef.current &&
      pending.current === 0 &&
      cur.snapshot === lastSnapshot.current;
    document.documentElement.dataset.settled = String(settled);
  }, [pending]);
  useEffect(checkSettled, [loaded, playing, revealing, checkSettled]);

  return {
    state: { loaded, loading, error, playing, speed, revealing } satisfies SimState,
    load,
    goto,
    stepOpSnapshot,
    stepOp,
    exec,
    applyResult: apply,
    stepRequest,
    revealRequest,
    finishReveal,
    backOp,
    powerCut,
    recover,
    seek,
    togglePlay,
    pause,
    setSpeed: setSpeedId,
    dismissError,
  };
}

/** Everything useSimulation returns: its state and its (stable) commands. */
export type Sim = ReturnType<typeof useSimulation>;
