// The simulation's command queue: commands run one after another (one in flight at a
// time), so rapid clicks and key repeats can never interleave. It also counts what is
// queued, so the app can tell when nothing is moving (useSimulation's settled mark).
import { useCallback, useRef } from 'react';

/** `onChange` runs when the queue starts (empty -> one) and when it drains. */
export function useCommandQueue(onError: (e: unknown) => void, onChange: () => void) {
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  /** commands queued or running */
  const pending = useRef(0);
  const callbacks = useRef({ onError, onChange });
  callbacks.current = { onError, onChange };

  /** Run commands one after another; errors go to onError, never as rejections. */
  const enqueue = useCallback(<T>(fn: () => Promise<T>): Promise<T | undefined> => {
    if (pending.current++ === 0) callbacks.current.onChange();
    const next = chain.current.then(fn).catch((e: unknown) => {
      callbacks.current.onError(e);
      return undefined;
    });
    chain.current = next;
    // Counted done a macrotask later: after the caller's own `.then` has applied the result.
    void next.then(() =>
      setTimeout(() => {
        if (--pending.current === 0) callbacks.current.onChange();
      }),
    );
    return next;
  }, []);

  return { enqueue, pending };
}
