// Every preset names a scheme the core has and runs on the real core. A scheme needs no
// preset (a new one runs with the default scenario), so none is required per scheme.
import { describe, expect, it } from 'vitest';
import { SCHEMES, validateScenario } from './model';
import { DEFAULT_PRESET, PRESETS, presetOf } from './presets';
import { decodeHash, encodeHash } from './share';
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

  it('are named by value: a link to a preset comes back as that preset, an edited one as none', () => {
    for (const p of PRESETS) {
      // A link's scenario is a new object, its fields in the decoder's order.
      const d = decodeHash(encodeHash({ scenario: p.scenario, at: { step: 0, op: 0 }, view: {} }));
      if (d.kind !== 'state') throw new Error(`${p.id}: ${JSON.stringify(d)}`);
      expect(d.state.scenario).not.toBe(p.scenario);
      expect(presetOf(d.state.scenario)?.id).toBe(p.id);
      const edited = { ...d.state.scenario, chip: { ...d.state.scenario.chip, blocks: 99 } };
      expect(presetOf(edited)).toBeUndefined();
    }
    // The order fields are written in does not matter; their values do.
    const u = PRESETS.find((p) => p.id === 'uniform-classroom')!.scenario;
    const reordered = {
      workload: { read_ratio: 0.2, seed: 7, n: 400, kind: 'uniform' },
      chip: u.chip,
      params: u.params,
      scheme: 'page',
    };
    expect(presetOf(reordered as typeof u)?.id).toBe('uniform-classroom');
    expect(presetOf({ ...u, workload: { ...u.workload, seed: 8 } } as typeof u)).toBeUndefined();
    expect(PRESETS.filter((p) => p.scenario.workload.kind === 'trace')).toEqual([]);
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
