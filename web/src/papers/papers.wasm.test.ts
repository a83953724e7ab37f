/// <reference types="node" />
// The Paper results page's figures, re-run through the real core: `ours` of every claim
// with a scenario must be what the simulator gives (within the claim's tolerance), its
// verdict must follow from the paper's figure where that is a number, and every
// scenario must open in the app (the link decodes to the same scenario).
import { beforeAll, describe, expect, it } from 'vitest';
import { Session } from '../sim/pkg/ftlscope_wasm.js';
import { validateScenario, type Scenario } from '../scenario/model';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { decodeHash } from '../scenario/share';
import { CLAIMS, commandFor, type RunResult } from './claims';
import { claimLink } from './PapersView';

beforeAll(() => {
  loadNodeCore();
});

const cache = new Map<string, RunResult>();

function run(s: Scenario): RunResult {
  const key = JSON.stringify(s);
  const hit = cache.get(key);
  if (hit) return hit;
  const session = new Session(key);
  try {
    session.run(session.total());
    const r = { metrics: JSON.parse(session.metrics()), pageStates: session.page_states() };
    cache.set(key, r);
    return r;
  } finally {
    session.free();
  }
}

describe('Paper results (real core)', () => {
  for (const c of CLAIMS.filter((c) => c.scenario)) {
    it(`${c.paper} ${c.where}: ours = ${c.ours}`, () => {
      let value: number;
      if (c.probe) {
        const session = new Session(JSON.stringify(c.scenario));
        try {
          value = c.probe(session);
        } finally {
          session.free();
        }
      } else value = c.measure!(run(c.scenario!), c.baseline ? run(c.baseline) : undefined);
      if (c.tolerance === 0) expect(value).toBe(c.ours);
      else expect(Math.abs(value - c.ours)).toBeLessThanOrEqual(c.tolerance * Math.abs(c.ours));
    }, 60_000);
  }

  it('every scenario is valid in the app and its link opens it', () => {
    for (const c of CLAIMS) {
      for (const s of [c.scenario, c.baseline]) if (s) expect(validateScenario(s), c.id).toEqual([]);
      const link = claimLink(c);
      if (!c.scenario) {
        expect(link).toBeNull();
        expect(c.pinnedBy ?? c.command, `${c.id} has neither a scenario nor a test`).toBeTruthy();
        continue;
      }
      const d = decodeHash(link!);
      expect(d.kind, c.id).toBe('state');
      if (d.kind === 'state') expect(d.state.scenario, c.id).toEqual(c.scenario);
      expect(commandFor(c)).toContain(`--scheme ${c.scenario.scheme}`);
    }
  });

  it('RFTL Table 4 rows say "matches" exactly when within ±15 % of the paper', () => {
    for (const c of CLAIMS.filter((c) => c.id.startsWith('rftl-table4-') && c.id !== 'rftl-table4-worst')) {
      const paper = Number(c.paperFigure.replace(/[^0-9.]/g, ''));
      expect(c.verdict === 'matches', c.id).toBe(Math.abs(c.ours - paper) <= 0.15 * paper);
    }
  });

  it('claim ids are unique', () => {
    expect(new Set(CLAIMS.map((c) => c.id)).size).toBe(CLAIMS.length);
  });
});
