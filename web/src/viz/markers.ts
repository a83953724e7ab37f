// Timeline markers (Session.markers(): flat [request index, bits, ...]) → bins for drawing.

export const MARKER_KINDS = [
  { bit: 32, key: 'power', label: 'Power cut', color: '#000000' },
  { bit: 8, key: 'wrong', label: 'Wrong read', color: '#D55E00' },
  { bit: 1, key: 'merge', label: 'Merge', color: '#0072B2' },
  { bit: 2, key: 'gc', label: 'GC', color: '#E69F00' },
  { bit: 4, key: 'meta', label: 'Metadata', color: '#CC79A7' },
  { bit: 16, key: 'time', label: 'Time shift', color: '#009E73' },
] as const;

/** The most important kind among a marker's bits (power cut first, time shift last). */
export function markerKind(bits: number) {
  return MARKER_KINDS.find((k) => (bits & k.bit) !== 0) ?? null;
}

export interface MarkerBin {
  /** first request index in the bin */
  index: number;
  /** bin number (0..bins-1) */
  bin: number;
  count: number;
  bits: number;
}

/**
 * Group markers into `bins` equal slices of [0, total): one entry per non-empty bin, with
 * the OR of its bits, its marker count and its first request (where a click jumps to).
 */
export function binMarkers(markers: Uint32Array | number[], total: number, bins: number): MarkerBin[] {
  if (total <= 0 || bins <= 0) return [];
  const out = new Map<number, MarkerBin>();
  for (let i = 0; i + 1 < markers.length; i += 2) {
    const index = markers[i];
    const bits = markers[i + 1];
    const bin = Math.min(bins - 1, Math.floor((index / total) * bins));
    const cur = out.get(bin);
    if (cur) {
      cur.count++;
      cur.bits |= bits;
      if (index < cur.index) cur.index = index;
    } else out.set(bin, { index, bin, count: 1, bits });
  }
  return [...out.values()].sort((a, b) => a.bin - b.bin);
}

/** Request index of the nearest marker after (dir 1) or before (dir -1) `step`, or null. */
export function adjacentMarker(markers: Uint32Array | number[], step: number, dir: 1 | -1): number | null {
  let best: number | null = null;
  for (let i = 0; i + 1 < markers.length; i += 2) {
    const idx = markers[i];
    if (dir === 1 && idx > step && (best === null || idx < best)) best = idx;
    if (dir === -1 && idx < step && (best === null || idx > best)) best = idx;
  }
  return best;
}
