import { describe, expect, it } from 'vitest';
import { REVEAL_MAX_FRAMES, revealDone, revealMove, type RevealPosition } from './reveal';

/** Play a reveal of an `n`-operation request from a boundary; the frames it takes. */
function play(n: number, from = 0): { frames: number; moves: string[] } {
  let p: RevealPosition | null = from > 0 ? { opCursor: from, opCount: n, powered: true } : null;
  const moves: string[] = [];
  for (let frame = 0; frame < 100; frame++) {
    const m = revealMove(p, frame);
    moves.push(m.kind === 'ops' ? `ops${m.count}` : m.kind);
    const cursor = p ? p.opCursor : 0;
    const next = m.kind === 'op' ? cursor + 1 : m.kind === 'ops' ? cursor + m.count : n;
    p = next >= n ? { opCursor: 0, opCount: 0, powered: true } : { opCursor: next, opCount: n, powered: true };
    if (revealDone(p)) return { frames: frame + 1, moves };
  }
  throw new Error('never done');
}

describe('Step request reveal', () => {
  it('reveals a short request one operation per frame, the last frame finishing it', () => {
    expect(play(1)).toEqual({ frames: 1, moves: ['op'] });
    expect(play(11).frames).toBe(11);
    expect(
      play(11)
        .moves.slice(0, 10)
        .every((m) => m === 'op'),
    ).toBe(true);
    expect(play(11).moves.at(-1)).toBe('rest');
  });

  it('caps a long request at the frame budget with larger strides, ending with the rest', () => {
    for (const n of [17, 25, 100, 2000]) {
      const r = play(n);
      expect(r.frames, `${n} ops`).toBeLessThanOrEqual(REVEAL_MAX_FRAMES);
      expect(r.moves[0]).toBe('op');
      expect(r.moves.at(-1)).toBe('rest');
      expect(r.moves.filter((m) => m.startsWith('ops')).length).toBeGreaterThan(0);
    }
  });

  it('goes on from the middle of a request', () => {
    expect(play(11, 5)).toEqual({ frames: 6, moves: ['op', 'op', 'op', 'op', 'op', 'rest'] });
  });

  it('is done between requests, at the last operation, or with the power off', () => {
    expect(revealDone({ opCursor: 0, opCount: 0, powered: true })).toBe(true);
    expect(revealDone({ opCursor: 3, opCount: 3, powered: true })).toBe(true);
    expect(revealDone({ opCursor: 2, opCount: 3, powered: false })).toBe(true);
    expect(revealDone({ opCursor: 2, opCount: 3, powered: true })).toBe(false);
  });
});
