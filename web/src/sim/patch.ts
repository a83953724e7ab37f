// Page-state patches for huge chips: during playback the worker sends only the pages that
// changed (a 2 M-page chip changes a few hundred per snapshot), and the page rebuilds the
// array in one of two buffers it alternates between, so playing allocates nothing big.
import type { Session } from './pkg/ftlscope_wasm';
import type { ChipDelta, Snapshot } from './protocol';

/**
 * Chips with more pages than this leave page LPNs out of playback snapshots (an empty
 * array): 8 MB per step is garbage the page would have to collect while it plays; a
 * full snapshot follows when playback stops.
 */
export const LEAN_PAGES = 1 << 18;

/** Pages whose state differs; null when so many changed that the whole array is cheaper. */
export function diffStates(
  prev: Uint8Array,
  next: Uint8Array,
  maxShare = 1 / 16,
): { idx: Uint32Array; val: Uint8Array } | null {
  if (prev.length !== next.length) return null;
  const limit = Math.floor(next.length * maxShare);
  const idx: number[] = [];
  for (let i = 0; i < next.length; i++) {
    if (prev[i] !== next[i]) {
      idx.push(i);
      if (idx.length > limit) return null;
    }
  }
  const val = new Uint8Array(idx.length);
  for (let j = 0; j < idx.length; j++) val[j] = next[idx[j]];
  return { idx: Uint32Array.from(idx), val };
}

/** The client side: the last rebuilt array per Session, and a spare buffer to rebuild into. */
export class PatchBase {
  private last = new Map<number, Uint8Array>();
  private spare = new Map<number, Uint8Array>();

  /** Remember a full array (it may become the base of the next patch). */
  full(sid: number, states: Uint8Array): void {
    const prev = this.last.get(sid);
    this.last.set(sid, states);
    if (prev && prev.length === states.length) this.spare.set(sid, prev);
  }

  /** Apply a patch to the last array, into the spare buffer (a new identity each time). */
  apply(sid: number, patch: { idx: Uint32Array; val: Uint8Array }): Uint8Array {
    const cur = this.last.get(sid);
    if (!cur) return new Uint8Array(0); // a Session being disposed: nothing to draw

    let next = this.spare.get(sid);
    if (!next || next.length !== cur.length || next === cur) next = new Uint8Array(cur.length);
    next.set(cur);
    const { idx, val } = patch;
    for (let j = 0; j < idx.length; j++) next[idx[j]] = val[j];
    this.spare.set(sid, cur);
    this.last.set(sid, next);
    return next;
  }

  forget(sid: number): void {
    this.last.delete(sid);
    this.spare.delete(sid);
  }
}

/** The chip's arrays as a snapshot carries them. */
export interface ChipArrays {
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  ownerSets?: Record<string, number[]>;
}

/**
 * The client side of snapshots by change (issue 26): the arrays per Session, rebuilt from
 * each delta into one of two sets it alternates between (the spare is brought up to date
 * by replaying the delta it missed), so a step copies nothing big and each result is a new
 * identity. As with PatchBase, the arrays of the snapshot before last are reused; the
 * page LPNs are one array updated in place.
 */
export class ChipBase {
  private last = new Map<number, { cur: ChipArrays; spare: ChipArrays | null; missed: ChipDelta | null }>();

  /** Remember a full snapshot's arrays (the base of the next delta). */
  full(sid: number, chip: ChipArrays): void {
    const cur = {
      pageStates: chip.pageStates,
      pageLpns: chip.pageLpns,
      blockRoles: chip.blockRoles,
      eraseCounts: chip.eraseCounts,
      owners: chip.owners,
      ownerSets: chip.ownerSets,
    };
    this.last.set(sid, { cur, spare: null, missed: null });
  }

  current(sid: number): ChipArrays | undefined {
    return this.last.get(sid)?.cur;
  }

  /** The arrays with the delta applied; null when there is no base to apply it to. */
  apply(sid: number, d: ChipDelta): ChipArrays | null {
    const e = this.last.get(sid);
    if (!e || e.cur.pageLpns.length !== e.cur.pageStates.length) return null;
    const { cur } = e;
    let next = e.spare;
    if (next && e.missed) applyTo(next, e.missed);
    else
      next = {
        pageStates: cur.pageStates.slice(),
        // LPNs change in place (16 MB on a 4 M-page chip: no copy; nothing keys on their identity).
        pageLpns: cur.pageLpns,
        blockRoles: cur.blockRoles.slice(),
        eraseCounts: cur.eraseCounts.slice(),
        owners: cur.owners.slice(),
      };
    applyTo(next, d);
    const sets = { ...(cur.ownerSets ?? {}) };
    for (const b of d.blocks) delete sets[String(b)];
    Object.assign(sets, d.ownerSets);
    next = { ...next, ownerSets: Object.keys(sets).length > 0 ? sets : undefined };
    this.last.set(sid, { cur: next, spare: cur, missed: d });
    return next;
  }

  forget(sid: number): void {
    this.last.delete(sid);
  }
}

function applyTo(a: ChipArrays, d: ChipDelta): void {
  for (let j = 0; j < d.pages.length; j++) {
    a.pageStates[d.pages[j]] = d.states[j];
    a.pageLpns[d.pages[j]] = d.lpns[j];
  }
  for (let j = 0; j < d.blocks.length; j++) {
    const b = d.blocks[j];
    a.blockRoles[b] = d.roles[j];
    a.owners[b] = d.owners[j];
    a.eraseCounts[b] = d.eraseCounts[j];
  }
}

/**
 * The snapshot a worker answer carries: its `snapshot` (create, steps) or the answer itself
 * when it is one (`snapshot`; a compare `thumb` has the same arrays); else undefined.
 */
export function snapshotIn(result: unknown): Snapshot | undefined {
  if (!result || typeof result !== 'object') return undefined;
  if ('snapshot' in result) return (result as { snapshot?: Snapshot }).snapshot;
  return 'pageStates' in result && result.pageStates instanceof Uint8Array ? (result as Snapshot) : undefined;
}

/** The change since the last delta, or null when the whole moment must be read. */
export function readDelta(s: Session): ChipDelta | null {
  const d = s.take_delta();
  try {
    if (d.full()) return null;
    return {
      pages: d.pages(),
      states: d.page_states(),
      lpns: d.page_lpns(),
      blocks: d.blocks(),
      roles: d.block_roles(),
      owners: d.block_owners(),
      eraseCounts: d.block_erase_counts(),
      ownerSets: d.owner_sets(),
    };
  } finally {
    d.free();
  }
}

/** A chip delta that changes nothing (new arrays each time: the worker transfers them). */
export const noChange = (): ChipDelta => ({
  pages: new Uint32Array(0),
  states: new Uint8Array(0),
  lpns: new Uint32Array(0),
  blocks: new Uint32Array(0),
  roles: new Uint8Array(0),
  owners: new Int32Array(0),
  eraseCounts: new Uint32Array(0),
  ownerSets: {},
});
