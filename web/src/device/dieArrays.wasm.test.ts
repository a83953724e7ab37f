/// <reference types="node" />
// The device view keeps a die's arrays while its chip does not change (dieArrays.ts), so a
// step redraws only the dies whose chip changed. What is kept must always hold what the die
// holds: checked against the real core's 8-die device at every step forward and back.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeviceSession, initSync } from '../sim/pkg/ftlscope_wasm.js';
import type { DieArrays } from '../sim/deviceTypes';
import { keepUnchanged } from './dieArrays';

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('../sim/pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const KEYS = ['pageStates', 'pageLpns', 'blockRoles', 'eraseCounts', 'owners'] as const;

/** One die's arrays as the device worker reads them (deviceWorker.ts's `reply`). */
function read(s: DeviceSession): DieArrays[] {
  return Array.from({ length: s.dies() }, (_, d) => ({
    pageStates: s.page_states(d),
    pageLpns: s.page_lpns(d),
    blockRoles: s.block_roles(d),
    eraseCounts: s.block_erase_counts(d),
    owners: s.block_owners(d),
  }));
}

const die = (states: number[], roles = [1]): DieArrays => ({
  pageStates: Uint8Array.from(states),
  pageLpns: Uint32Array.from(states.map((x, i) => (x ? i : 0xffffffff))),
  blockRoles: Uint8Array.from(roles),
  eraseCounts: new Uint32Array(roles.length),
  owners: new Int32Array(roles.length).fill(-1),
});

describe('keepUnchanged', () => {
  it('keeps a die whose arrays hold the same numbers, and only the arrays that did not change', () => {
    const prev = [die([0, 1, 2, 0]), die([1, 1, 0, 0])];
    const next = [die([0, 1, 2, 0]), die([1, 1, 1, 0])];
    const kept = keepUnchanged(prev, next);
    expect(kept[0]).toBe(prev[0]);
    expect(kept[1]).not.toBe(prev[1]);
    expect(kept[1].pageStates).toBe(next[1].pageStates);
    expect(kept[1].pageLpns).toBe(next[1].pageLpns);
    expect(kept[1].blockRoles).toBe(prev[1].blockRoles);
    expect(kept[1].owners).toBe(prev[1].owners);
  });

  it('takes the new arrays when there is nothing to keep: no moment before, another die count, another size', () => {
    const next = [die([0, 1])];
    expect(keepUnchanged(undefined, next)).toBe(next);
    expect(keepUnchanged([die([0, 1]), die([0, 1])], next)).toBe(next);
    // the same leading numbers, one page more: not the same chip
    const longer = keepUnchanged([die([0, 1])], [die([0, 1, 0])]);
    expect(longer[0].pageStates.length).toBe(3);
    // a block's erase count alone changed
    const erased = die([0, 1]);
    erased.eraseCounts[0] = 1;
    const p = die([0, 1]);
    expect(keepUnchanged([p], [erased])[0].eraseCounts).toBe(erased.eraseCounts);
    expect(keepUnchanged([p], [erased])[0].pageStates).toBe(p.pageStates);
  });

  it('on a real 8-die device, every step keeps the dies the step left alone and shows what each die holds', () => {
    const s = new DeviceSession(
      JSON.stringify({ scheme: 'page', chip: { preset: 'classroom' }, workload: { kind: 'uniform', n: 300, seed: 3 } }),
      4,
      2,
      'page',
    );
    let shown = read(s);
    let steps = 0;
    let keptDies = 0;
    const check = () => {
      const now = read(s);
      const next = keepUnchanged(shown, now);
      for (let d = 0; d < now.length; d++) {
        for (const k of KEYS) {
          // What is drawn (kept or new) is what the die holds now.
          expect(Array.from(next[d][k]), `step ${steps} die ${d} ${k}`).toEqual(Array.from(now[d][k]));
          // An array is kept exactly when its numbers did not change.
          const same = Array.from(shown[d][k]).join() === Array.from(now[d][k]).join();
          expect(next[d][k] === shown[d][k], `step ${steps} die ${d} ${k}`).toBe(same);
        }
        if (next[d] === shown[d]) keptDies++;
      }
      shown = next;
    };
    while (steps < 120 && s.step_op()) {
      steps++;
      check();
    }
    for (let i = 0; i < 60 && s.back_op(); i++) check();
    expect(steps).toBe(120);
    // A step changes at most one die's chip: the 7 others (at least) are kept.
    expect(keptDies).toBeGreaterThanOrEqual(7 * 180);
    s.free();
  });
});
