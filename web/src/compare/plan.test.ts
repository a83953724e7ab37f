// Each run of a comparison and of a sweep planned from itself alone (issue 27), checked on
// the real core: a planned run builds the same Session as the run alone, the set in another
// order gives the same runs, a workload space given makes one request list for all, and
// every scheme (RFTL and GFTL included) takes part.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { SCHEMES, type Scenario } from '../scenario/model';
import type { Plan, SessionInfo } from '../sim/protocol';
import { applyPlan, cdfPoints, latencyStats, percentile, planInput, runScenario, type Run } from './compare';
import { parseValues, sweepPoints } from './sweep';

const core = loadNodeCore();

function plan(scenarios: Scenario[], fit = 'none', need = 0, space = 0): Plan {
  return core.plan_runs(JSON.stringify(scenarios.map(planInput)), fit, need, space) as Plan;
}

/** A Session run to the end: its request hash, chip and erases. */
function outcome(s: Scenario) {
  const session = new core.Session(JSON.stringify(s));
  try {
    const info: SessionInfo = session.info();
    session.run(info.total_requests);
    const m = JSON.parse(session.metrics()) as { erases: number; page_programs: number };
    return {
      hash: info.request_hash,
      chip: `${info.chip.blocks}x${info.chip.pages_per_block}`,
      erases: m.erases,
      programs: m.page_programs,
    };
  } finally {
    session.free();
  }
}

function planned(scenarios: Scenario[], space = 0, fit = 'none', need = 0) {
  return applyPlan(scenarios, plan(scenarios, fit, need, space)).map((x) => ('error' in x ? x : outcome(x.scenario)));
}

/** Planned in the set, in reverse order, and alone: the same outcome for every run. */
function expectAloneAndInAnyOrder(scenarios: Scenario[], space = 0, fit = 'none', need = 0) {
  const rows = planned(scenarios, space, fit, need);
  const back = planned([...scenarios].reverse(), space, fit, need).reverse();
  expect(back).toEqual(rows);
  scenarios.forEach((s, i) => expect(planned([s], space, fit, need)[0]).toEqual(rows[i]));
  return rows;
}

const base: Scenario = {
  scheme: 'page',
  params: {},
  chip: { preset: 'classroom', blocks: 64, pages_per_block: 4 },
  workload: { kind: 'uniform', n: 2000, seed: 4, read_ratio: 0.2 },
};

const runs: Run[] = [
  { scheme: 'page', params: {} },
  { scheme: 'bast', params: { log_blocks: 4 } },
  { scheme: 'fast', params: { log_blocks: 16 } },
  { scheme: 'kraft', params: {} },
];

describe('compare and sweep: each run planned alone', () => {
  it('gives each run of a comparison what it gets alone, in any order', () => {
    const scenarios = runs.map((r) => runScenario(base, r));
    const rows = expectAloneAndInAnyOrder(scenarios);
    // Unplanned, a run is the same as planned (its own space).
    scenarios.forEach((s, i) => expect(outcome(s)).toEqual(rows[i]));
  });

  it('gives every run one request list when a workload space is given', () => {
    const scenarios = runs.map((r) => runScenario(base, r));
    const own = plan(scenarios).runs.map((r) => r.workload_pages ?? 0);
    expect(Math.min(...own)).toBeLessThan(Math.max(...own));
    const rows = expectAloneAndInAnyOrder(scenarios, Math.min(...own));
    const hashes = rows.map((r) => ('hash' in r ? r.hash : r.error));
    expect(new Set(hashes).size).toBe(1);
    // A space larger than one run's own: that run alone fails, named.
    const p = plan(scenarios, 'none', 0, own[0] + 1);
    expect(p.runs[0].error).toMatch(/cannot hold the workload/);
    expect(p.runs[1].error).toBeNull();
  });

  it('runs every scheme of the catalog, the real-time ones on the chip with its timing', () => {
    const all = SCHEMES.map((s) =>
      runScenario({ ...base, chip: { preset: 'rftl-large' as const } }, { scheme: s.id, params: {} }),
    );
    const rows = expectAloneAndInAnyOrder(all);
    rows.forEach((r, i) => expect(r, all[i].scheme).not.toHaveProperty('error'));
  });

  it('gives a sweep the same points in any order, pages per block included', () => {
    expectAloneAndInAnyOrder(sweepPoints(base, ['fast', 'bast'], 'log_blocks', [4, 8, 16]).map((x) => x.scenario));
    const up = sweepPoints(base, ['fast'], 'pages_per_block', [4, 8, 16]).map((x) => x.scenario);
    const down = sweepPoints(base, ['fast'], 'pages_per_block', [16, 8, 4]).map((x) => x.scenario);
    expect(planned(down).reverse()).toEqual(planned(up));
    const util = sweepPoints(base, ['nftl', 'rftl', 'gftl'], 'utilisation', [0.5, 0.9]).map((x) => ({
      ...x.scenario,
      chip: { preset: 'rftl-large' as const },
    }));
    expect(expectAloneAndInAnyOrder(util).every((r) => !('error' in r))).toBe(true);
  });

  it('folds and scales a trace per run', () => {
    const lines = ['op,lpn'];
    for (let i = 0; i < 600; i++) lines.push(`${i % 7 === 3 ? 'r' : 'w'},${(i * 7919) % 3000}`);
    const trace = (fit: string): Scenario => ({
      ...base,
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'trace', text: lines.join('\n'), fit } as unknown as Scenario['workload'],
    });
    const small = runs.map((r) => (r.scheme === 'fast' ? { ...r, params: { log_blocks: 4 } } : r));
    expectAloneAndInAnyOrder(
      small.map((r) => runScenario(trace('fold'), r)),
      0,
      'fold',
      3000,
    );
    const scaled = expectAloneAndInAnyOrder(
      small.map((r) => runScenario(trace('scale'), r)),
      0,
      'scale',
      3000,
    );
    // Addresses unchanged: one request list, each chip grown for its own scheme.
    expect(new Set(scaled.map((r) => ('hash' in r ? r.hash : r.error))).size).toBe(1);
  });

  it('reports a configuration that cannot run, never another workload', () => {
    const scenarios = [...runs, { scheme: 'bast', params: { log_blocks: 80 } }].map((r) => runScenario(base, r));
    const p = plan(scenarios);
    const planned = applyPlan(scenarios, p);
    expect(planned.slice(0, 4).every((x) => 'scenario' in x)).toBe(true);
    expect('error' in planned[4]).toBe(true);
  });
});

describe('latency distributions', () => {
  it('takes nearest-rank percentiles of an exact histogram, as the core does', () => {
    const h: [number, number][] = [
      [10, 90],
      [200, 9],
      [5000, 1],
    ];
    expect(percentile(h, 50)).toBe(10);
    expect(percentile(h, 99)).toBe(200);
    expect(percentile(h, 99.9)).toBe(5000);
    expect(latencyStats(h)).toEqual({ p50: 10, p99: 200, p999: 5000, max: 5000 });
    expect(cdfPoints(h)).toEqual([
      [10, 90],
      [200, 99],
      [5000, 100],
    ]);
    expect(percentile([], 50)).toBeUndefined();
  });

  it('parses sweep values', () => {
    expect(parseValues('4, 8,16 8')).toEqual({ values: [4, 8, 16] });
    expect('error' in parseValues('4, x')).toBe(true);
  });
});
