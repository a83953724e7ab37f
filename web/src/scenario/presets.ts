// Named starting points offered in the scenario picker: the one list (plain data, no
// import side effects). A scheme needs none to run; one it should teach gets its paper's
// example here (docs/architecture.md, "How to add a scheme"). docs/schemes/rftl.md and
// docs/schemes/kraft.md explain the panels' presets; "K at work" is docs/schemes/kraft.md's
// pattern `w0-19 w0 w4 ...`, written out so every pattern parser reads it.
import { canonicalScenario, defaultScenario, type Scenario } from './model';

/**
 * Compare's and sweep's starting choices: the second run beside the baseline scheme
 * (the catalog's first) is FAST, and a sweep starts on FAST (FAST Figure 10).
 */
export const COMPARE_DEFAULTS = { besideBaseline: 'fast', sweepSchemes: ['fast'] };

export interface Preset {
  id: string;
  label: string;
  scenario: Scenario;
  /** Request to open on, as a fraction of the workload (0 = the start). */
  openAt: number;
}

const GENERAL_PRESETS: Preset[] = [
  {
    // The first open: short, and at request 0, so the welcome's "Step op" starts at the start.
    id: 'hotcold-classroom',
    label: 'Hot/cold writes on a classroom chip (default)',
    scenario: {
      ...defaultScenario(),
      workload: { kind: 'hotcold', n: 200, seed: 1, read_ratio: 0.1, hot_fraction: 0.2, hot_ratio: 0.8 },
    },
    openAt: 0,
  },
  {
    id: 'uniform-classroom',
    label: 'Uniform random writes, little over-provisioning',
    scenario: {
      scheme: 'page',
      params: { op: 0.125 },
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'uniform', n: 400, seed: 7, read_ratio: 0.2 },
    },
    openAt: 0.4,
  },
  {
    id: 'paper-pattern',
    label: 'Hand-written pattern (papers’ figure style)',
    scenario: {
      scheme: 'page',
      params: { op: 0.25 },
      chip: { preset: 'classroom', blocks: 8, pages_per_block: 4 },
      workload: { kind: 'pattern', text: 'w0 w4 w8 w12 r3 (w1 w2 w5)x8 (w0 w4)x4' },
    },
    openAt: 0,
  },
  {
    id: 'sequential-fast2007',
    label: 'Sequential fill of a FAST 2007 chip',
    scenario: {
      scheme: 'page',
      params: { op: 0.25 },
      chip: { preset: 'fast2007', blocks: 32, pages_per_block: 32 },
      workload: { kind: 'sequential', n: 3000 },
    },
    openAt: 0.3,
  },
];

const kAtWork = (k: number, scheme = 'kraft'): Scenario => ({
  scheme,
  params: { log_blocks: 2, k },
  chip: { preset: 'classroom' },
  workload: {
    kind: 'pattern',
    text: `${Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ')} w0 w4 w8 w12 w16 w1 w5 w9 w13 w17`,
  },
});

const SCHEME_PRESETS: Preset[] = [
  {
    id: 'rftl-gc',
    label: 'RFTL: distributed GC on the large-block chip',
    scenario: {
      scheme: 'rftl',
      params: { utilisation: 1 },
      chip: { preset: 'rftl-large', blocks: 12, pages_per_block: 32 },
      workload: { kind: 'uniform', n: 1500, seed: 1, read_ratio: 0.2 },
    },
    openAt: 0.25,
  },
  {
    id: 'nftl-merge',
    label: 'NFTL on the same chip and workload (merges)',
    scenario: {
      scheme: 'nftl',
      params: { utilisation: 1 },
      chip: { preset: 'rftl-large', blocks: 12, pages_per_block: 32 },
      workload: { kind: 'uniform', n: 1500, seed: 1, read_ratio: 0.2 },
    },
    openAt: 0.25,
  },
  {
    id: 'ltftl-figure2',
    label: 'LTFTL: Figure 2, frozen at S8 (then revert, unfreeze)',
    scenario: {
      scheme: 'ltftl',
      params: { op: 0.25 },
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'pattern', text: 'w0 w1 w2 w3 w0 w1 w4 w5 freeze w3 w4 w5 w6 w0 w2 w3 w1 w7 w8' },
    },
    openAt: 1,
  },
  { id: 'kraft-k2', label: 'KRAFT: K at work (K = 2, shared logs)', scenario: kAtWork(2), openAt: 0.75 },
  { id: 'kraft-k1', label: 'KRAFT: K = 1, dedicated logs', scenario: kAtWork(1), openAt: 0.75 },
  { id: 'kraft-k4', label: 'KRAFT: K = 4 (unlimited on 4-page blocks)', scenario: kAtWork(4), openAt: 0.75 },
];

const classroom16 = { preset: 'classroom' as const, blocks: 16, pages_per_block: 4 };
const pat = (
  scheme: string,
  params: Scenario['params'],
  text: string,
  chip: Scenario['chip'] = classroom16,
): Scenario => ({
  scheme,
  params,
  chip,
  workload: { kind: 'pattern', text },
});
const FIG4 =
  'w0-67 w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25 w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33 w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5 w9 w10 w11 w13 w18';

// The papers' own examples where they exist (the same patterns the guided tours run;
// docs/schemes/*.md explains each).
const PAPER_PRESETS: Preset[] = [
  {
    id: 'bast-thrashing',
    label: 'BAST: thrashing, S0 S4 S8 S12 twice with 2 log blocks (FAST paper 2.4)',
    scenario: pat('bast', { log_blocks: 2 }, 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12'),
    openAt: 16 / 24,
  },
  {
    id: 'fast-merges',
    label: 'FAST: switch, partial and full merges (FAST paper 3.4, Fig. 7)',
    scenario: pat('fast', { log_blocks: 3 }, 'w0-15 S4 S5 S6 S7 S0 S1 S8 S1 S5 S13 S2 S6 S14 S3 S7 S15'),
    openAt: 16 / 32,
  },
  {
    id: 'ofast-lazy',
    label: 'O-FAST: a merge skipped by the lazy check (FAST paper 3.6)',
    scenario: pat('ofast', { log_blocks: 3 }, 'w0-15 S1 S9 S10 S11 S9 S10 S11 S2 S3'),
    openAt: 16 / 25,
  },
  {
    id: 'fastcheck-figure4',
    label: 'FastCheck: Figure 4, the victim whose merge a power cut interrupts',
    scenario: pat('fastcheck', { log_blocks: 7, checkpoint_lpns: 12 }, FIG4, {
      preset: 'classroom',
      blocks: 32,
      pages_per_block: 4,
    }),
    openAt: 68 / 109,
  },
  {
    id: 'fast-ltlog-figure4',
    label: 'FAST + LTFTL-style log: the same Figure 4 updates, logged',
    scenario: pat('fast-ltlog', { log_blocks: 7 }, FIG4, { preset: 'classroom', blocks: 36, pages_per_block: 4 }),
    openAt: 68 / 109,
  },
  {
    id: 'gftl-gc',
    label: 'GFTL: garbage collection in bounded steps on the large-block chip',
    scenario: {
      scheme: 'gftl',
      // The registry's default, written out so the preset is its own round-trip.
      params: { utilisation: 1 },
      chip: { preset: 'rftl-large', blocks: 16, pages_per_block: 32 },
      workload: { kind: 'uniform', n: 1500, seed: 1, read_ratio: 0.2 },
    },
    openAt: 0.25,
  },
  { id: 'kast-k2', label: 'KAST: K at work (K = 2, shared logs)', scenario: kAtWork(2, 'kast'), openAt: 0.75 },
];

export const PRESETS: Preset[] = [...GENERAL_PRESETS, ...SCHEME_PRESETS, ...PAPER_PRESETS];

export const DEFAULT_PRESET = PRESETS[0];

const PRESET_KEYS = new Map(PRESETS.map((p) => [canonicalScenario(p.scenario), p]));

/**
 * The preset whose scenario `s` is, by value (a link or file to a preset's exact scenario
 * is a new object: compared by identity, the picker said "Choose a preset…"); else undefined.
 */
export function presetOf(s: Scenario): Preset | undefined {
  // No preset is a trace, and a trace's text may be megabytes: not serialised on every edit.
  if (s.workload.kind === 'trace') return undefined;
  return PRESET_KEYS.get(canonicalScenario(s));
}
