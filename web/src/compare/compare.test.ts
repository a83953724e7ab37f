import { describe, expect, it } from 'vitest';
import { defaultScenario } from '../scenario/model';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { bestOf, defaultRuns, logBlockSweep, metricAt, resolvedParamsText, runLabel, runScenario } from './compare';

loadNodeCore();

describe('compare', () => {
  it('marks the lowest value, ties included, and nothing when all agree', () => {
    expect([...bestOf([3, 1, 2])]).toEqual([1]);
    expect([...bestOf([1, 3, 1])]).toEqual([0, 2]);
    expect([...bestOf([2, 2, 2])]).toEqual([]);
    expect([...bestOf([undefined, 5, 4])]).toEqual([2]);
    expect([...bestOf([undefined, 5])]).toEqual([]);
  });

  it('offers log-block counts that fit the chip for a log-block scheme, and page mapping beside others', () => {
    // The default 16-block chip: BAST with 16 log blocks would need 18 blocks (issue 16).
    const bast = {
      ...defaultScenario(),
      scheme: 'bast',
      params: { log_blocks: 2 },
      chip: { preset: 'classroom' as const },
    };
    expect(defaultRuns(bast).map((r) => r.params.log_blocks)).toEqual([2, 4, 8]);
    const big = { ...bast, chip: { preset: 'classroom' as const, blocks: 64 } };
    expect(defaultRuns(big)).toEqual(logBlockSweep('bast', { log_blocks: 2 }));
    expect(defaultRuns(big).map((r) => r.params.log_blocks)).toEqual([4, 8, 16]);
    expect(defaultRuns(defaultScenario()).map((r) => r.scheme)).toEqual(['page', 'fast']);
    // The parameters by the labels the scenario form shows (the catalog's parameter specs).
    expect(runLabel({ scheme: 'kraft', params: { log_blocks: 8, k: 4 } })).toBe(
      'KRAFT · Log blocks 8, Associativity K 4',
    );
    expect(resolvedParamsText({ log_blocks: 4, k: 8 }, { k: 8 })).toBe('Log blocks 4 (default), Associativity K 8');
  });

  it('keeps the workload and chip of the base scenario', () => {
    const base = defaultScenario();
    const s = runScenario(base, { scheme: 'fast', params: { log_blocks: 8 } });
    expect(s).toEqual({ ...base, scheme: 'fast', params: { log_blocks: 8 } });
    expect(metricAt({ latency_us: { write: { mean: 3 } } }, 'latency_us.write.mean')).toBe(3);
    expect(metricAt({ a: 'x' }, 'a')).toBeUndefined();
  });
});
