// DeviceGrid's geometry: blocks per row, and where each block and page cell is.
import { scaleBand } from 'd3';

const BASE_BAND = 16; // role band height above each block (times textScale)
const BASE_LABEL = 14; // pbn label below each block (times textScale)
const PAD_INNER = 0.12; // between blocks in a row
const PAD_OUTER = 0.04;

/** The smallest block width and page height that show every mark (times textScale). */
export const MARK_MIN = {
  /** "15 · e12" under a block and "DATA L14" on its band */
  blockWidth: 52,
  /** a page's LPN */
  pageHeight: 13,
  /** a page's LPN fits across */
  pageWidth: 22,
};

/** A block's drawn width with `cols` blocks to a row of `width` (d3 scaleBand's formula). */
export function blockWidth(width: number, cols: number) {
  return (width / Math.max(1, cols - PAD_INNER + 2 * PAD_OUTER)) * (1 - PAD_INNER);
}

function pagePad(ppb: number) {
  return ppb > 16 ? 0 : 0.08;
}

/**
 * Choose blocks per row so cells are as large as possible in the given box. With
 * `group` > 1 (RFTL's primary/replacement/buffer triples) rows hold whole groups. With
 * `minBw`, rows never hold so many blocks that a block is narrower than that (when any
 * column count allows it): presentation keeps the marks under and over each block.
 */
export function gridLayout(
  blocks: number,
  ppb: number,
  width: number,
  height: number,
  group = 1,
  scale = 1,
  minBw = 0,
) {
  const BAND = BASE_BAND * scale;
  const LABEL = BASE_LABEL * scale;
  let best = { cols: blocks, rows: 1, cell: 0, cellW: 0 };
  const fits = (cols: number) => blockWidth(width, cols) >= minBw;
  const anyFits = minBw > 0 && fits(1);
  for (let cols = 1; cols <= blocks; cols++) {
    if (group > 1 && cols % group !== 0 && cols !== blocks) continue;
    if (anyFits && !fits(cols)) continue;
    const rows = Math.ceil(blocks / cols);
    const cellW = width / cols;
    const cellH = (height - rows * (BAND + LABEL)) / rows / ppb;
    const cell = Math.min(cellW * 0.6, cellH);
    if (cell > best.cell) best = { cols, rows, cell, cellW };
  }
  return best;
}

/** The smallest page height (px) at which the chip still reads as pages, marks or not. */
const MIN_PAGE_PX = 3;

/**
 * The width a block needs for its label ("15 · e12"; "LBN 3 · e12" in the middle of an
 * RFTL group): more digits, more room.
 */
export function labelWidth(blocks: number, ts: number, group = 1) {
  const digits = (n: number) => String(Math.max(0, n - 1)).length;
  const chars = Math.max(digits(blocks) + 6, group > 1 ? digits(Math.ceil(blocks / group)) + 10 : 0);
  return MARK_MIN.blockWidth * ts * Math.max(1, chars / 8);
}

export interface ChipFit {
  /** the text scale the chip's marks are drawn at */
  ts: number;
  /** never so many blocks to a row that a block is narrower than this (its label) */
  minBw: number;
  /** every page's LPN fits too */
  lpns: boolean;
}

/**
 * How to draw the chip in a box so that it is always whole (issue 35): every block, its
 * band and its label (block number · erase count) inside the box, never scrolled. Tries
 * the largest text scale from `ts` down to `floor` at which every mark (the pages' LPNs
 * too) fits; else the largest at which the labels fit; the LPNs are the marks that yield.
 * Below `floor` only when even the labels need it. Chips too big for labels at any
 * scale keep `ts` and no width floor (their labels thin out, as before).
 */
export function fitChip(
  blocks: number,
  ppb: number,
  width: number,
  height: number,
  group: number,
  ts: number,
  floor = ts,
): ChipFit {
  const pad = pagePad(ppb);
  const fits = (s: number, withLpns: boolean) => {
    const minBw = labelWidth(blocks, s, group);
    for (let cols = 1; cols <= blocks; cols++) {
      if (group > 1 && cols % group !== 0 && cols !== blocks) continue;
      const bw = blockWidth(width, cols);
      if (bw < minBw) break;
      const rows = Math.ceil(blocks / cols);
      const pagesH = height / rows - (BASE_BAND + BASE_LABEL) * s;
      // d3 scaleBand: ppb cells with padding inner `pad`
      const ph = (pagesH * (1 - pad)) / (ppb - pad);
      if (ph < MIN_PAGE_PX) continue;
      if (!withLpns || (ph >= MARK_MIN.pageHeight * s && bw >= MARK_MIN.pageWidth * s)) return true;
    }
    return false;
  };
  const top = Math.max(ts, 0.5);
  const low = Math.min(floor, top);
  const scales: number[] = [];
  for (let s = top; s >= low - 1e-9; s -= 0.125) scales.push(s);
  for (const withLpns of [true, false])
    for (const s of scales)
      if (fits(s, withLpns)) return { ts: s, minBw: labelWidth(blocks, s, group), lpns: withLpns };
  for (let s = low - 0.1; s >= 0.6; s -= 0.1)
    if (fits(s, false)) return { ts: s, minBw: labelWidth(blocks, s, group), lpns: false };
  return { ts, minBw: 0, lpns: false };
}

export type DeviceLayout = ReturnType<typeof deviceLayout>;

/** The scales and positions for one box, group size and text scale. */
export function deviceLayout(
  blocks: number,
  ppb: number,
  width: number,
  height: number,
  group: number,
  ts: number,
  minBw = 0,
) {
  const BAND = BASE_BAND * ts;
  const LABEL = BASE_LABEL * ts;
  const { cols, rows } = gridLayout(blocks, ppb, width, height, group, ts, minBw);
  const x = scaleBand<number>()
    .domain(Array.from({ length: cols }, (_, i) => i))
    .range([0, width])
    .paddingInner(PAD_INNER)
    .paddingOuter(PAD_OUTER);
  const rowH = height / rows;
  const y = scaleBand<number>()
    .domain(Array.from({ length: ppb }, (_, i) => i))
    .range([BAND, rowH - LABEL])
    .paddingInner(pagePad(ppb));
  const blockX = (b: number) => x(b % cols) ?? 0;
  const blockY = (b: number) => Math.floor(b / cols) * rowH;
  const cellXY = (b: number, p: number) => ({ x: blockX(b), y: blockY(b) + (y(p) ?? 0) });
  return { cols, rows, x, y, rowH, BAND, LABEL, bw: x.bandwidth(), ph: y.bandwidth(), blockX, blockY, cellXY };
}
