// The app's compare gives the CLI's figures (issue 38, item 2): the compare's planner
// (runner.planRuns, with its default "one request list in the smallest own space" and with
// "each scheme's own space") and each planned run through the core's Session API, as the
// worker runs it, against rows `ftl sweep` printed (fixtures/ftl-sweep-classroom.json says
// how they were made). Equal logical space, workload space, resolved parameters, request
// list and counts, row by row.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import type { Scenario } from '../scenario/model';
import type { SimClient } from '../sim/client';
import type { Metrics, Plan, SessionInfo } from '../sim/protocol';
import { runScenario } from './compare';
import { commonSpaceOf, planRuns, spaceShapesRequests, type SpaceChoice } from './runner';
import fixture from './fixtures/ftl-sweep-classroom.json';

const core = loadNodeCore();

/** The one client call a generated workload's plan makes, answered by the real core. */
const client = {
  plan: (runs: unknown[], fit: string, need: number, space = 0) =>
    Promise.resolve(core.plan_runs(JSON.stringify(runs), fit, need, space) as Plan),
} as unknown as SimClient;

const base: Scenario = {
  scheme: 'page',
  params: {},
  chip: { preset: 'classroom', blocks: 64, pages_per_block: 4 },
  workload: { kind: 'uniform', n: 2000, seed: 4, read_ratio: 0.2 },
};
const schemes = fixture.common.map((r) => r.scheme);

async function compareRows(space: SpaceChoice) {
  const scenarios = schemes.map((scheme) => runScenario(base, { scheme, params: {} }));
  const p = await planRuns(client, base, scenarios, space);
  const rows = p.planned.map((x) => {
    if ('error' in x) throw new Error(x.error);
    const session = new core.Session(JSON.stringify(x.scenario));
    try {
      const info: SessionInfo = session.info();
      session.run(info.total_requests);
      const m = JSON.parse(session.metrics()) as Metrics;
      return {
        scheme: x.scenario.scheme,
        params_resolved: info.params_resolved,
        logical_pages: info.logical_pages,
        workload_space: info.workload_space,
        request_hash: info.request_hash,
        erases: m.erases,
        page_programs: m.page_programs,
        page_reads: m.page_reads,
      };
    } finally {
      session.free();
    }
  });
  return { plan: p, rows };
}

describe("the app's compare equals ftl sweep", () => {
  it('by default: one request list, in the smallest own space among the runs', async () => {
    const { plan, rows } = await compareRows('common');
    expect(plan.spaceMode).toBe('common');
    expect(plan.plan.space).toBe(Math.min(...fixture.common.map((r) => r.logical_pages)));
    expect(rows).toEqual(fixture.common);
    expect(new Set(rows.map((r) => r.request_hash)).size).toBe(1);
  });

  it("with each scheme's own space: the paper defaults, request lists that differ", async () => {
    const { plan, rows } = await compareRows('own');
    expect(plan.spaceMode).toBe('own');
    expect(plan.plan.space).toBeNull();
    expect(rows).toEqual(fixture.own);
    expect(new Set(rows.map((r) => r.request_hash)).size).toBeGreaterThan(1);
  });

  it('keeps each run own space where the space does not shape the requests', async () => {
    expect(spaceShapesRequests({ kind: 'pattern', text: 'w0' })).toBe(false);
    expect(spaceShapesRequests(base.workload)).toBe(true);
    const pattern: Scenario = { ...base, workload: { kind: 'pattern', text: 'w0 w1 r0' } };
    const p = await planRuns(
      client,
      pattern,
      schemes.map((scheme) => runScenario(pattern, { scheme, params: {} })),
      'common',
    );
    expect(p.spaceMode).toBe('own');
    expect(p.plan.space).toBeNull();
    // The common space ignores a run that cannot be built (it fails alone).
    const own = core.plan_runs(
      JSON.stringify(
        [{ scheme: 'bast', params: { log_blocks: 80 } }, ...schemes.map((scheme) => ({ scheme, params: {} }))].map(
          (r) => ({ ...r, chip: base.chip, workload: { kind: 'sequential', n: 1 } }),
        ),
      ),
      'none',
      0,
      0,
    ) as Plan;
    expect(own.runs[0].logical_pages).toBeNull();
    expect(commonSpaceOf(own)).toBe(Math.min(...fixture.common.map((r) => r.logical_pages)));
  });
});
