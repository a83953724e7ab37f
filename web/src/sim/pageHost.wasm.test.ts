// The page commands (pageTypes.ts) on the real core, through the worker's SessionHost.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { SessionHost } from './host';
import type { Response, SessionConstructor } from './protocol';
import type { Prediction, StopSnapshot } from './pageTypes';
import type { Snapshot } from './protocol';
import { TOURS, stopScenario } from '../tour/tours';

const core = loadNodeCore();
const host = new SessionHost(() => Promise.resolve(core.Session as unknown as SessionConstructor));
let id = 1;
const ok = <T>(r: Response): T => {
  if (!r.ok) throw new Error(r.error);
  return r.result as T;
};

describe('stop_snapshot: a moment of a scenario, from a Session of the worker’s own', () => {
  it('is the moment a Session shows after goto(step, op), for every stop of every tour', async () => {
    let stops = 0;
    for (const tour of TOURS) {
      for (const [i, stop] of tour.stops.entries()) {
        const scenario = stopScenario(tour, i);
        const got = ok<StopSnapshot<Snapshot>>(
          await host.handle({ id: id++, type: 'stop_snapshot', scenario, step: stop.at.step, op: stop.at.op }),
        );
        const s = new core.Session(JSON.stringify(scenario));
        try {
          s.goto(stop.at.step, stop.at.op);
          const info = s.info();
          expect([got.blocks, got.pagesPerBlock]).toEqual([info.chip.blocks, info.chip.pages_per_block]);
          expect([got.snapshot.step, got.snapshot.opCursor]).toEqual([s.step(), s.op_cursor()]);
          expect(got.snapshot.pageStates).toEqual(s.page_states());
          expect(got.snapshot.pageLpns).toEqual(s.page_lpns());
          expect(got.snapshot.blockRoles).toEqual(s.block_roles());
          expect(got.snapshot.owners).toEqual(s.block_owners());
          expect(got.snapshot.narration).toBe(s.narration());
          expect(got.snapshot.events).toEqual(JSON.parse(s.events()));
        } finally {
          s.free();
        }
        stops++;
      }
    }
    expect(stops).toBeGreaterThan(10);
  });

  it('answers the core’s message for a scenario it cannot build', async () => {
    const scenario = {
      ...stopScenario(TOURS[0], 0),
      scheme: 'bast',
      params: { log_blocks: 15 },
      chip: { preset: 'classroom' as const, blocks: 16, pages_per_block: 4 },
    };
    const r = await host.handle({ id: id++, type: 'stop_snapshot', scenario, step: 0, op: 0 });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/BAST with 15 log blocks needs at least 17 blocks/);
  });
});

describe('predict: the next request run on a copy, in the worker', () => {
  it('does not move the app’s Session, and answers the same at the same step twice', async () => {
    const tour = TOURS[0];
    const scenario = stopScenario(tour, 0);
    const created = ok<{ sid: number; snapshot: Snapshot }>(await host.handle({ id: id++, type: 'create', scenario }));
    const a = ok<Prediction>(await host.handle({ id: id++, type: 'predict', scenario, step: 3 }));
    const b = ok<Prediction>(await host.handle({ id: id++, type: 'predict', scenario, step: 3 }));
    expect(b).toEqual(a);
    const snap = ok<Snapshot>(await host.handle({ id: id++, type: 'snapshot', sid: created.sid }));
    expect(snap.step).toBe(created.snapshot.step);
    expect(snap.pageStates).toEqual(created.snapshot.pageStates);
    await host.handle({ id: id++, type: 'dispose', sid: created.sid });
  });
});
