/// <reference types="node" />
// The device session across the wasm boundary (issue 40, item 4; core tests in
// core-wasm/crates/sim/tests/ssd_step.rs): typed moments, each die's chip arrays, steps in
// time order across dies, Back to the start, and the core's refusal of page striping for
// a scheme that maps logical blocks.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeviceSession, initSync } from './pkg/ftlscope_wasm.js';
import type { DeviceMoment } from './generated/DeviceMoment';

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('./pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const scenario = (scheme: string) =>
  JSON.stringify({
    scheme,
    chip: { preset: 'classroom' },
    workload: { kind: 'uniform', n: 200, seed: 3, read_ratio: 0.3 },
  });

describe('DeviceSession', () => {
  it('steps 8 dies op by op in time order and back', () => {
    const s = new DeviceSession(scenario('page'), 4, 2, 'page');
    expect(s.dies()).toBe(8);
    const first: DeviceMoment = s.moment();
    expect(first.cursor).toBe(0);
    expect(first.current).toBeNull();
    expect(first.dies.map((d) => d.die)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const pages = s.page_states(0).length;
    expect(pages).toBeGreaterThan(0);
    const seen = new Set<number>();
    let last = -1;
    let n = 0;
    while (s.step_op()) {
      const m = s.moment();
      const cur = m.current!;
      seen.add(cur.die);
      // (start, die) never goes back: the steps are in time order.
      expect(cur.start_ns * 16 + cur.die).toBeGreaterThanOrEqual(last);
      last = cur.start_ns * 16 + cur.die;
      n++;
    }
    expect(n).toBe(s.total());
    expect(seen.size).toBe(8);
    for (let d = 0; d < 8; d++) {
      expect(s.page_states(d)).toBeInstanceOf(Uint8Array);
      expect(s.page_states(d).length).toBe(pages);
    }
    while (s.back_op()) n--;
    expect(n).toBe(0);
    expect(s.moment()).toEqual(first);
    s.free();
  });

  it('refuses page striping for a block-mapped scheme with the core neutral message (no CLI flag)', () => {
    expect(() => new DeviceSession(scenario('bast'), 2, 1, 'page')).toThrow(/needs block striping$/);
    const s = new DeviceSession(scenario('bast'), 2, 1, 'block');
    expect(s.step_op()).toBe(true);
    s.free();
  });

  it('cuts power on every die, recovers each, and goes back to the moment before the cut', () => {
    // Core tests: core-wasm/crates/sim/tests/ssd_step_cut.rs.
    const s = new DeviceSession(scenario('page'), 2, 2, 'page');
    s.goto(Math.floor(s.total() / 2));
    const before: DeviceMoment = s.moment();
    expect(before.power).toBe('on');
    expect(before.recovery).toEqual([]);
    s.power_cut();
    expect(s.power()).toBe('off');
    expect(() => s.step_op()).toThrow(/power is off/);
    s.recover();
    let m: DeviceMoment = s.moment();
    expect(m.power).toBe('recovering');
    expect(m.recovery.map((r) => r.die)).toEqual([0, 1, 2, 3]);
    expect(m.recovery_next!.start_ns).toBeGreaterThanOrEqual(before.now_ns);
    const ops = m.recovery.reduce((a, r) => a + r.op_count, 0);
    expect(ops).toBeGreaterThan(0);
    expect(s.step_op()).toBe(true);
    expect(s.moment().recovery_current!.op).toBe(1);
    s.recover_whole();
    m = s.moment();
    expect(m.power).toBe('recovered');
    for (const r of m.recovery) {
      expect(r.op_cursor).toBe(r.op_count);
      expect(r.verdict).not.toBeNull();
      expect(r.verdict!.ok).toBe(true);
      expect(r.verdict!.lost).toBe(0);
      expect(r.verdict!.wrong).toBe(0);
    }
    // Step goes on with the run after the recovery, from the cut's cursor, power on; Back
    // returns to the recovered moment.
    expect(s.step_op()).toBe(true);
    const after: DeviceMoment = s.moment();
    expect([after.power, after.recovered_cuts, after.cursor]).toEqual(['on', 1, before.cursor + 1]);
    expect(after.current!.start_ns).toBeGreaterThanOrEqual(
      before.now_ns + Math.max(...m.recovery.map((r) => r.total_ns)),
    );
    expect(s.back_op()).toBe(true);
    expect(s.moment()).toEqual(m);
    for (let i = 0; i < ops + 2; i++) s.back_op();
    expect(s.power()).toBe('on');
    expect(s.moment()).toEqual(before);
    s.free();
  });
});
