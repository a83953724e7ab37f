// The chip's state as the grids draw it: one set of props for DeviceGrid and CanvasGrid,
// taken from a snapshot, a compare thumbnail or a printed tour stop in one call.

export interface ChipState {
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  /** every owner of a block that has several (KRAFT/KAST shared log blocks) */
  ownerSets?: Record<string, number[]>;
  /** the blocks changed since the arrays `from` (a delta, sim/patch.ts): redraw only these */
  changed?: { blocks: Uint32Array; from: Uint8Array };
  /** presentation mode: the chip's marks this many times larger (not taken by chipState()) */
  textScale?: number;
}

/** The grid props of anything that carries the chip's arrays (and nothing else of it). */
export function chipState(s: ChipState): ChipState {
  return {
    pageStates: s.pageStates,
    pageLpns: s.pageLpns,
    blockRoles: s.blockRoles,
    eraseCounts: s.eraseCounts,
    owners: s.owners,
    ownerSets: s.ownerSets,
    changed: s.changed,
  };
}
