import { describe, expect, it } from 'vitest';
import {
  applyCatalog,
  CHIPS,
  SCHEMES,
  defaultScenario,
  defaultWorkload,
  describeScenario,
  parseScenario,
  scenarioToJson,
  schemeCleaning,
  validateScenario,
  type Scenario,
} from './model';
import { PRESETS } from './presets';
import type { Catalog } from '../sim/generated/Catalog';
import { checkPattern } from './core';
import { loadNodeCore } from './testing/nodeCore';

loadNodeCore();

describe('scenario defaults', () => {
  it('is page mapping on a 16×4 classroom chip with a seeded hot/cold workload', () => {
    const s = defaultScenario();
    expect(s.scheme).toBe('page');
    expect(s.params.op).toBe(0.25);
    expect(s.chip).toEqual({ preset: 'classroom', blocks: 16, pages_per_block: 4 });
    expect(s.workload).toMatchObject({ kind: 'hotcold', n: 400, seed: 1 });
    expect(validateScenario(s)).toEqual([]);
  });

  it('returns a fresh object each time', () => {
    const a = defaultScenario();
    a.chip.blocks = 99;
    expect(defaultScenario().chip.blocks).toBe(16);
  });

  it('has valid presets and data-driven catalogues', () => {
    expect(SCHEMES.map((s) => s.id)).toContain('page');
    expect(CHIPS.map((c) => c.id)).toContain('classroom');
    for (const p of PRESETS) expect(validateScenario(p.scenario), p.id).toEqual([]);
  });

  it('describes a scenario in one line', () => {
    expect(describeScenario(defaultScenario())).toBe(
      'Page mapping (greedy GC) · classroom 16×4 · hot/cold 80/20, 400 requests, seed 1',
    );
  });
});

describe('scenario validation', () => {
  const base = defaultScenario();
  const bad = (patch: Partial<Scenario>) => validateScenario({ ...base, ...patch });

  it('catches unknown schemes and chips', () => {
    expect(bad({ scheme: 'nope' })).toContain('unknown scheme "nope"');
    expect(bad({ chip: { preset: 'nope' as never } })).toContain('unknown chip preset "nope"');
  });

  it('catches bad geometry and parameters', () => {
    expect(bad({ chip: { preset: 'classroom', blocks: 1, pages_per_block: 4 } }).join()).toMatch(/blocks/);
    expect(bad({ chip: { preset: 'classroom', blocks: 4, pages_per_block: 0 } }).join()).toMatch(/pages per block/);
    expect(bad({ chip: { preset: 'classroom', blocks: 100000, pages_per_block: 64 } }).join()).toMatch(/at most/);
    expect(bad({ params: { op: 2 } }).join()).toMatch(/Over-provisioning/);
  });

  it('catches bad workloads', () => {
    expect(bad({ workload: { kind: 'sequential', n: 0 } }).join()).toMatch(/requests/);
    expect(bad({ workload: { kind: 'uniform', n: 10, seed: 1, read_ratio: 1.5 } }).join()).toMatch(/read ratio/);
    expect(bad({ workload: { kind: 'uniform', n: 10, seed: -1, read_ratio: 0 } }).join()).toMatch(/seed/);
    expect(bad({ workload: { kind: 'pattern', text: 'w0 (w1' } }).join()).toMatch(/never closed/);
    expect(bad({ workload: { kind: 'trace', name: 'a.csv', missing: true } }).join()).toMatch(/provided again/);
  });
});

describe('scenario JSON', () => {
  it('round-trips every preset and workload kind', () => {
    const all: Scenario[] = [
      ...PRESETS.map((p) => p.scenario),
      ...(['sequential', 'uniform', 'hotcold', 'pattern'] as const).map((k) => ({
        ...defaultScenario(),
        workload: defaultWorkload(k),
      })),
    ];
    for (const s of all) expect(parseScenario(scenarioToJson(s))).toEqual(s);
  });

  it('is the plain JSON the wasm Session takes', () => {
    expect(JSON.parse(scenarioToJson(defaultScenario()))).toEqual({
      scheme: 'page',
      params: { op: 0.25 },
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'hotcold', n: 400, seed: 1, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 },
    });
  });

  it('fills defaults for missing optional fields', () => {
    const s = parseScenario('{"chip":{"preset":"classroom"},"workload":{"kind":"uniform","n":50}}');
    expect(s.scheme).toBe('page');
    expect(s.params.op).toBe(0.25);
    expect(s.workload).toEqual({ kind: 'uniform', n: 50, seed: 1, read_ratio: 0 });
  });

  it('explains what is wrong', () => {
    expect(() => parseScenario('{')).toThrow(/not valid JSON/);
    expect(() => parseScenario('[]')).toThrow(/JSON object/);
    expect(() => parseScenario('{"workload":{"kind":"uniform"}}')).toThrow(/chip.preset/);
    expect(() => parseScenario('{"chip":{"preset":"classroom"},"workload":{"kind":"zipf"}}')).toThrow(
      /unknown workload kind/,
    );
    expect(() => parseScenario('{"chip":{"preset":"classroom"},"workload":{"kind":"sequential","n":-3}}')).toThrow(
      /requests/,
    );
  });
});

describe("inline pattern language (the core's check_pattern)", () => {
  it('counts requests, with repetitions and ranges', () => {
    expect(checkPattern('w0 w4 w8 r3')).toMatchObject({ ok: true, requests: 4 });
    expect(checkPattern('w0 w4 w8 r3 (w1 w2)x3')).toMatchObject({ ok: true, requests: 10 });
    expect(checkPattern('w0-15 S0 S4')).toMatchObject({ ok: true, requests: 18 });
  });

  it('reports errors with positions, and validation carries them', () => {
    expect(checkPattern('w0 (w1')).toMatchObject({ ok: false, line: 1, column: 4 });
    expect(validateScenario({ ...defaultScenario(), workload: { kind: 'pattern', text: 'w0 (w1' } }).join()).toMatch(
      /line 1, column 4/,
    );
  });
});

describe('the scheme list comes from the core', () => {
  it('offers every scheme of catalog() with the params it reads', () => {
    const ids = SCHEMES.map((s) => s.id);
    for (const id of ['page', 'bast', 'fast', 'ofast', 'kraft', 'kast', 'rftl', 'gftl', 'nftl'])
      expect(ids).toContain(id);
    expect(SCHEMES.find((s) => s.id === 'kraft')!.params.map((p) => p.key)).toEqual([
      'log_blocks',
      'k',
      'switch_max',
      'fill_max',
    ]);
    expect(SCHEMES.find((s) => s.id === 'rftl')!.params.map((p) => p.key)).toEqual(['utilisation']);
    // A parameter the UI does not know yet is still offered, as a plain number.
    applyCatalog({
      schemes: [
        ...SCHEMES.map((s) => ({
          id: s.id,
          label: s.label,
          short_label: s.shortLabel,
          description: s.description,
          params: s.params.map((p) => p.key),
          panels: s.panels,
        })),
        { id: 'future', label: 'Future', params: ['warp_factor'] },
      ],
    } as unknown as Catalog);
    expect(SCHEMES.find((s) => s.id === 'future')!.params[0]).toMatchObject({
      key: 'warp_factor',
      label: 'Warp factor',
    });
    expect(
      parseScenario(
        '{"scheme":"future","params":{"warp_factor":9},"chip":{"preset":"classroom"},"workload":{"kind":"sequential","n":5}}',
      ).params,
    ).toEqual({ warp_factor: 9 });
  });

  it('knows how each scheme cleans: catalog() says "gc" or "merges", a core that does not say means "gc"', () => {
    const saved = SCHEMES.map((s) => ({
      id: s.id,
      label: s.label,
      short_label: s.shortLabel,
      description: s.description,
      params: s.params.map((p) => p.key),
      cleaning: s.cleaning,
      panels: s.panels,
    }));
    try {
      applyCatalog({
        schemes: [
          { id: 'page', label: 'Page', params: [], cleaning: 'gc' },
          { id: 'bast', label: 'BAST', params: [], cleaning: 'merges' },
          { id: 'old', label: 'Old', params: [] },
        ],
      } as unknown as Catalog);
      expect(schemeCleaning('page')).toBe('gc');
      expect(schemeCleaning('bast')).toBe('merges');
      expect(schemeCleaning('old')).toBe('gc');
      expect(schemeCleaning('unknown')).toBe('gc');
    } finally {
      applyCatalog({ schemes: saved } as unknown as Catalog);
    }
  });
});
