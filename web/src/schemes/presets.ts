// Presets for the scheme panels (docs/schemes/rftl.md, docs/schemes/kraft.md). "K at work"
// is docs/schemes/kraft.md's pattern `w0-19 w0 w4 ...`, written out so every pattern parser reads it.
import type { Preset } from '../scenario/presets';
import type { Scenario } from '../scenario/model';

const kAtWork = (k: number, scheme = 'kraft'): Scenario => ({
  scheme,
  params: { log_blocks: 2, k },
  chip: { preset: 'classroom' },
  workload: { kind: 'pattern', text: `${Array.from({ length: 20 }, (_, i) => `w${i}`).join(' ')} w0 w4 w8 w12 w16 w1 w5 w9 w13 w17` },
});

export const SCHEME_PRESETS: Preset[] = [
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
