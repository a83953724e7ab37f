import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import {
  CHIPS,
  PARAM_SPECS,
  SCHEMES,
  defaultScenario,
  validateScenario,
  type Scenario,
  type SchemeParams,
} from './model';
import { decodeHash, encodeHash, shareUrl, stateFromFile, stateToFile, type ShareState } from './share';
import { loadNodeCore } from './testing/nodeCore';

loadNodeCore();

/** A small deterministic PRNG (mulberry32). */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PATTERNS = [
  'w0 w4 w8 r3 (w1 w2)x3',
  'w0-15 S0 S4 S8 S12 S0 S4 S8 S12',
  'r1 w2\nw3 (w4 (w5)x2)x3',
  'w0 “quoted” w1'.replace(/“quoted” /, ''),
];

function randomScenario(r: () => number): Scenario {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const scheme = pick(SCHEMES);
  const params: SchemeParams = {};
  for (const p of scheme.params) {
    if (r() < 0.2) continue;
    const spec = PARAM_SPECS[p.key] ?? p;
    const step = typeof spec.step === 'number' ? spec.step : 1;
    const steps = Math.floor((spec.max - spec.min) / step);
    const v = spec.min + Math.floor(r() * Math.min(steps, 64)) * step;
    params[p.key] = spec.integer ? Math.round(v) : Math.round(v * 100) / 100;
  }
  const chip = pick(CHIPS);
  const kind = pick(['sequential', 'uniform', 'hotcold', 'pattern'] as const);
  const n = 1 + Math.floor(r() * 100_000);
  const seed = Math.floor(r() * 2 ** 31);
  const workload: Scenario['workload'] =
    kind === 'sequential'
      ? { kind, n }
      : kind === 'uniform'
        ? { kind, n, seed, read_ratio: Math.round(r() * 100) / 100 }
        : kind === 'hotcold'
          ? {
              kind,
              n,
              seed,
              read_ratio: Math.round(r() * 100) / 100,
              hot_fraction: 0.05 + Math.round(r() * 90) / 100,
              hot_ratio: Math.round(r() * 100) / 100,
            }
          : { kind, text: pick(PATTERNS) };
  return {
    scheme: scheme.id,
    params,
    chip: { preset: chip.id, blocks: 2 + Math.floor(r() * 30), pages_per_block: 1 + Math.floor(r() * 64) },
    workload,
  };
}

function randomState(r: () => number): ShareState {
  const state: ShareState = {
    scenario: randomScenario(r),
    at: { step: Math.floor(r() * 5000), op: Math.floor(r() * 40) },
    view: {},
  };
  if (r() < 0.3) state.view.theme = r() < 0.5 ? 'dark' : 'light';
  if (r() < 0.3) state.view.tour = { id: 'bast-thrashing', index: Math.floor(r() * 6) };
  if (r() < 0.2) state.view.present = true;
  if (r() < 0.2) state.view.speed = '20req';
  if (r() < 0.2)
    state.compare = {
      runs: [
        { scheme: 'bast', params: { log_blocks: 4 } },
        { scheme: 'fast', params: { log_blocks: 8 } },
      ],
    };
  if (state.compare && r() < 0.5)
    state.compare.devices = {
      scheme: r() < 0.5 ? 'page' : 'dftl',
      shapes: [
        { channels: 1, diesPerChannel: 1 },
        { channels: 1 + Math.floor(r() * 8), diesPerChannel: 1 + Math.floor(r() * 4) },
      ],
      ...(r() < 0.5 ? { rate: 500 + Math.floor(r() * 5000) } : {}),
    };
  return state;
}

describe('links: encode / decode', () => {
  it('round-trips 300 random scenarios exactly', () => {
    const r = rng(42);
    for (let i = 0; i < 300; i++) {
      const state = randomState(r);
      expect(validateScenario(state.scenario), JSON.stringify(state.scenario)).toEqual([]);
      const hash = encodeHash(state);
      expect(hash).toMatch(/^v1=[A-Za-z0-9+\-$]+$/);
      const back = decodeHash(`#${hash}`);
      expect(back).toEqual({ kind: 'state', state, missingTrace: undefined, notice: undefined });
    }
  });

  it("carries the compare's device shapes (issue 40), and drops damaged ones", () => {
    const base: ShareState = {
      scenario: defaultScenario(),
      at: { step: 0, op: 0 },
      view: {},
      compare: {
        runs: [
          { scheme: 'page', params: {} },
          { scheme: 'page', params: {} },
        ],
      },
    };
    const devices = {
      scheme: 'page',
      shapes: [
        { channels: 1, diesPerChannel: 1 },
        { channels: 8, diesPerChannel: 1 },
      ],
      rate: 2000,
    };
    const back = decodeHash(`#${encodeHash({ ...base, compare: { ...base.compare!, devices } })}`);
    expect(back.kind === 'state' && back.state.compare?.devices).toEqual(devices);
    for (const bad of [
      { scheme: 'page', shapes: [] },
      { scheme: 'page', shapes: [{ channels: 0.5, diesPerChannel: 1 }] },
      { shapes: [] },
    ]) {
      const b = decodeHash(`#${encodeHash({ ...base, compare: { ...base.compare!, devices: bad as never } })}`);
      expect(b.kind === 'state' && b.state.compare && 'devices' in b.state.compare).toBe(false);
    }
  });

  it("links carry the device's operation shown, and drop a damaged one (issue 40)", () => {
    const base: ShareState = { scenario: defaultScenario(), at: { step: 0, op: 0 }, view: {} };
    const device = { channels: 8, diesPerChannel: 1, stripe: 'page' as const, cursor: 60 };
    const back = decodeHash(`#${encodeHash({ ...base, device })}`);
    expect(back.kind === 'state' && back.state.device).toEqual(device);
    for (const cursor of [-1, 1.5, 'x', 0]) {
      const b = decodeHash(`#${encodeHash({ ...base, device: { ...device, cursor: cursor as number } })}`);
      expect(b.kind === 'state' && b.state.device).toEqual({ channels: 8, diesPerChannel: 1, stripe: 'page' });
    }
  });

  it('links carry the moves since a power cut on the device, and drop damaged ones (issue 40)', () => {
    const base: ShareState = { scenario: defaultScenario(), at: { step: 0, op: 0 }, view: {} };
    const device = {
      channels: 8,
      diesPerChannel: 1,
      stripe: 'page' as const,
      cursor: 40,
      moves: ['cut' as const, 'recover' as const, 3, -1, 'recover_whole' as const, 12],
    };
    const back = decodeHash(`#${encodeHash({ ...base, device })}`);
    expect(back.kind === 'state' && back.state.device).toEqual(device);
    for (const moves of [[], ['recover'], ['cut', 0], ['cut', 1.5], ['cut', 'jump'], 'cut', ['cut', null]]) {
      const b = decodeHash(`#${encodeHash({ ...base, device: { ...device, moves: moves as never } })}`);
      expect(b.kind === 'state' && b.state.device).toEqual({
        channels: 8,
        diesPerChannel: 1,
        stripe: 'page',
        cursor: 40,
      });
    }
  });

  it('scenario files carry the device shape and load it back (issue 40)', () => {
    const device = { channels: 4, diesPerChannel: 2, stripe: 'block' as const };
    const state: ShareState = { scenario: defaultScenario(), at: { step: 3, op: 0 }, view: {}, device };
    const file = stateToFile(state);
    expect(JSON.parse(file).device).toEqual(device);
    expect(stateFromFile(file).state.device).toEqual(device);
    // Without the device view open, the file has no shape and opens the chip view.
    const chip = stateToFile({ ...state, device: undefined });
    expect(JSON.parse(chip)).not.toHaveProperty('device');
    expect(stateFromFile(chip).state.device).toBeUndefined();
  });

  it('carries the device shape (issue 40), and drops a damaged or one-die shape', () => {
    const base: ShareState = { scenario: defaultScenario(), at: { step: 0, op: 0 }, view: {} };
    for (const device of [
      { channels: 4, diesPerChannel: 2, stripe: 'page' as const },
      { channels: 2, diesPerChannel: 1, stripe: 'block' as const },
    ]) {
      const back = decodeHash(`#${encodeHash({ ...base, device })}`);
      expect(back.kind === 'state' && back.state.device).toEqual(device);
    }
    const raw = (device: unknown) =>
      decodeHash(`#v1=${compressToEncodedURIComponent(JSON.stringify({ v: 1, scenario: base.scenario, device }))}`);
    for (const bad of [
      { channels: 1, diesPerChannel: 1, stripe: 'page' },
      { channels: 0, diesPerChannel: 2, stripe: 'page' },
      { channels: 2, diesPerChannel: 2, stripe: 'plane' },
      { channels: 2.5, diesPerChannel: 2, stripe: 'block' },
      'eight',
    ]) {
      const back = raw(bad);
      expect(back.kind).toBe('state');
      expect(back.kind === 'state' && back.state.device).toBeUndefined();
    }
  });

  it('builds a URL on the current page', () => {
    const url = shareUrl(
      { scenario: defaultScenario(), at: { step: 3, op: 1 }, view: {} },
      'http://127.0.0.1:4179/?x=1#old',
    );
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:4179\/\?x=1#v1=/);
  });

  it('never puts an uploaded trace in a link, and says so on the way back', () => {
    const state: ShareState = {
      scenario: {
        ...defaultScenario(),
        workload: {
          kind: 'trace',
          name: 'msr-src1.csv',
          format: 'msr',
          fit: 'compact',
          upload: 3,
          text: '1,2,3\n'.repeat(1000),
        },
      },
      at: { step: 10, op: 0 },
      view: {},
    };
    const hash = encodeHash(state);
    expect(hash.length).toBeLessThan(400);
    const back = decodeHash(hash);
    if (back.kind !== 'state') throw new Error(JSON.stringify(back));
    expect(back.missingTrace).toBe('msr-src1.csv');
    expect(back.state.scenario.workload).toEqual({
      kind: 'trace',
      name: 'msr-src1.csv',
      format: 'msr',
      fit: 'compact',
      missing: true,
    });
    expect(back.state.scenario.chip).toEqual(state.scenario.chip);
    expect(back.state.at).toEqual({ step: 10, op: 0 });
  });

  it('reads a readable tour link', () => {
    expect(decodeHash('#tour=bast-thrashing')).toEqual({ kind: 'tour', id: 'bast-thrashing' });
    expect(decodeHash('')).toEqual({ kind: 'none' });
    expect(decodeHash('#')).toEqual({ kind: 'none' });
  });
});

describe('links: versions', () => {
  it('migrates a v0 link (the bare Session scenario) to step 0', () => {
    const bare = {
      scheme: 'bast',
      params: { log_blocks: 2 },
      chip: { preset: 'classroom' },
      workload: { kind: 'pattern', text: 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12' },
    };
    const back = decodeHash(`#v0=${compressToEncodedURIComponent(JSON.stringify(bare))}`);
    if (back.kind !== 'state') throw new Error(JSON.stringify(back));
    expect(back.state.scenario).toMatchObject({
      scheme: 'bast',
      params: { log_blocks: 2 },
      chip: { preset: 'classroom' },
    });
    expect(back.state.at).toEqual({ step: 0, op: 0 });
    expect(back.notice).toMatch(/older version/);
  });

  it('explains a link from a newer version', () => {
    const back = decodeHash(`#v7=${compressToEncodedURIComponent('{}')}`);
    expect(back.kind).toBe('error');
    expect(back.kind === 'error' && back.message).toMatch(/newer version of ftlscope/);
  });

  it('reads scenario files: versioned, and bare Session JSON', () => {
    const state: ShareState = { scenario: defaultScenario(), at: { step: 5, op: 2 }, view: { theme: 'dark' } };
    expect(stateFromFile(stateToFile(state)).state).toEqual(state);
    expect(stateFromFile(JSON.stringify(defaultScenario())).state).toEqual({
      scenario: defaultScenario(),
      at: { step: 0, op: 0 },
      view: {},
    });
    expect(() => stateFromFile('{"v": 9}')).toThrow(/newer version/);
    expect(() => stateFromFile('nope')).toThrow(/not valid JSON/);
  });
});

describe('links: damaged input never throws', () => {
  const good = encodeHash({ scenario: defaultScenario(), at: { step: 100, op: 3 }, view: {} });

  it('explains cut, garbled and wrong links', () => {
    const cases: [string, RegExp][] = [
      [`#${good.slice(0, good.length >> 1)}`, /damaged/],
      ['#v1=%%%garbage%%%', /damaged/],
      ['#v1=', /damaged/],
      [`#v1=${compressToEncodedURIComponent('{"scenario": ')}`, /damaged/],
      [`#v1=${compressToEncodedURIComponent('[1,2]')}`, /cannot be used/],
      [
        `#v1=${compressToEncodedURIComponent('{"scenario":{"scheme":"warp","chip":{"preset":"classroom"},"workload":{"kind":"sequential","n":5}}}')}`,
        /unknown scheme "warp"/,
      ],
      [
        `#v1=${compressToEncodedURIComponent('{"scenario":{"chip":{"preset":"classroom"},"workload":{"kind":"pattern","text":"w0 (w1"}}}')}`,
        /never closed/,
      ],
      [
        `#v1=${compressToEncodedURIComponent(JSON.stringify({ scenario: defaultScenario(), at: { step: -4 } }))}`,
        /step must be/,
      ],
      ['#hello', /does not hold an ftlscope scenario/],
    ];
    for (const [hash, message] of cases) {
      const back = decodeHash(hash);
      expect(back.kind, hash).toBe('error');
      expect(back.kind === 'error' && back.message, hash).toMatch(message);
    }
  });

  it('survives random mutations of a good link', () => {
    const r = rng(7);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$%#=';
    for (let i = 0; i < 500; i++) {
      const chars = good.split('');
      const flips = 1 + Math.floor(r() * 4);
      for (let f = 0; f < flips; f++)
        chars[3 + Math.floor(r() * (chars.length - 3))] = alphabet[Math.floor(r() * alphabet.length)];
      const back = decodeHash(`#${chars.join('')}`);
      expect(['state', 'error']).toContain(back.kind);
      if (back.kind === 'state') expect(validateScenario(back.state.scenario)).toEqual([]);
    }
  });
});
