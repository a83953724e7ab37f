// When each page's fill (and LPN) changes in a plan's animation: a programmed page fills
// when its slot plays, an erased block turns clean when its erase plays.
import { useCallback, useMemo, useRef } from 'react';
import type { Effect } from './effects';

/** ms from the plan's start to each page's (ppn's) change */
export function planDelays(plan: Effect[] | undefined, slotMs: number, ppb: number): Map<number, number> {
  const d = new Map<number, number>();
  if (!plan || slotMs <= 0) return d;
  for (const e of plan) {
    if (e.kind === 'program') d.set(e.pbn * ppb + e.page, (e.slot + 0.6) * slotMs);
    else if (e.kind === 'copy') d.set(e.to.pbn * ppb + e.to.page, (e.slot + 0.8) * slotMs);
    else if (e.kind === 'erase') for (let p = 0; p < ppb; p++) d.set(e.pbn * ppb + p, (e.slot + 0.3) * slotMs);
  }
  return d;
}

/**
 * A clock for the plan's delays: `left(delays, now)` says, per ppn, what is left of each
 * page's delay at `now`, counted from the first call with these delays (a new plan starts
 * the clock again).
 */
export function delayClock() {
  let start: { delays: Map<number, number>; at: number } | null = null;
  return (delays: Map<number, number>, now: number) => {
    if (start?.delays !== delays) start = { delays, at: now };
    const gone = now - start.at;
    return (ppn: number) => Math.max(0, (delays.get(ppn) ?? 0) - gone);
  };
}

/**
 * The plan's delays, and `since()`: what is left of each page's delay now. The grid
 * restarts its fades when only its layout or theme changes (a resize, presentation, a
 * text step); counted from the plan's start, a fade cut short by that restart carries on
 * at once instead of holding its cut-short colour through the whole delay again, and a
 * page whose slot has not played yet still waits for it.
 */
export function useFillDelays(plan: Effect[] | undefined, slotMs: number, ppb: number) {
  const delays = useMemo(() => planDelays(plan, slotMs, ppb), [plan, slotMs, ppb]);
  const clock = useRef(delayClock());
  /** call once per effect run */
  const since = useCallback(() => clock.current(delays, performance.now()), [delays]);
  return { delays, since };
}
