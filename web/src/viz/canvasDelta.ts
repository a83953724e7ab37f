// Change-only redraw of the canvas overview (issue 26): an op step on a big chip repaints
// the blocks the core's delta names, not the whole image; and a probe on the canvas
// element with which the e2e test checks that drawing against a full repaint.
import { packedColors, paintBlock, paintRow, type CanvasLayout, type Colors } from './canvasDraw';

type Packed = ReturnType<typeof packedColors>;
interface Chip {
  blocks: number;
  pageStates: Uint8Array;
  blockRoles: Uint8Array;
  pageLpns?: Uint32Array;
  owners?: Int32Array;
  eraseCounts?: Uint32Array;
}

/** Most blocks a delta repaints one by one; beyond that the image is swept whole. */
export const MAX_CHANGED_BLOCKS = 4096;

/** Repaint `blocks` into the image (pixels and canvas); false when too many to do so. */
export function paintChanged(
  ctx: CanvasRenderingContext2D,
  data: ImageData,
  layout: CanvasLayout,
  ppb: number,
  chip: Chip,
  packed: Packed,
  blocks: Uint32Array,
  seen: { s: Uint8Array; r: Uint8Array },
): boolean {
  if (blocks.length > MAX_CHANGED_BLOCKS) return false;
  const px = new Uint32Array(data.data.buffer);
  const W = layout.imgW;
  for (const b of blocks) if (b < chip.blocks) paintBlock(px, b, W, ppb, chip, packed, seen.s, seen.r);
  for (const b of blocks) {
    const r = Math.floor(b / W);
    ctx.putImageData(data, 0, 0, b - r * W, r * (ppb + 1), 1, ppb + 1);
  }
  return true;
}

/** FNV-1a over 32-bit words. */
function hash(words: ArrayLike<number>, h = 0x811c9dc5): number {
  for (let i = 0; i < words.length; i++) h = Math.imul(h ^ (words[i] >>> 0), 0x01000193) >>> 0;
  return h;
}

/** The whole overview painted afresh from the arrays (the reference a delta must match). */
export function fullPixels(layout: CanvasLayout, ppb: number, chip: Chip, packed: Packed): Uint32Array {
  const px = new Uint32Array(layout.imgW * layout.imgH);
  const seen = new Uint8Array(256);
  for (let r = 0; r < layout.rows; r++) paintRow(px, r, layout.imgW, ppb, chip, packed, seen, seen);
  return px;
}

/** What the e2e test and the browser benchmark read from the canvas element (`__ftlGrid`). */
export interface GridProbe {
  /** no redraw pending: the image shows the arrays of the last props */
  idle(): boolean;
  /** hash of the overview image as drawn (change by change) */
  hash(): string;
  /** hash of the same image painted whole from the arrays now held */
  fullHash(): string;
  /** hash of the arrays (page states, LPNs, roles, owners, erase counts) */
  dataHash(): string;
  /** chip states received, and the last of them put on screen whole */
  received(): number;
  drawn(): number;
  /** of the states received, how many were drawn by change only */
  byChange(): number;
}

export function installProbe(
  canvas: HTMLCanvasElement | null,
  get: () => { data: ImageData | null; layout: CanvasLayout; ppb: number; chip: Chip; packed: Packed },
  counters: () => { idle: boolean; received: number; drawn: number; byChange: number },
) {
  if (!canvas) return;
  const probe: GridProbe = {
    idle: () => counters().idle,
    hash: () => {
      const d = get().data;
      return d ? hash(new Uint32Array(d.data.buffer)).toString(16) : '';
    },
    fullHash: () => {
      const g = get();
      return hash(fullPixels(g.layout, g.ppb, g.chip, g.packed)).toString(16);
    },
    dataHash: () => {
      const c = get().chip;
      let h = hash(c.pageStates);
      for (const a of [c.pageLpns, c.blockRoles, c.owners, c.eraseCounts]) if (a) h = hash(a, h);
      return h.toString(16);
    },
    received: () => counters().received,
    drawn: () => counters().drawn,
    byChange: () => counters().byChange,
  };
  Object.assign(canvas, { __ftlGrid: probe });
}

/** The legend's codes after a change-only paint: null when nothing new appeared. */
export function mergePresent(
  key: string,
  seen: { s: Uint8Array; r: Uint8Array },
): { key: string; present: { states: number[]; roles: number[] } } | null {
  const prev = (key ? JSON.parse(key) : { states: [], roles: [] }) as { states: number[]; roles: number[] };
  const add = (have: number[], s: Uint8Array) => [...new Set([...have, ...[...s.keys()].filter((k) => s[k])])];
  const present = { states: add(prev.states, seen.s), roles: add(prev.roles, seen.r) };
  if (present.states.length === prev.states.length && present.roles.length === prev.roles.length) return null;
  present.states.sort((a, b) => a - b);
  present.roles.sort((a, b) => a - b);
  return { key: JSON.stringify(present), present };
}

/** `paintChanged` for a grid's props (with `changed`), updating the legend's codes. */
export function paintDelta(
  img: HTMLCanvasElement | null,
  data: ImageData | null,
  layout: CanvasLayout,
  ppb: number,
  p: Chip & {
    changed?: { blocks: Uint32Array };
    onPresent?: (x: { states: number[]; roles: number[] }) => void;
  },
  colors: () => Colors,
  presentKey: { current: string },
): boolean {
  const ctx = img?.getContext('2d');
  if (!ctx || !data || !p.changed) return false;
  const seen = { s: new Uint8Array(256), r: new Uint8Array(256) };
  if (!paintChanged(ctx, data, layout, ppb, p, packedColors(colors()), p.changed.blocks, seen)) return false;
  const m = mergePresent(presentKey.current, seen);
  if (m) {
    presentKey.current = m.key;
    p.onPresent?.(m.present);
  }
  return true;
}
