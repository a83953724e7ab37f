import { describe, expect, it } from 'vitest';
import { dotsPath } from './AddressPlot';

describe('address plot dots', () => {
  it('draws one closed dot of radius r centred on each point, in one path', () => {
    const d = dotsPath(
      [
        [10, 20],
        [30.456, 40],
      ],
      1.6,
    );
    const dots = d.split('M').slice(1);
    expect(dots).toHaveLength(2);
    const centres = dots.map((dot) => {
      const [start, ...arcs] = dot.split('a');
      const [x0, y0] = start.split(',').map(Number);
      expect(arcs).toHaveLength(2);
      // each arc: rx,ry rotation large-arc,sweep dx,dy — a half circle out and back
      const steps = arcs.map((a) => a.trim().split(/[ ,]+/).map(Number));
      for (const s of steps) expect(s.slice(0, 2)).toEqual([1.6, 1.6]);
      expect(steps[0][5] + steps[1][5]).toBeCloseTo(0);
      expect(steps[0][6] + steps[1][6]).toBeCloseTo(0);
      return [x0 + steps[0][5] / 2, y0];
    });
    expect(centres[0][0]).toBeCloseTo(10);
    expect(centres[0][1]).toBeCloseTo(20);
    expect(centres[1][0]).toBeCloseTo(30.456, 1);
    expect(centres[1][1]).toBeCloseTo(40);
    expect(dotsPath([], 1.6)).toBe('');
  });
});
