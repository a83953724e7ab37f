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
      const [start, ...arcs] = dot.split('A');
      const [x0, y0] = start.split(',').map(Number);
      // absolute arcs: rx,ry,rotation,large-arc,sweep,x,y — half way round and back to the start
      const steps = arcs.map((a) => a.split(',').map(Number));
      expect(steps.length).toBeGreaterThanOrEqual(2);
      for (const s of steps) expect(s.slice(0, 2)).toEqual([1.6, 1.6]);
      const [x1, y1] = steps[0].slice(5);
      expect(Math.hypot(x1 - x0, y1 - y0)).toBeCloseTo(3.2);
      expect(steps[steps.length - 1].slice(5)).toEqual([x0, y0]);
      return [(x0 + x1) / 2, (y0 + y1) / 2];
    });
    expect(centres[0][0]).toBeCloseTo(10);
    expect(centres[0][1]).toBeCloseTo(20);
    expect(centres[1][0]).toBeCloseTo(30.456, 1);
    expect(centres[1][1]).toBeCloseTo(40);
    expect(dotsPath([], 1.6)).toBe('');
  });
});
