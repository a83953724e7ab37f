// Page-state patches for huge chips: during playback the worker sends only the pages that
// changed (a 2 M-page chip changes a few hundred per snapshot), and the page rebuilds the
// array in one of two buffers it alternates between, so playing allocates nothing big.
import type { ChipDelta, WasmSession } from './protocol';

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
 * The client side of snapshots by change (issue 26): the last full arrays per Session,
 * and deltas applied to a copy of them (a new identity each time: a snapshot already
 * handed to React is never changed under it).
 */
export class ChipBase {
  private last = new Map<number, ChipArrays>();

  /** Remember a full snapshot's arrays (the base of the next delta). */
  full(sid: number, chip: ChipArrays): void {
    this.last.set(sid, {
      pageStates: chip.pageStates,
      pageLpns: chip.pageLpns,
      blockRoles: chip.blockRoles,
      eraseCounts: chip.eraseCounts,
      owners: chip.owners,
      ownerSets: chip.ownerSets,
    });
  }

  current(sid: number): ChipArrays | undefined {
    return this.last.get(sid);
  }

  /** The arrays with the delta applied; null when there is no base to apply it to. */
  apply(sid: number, d: ChipDelta): ChipArrays | null {
    const cur = this.last.get(sid);
    if (!cur || cur.pageLpns.length !== cur.pageStates.length) return null;
    const next: ChipArrays = {
      pageStates: cur.pageStates.slice(),
      pageLpns: cur.pageLpns.slice(),
      blockRoles: cur.blockRoles.slice(),
      eraseCounts: cur.eraseCounts.slice(),
      owners: cur.owners.slice(),
    };
    for (let j = 0; j < d.pages.length; j++) {
      next.pageStates[d.pages[j]] = d.states[j];
      next.pageLpns[d.pages[j]] = d.lpns[j];
    }
    const sets = { ...(cur.ownerSets ?? {}) };
    for (let j = 0; j < d.blocks.length; j++) {
      const b = d.blocks[j];
      next.blockRoles[b] = d.roles[j];
      next.owners[b] = d.owners[j];
      next.eraseCounts[b] = d.eraseCounts[j];
      delete sets[String(b)];
    }
    Object.assign(sets, d.ownerSets);
    if (Object.keys(sets).length > 0) next.ownerSets = sets;
    this.last.set(sid, next);
    return next;
  }

  forget(sid: number): void {
    this.last.delete(sid);
  }
}

/** The change since the last delta, or null when the whole moment must be read. */
export function readDelta(s: WasmSession): ChipDelta | null {
  if (!s.take_delta) return null;
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
      ownerSets: JSON.parse(d.owner_sets()) as Record<string, number[]>,
    };
  } finally {
    d.free?.();
  }
}
