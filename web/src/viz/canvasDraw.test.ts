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
