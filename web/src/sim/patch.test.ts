import { describe, expect, it } from 'vitest';
import { PatchBase, diffStates } from './patch';

describe('page-state patches', () => {
  it('lists the changed pages, or gives up when too many changed', () => {
    const a = new Uint8Array([0, 1, 2, 0, 0, 0, 0, 0]);
    const b = new Uint8Array([0, 2, 2, 0, 1, 0, 0, 0]);
    const d = diffStates(a, b, 1 / 2)!;
    expect([...d.idx]).toEqual([1, 4]);
    expect([...d.val]).toEqual([2, 1]);
    expect(diffStates(a, b, 1 / 8)).toBeNull();
    expect(diffStates(a, new Uint8Array(3))).toBeNull();
  });

  it('rebuilds into alternating buffers, each result a new identity with the right content', () => {
    const base = new PatchBase();
    const s0 = new Uint8Array([0, 0, 0, 0]);
    base.full(1, s0);
    const s1 = base.apply(1, { idx: Uint32Array.from([2]), val: Uint8Array.from([1]) });
    expect([...s1]).toEqual([0, 0, 1, 0]);
    expect(s1).not.toBe(s0);
    const s2 = base.apply(1, { idx: Uint32Array.from([0]), val: Uint8Array.from([2]) });
    expect([...s2]).toEqual([2, 0, 1, 0]);
    expect(s2).not.toBe(s1);
    expect(s2).toBe(s0); // the spare buffer is reused: no new allocation
    const s3 = base.apply(1, { idx: Uint32Array.from([], ), val: new Uint8Array(0) });
    expect([...s3]).toEqual([2, 0, 1, 0]);
    expect(s3).toBe(s1);
    base.forget(1);
    expect(base.apply(1, { idx: Uint32Array.from([0]), val: Uint8Array.from([1]) }).length).toBe(0);
  });
});
