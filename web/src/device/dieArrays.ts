// A device step moves one die by one operation (ssd_step.rs), yet the device worker sends
// every die's chip arrays with each moment (deviceWorker.ts: new typed arrays every reply).
// Drawn as they come, each step redrew all 8 dies' grids (~16k SVG rects, ~1-1.5 s a step
// at load 15; issue 37, session 24). Kept here: an array whose contents did not change is
// the one already shown, so the die's grid is handed the same props and is not drawn again.
import type { DieArrays } from '../sim/deviceTypes';

type Typed = Uint8Array | Uint32Array | Int32Array;

/** Whether two typed arrays hold the same numbers. */
function sameContents(a: Typed, b: Typed): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** `next`'s array, or `prev`'s when the two hold the same numbers (what is drawn is the die's either way). */
function kept<T extends Typed>(prev: T, next: T): T {
  return prev === next || sameContents(prev, next) ? prev : next;
}

/**
 * The dies' arrays of a new moment, each array (and each die's whole `DieArrays`) the one of
 * `prev` when its contents are unchanged: identity then says "this die's chip did not change".
 */
export function keepUnchanged(prev: readonly DieArrays[] | undefined, next: DieArrays[]): DieArrays[] {
  if (!prev || prev.length !== next.length) return next;
  return next.map((n, d) => {
    const p = prev[d];
    const out: DieArrays = {
      pageStates: kept(p.pageStates, n.pageStates),
      pageLpns: kept(p.pageLpns, n.pageLpns),
      blockRoles: kept(p.blockRoles, n.blockRoles),
      eraseCounts: kept(p.eraseCounts, n.eraseCounts),
      owners: kept(p.owners, n.owners),
    };
    const all = (Object.keys(out) as (keyof DieArrays)[]).every((k) => out[k] === p[k]);
    return all ? p : out;
  });
}
