import { describe, expect, it } from 'vitest';
import { follow, type DevicePath } from './devicePath';

const on = (cursor: number, recovered_cuts = 0) => ({ cursor, power: 'on' as const, recovered_cuts });
const at = (power: 'off' | 'recovering' | 'recovered', cursor = 30) => ({ cursor, power, recovered_cuts: 0 });

describe('the device path a link carries', () => {
  it('is the cursor alone on the recorded run, and the moves since a cut after it', () => {
    let p: DevicePath = { cursor: 0, moves: [] };
    p = follow(p, { kind: 'step' }, on(1));
    p = follow(p, { kind: 'goto', cursor: 30 }, on(30));
    expect(p).toEqual({ cursor: 30, moves: [] });
    p = follow(p, { kind: 'cut' }, at('off'));
    p = follow(p, { kind: 'recover' }, at('recovering'));
    p = follow(p, { kind: 'step' }, at('recovering'));
    p = follow(p, { kind: 'step' }, at('recovering'));
    p = follow(p, { kind: 'back' }, at('recovering'));
    p = follow(p, { kind: 'recover_whole' }, at('recovered'));
    p = follow(p, { kind: 'step' }, on(31, 1));
    p = follow(p, { kind: 'step' }, on(32, 1));
    expect(p).toEqual({ cursor: 30, moves: ['cut', 'recover', 2, -1, 'recover_whole', 2] });
    // Back to the moment before the cut: the recorded run again, the cursor alone.
    expect(follow(p, { kind: 'back' }, on(30))).toEqual({ cursor: 30, moves: [] });
    // Start leaves the cut.
    expect(follow(p, { kind: 'goto', cursor: 0 }, on(0))).toEqual({ cursor: 0, moves: [] });
  });
});
