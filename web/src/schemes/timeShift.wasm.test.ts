/// <reference types="node" />
// Time shift through the real core: the workload re-written with a request inserted.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Session, initSync } from '../sim/pkg/ftlscope_wasm.js';
import { SessionHost } from '../sim/host';
import type { CreateResult, Panel, SessionConstructor } from '../sim/protocol';
import type { Scenario } from '../scenario/model';
import { frozenStates, insertionPoint, revertDiff, withInserted } from './timeShift';

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('../sim/pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const base: Scenario = {
  scheme: 'ltftl',
  params: { op: 0.25 },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0 w1 w2 w3 w0 w1 w4 w5 w3 w4 w5 w6' },
};

describe('time shift (real core)', () => {
  it('freeze inserted at step 8 gives the paper’s S8, and reverting undoes exactly the diff', async () => {
    const host = new SessionHost(async () => Session as unknown as SessionConstructor);
    let id = 1;
    const call = async <T>(cmd: Record<string, unknown>): Promise<T> => {
      const res = await host.handle({ ...cmd, id: id++ } as never);
      if (!res.ok) throw new Error(res.error);
      return res.result as T;
    };
    const a = await call<CreateResult>({ type: 'create', scenario: base });
    await call({ type: 'seek', sid: a.sid, step: 8 });
    const at = insertionPoint(8, 0);
    const before = await call<string>({ type: 'workload_pattern', sid: a.sid, from: 0, to: at });
    const after = await call<string>({ type: 'workload_pattern', sid: a.sid, from: at, to: 12 });
    expect(before.trim()).toBe('w0 w1 w2 w3 w0 w1 w4 w5');
    const frozen = withInserted(base, before, { kind: 'freeze' }, after);
    const b = await call<CreateResult>({ type: 'create', scenario: frozen });
    expect(b.info.total_requests).toBe(13);
    const end = await call<{ snapshot: { view: { panels: Panel[] }; pageStates: Uint8Array } }>({
      type: 'seek',
      sid: b.sid,
      step: 13,
    });
    expect(frozenStates(end.snapshot.view.panels)).toEqual([{ id: 1, epoch: 'S8', pinned: expect.any(Number) }]);
    expect([...end.snapshot.pageStates].filter((x) => x === 3).length).toBe(3); // retractable {3, 6, 7} in Figure 2
    const diff = revertDiff(end.snapshot.view.panels).get(1) ?? [];
    expect(diff.map((d) => d.sector).sort()).toEqual([3, 4, 5, 6]);

    const reverted = withInserted(
      frozen,
      await call<string>({ type: 'workload_pattern', sid: b.sid, from: 0, to: 13 }),
      { kind: 'revert', state: 1 },
      '',
    );
    const c = await call<CreateResult>({ type: 'create', scenario: reverted });
    const done = await call<{ snapshot: { view: { panels: Panel[] } } }>({ type: 'seek', sid: c.sid, step: 14 });
    expect(revertDiff(done.snapshot.view.panels).get(1) ?? []).toEqual([]);
  });

  it('samples KRAFT associativity over the run and puts the session back where it was', async () => {
    const host = new SessionHost(async () => Session as unknown as SessionConstructor);
    const sc = {
      scheme: 'kraft',
      params: { log_blocks: 2, k: 2 },
      chip: { preset: 'classroom' },
      workload: { kind: 'pattern', text: 'w0-19 w0 w4 w8 w12 w16 w1 w5 w9 w13 w17' },
    };
    const c = (await host.handle({ id: 1, type: 'create', scenario: sc })) as { ok: true; result: CreateResult };
    const sid = c.result.sid;
    await host.handle({ id: 2, type: 'seek', sid, step: 22 });
    await host.handle({ id: 3, type: 'step_op', sid });
    const before = (await host.handle({ id: 4, type: 'snapshot', sid })) as {
      ok: true;
      result: { step: number; opCursor: number; pageStates: Uint8Array };
    };
    const r = (await host.handle({ id: 5, type: 'associativity_series', sid, points: 10 })) as {
      ok: true;
      result: { steps: number[]; slots: number[][]; mean: number[] };
    };
    expect(r.result.steps[0]).toBe(0);
    expect(r.result.steps.at(-1)).toBe(30);
    expect(r.result.slots.every((a) => a.length === 2 && a.every((v) => v <= 2))).toBe(true);
    expect(Math.max(...r.result.mean)).toBeGreaterThan(0);
    const after = (await host.handle({ id: 6, type: 'snapshot', sid })) as typeof before;
    expect([after.result.step, after.result.opCursor]).toEqual([before.result.step, before.result.opCursor]);
    expect([...after.result.pageStates]).toEqual([...before.result.pageStates]);
  });

  it('cuts power at the current operation, recovers and verifies, leaving the session as it was', async () => {
    const host = new SessionHost(async () => Session as unknown as SessionConstructor);
    const hotcold = { kind: 'hotcold', n: 400, seed: 1, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 };
    const c = (await host.handle({
      id: 1,
      type: 'create',
      scenario: { ...base, scheme: 'page', workload: hotcold },
    })) as { ok: true; result: CreateResult };
    const sid = c.result.sid;
    await host.handle({ id: 2, type: 'seek', sid, step: 160 });
    type Snap = {
      ok: true;
      result: { snapshot?: { step: number; opCursor: number; opCount: number }; step: number; opCursor: number };
    };
    let at = { step: 0, opCursor: 0, opCount: 0 };
    for (let i = 0; i < 40 && !(at.opCount > 2 && at.opCursor >= 2); i++)
      at = ((await host.handle({ id: 10 + i, type: 'step_op', sid })) as Snap).result.snapshot!;
    expect(at.opCursor).toBeGreaterThanOrEqual(2);
    const r = (await host.handle({ id: 4, type: 'crash_here', sid })) as {
      ok: true;
      result: {
        step: number;
        op: number;
        outcome: { lost: number; error: string | null; recovery_pages_read: number };
      };
    };
    expect(r.ok).toBe(true);
    expect(r.result).toMatchObject({ step: at.step, op: at.opCursor, outcome: { lost: 0, error: null } });
    expect(r.result.outcome.recovery_pages_read).toBeGreaterThan(0);
    const snap = (await host.handle({ id: 5, type: 'snapshot', sid })) as Snap;
    expect([snap.result.step, snap.result.opCursor]).toEqual([at.step, at.opCursor]);
    await host.handle({ id: 6, type: 'seek', sid, step: 400 });
    const end = await host.handle({ id: 7, type: 'crash_here', sid });
    expect(end.ok).toBe(false);
  });

  it('inserts after the request in progress', () => {
    expect(insertionPoint(5, 0)).toBe(5);
    expect(insertionPoint(5, 3)).toBe(6);
    expect(withInserted(base, 'w1\n', { kind: 'unfreeze', state: 2 }, '').workload).toEqual({
      kind: 'pattern',
      text: 'w1\nunfreeze 2',
    });
  });
});
