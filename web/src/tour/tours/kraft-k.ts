// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';
import { pattern } from './common';

const KPAT = 'w0-19 w0 w4 w8 w12 w16 w1 w5 w9 w13 w17';

export const kraftK: Tour = {
  id: 'kraft-k',
  title: 'KRAFT’s associativity K',
  summary:
    'K caps how many logical blocks share a log block: fewer merges with a larger K, but each merge touches more blocks (KRAFT paper 2-A).',
  schemes: ['kraft'],
  scenario: pattern('kraft', { log_blocks: 2, k: 1 }, KPAT),
  stops: [
    {
      title: 'K = 1: dedicated log blocks',
      at: { step: 30, op: 0 },
      text: '2 log blocks, K = 1, after w0-19 and w0 w4 w8 w12 w16 w1 w5 w9 w13 w17: like BAST, a log block serves one logical block. KRAFT keeps each log block serial: a write that skips offsets first fills them from the data block (4 fill copies). No merge here was a switch (the Metrics panel: switch 0) — each of the 7 victims was only partly written, so it took a partial merge that copied the sectors it lacked: 7 partial merges, 7 erases, 22 copies in all.',
      highlight: { roles: ['log'] },
      expect: {
        erases: 7,
        'merges.switch': 0,
        'merges.partial': 7,
        'merges.full': 0,
        'by_cause.fill.programs': 4,
        'by_cause.partial_merge.programs': 18,
        'scheme_metrics.mrg_us': 2552.9,
      },
    },
    {
      title: 'K = 2: shared log blocks',
      at: { step: 24, op: 0 },
      scenario: pattern('kraft', { log_blocks: 2, k: 2 }, KPAT),
      text: 'Now K = 2. w0 w4 w8 w12 went into the two log blocks, two logical blocks each: both have reached K.',
      highlight: { roles: ['log'] },
      quiz: {
        question: 'w16 belongs to a fifth logical block. How many blocks will be erased?',
        answer:
          '3: a victim log block is full-merged — its 2 logical blocks get new data blocks (2 old data blocks erased) — and the log block is erased.',
      },
      expect: { erases: 0 },
    },
    {
      title: 'A full merge of Nd = 2 data blocks',
      at: { step: 25, op: 0 },
      scenario: pattern('kraft', { log_blocks: 2, k: 2 }, KPAT),
      text: 'One full merge per associated logical block plus the log block: Nd + 1 = 3 erases (Table 1).',
      highlight: { roles: ['data', 'log'] },
      expect: { erases: 3, 'merges.full': 2 },
    },
    {
      title: 'K = 2 at the end',
      at: { step: 30, op: 0 },
      scenario: pattern('kraft', { log_blocks: 2, k: 2 }, KPAT),
      text: 'K = 2: 6 erases, 4 full merges in 2 victims, 17 copies — fewer erases than K = 1, but each merge is longer.',
      highlight: { roles: ['log'] },
      expect: { erases: 6, 'merges.full': 4, 'merges.full_victims': 2, 'scheme_metrics.mrg_us': 7720 },
    },
    {
      title: 'K = 4 (≥ pages per block: unlimited)',
      at: { step: 30, op: 0 },
      scenario: pattern('kraft', { log_blocks: 2, k: 4 }, KPAT),
      text: 'K = 4: 4 erases, 3 full merges in one victim, 13 copies. The trade-off K controls: larger K, fewer erases, but a merge touches up to K data blocks — the merge response time grows (mean merge time 2,553 µs at K = 1, 7,720 at K = 2, 10,580 at K = 4).',
      highlight: { roles: ['log', 'data'] },
      expect: { erases: 4, 'merges.full': 3, 'merges.full_victims': 1, 'scheme_metrics.mrg_us': 10580 },
    },
  ],
};
