// Every scheme of the catalog has a preset, and every preset runs on the real core.
import { describe, expect, it } from 'vitest';
import { SCHEMES, validateScenario } from '../scenario/model';
import { PRESETS } from '../scenario/presets';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import './register';

const core = loadNodeCore();

describe('presets', () => {
  it('cover every scheme the core has', () => {
    const covered = new Set(PRESETS.map((p) => p.scenario.scheme));
    expect(SCHEMES.length).toBeGreaterThanOrEqual(12);
    expect(SCHEMES.map((s) => s.id).filter((id) => !covered.has(id))).toEqual([]);
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
