// The Session in the worker that the app shows: its latest snapshot, the command queue
// every command goes through (useCommandQueue), the core's last error, and opening a
// scenario (create, move to the moment asked for, dispose the previous Session).
import { startTransition, useCallback, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { SessionInfo, Snapshot, StepResult } from '../sim/protocol';
import type { Scenario } from '../scenario/model';
import { useCommandQueue } from './useCommandQueue';

/** How far (in flash operations) opening a scenario looks for a multi-operation request. */
const OPEN_SEARCH_OPS = 60;

export interface Loaded {
  sid: number;
  scenario: Scenario;
  info: SessionInfo;
  snapshot: Snapshot;
}

export function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * The session's state and the queue. `onQueueError` runs after a queued command failed
 * (its message is already the error); `onQueueChange` when the queue starts or drains.
 */
export function useSession(client: SimClient | null, onQueueError: () => void, onQueueChange: () => void) {
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const loadedRef = useRef<Loaded | null>(null);
  loadedRef.current = loaded;
  // The session commands act on: set when a load lands, before React renders it, so a
  // command queued behind a load never names the session the load disposed.
  const sidRef = useRef<number | null>(null);
  // The drawn snapshot catches up with the last one sent through a transition.
  const lastSnapshot = useRef<Snapshot | null>(null);
  const { enqueue, pending } = useCommandQueue((e) => {
    setError(message(e));
    onQueueError();
  }, onQueueChange);

  const apply = useCallback((r: StepResult | undefined) => {
    if (!r) return false;
    lastSnapshot.current = r.snapshot;
    // A transition: React renders the panels in slices, so a big snapshot never makes one long task.
    startTransition(() => setLoaded((cur) => (cur ? { ...cur, snapshot: r.snapshot } : cur)));
    return r.moved;
  }, []);

  const withSession = useCallback(
    (fn: (c: SimClient, sid: number) => Promise<StepResult>) => {
      if (!client || sidRef.current === null) return Promise.resolve(false);
      return enqueue(() => fn(client, sidRef.current!)).then(apply);
    },
    [client, enqueue, apply],
  );

  /** Run any command against the current Session, serialised with the others. */
  const exec = useCallback(
    <T>(fn: (c: SimClient, sid: number) => Promise<T>): Promise<T | undefined> => {
      if (!client || sidRef.current === null) return Promise.resolve(undefined);
      return enqueue(() => fn(client, sidRef.current!));
    },
    [client, enqueue],
  );

  const dismissError = useCallback(() => setError(null), []);

  return {
    client,
    loaded,
    loading,
    error,
    loadedRef,
    sidRef,
    lastSnapshot,
    enqueue,
    pending,
    apply,
    withSession,
    exec,
    setLoaded,
    setLoading,
    setError,
    dismissError,
  };
}

export type SessionCore = ReturnType<typeof useSession>;

/**
 * Open a scenario: a new Session at `at` (exactly), or `openAt` of the way through on an
 * interesting moment. `stop` runs first (ends a reveal and playback without completing).
 */
export function useLoad(s: SessionCore, stop: () => void) {
  const { client, enqueue, sidRef, lastSnapshot, setLoaded, setError, setLoading } = s;
  return useCallback(
    (scenario: Scenario, openAt = 0, at?: { step: number; op: number }): Promise<boolean> => {
      if (!client) return Promise.resolve(false);
      stop();
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
    [client, enqueue, sidRef, lastSnapshot, setLoaded, setError, setLoading, stop],
  );
}
