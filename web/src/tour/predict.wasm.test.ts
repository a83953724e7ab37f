// Predictions through the real core: the answer is what stepping the request then does.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { QUESTIONS, explain, rightValue } from './predict';
import { PageHost } from '../sim/pageHost';
import type { Prediction } from '../sim/pageTypes';
import type { SessionConstructor } from '../sim/protocol';
import { INTRO_TOUR_ID, stopScenario, tourById } from './tours';
import type { Scenario } from '../scenario/model';

const core = loadNodeCore();
// The worker's side of the 'predict' command, on the node core (no worker in Vitest).
const host = new PageHost(
  () => Promise.resolve(core.Session as unknown as SessionConstructor),
  () => {
    throw new Error('no snapshots in this test');
  },
);
const predictWith = (scenario: Scenario, step: number) =>
  host.handle({ type: 'predict', scenario, step }) as Promise<Prediction>;

const kpat = (k: number): Scenario => ({
  scheme: 'kraft',
  params: { log_blocks: 2, k },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-19 w0 w4 w8 w12 w16 w1 w5 w9 w13 w17' },
});

describe('predictions (Session.predict_next)', () => {
  it('the intro tour’s prediction stop: garbage collection, block 3 first, 4 copies', async () => {
    const tour = tourById(INTRO_TOUR_ID)!;
    const i = tour.stops.findIndex((s) => s.predict);
    expect(i).toBeGreaterThan(0);
    const p = await predictWith(stopScenario(tour, i), tour.stops[i].at.step);
    expect(p.kind).toBe('gc');
    expect(p.erased).toEqual([3, 2]);
    expect(p.copies).toBe(4);
    const ctx = { blocks: 8, ppb: 4, scheme: 'page' };
    expect(rightValue(QUESTIONS.kind, p, ctx)).toBe('gc');
    expect(rightValue(QUESTIONS.victim, p, ctx)).toBe('3');
    expect(rightValue(QUESTIONS.copies, p, ctx)).toBe('4');
    expect(QUESTIONS.kind.choices(ctx).map((c) => c.value)).toEqual(['none', 'gc']);
    expect(explain(p)).toBe(
      'w16 causes garbage collection (2 runs): it erases blocks 3, 2 and copies 4 pages (5 programs, 4 reads in all).',
    );
  });

  it('the DFTL tour’s prediction stop: GC of translation block 13, one translation page copied', async () => {
    const tour = tourById('dftl-cached-map')!;
    const i = tour.stops.findIndex((s) => s.predict);
    expect(i).toBeGreaterThan(0);
    const sc = stopScenario(tour, i);
    const step = tour.stops[i].at.step;
    const p = await predictWith(sc, step);
    expect(p).toMatchObject({ kind: 'gc', erased: [13], copies: 1, gc_runs: 1 });
    const ctx = { blocks: 64, ppb: 4, scheme: 'dftl' };
    expect(rightValue(QUESTIONS.kind, p, ctx)).toBe('gc');
    expect(rightValue(QUESTIONS.victim, p, ctx)).toBe('13');
    expect(rightValue(QUESTIONS.copies, p, ctx)).toBe('1');
    // What stepping the request then does: block 13 was a translation block (MAP) and is erased.
    const s = new core.Session(JSON.stringify(sc));
    try {
      s.goto(step, 0);
      expect(s.block_roles()[13]).toBe(10);
      const before = JSON.parse(s.metrics());
      s.goto(step + 1, 0);
      const after = JSON.parse(s.metrics());
      expect(after.erases - before.erases).toBe(p.erases);
      expect(
        after.scheme_metrics.translation.translation_gc_copies -
          before.scheme_metrics.translation.translation_gc_copies,
      ).toBe(1);
    } finally {
      s.free();
    }
  });

  it('agrees with what the session then does, request after request (KRAFT, K = 2)', async () => {
    const sc = kpat(2);
    const s = new core.Session(JSON.stringify(sc));
    const kinds = new Set<string>();
    try {
      for (let step = 0; step < s.total(); step++) {
        s.seek(step);
        const before = JSON.parse(s.metrics());
        const p = await predictWith(sc, step);
        s.step_request();
        while (s.op_cursor() > 0) s.step_request();
        const after = JSON.parse(s.metrics());
        expect(s.step()).toBe(step + 1);
        expect(p.erases, `step ${step}`).toBe(after.erases - before.erases);
        expect(p.programs, `step ${step}`).toBe(after.page_programs - before.page_programs);
        expect(p.full_merges).toBe(after.merges.full - before.merges.full);
        expect(p.partials).toBe(after.merges.partial - before.merges.partial);
        kinds.add(p.kind);
      }
    } finally {
      s.free();
    }
    expect([...kinds].sort()).toEqual(['full', 'none']);
  });

  it('a KRAFT K = 1 run has partial merges and the copies they make', async () => {
    const p = await predictWith(kpat(1), 24);
    expect(['partial', 'none', 'switch', 'full']).toContain(p.kind);
    const q = await predictWith(kpat(2), 24);
    expect(q).toMatchObject({ kind: 'full', erased: [2, 4, 0], copies: 8, full_merges: 2 });
  });
});
