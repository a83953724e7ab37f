import { describe, expect, it } from 'vitest';
import { SCHEMES, defaultParams, defaultScenario, type Scenario } from '../scenario/model';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { coreError, fitChip, type PageCore } from './schemeFit';
import { PATTERN_CONSTRUCTS } from '../app/patternHelp';

const core = loadNodeCore();
const C: PageCore = core;

describe('picking a scheme picks a chip the core runs it on', () => {
  it('every scheme of the catalog fits the default chip or a nearby one, and says so', () => {
    expect(SCHEMES.length).toBeGreaterThan(10);
    const notes: Record<string, string | null> = {};
    for (const s of SCHEMES) {
      const sc: Scenario = { ...defaultScenario(), scheme: s.id, params: defaultParams(s.id) };
      const fit = fitChip(C, sc);
      expect('error' in fit, `${s.id}: ${JSON.stringify(fit)}`).toBe(false);
      if ('error' in fit) continue;
      // the whole scenario (with its 400-request workload) builds on the chosen chip
      expect(coreError(C, { ...sc, chip: fit.chip }), s.id).toBeNull();
      notes[s.id] = fit.note;
      if (fit.note === null) expect(fit.chip).toEqual(sc.chip);
    }
    // The two the issue measured failing on the default chip are moved, with the core's reason.
    expect(notes.rftl).toMatch(/Chip changed to .*RFTL/);
    expect(notes.gftl).toMatch(/Chip changed to .*GFTL/);
    expect(notes.page).toBeNull();
  });

  it('reports the core’s own message for a chip nothing fixes', () => {
    const bad: Scenario = { ...defaultScenario(), scheme: 'bast', params: { log_blocks: 15 } };
    expect(coreError(C, bad)).toMatch(/BAST with 15 log blocks needs at least 17 blocks/);
  });
});

describe('pattern help', () => {
  it('every construct’s example parses with the core’s parser to the stated number of requests', () => {
    for (const c of PATTERN_CONSTRUCTS) {
      const r = core.check_pattern(c.example);
      expect(r.ok, c.example).toBe(true);
      expect(r.requests, c.example).toBe(c.requests);
    }
  });
});
