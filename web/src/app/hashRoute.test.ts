import { describe, expect, it } from 'vitest';
import { HASH_BURST, HASH_PLAYING_MS, HASH_WINDOW_MS, hashWriteDelay, momentKey } from './useHashRoute';

describe('when the address bar is written', () => {
  it('at once, for every change up to a burst of HASH_BURST in the window', () => {
    const writes: number[] = [];
    for (let i = 0; i < HASH_BURST; i++) {
      expect(hashWriteDelay(writes, 1000 + i * 10, false)).toBe(0);
      writes.push(1000 + i * 10);
    }
    // One more inside the window waits until the oldest write leaves it.
    const now = 1000 + HASH_BURST * 10;
    expect(hashWriteDelay(writes, now, false)).toBe(1000 + HASH_WINDOW_MS - now);
  });

  it('forgets writes older than the window', () => {
    const writes = Array.from({ length: HASH_BURST }, (_, i) => i);
    expect(hashWriteDelay(writes, HASH_WINDOW_MS + HASH_BURST, false)).toBe(0);
    expect(writes).toEqual([]);
  });

  it('trails while playing', () => {
    expect(hashWriteDelay([], 0, true)).toBe(HASH_PLAYING_MS);
  });

  it('keys a moment as step:op', () => {
    expect(momentKey({ step: 40, op: 1 })).toBe('40:1');
  });
});
