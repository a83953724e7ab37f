// Settled: nothing queued, revealing or playing, and the snapshot drawn is the last one
// sent. Marked on the document (`data-settled`, which e2e/helpers.ts `settled()` waits
// for), not in React state, so it costs no render; checked after each commit that could
// change it and when the command queue starts or drains.
import { useCallback, useEffect, useRef, type MutableRefObject } from 'react';
import type { Snapshot } from '../sim/protocol';
import type { Loaded } from './useSession';

export function useSettledMark(
  loaded: Loaded | null,
  playing: boolean,
  revealing: boolean,
  /** commands queued or running (useCommandQueue) */
  pending: MutableRefObject<number>,
  /** the last snapshot sent to be drawn */
  lastSnapshot: MutableRefObject<Snapshot | null>,
) {
  const now = useRef({ loaded, playing, revealing });
  now.current = { loaded, playing, revealing };
  const check = useCallback(() => {
    const { loaded: cur, playing: p, revealing: r } = now.current;
    const settled = !!cur && !p && !r && pending.current === 0 && cur.snapshot === lastSnapshot.current;
    document.documentElement.dataset.settled = String(settled);
  }, [pending, lastSnapshot]);
  useEffect(check, [loaded, playing, revealing, check]);
  return check;
}
