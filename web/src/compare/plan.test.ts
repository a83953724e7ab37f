// One workload and one chip for every run of a comparison and of a sweep (issue 16),
// checked on the real core: the planned scenarios build Sessions whose request lists
// (as pattern text) and chips are identical, although the configurations' own logical
// spaces differ.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import type { Scenario } from '../scenario/model';
import type { Plan, SessionInfo } from '../sim/protocol';
import { applyPlan, cdfPoints, latencyStats, percentile, planInput, runScenario, type Run } from './compare';
import { parseValues, sweepPoints } from './sweep';

const core = loadNodeCore();

function plan(scenarios: Scenario[], fit = 'none', need = 0): Plan {
  return JSON.parse(core.plan_runs(JSON.stringify(scenarios.map(planInput)), fit, need)) as Plan;
}

/** FNV-1a of a string. */
function hash(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16);
}

function built(s: Scenario) {
  const session = new core.Session(JSON.stringify(s));
  try {
    const info = JSON.parse(session.info()) as SessionInfo;
    return { info, requests: hash(session.workload_pattern(0, info.total_requests)), total: info.total_requests };
  } finally {
    session.free();
  }
}

function own(s: Scenario): number {
  return built(s).info.logical_pages;
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

function expectOneWorkload(scenarios: Scenario[], p: Plan, sameChip = true) {
  const planned = applyPlan(scenarios, p);
  const b = planned.map((x) => {
    if ('error' in x) throw new Error(x.error);
    return built(x.scenario);
  });
  expect(new Set(b.map((x) => x.requests)).size).toBe(1);
  expect(b[0].total).toBeGreaterThan(0);
  if (sameChip) expect(new Set(b.map((x) => `${x.info.chip.blocks}x${x.info.chip.pages_per_block}`)).size).toBe(1);
  return b;
}

describe('compare and sweep: one workload and one chip', () => {
  it('gives every run of a comparison the same request list and chip', () => {
    const scenarios = runs.map((r) => runScenario(base, r));
    const spaces = scenarios.map(own);
    expect(Math.min(...spaces)).toBeLessThan(Math.max(...spaces));
    // Unplanned, the runs would get different workloads (each its own space).
    expect(new Set(scenarios.map((s) => built(s).requests)).size).toBeGreaterThan(1);
    const p = plan(scenarios);
    expect(p.logical_pages).toBe(Math.min(...spaces));
    expect(p.one_chip).toBe(true);
    expectOneWorkload(scenarios, p);
  });

  it('gives every point of a sweep the same request list, pages per block included', () => {
    const pts = sweepPoints(base, ['fast', 'bast'], 'log_blocks', [4, 8, 16]).map((x) => x.scenario);
    expectOneWorkload(pts, plan(pts));
    // Pages per block: the chip keeps its capacity, only the block size changes.
    const ppb = sweepPoints(base, ['page'], 'pages_per_block', [4, 8, 16]).map((x) => x.scenario);
    const p = plan(ppb);
    expect(p.one_chip).toBe(false);
    const b = expectOneWorkload(ppb, p, false);
    expect(b.map((x) => x.info.chip.blocks * x.info.chip.pages_per_block)).toEqual([256, 256, 256]);
  });

  it('folds a trace once for all runs, and scales one chip for all', () => {
    const lines = ['op,lpn'];
    for (let i = 0; i < 600; i++) lines.push(`${i % 7 === 3 ? 'r' : 'w'},${(i * 7919) % 3000}`);
    const trace = (fit: string): Scenario => ({
      ...base,
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'trace', text: lines.join('\n'), fit } as unknown as Scenario['workload'],
    });
    const small = runs.map((r) => (r.scheme === 'fast' ? { ...r, params: { log_blocks: 4 } } : r));
    const fold = small.map((r) => runScenario(trace('fold'), r));
    expectOneWorkload(fold, plan(fold, 'fold', 3000));
    const scale = small.map((r) => runScenario(trace('scale'), r));
    const p = plan(scale, 'scale', 3000);
    expect(p.one_chip).toBe(true);
    expect(p.logical_pages).toBeGreaterThanOrEqual(3000);
    const b = expectOneWorkload(scale, p);
    expect(b[0].info.chip.blocks).toBeGreaterThan(16);
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
