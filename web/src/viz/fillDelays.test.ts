import { describe, expect, it } from 'vitest';
import { delayClock, planDelays } from './fillDelays';
import type { Effect } from './effects';

describe('fill delays', () => {
  const plan = [
    { kind: 'program', pbn: 2, page: 1, slot: 0 },
    { kind: 'erase', pbn: 3, slot: 2 },
  ] as unknown as Effect[];

  it('a page changes when its slot plays', () => {
    const d = planDelays(plan, 100, 4);
    expect(d.get(2 * 4 + 1)).toBe(60);
    for (let p = 0; p < 4; p++) expect(d.get(3 * 4 + p)).toBeCloseTo(230);
    expect(planDelays(plan, 0, 4).size).toBe(0);
  });

  it('a restart of the same plan waits only for what is left of each delay', () => {
    const clock = delayClock();
    const d = planDelays(plan, 100, 4);
    expect(clock(d, 1000)(9)).toBe(60);
    // a layout change 100 ms in: the program has played (its fade carries on at once),
    // the erase still waits 130 ms
    const later = clock(d, 1100);
    expect(later(9)).toBe(0);
    expect(later(12)).toBeCloseTo(130);
    expect(later(0)).toBe(0);
    // a new plan starts the clock again
    const next = planDelays(plan, 100, 4);
    expect(clock(next, 1200)(12)).toBeCloseTo(230);
  });
});
