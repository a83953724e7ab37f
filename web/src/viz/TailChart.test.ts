import { describe, expect, it } from 'vitest';
import { ninesLabel, tailPoints } from './TailChart';
import { timingFrom } from '../scenario/timing';

describe('response-time tail (1 − F on a log axis)', () => {
  it('gives the share slower than each value, ending at one request', () => {
    // 1,000 requests: 990 at 25 µs, 9 at 2,000 µs, 1 at 40,000 µs.
    const pts = tailPoints([
      [2000, 9],
      [25, 990],
      [40000, 1],
    ]);
    expect(pts).toEqual([
      [25, 1],
      [25, 0.01],
      [2000, 0.001],
      [40000, 0.001],
    ]);
    expect(tailPoints([[0, 5]])).toEqual([]);
  });
  it('labels the nines', () => {
    expect([1, 0.1, 0.01, 0.001, 0.0001].map(ninesLabel)).toEqual(['all', 'p90', 'p99', 'p99.9', 'p99.99']);
  });
});

describe('scenario timing', () => {
  it('parses and checks', () => {
    expect(timingFrom(undefined)).toBeUndefined();
    expect(timingFrom({ model: 'open', rate: 500, spacing: 'poisson' })).toEqual({
      model: 'open',
      rate: 500,
      spacing: 'poisson',
    });
    expect(() => timingFrom({ model: 'half-open' })).toThrow(/model/);
    expect(() => timingFrom({ model: 'open', time_scale: 0 })).toThrow(/time_scale/);
  });
});
