// Torn pages on the canvas (big chips; issue 35): the overview image and the page-level
// detail give a torn page its own colour, as the SVG grid and the legend do.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ZoomTransform } from 'd3';
import { canvasLayout, drawDetail, packColor, packedColors, paintBlock, paintRow, readColors } from './canvasDraw';
import { PAGE_STATES } from './palette';

const TORN = PAGE_STATES.find((s) => s.key === 'torn')!;
const INVALID = PAGE_STATES.find((s) => s.key === 'invalid')!;
const NO_LPN = 0xffffffff;

/** 2 blocks × 4 pages: block 0 valid, valid, torn, erased; block 1 invalid, erased... */
function chip() {
  const ppb = 4;
  const pageStates = new Uint8Array([1, 1, TORN.id, 0, INVALID.id, 0, 0, 0]);
  const pageLpns = new Uint32Array([7, 8, 9, NO_LPN, 7, NO_LPN, NO_LPN, NO_LPN]);
  return {
    ppb,
    p: {
      blocks: 2,
      pageStates,
      pageLpns,
      blockRoles: new Uint8Array([1, 1]),
      owners: new Int32Array([0, -1]),
      eraseCounts: new Uint32Array([3, 0]),
    },
  };
}

describe('canvas drawing of a torn page', () => {
  const col = readColors(null);
  const packed = packedColors(col);

  it('has its own colour in the palette the canvas reads', () => {
    expect(col.page[TORN.id]).toBe(TORN.fill);
    expect(packed.pageC[TORN.id]).toBe(packColor(TORN.fill));
    expect(packed.pageC[TORN.id]).not.toBe(packed.pageC[INVALID.id]);
  });

  it('paints the torn page in its colour in the overview image (row and block paths)', () => {
    const { ppb, p } = chip();
    const W = 2; // both blocks on one row
    const px = new Uint32Array(W * (ppb + 1));
    const seenS = new Uint8Array(256);
    const seenR = new Uint8Array(256);
    paintRow(px, 0, W, ppb, p, packed, seenS, seenR);
    // row 0 is the role stripe; page pg of block c is at (pg + 1) * W + c
    expect(px[(2 + 1) * W + 0]).toBe(packColor(TORN.fill));
    expect(px[(0 + 1) * W + 1]).toBe(packColor(INVALID.fill));
    expect(seenS[TORN.id]).toBe(1);
    const px2 = new Uint32Array(W * (ppb + 1));
    paintBlock(px2, 0, W, ppb, p, packed, new Uint8Array(256), new Uint8Array(256));
    expect(px2[(2 + 1) * W + 0]).toBe(packColor(TORN.fill));
  });

  describe('page-level detail', () => {
    const G = globalThis as { Path2D?: unknown };
    const had = G.Path2D;
    class FakePath {
      rects: [number, number][] = [];
      rect(x: number, y: number) {
        this.rects.push([x, y]);
      }
      moveTo() {}
      lineTo() {}
    }
    beforeEach(() => {
      G.Path2D = FakePath;
    });
    afterEach(() => {
      G.Path2D = had;
    });

    it('fills the torn cell with the torn colour and writes its LPN legibly', () => {
      const { ppb, p } = chip();
      const fills: { style: string; rects: [number, number][] }[] = [];
      const texts: { text: string; style: string }[] = [];
      const ctx = {
        fillStyle: '',
        strokeStyle: '',
        lineWidth: 1,
        font: '',
        textAlign: '',
        textBaseline: '',
        fillRect() {},
        stroke() {},
        measureText: (s: string) => ({ width: s.length * 5 }),
        fill(path: FakePath) {
          fills.push({ style: this.fillStyle, rects: path.rects });
        },
        fillText(text: string) {
          texts.push({ text, style: this.fillStyle });
        },
      };
      const k = 40; // px per page: cells, bands and LPNs all drawn
      const box = { width: 200, height: 400 };
      const layout = canvasLayout(p.blocks, ppb, box.width, box.height);
      const t = { x: 0, y: 0, k } as unknown as ZoomTransform;
      const drew = drawDetail(ctx as unknown as CanvasRenderingContext2D, t, k, box, layout, ppb, p, col);
      const torn = fills.find((f) => f.style === TORN.fill);
      expect(torn?.rects.length).toBe(1);
      // the torn cell is block 0's page 2 (column 0, third page under the band)
      const [x, y] = torn!.rects[0];
      expect(x).toBeLessThan(k);
      expect(Math.floor(y / k)).toBe(3);
      // its LPN is drawn white on the dark wine (black on it would be unreadable)
      expect(texts.find((s) => s.text === '9')?.style).toBe('#ffffff');
      expect(drew.lpn).toBe(true);
      expect(drew.blockOnBand).toBe(true);
    });
  });
});

// Block band labels on big chips (issue 35): a band's "number · erase count" and its
// "DATA L<lbn>" shrink to fit the band and are drawn as soon as they fit at the smallest
// band font (8 px); the marks reported (the legend's) are those drawn.
describe('band labels of 4- and 5-digit blocks', () => {
  const G = globalThis as { Path2D?: unknown };
  const had = G.Path2D;
  beforeEach(() => {
    G.Path2D = class {
      rect() {}
      moveTo() {}
      lineTo() {}
    };
  });
  afterEach(() => {
    G.Path2D = had;
  });
  const col = readColors(null);

  /** Draw at `k` px per page with the last block at the top left; what was written, at which font. */
  function drawLast(blocks: number, ppb: number, k: number) {
    const pages = blocks * ppb;
    const p = {
      blocks,
      pageStates: new Uint8Array(pages).fill(1),
      pageLpns: new Uint32Array(pages).map((_, i) => i),
      blockRoles: new Uint8Array(blocks).fill(1),
      owners: new Int32Array(blocks).map((_, b) => b),
      eraseCounts: new Uint32Array(blocks).fill(12),
    };
    const texts: { text: string; px: number; max: number }[] = [];
    const ctx = {
      fillStyle: '',
      strokeStyle: '',
      lineWidth: 1,
      font: '',
      textAlign: '',
      textBaseline: '',
      fillRect() {},
      stroke() {},
      fill() {},
      // 0.6 em a character, at the font set
      measureText(s: string) {
        return { width: s.length * 0.6 * parseFloat(this.font) };
      },
      fillText(text: string, _x: number, _y: number, max: number) {
        texts.push({ text, px: parseFloat(this.font), max });
      },
    };
    const box = { width: 800, height: 600 };
    const layout = canvasLayout(blocks, ppb, box.width, box.height);
    const b = blocks - 1;
    const c = b % layout.cols;
    const r = Math.floor(b / layout.cols);
    const t = { x: -c * k, y: -r * (ppb + 1) * k, k } as unknown as ZoomTransform;
    const drew = drawDetail(ctx as unknown as CanvasRenderingContext2D, t, k, box, layout, ppb, p, col);
    const of = (text: string) => texts.find((x) => x.text === text);
    return { drew, of, last: b };
  }

  for (const [blocks, ppb] of [
    [4096, 32],
    [16384, 64],
  ]) {
    it(`${blocks} × ${ppb}: the last block's number and LBN appear as soon as they fit, never squeezed`, () => {
      const b = blocks - 1;
      const num = `${b} · e12`;
      const lbn = `DATA L${b}`;
      // the smallest k at which the number fits at 8 px: (k - 0.12 k) ≥ its width at 8 px
      const fits = (s: string) => Math.ceil((s.length * 0.6 * 8) / 0.88);
      const kNum = fits(num);
      const under = drawLast(blocks, ppb, kNum - 1);
      expect(under.of(num)).toBeUndefined();
      expect(under.drew.block).toBe(false);
      const at = drawLast(blocks, ppb, kNum);
      const n = at.of(num);
      expect(n, `"${num}" at ${kNum} px per page`).toBeDefined();
      expect(n!.px).toBeGreaterThanOrEqual(8);
      // it fits its band at its font (fillText's max width never squeezes it)
      expect(num.length * 0.6 * n!.px).toBeLessThanOrEqual(n!.max + 1e-9);
      expect(at.drew.block).toBe(true);
      // the LBN (as long as the number here, or longer): drawn exactly when it fits
      const kLbn = fits(lbn);
      expect(drawLast(blocks, ppb, kLbn - 1).drew.lbn).toBe(false);
      expect(drawLast(blocks, ppb, kLbn - 1).of('DATA')).toBeDefined();
      const withLbn = drawLast(blocks, ppb, kLbn);
      expect(withLbn.drew.lbn).toBe(true);
      expect(withLbn.of(lbn)!.px).toBeGreaterThanOrEqual(8);
      // within the zoom's reach: 72 px per page (CanvasGrid's maxK)
      expect(Math.max(kNum, kLbn)).toBeLessThanOrEqual(72);
    });
  }
});
