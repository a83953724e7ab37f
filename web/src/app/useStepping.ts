// Moving through the run by hand: a flash operation or a request forwards, an operation
// back, a jump to a moment, and scrubbing (seek). Each ends a reveal first (useReveal).
import { useCallback, useRef } from 'react';
import type { Snapshot } from '../sim/protocol';
import type { RevealControl } from './useReveal';
import type { SessionCore } from './useSession';

export function useStepping(
  { client, enqueue, apply, sidRef, withSession }: SessionCore,
  { endReveal }: RevealControl,
) {
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

  /** Reveal one flash operation and return the new snapshot (undefined if nothing moved). */
  const stepOpSnapshot = useCallback(async (): Promise<Snapshot | undefined> => {
    endReveal(true);
    if (!client || sidRef.current === null) return undefined;
    const r = await enqueue(() => client.stepOp(sidRef.current!));
    return apply(r) && r ? r.snapshot : undefined;
  }, [client, enqueue, apply, endReveal, sidRef]);

  /** Finish the request (or recovery) under way, or run the next one, in one step. */
  const stepRequest = useCallback(() => {
    endReveal(true);
    return withSession((c, sid) => c.stepRequest(sid));
  }, [withSession, endReveal]);

  const backOp = useCallback(() => {
    endReveal(true);
    return withSession((c, sid) => c.backOp(sid));
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

  return { stepOp, goto, stepOpSnapshot, stepRequest, backOp, seek };
}
