// Named starting points offered in the scenario picker. Plain data: later issues add
// one or more per scheme (and guided tours built on them).
import { defaultScenario, type Scenario } from './model';

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

export const PRESETS: Preset[] = [
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

export const DEFAULT_PRESET = PRESETS[0];
