import { describe, expect, it } from 'vitest';
import { scenarioFromUrl, withoutScenarioQuery } from './urlScenario';

describe('withoutScenarioQuery', () => {
  const scenario = encodeURIComponent(
    JSON.stringify({ scheme: 'bast', chip: { blocks: 16 }, workload: { kind: 'pattern', text: 'w0' } }),
  );
  it('drops the scenario and its request once the state is in the hash', () => {
    expect(withoutScenarioQuery(`?scenario=${scenario}&at=18`)).toBe('');
    expect(scenarioFromUrl(withoutScenarioQuery(`?scenario=${scenario}&at=18`))).toBeNull();
  });
  it('keeps the other parameters', () => {
    expect(withoutScenarioQuery(`?embed=1&scenario=${scenario}&at=3`)).toBe('?embed=1');
    expect(withoutScenarioQuery('?embed=1')).toBe('?embed=1');
    expect(withoutScenarioQuery('')).toBe('');
  });
});
