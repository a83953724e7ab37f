// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';
import { pattern } from './common';

const LAZY = 'w0-15 S1 S9 S10 S11 S9 S10 S11 S2 S3';

export const ofastLazy: Tour = {
  id: 'ofast-lazy',
  title: 'O-FAST’s lazy merge',
  summary: 'Skip a merge whose sectors all have newer copies elsewhere in the log (FAST paper 3.6).',
  schemes: ['fast', 'ofast'],
  scenario: pattern('fast', { log_blocks: 3 }, LAZY),
  stops: [
    {
      title: 'Two full RW log blocks',
      at: { step: 24, op: 0 },
      text: 'FAST, after the 16 in-place writes and S1 S9 S10 S11 S9 S10 S11 S2: the RW log blocks hold [S1 S9 S10 S11] and [S9 S10 S11 S2]. LBN 2’s sectors in the first block all have newer copies in the second.',
      highlight: { roles: ['rw-log'] },
      quiz: {
        question:
          'S3 makes the first RW log block the victim. FAST merges every logical block with a sector in it. How many erases?',
        answer: '3: LBN 0 and LBN 2 are merged (2 old data blocks erased), then the victim.',
      },
      predict: ['kind', 'copies'],
      expect: { erases: 0 },
    },
    {
      title: 'FAST: two merges',
      at: { step: 25, op: 0 },
      text: 'FAST merged LBN 0 and LBN 2: 2 full merges, 3 erases.',
      highlight: { roles: ['data'] },
      expect: { erases: 3, 'merges.full': 2 },
    },
    {
      title: 'O-FAST: the same moment',
      at: { step: 24, op: 0 },
      scenario: pattern('ofast', { log_blocks: 3 }, LAZY),
      text: 'The same pattern through O-FAST. Before merging a logical block of the victim, O-FAST checks whether every one of its sectors in the victim has a newer copy in another log block.',
      highlight: { roles: ['rw-log'] },
      quiz: {
        question: 'S3 again. How many erases this time?',
        answer:
          '2: LBN 2 is skipped (its victim sectors are all stale), only LBN 0 is merged, then the victim is erased.',
      },
      expect: { erases: 0 },
    },
    {
      title: 'O-FAST: one merge skipped',
      at: { step: 25, op: 0 },
      scenario: pattern('ofast', { log_blocks: 3 }, LAZY),
      text: 'O-FAST: 1 full merge, 2 erases (lazy skips: 1). The skipped logical block’s data stays where its newest copies are, in the other RW log block.',
      highlight: { roles: ['data', 'rw-log'] },
      expect: { erases: 2, 'merges.full': 1, 'scheme_metrics.lazy_skips': 1 },
    },
  ],
};
