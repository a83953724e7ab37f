// Playback: the speeds, play/pause, and the loop that advances one step of the chosen
// size at a time, scheduling the next only after the answer arrives.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { RevealControl } from './useReveal';
import type { SessionCore } from './useSession';

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

/** `seek` starts a run at its end over again from the beginning. */
export function usePlayback(
  { loadedRef, withSession }: SessionCore,
  { endReveal }: RevealControl,
  seek: (step: number) => void,
) {
  const [playing, setPlaying] = useState(false);
  const [speedId, setSpeedId] = useState(DEFAULT_SPEED);
  const speed = SPEEDS.find((s) => s.id === speedId) ?? SPEEDS[1];

  // One advance at a time, the next scheduled after the answer arrives.
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
  }, [playing, speed, withSession, loadedRef]);

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
  }, [seek, endReveal, loadedRef]);

  const pause = useCallback(() => {
    endReveal(true);
    setPlaying(false);
  }, [endReveal]);

  return { playing, setPlaying, speed, setSpeed: setSpeedId, togglePlay, pause };
}
