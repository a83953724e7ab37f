// DeviceGrid's geometry: blocks per row, and where each block and page cell is.
import { scaleBand } from 'd3';

const BASE_BAND = 16; // role band height above each block (times textScale)
const BASE_LABEL = 14; // pbn label below each block (times textScale)

/**
 * Choose blocks per row so cells are as large as possible in the given box. With
 * `group` > 1 (RFTL's primary/replacement/buffer triples) rows hold whole groups.
 */
export function gridLayout(blocks: number, ppb: number, width: number, height: number, group = 1, scale = 1) {
  const BAND = BASE_BAND * scale;
  const LABEL = BASE_LABEL * scale;
  let best = { cols: blocks, rows: 1, cell: 0, cellW: 0 };
  for (let cols = 1; cols <= blocks; cols++) {
    if (group > 1 && cols % group !== 0 && cols !== blocks) continue;
    const rows = Math.ceil(blocks / cols);
    const cellW = width / cols;
    const cellH = (height - rows * (BAND + LABEL)) / rows / ppb;
    const cell = Math.min(cellW * 0.6, cellH);
    if (cell > best.cell) best = { cols, rows, cell, cellW };
  }
  return best;
}

export type DeviceLayout = ReturnType<typeof deviceLayout>;

/** The scales and positions for one box, group size and text scale. */
export function deviceLayout(blocks: number, ppb: number, width: number, height: number, group: number, ts: number) {
  const BAND = BASE_BAND * ts;
  const LABEL = BASE_LABEL * ts;
  const { cols, rows } = gridLayout(blocks, ppb, width, height, group, ts);
  const x = scaleBand<number>()
    .domain(Array.from({ length: cols }, (_, i) => i))
    .range([0, width])
    .paddingInner(0.12)
    .paddingOuter(0.04);
  const rowH = height / rows;
  const y = scaleBand<number>()
    .domain(Array.from({ length: ppb }, (_, i) => i))
    .range([BAND, rowH - LABEL])
    .paddingInner(ppb > 16 ? 0 : 0.08);
  const blockX = (b: number) => x(b % cols) ?? 0;
  const blockY = (b: number) => Math.floor(b / cols) * rowH;
  const cellXY = (b: number, p: number) => ({ x: blockX(b), y: blockY(b) + (y(p) ?? 0) });
  return { cols, rows, x, y, rowH, BAND, LABEL, bw: x.bandwidth(), ph: y.bandwidth(), blockX, blockY, cellXY };
}
