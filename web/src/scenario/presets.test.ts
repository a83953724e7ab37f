// Every preset names a scheme the core has and runs on the real core. A scheme needs no
// preset (a new one runs with the default scenario), so none is required per scheme.
import { describe, expect, it } from 'vitest';
import { SCHEMES, validateScenario } from './model';
import { DEFAULT_PRESET, PRESETS } from './presets';
import { loadNodeCore } from './testing/nodeCore';

const core = loadNodeCore();

describe('presets', () => {
  it('are one list with unique ids, each naming a scheme of the catalog', () => {
    const ids = PRESETS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(DEFAULT_PRESET).toBe(PRESETS[0]);
    const known = new Set(SCHEMES.map((s) => s.id));
    expect(PRESETS.map((p) => p.scenario.scheme).filter((id) => !known.has(id))).toEqual([]);
  });

  for (const p of PRESETS) {
    it(`${p.id} is valid, builds and runs past its opening request`, () => {
      expect(validateScenario(p.scenario)).toEqual([]);
      expect(p.openAt).toBeGreaterThanOrEqual(0);
      expect(p.openAt).toBeLessThanOrEqual(1);
      const s = new core.Session(JSON.stringify(p.scenario));
      try {
        const at = Math.round(p.openAt * s.total());
        s.seek(at);
        expect(s.step()).toBe(at);
        expect(JSON.parse(s.metrics()).wrong_reads).toBe(0);
      } finally {
        s.free();
      }
    });
  }
});
