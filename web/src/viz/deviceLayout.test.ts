import { describe, expect, it } from 'vitest';
import { MARK_MIN, deviceLayout, fitChip, labelWidth } from './deviceLayout';

describe('fitChip: the chip is always whole in its box (issue 35)', () => {
  it('keeps 16×4 page numbers at the default presentation size in a 740×555 chip column', () => {
    const fit = fitChip(16, 4, 740, 555, 1, 3, 2);
    expect(fit.ts).toBe(2);
    expect(fit.lpns).toBe(true);
  });

  it('takes the largest scale that fits, and the presentation scale when it all fits', () => {
    expect(fitChip(16, 4, 1300, 700, 1, 2, 2).ts).toBe(2);
    expect(fitChip(8, 4, 1300, 700, 1, 1.5, 1.5).ts).toBe(1.5);
  });

  it('a chip too big for labels at any scale keeps the text scale and no width floor', () => {
    expect(fitChip(64, 64, 466, 260, 1, 1, 1)).toEqual({ ts: 1, minBw: 0, lpns: false });
  });

  it('every block, its band and its label fit the box: the tours’ chips, boxes and text steps', () => {
    for (const [blocks, ppb, group] of [
      [8, 4, 1],
      [16, 4, 1],
      [12, 32, 3],
    ])
      for (const [w, h] of [
        [466, 260],
        [536, 270],
        [740, 555],
        [900, 560],
        [1300, 700],
      ])
        for (const ts of [1, 1.5, 2, 2.5, 3]) {
          const fit = fitChip(blocks, ppb, w, h, group, ts, Math.min(ts, 2));
          const l = deviceLayout(blocks, ppb, w, h, group, fit.ts, fit.minBw);
          const where = `${blocks}×${ppb} in ${w}×${h} at ${ts}: ${JSON.stringify(fit)}`;
          expect(fit.minBw, where).toBeGreaterThan(0);
          expect(l.bw, where).toBeGreaterThanOrEqual(labelWidth(blocks, fit.ts, group) - 1e-6);
          expect(l.rows * l.rowH, where).toBeLessThanOrEqual(h + 1e-6);
          expect(l.cols * l.rows, where).toBeGreaterThanOrEqual(blocks);
          expect(l.ph, where).toBeGreaterThan(2);
          if (fit.lpns) expect(l.ph, where).toBeGreaterThanOrEqual(MARK_MIN.pageHeight * fit.ts - 1);
          expect(fit.ts, where).toBeLessThanOrEqual(ts);
        }
  });
});
