// Drawing for CanvasGrid, as plain functions of their inputs: the overview image's layout
// and colours, one block row of the image, the page-level detail when zoomed in, the ring
// on the last operation, and the minimap.
import type { ZoomTransform } from 'd3';
import type { SimEvent } from '../sim/protocol';
import { bandLabel, bandTextColor, pageMark, pageStyle, roleStyle } from './palette';

export const DETAIL_K = 6; // px per page cell at which cells are drawn one by one
export const TEXT_K = 18; // ... and their LPNs
const NO_LPN = 0xffffffff;
/** Pages recoloured per animation frame while the overview image catches up. */
export const SLICE_PAGES = 128_000;

export function zoomText(pxPerPage: number): string {
  return `${pxPerPage >= DETAIL_K ? 'pages' : 'overview'} · ${pxPerPage >= 1 ? `${pxPerPage.toFixed(1)} px/page` : `${(1 / pxPerPage).toFixed(1)} pages/px`}`;
}

export type CanvasLayout = ReturnType<typeof canvasLayout>;

/** Blocks per row of the overview so that the image's aspect matches the box. */
export function canvasLayout(blocks: number, ppb: number, width: number, height: number) {
  const aspect = Math.max(0.2, width / Math.max(1, height));
  // cols / (rows * (ppb + 1)) ≈ aspect, cols * rows ≈ blocks
  let rows = Math.max(1, Math.round(Math.sqrt(blocks / (aspect * (ppb + 1)))));
  let cols = Math.ceil(blocks / rows);
  if (cols > 8192) {
    cols = 8192;
    rows = Math.ceil(blocks / cols);
  }
  return { cols, rows, imgW: cols, imgH: rows * (ppb + 1) };
}

/** '#rrggbb' → little-endian RGBA as one uint32 (for ImageData). */
export function packColor(css: string): number {
  let r = 128,
    g = 128,
    b = 128;
  const m = /^#([0-9a-f]{6})$/i.exec(css.trim());
  if (m) {
    const n = parseInt(m[1], 16);
    r = (n >> 16) & 255;
    g = (n >> 8) & 255;
    b = n & 255;
  } else {
    const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
    if (rgb) [r, g, b] = [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  }
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

export type Colors = ReturnType<typeof readColors>;

/** The theme's colours as the canvas needs them (CSS variables resolved on `el`). */
export function readColors(el: Element | null) {
  const css = el ? getComputedStyle(el) : null;
  const resolve = (c: string) => {
    const m = /^var\((--[\w-]+)\)$/.exec(c);
    return m ? (css?.getPropertyValue(m[1]).trim() ?? '#cccccc') : c;
  };
  return {
    page: Array.from({ length: 8 }, (_, i) => resolve(pageStyle(i).fill)),
    role: Array.from({ length: 16 }, (_, i) => resolve(roleStyle(i).color)),
    bg: css?.getPropertyValue('--bg').trim() || '#ffffff',
    text: css?.getPropertyValue('--text').trim() || '#000000',
    ring: css?.getPropertyValue('--hi-ring').trim() || '#000000',
  };
}

/** Packed colours for ImageData writes. */
export function packedColors(col: Colors) {
  const pageC = new Uint32Array(256).fill(packColor('#000000'));
  col.page.forEach((c, i) => (pageC[i] = packColor(c)));
  const roleC = new Uint32Array(256).fill(packColor('#000000'));
  col.role.forEach((c, i) => (roleC[i] = packColor(c)));
  return { pageC, roleC, bg: packColor(col.bg) };
}

export interface ChipArrays {
  blocks: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  owners: Int32Array;
  ownerSets?: Record<string, number[]>;
  /** times each block was erased (its label with its number, when it fits) */
  eraseCounts?: Uint32Array;
  /** presentation: marks this many times larger, and drawn only when that large (issue 25) */
  textScale?: number;
}

/** Which marks a frame drew (the legend explains only those; issue 35). */
export interface DrawnMarks {
  /** pages' LPNs (or M for metadata) */
  lpn: boolean;
  /** block number · erase count */
  block: boolean;
  /** a band's LBN */
  lbn: boolean;
  /** the block number · erase count is drawn on the band (the canvas), not under the block (SVG) */
  blockOnBand?: boolean;
}

export const NO_MARKS: DrawnMarks = { lpn: false, block: false, lbn: false };

/**
 * Paint block row `r` of the overview image into `px` (a role stripe, then one pixel per
 * page), marking the page states and block roles seen. Row by row so the writes are
 * sequential (the reads stride by ppb bytes).
 */
export function paintRow(
  px: Uint32Array,
  r: number,
  W: number,
  ppb: number,
  chip: Pick<ChipArrays, 'blocks' | 'pageStates' | 'blockRoles'>,
  colors: ReturnType<typeof packedColors>,
  seenS: Uint8Array,
  seenR: Uint8Array,
) {
  const { pageC, roleC, bg } = colors;
  const { pageStates: states, blockRoles: roles, blocks: nb } = chip;
  const rowH = ppb + 1;
  const b0 = r * W;
  let o = r * rowH * W;
  for (let c = 0; c < W; c++, o++) {
    if (b0 + c < nb) {
      seenR[roles[b0 + c]] = 1;
      px[o] = roleC[roles[b0 + c]];
    } else px[o] = bg;
  }
  for (let pg = 0; pg < ppb; pg++) {
    let i = b0 * ppb + pg;
    for (let c = 0; c < W; c++, o++, i += ppb) {
      if (b0 + c < nb) {
        const st = states[i];
        seenS[st] = 1;
        px[o] = pageC[st];
      } else px[o] = bg;
    }
  }
}

/**
 * Paint one block's column of the overview image (its role pixel and its pages), as
 * `paintRow` paints it: the change-only redraw of an op step (issue 26).
 */
export function paintBlock(
  px: Uint32Array,
  b: number,
  W: number,
  ppb: number,
  chip: Pick<ChipArrays, 'pageStates' | 'blockRoles'>,
  colors: ReturnType<typeof packedColors>,
  seenS: Uint8Array,
  seenR: Uint8Array,
) {
  const { pageC, roleC } = colors;
  const r = Math.floor(b / W);
  const c = b - r * W;
  let o = r * (ppb + 1) * W + c;
  const role = chip.blockRoles[b];
  seenR[role] = 1;
  px[o] = roleC[role];
  for (let pg = 0, i = b * ppb; pg < ppb; pg++, i++) {
    o += W;
    const st = chip.pageStates[i];
    seenS[st] = 1;
    px[o] = pageC[st];
  }
}

/** The largest font, up to `max` px, at which `text` is at most `width` wide. */
function fitFont(ctx: CanvasRenderingContext2D, text: string, max: number, width: number): number {
  ctx.font = `${max}px system-ui, sans-serif`;
  const w = ctx.measureText(text).width;
  return w <= width ? max : (max * width) / w;
}

/**
 * Page-level detail (cells, hatching, LPNs; on each band its role and LBN, and under them
 * the block's number and erase count once two lines fit) for the visible blocks only.
 */
export function drawDetail(
  ctx: CanvasRenderingContext2D,
  t: ZoomTransform,
  k: number,
  box: { width: number; height: number },
  layout: CanvasLayout,
  ppb: number,
  p: ChipArrays,
  col: Colors,
): DrawnMarks {
  const rowH = ppb + 1;
  const drew: DrawnMarks = { ...NO_MARKS, blockOnBand: true };
  const x0 = Math.max(0, Math.floor(-t.x / k));
  const x1 = Math.min(layout.cols, Math.ceil((box.width - t.x) / k));
  const y0 = Math.max(0, Math.floor(-t.y / k));
  const y1 = Math.min(layout.imgH, Math.ceil((box.height - t.y) / k));
  const r0 = Math.floor(y0 / rowH);
  const r1 = Math.min(layout.rows - 1, Math.floor(y1 / rowH));
  ctx.fillStyle = col.bg;
  ctx.fillRect(0, 0, box.width, box.height);
  const gap = Math.max(1, k * 0.12);
  // Marks grow with presentation's text scale; there a mark too small to read at this
  // zoom is left out (zoom in to see it), never drawn under 9 px × the scale (18 px).
  const ts = p.textScale ?? 1;
  const fontPx = Math.min(12 * ts, k * 0.45);
  const marks = ts <= 1 || fontPx >= 9 * ts;
  // the band's two lines (role and LBN; number · erase count) at a font that fits both
  const font2 = Math.min(12 * ts, (k - gap) / 2.6);
  // the smallest band text drawn: 8 px, in presentation 9 px × the scale (as the marks)
  const minFont = ts > 1 ? 9 * ts : 8;
  const twoLines = font2 >= minFont;
  ctx.font = `${fontPx}px system-ui, sans-serif`;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  const paths: Path2D[] = [];
  const hatch = new Path2D();
  const texts: [string, number, number, number][] = [];
  for (let r = r0; r <= r1; r++) {
    for (let c = x0; c < x1; c++) {
      const b = r * layout.cols + c;
      if (b >= p.blocks) break;
      const bx = t.x + c * k + gap / 2;
      const by = t.y + r * rowH * k;
      const role = roleStyle(p.blockRoles[b]);
      ctx.fillStyle = col.role[p.blockRoles[b]] ?? '#000';
      ctx.fillRect(bx, by + gap / 2, k - gap, k - gap);
      if (k >= TEXT_K * 1.6 && marks) {
        ctx.fillStyle = bandTextColor({ ...role, color: col.role[p.blockRoles[b]] ?? '#000' });
        // Each line at the largest font up to the band's that fits its width, drawn as soon
        // as that is at least the smallest readable (issue 35: 3-5-digit block numbers and
        // LBNs shrink to fit rather than vanish).
        const base = twoLines ? font2 : fontPx;
        // the whole label (all its LBNs), else the longest that fits at the smallest font
        // by bandLabel's estimate (9-px characters), else the role alone
        const owners = [p.owners[b], p.ownerSets?.[b]] as const;
        let label = role.short;
        let f = 0;
        for (const c of [
          bandLabel(role, owners[0], Infinity, owners[1]),
          bandLabel(role, owners[0], ((k - gap) * 9) / minFont, owners[1]),
          role.short,
        ]) {
          label = c;
          f = fitFont(ctx, c, base, k - gap);
          if (f >= minFont) break;
        }
        // the role alone is never drawn under the smallest font (fillText's width narrows it)
        f = Math.max(f, minFont);
        const num = `${b} · e${p.eraseCounts?.[b] ?? 0}`;
        const fNum = twoLines ? fitFont(ctx, num, font2, k - gap) : 0;
        const both = twoLines && fNum >= minFont;
        ctx.font = `${f}px system-ui, sans-serif`;
        ctx.fillText(label, bx + (k - gap) / 2, by + (both ? k * 0.3 : k / 2), k - gap);
        if (both) {
          ctx.font = `${fNum}px system-ui, sans-serif`;
          ctx.fillText(num, bx + (k - gap) / 2, by + k * 0.7, k - gap);
        }
        ctx.font = `${fontPx}px system-ui, sans-serif`;
        drew.block ||= both;
        drew.lbn ||= /L\d/.test(label);
      }
      const pStart = Math.max(0, Math.floor(y0 - r * rowH - 1));
      const pEnd = Math.min(ppb, Math.ceil(y1 - r * rowH));
      for (let pg = pStart; pg < pEnd; pg++) {
        const i = b * ppb + pg;
        const st = p.pageStates[i];
        const py = by + (pg + 1) * k + gap / 2;
        (paths[st] ??= new Path2D()).rect(bx, py, k - gap, k - gap);
        if (st === 2) {
          // invalid pages are hatched, never colour alone
          hatch.moveTo(bx, py + k - gap);
          hatch.lineTo(bx + k - gap, py);
        }
        if (k >= TEXT_K && marks && i < p.pageLpns.length && (p.pageLpns[i] !== NO_LPN || st === 4))
          texts.push([pageMark(st, p.pageLpns[i]), bx + (k - gap) / 2, py + (k - gap) / 2, st]);
      }
    }
  }
  paths.forEach((path, st) => {
    ctx.fillStyle = col.page[st] ?? '#000';
    ctx.fill(path);
  });
  ctx.strokeStyle = 'rgba(255,255,255,0.6)';
  ctx.lineWidth = 1;
  ctx.stroke(hatch);
  for (const [text, tx, ty, st] of texts) {
    // a torn page's dark wine needs white text (as in the SVG grid's .lpn-torn)
    ctx.fillStyle = st === 0 ? col.text : st === 5 ? '#ffffff' : '#000000';
    ctx.fillText(text, tx, ty, k - gap);
  }
  drew.lpn = texts.length > 0;
  return drew;
}

/** The last touched page (or erased block) gets a ring, so activity is visible at any zoom. */
export function drawRing(
  ctx: CanvasRenderingContext2D,
  e: SimEvent | null | undefined,
  t: ZoomTransform,
  k: number,
  blocks: number,
  layout: CanvasLayout,
  ppb: number,
  ring: string,
) {
  if (!e || e.pbn == null || e.pbn >= blocks) return;
  const c = e.pbn % layout.cols;
  const r = Math.floor(e.pbn / layout.cols);
  const x = t.x + c * k;
  const y = t.y + (r * (ppb + 1) + 1 + (e.page ?? 0)) * k;
  const h = e.page == null ? ppb * k : k;
  ctx.strokeStyle = ring;
  ctx.lineWidth = 2;
  ctx.strokeRect(x - 3, y - 3, Math.max(k, 1) + 6, Math.max(h, 1) + 6);
}

/** The minimap: the whole image, and the view's rectangle on it. */
export function drawMinimap(
  mini: HTMLCanvasElement,
  img: HTMLCanvasElement,
  layout: CanvasLayout,
  t: ZoomTransform,
  k: number,
  box: { width: number; height: number },
) {
  const ctx = mini.getContext('2d');
  if (!ctx) return;
  const s = Math.min(mini.width / layout.imgW, mini.height / layout.imgH);
  ctx.clearRect(0, 0, mini.width, mini.height);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'low';
  ctx.drawImage(img, 0, 0, layout.imgW * s, layout.imgH * s);
  ctx.strokeStyle = '#D55E00';
  ctx.lineWidth = 2;
  ctx.strokeRect((-t.x / k) * s, (-t.y / k) * s, (box.width / k) * s, (box.height / k) * s);
}
