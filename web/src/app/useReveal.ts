// Step request's reveal (reveal.ts): a request shown op by op from the state before it.
// Every other command ends it first: endReveal(true) queues the rest of the request
// (step_request) unless the reveal already finished it, so a key pressed mid-reveal acts
// on the request's end state: no input is lost and no request is stepped twice. Jumps
// (load, seek, goto) only stop it: endReveal(false).
import { useCallback, useRef, useState } from 'react';
import type { Snapshot } from '../sim/protocol';
import { REVEAL_FRAME_MS, revealDone, revealMove } from './reveal';
import type { SessionCore } from './useSession';

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

export function useReveal({ client, enqueue, apply, sidRef }: SessionCore) {
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
    [client, enqueue, apply, sidRef],
  );

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
  }, [client, enqueue, apply, endReveal, sidRef]);

  /** End a reveal now, on the request's final state. */
  const finishReveal = useCallback(() => endReveal(true), [endReveal]);

  return { revealing, endReveal, revealRequest, finishReveal };
}

export type RevealControl = ReturnType<typeof useReveal>;
