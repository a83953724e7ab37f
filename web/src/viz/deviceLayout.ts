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

/**
 * The height the chip needs so that, at `width`, every mark the legend names is drawn:
 * block number and erase count, the band's LBN, each page's LPN (presentation, issue 25).
 * When the box is lower, the chip is drawn this tall and its area scrolls.
 */
export function heightForMarks(blocks: number, ppb: number, width: number, group: number, ts: number) {
  const minBw = MARK_MIN.blockWidth * ts;
  const minPh = MARK_MIN.pageHeight * ts;
  const pad = pagePad(ppb);
  let best = Infinity;
  for (let cols = 1; cols <= blocks; cols++) {
    if (group > 1 && cols % group !== 0 && cols !== blocks) continue;
    if (cols > 1 && blockWidth(width, cols) < minBw) break;
    const rows = Math.ceil(blocks / cols);
    // the pages' band: ppb cells of at least minPh with their padding (d3 scaleBand)
    const pagesH = (minPh * (ppb - pad)) / (1 - pad);
    best = Math.min(best, rows * ((BASE_BAND + BASE_LABEL) * ts + pagesH));
  }
  return Math.ceil(best) + 1;
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
