// Compare's thumbnails of big chips: each block drawn as a few cells (host.ts 'thumb').

/** Page-state codes in the order a summarised block shows them (web/src/viz/palette.ts). */
const SUMMARY_ORDER = [1, 3, 4, 2, 5, 0];

/**
 * Per-block summary of page states: each block as `cells` cells whose states are in
 * proportion to its pages' (cumulative rounding, so the cells add up to the block).
 */
export function summarise(states: Uint8Array, blocks: number, cells: number): Uint8Array {
  const ppb = Math.floor(states.length / Math.max(1, blocks));
  const out = new Uint8Array(blocks * cells);
  const count = new Uint32Array(8);
  for (let b = 0; b < blocks; b++) {
    count.fill(0);
    const o = b * ppb;
    for (let i = 0; i < ppb; i++) count[states[o + i] & 7]++;
    let seen = 0;
    let c = 0;
    for (const st of SUMMARY_ORDER) {
      seen += count[st];
      const upto = Math.round((seen * cells) / ppb);
      for (; c < upto; c++) out[b * cells + c] = st;
    }
  }
  return out;
}
