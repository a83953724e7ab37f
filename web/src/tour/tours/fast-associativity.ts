// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';
import { pattern, THRASH } from './common';

const THRASH_OFF0 = 'w0-15 S1 S5 S9 S13 S1 S5 S9 S13';

export const fastAssociativity: Tour = {
  id: 'fast-associativity',
  title: 'Full associativity (FAST)',
  summary:
    'The same kind of pattern through BAST and through FAST: shared RW log blocks absorb writes that make BAST thrash (FAST paper 3.1).',
  schemes: ['bast', 'fast'],
  scenario: pattern('bast', { log_blocks: 2 }, THRASH_OFF0),
  stops: [
    {
      title: 'BAST: dedicated log blocks',
      at: { step: 24, op: 0 },
      text: 'S1 S5 S9 S13 S1 S5 S9 S13 after the 16 in-place writes: BAST with 2 log blocks still thrashes — 6 replacements, 6 full merges, 12 erases.',
      highlight: { roles: ['log'] },
      expect: { erases: 12, 'merges.full': 6 },
    },
    {
      title: 'FAST: one SW log block, RW log blocks shared by everyone',
      at: { step: 16, op: 0 },
      scenario: pattern('fast', { log_blocks: 3 }, THRASH_OFF0),
      text: 'The same pattern through FAST with 3 log blocks: 1 sequential-write (SW) log block and 2 random-write (RW) log blocks. A RW log block takes a sector of any logical block: it is fully associative.',
      highlight: { roles: ['data'] },
      expect: { erases: 0 },
    },
    {
      title: 'Four logical blocks, one log block',
      at: { step: 20, op: 0 },
      scenario: pattern('fast', { log_blocks: 3 }, THRASH_OFF0),
      text: 'S1 S5 S9 S13 are not at offset 0, so each is case 3 of Fig. 5: appended to the RW log blocks. One RW log block now holds sectors of four logical blocks.',
      highlight: { roles: ['rw-log'] },
      quiz: {
        question: 'S1 S5 S9 S13 come again. How many erases will these four writes cause?',
        answer: 'None: they fill the second RW log block. FAST: 0 merges, 0 erases, where BAST needed 12.',
      },
      expect: { erases: 0 },
    },
    {
      title: 'No merge at all',
      at: { step: 24, op: 0 },
      scenario: pattern('fast', { log_blocks: 3 }, THRASH_OFF0),
      text: 'Eight case-3 writes filled the two RW log blocks: no merge, no erase. Merges come only when a RW log block must be reused, and then each one has collected many writes.',
      highlight: { roles: ['rw-log'] },
      expect: { erases: 0, 'merges.full': 0, 'merges.partial': 0 },
    },
    {
      title: 'Offset 0 belongs to the SW log block',
      at: { step: 24, op: 0 },
      scenario: pattern('fast', { log_blocks: 3 }, THRASH),
      text: 'The literal thrashing pattern S0 S4 S8 S12 … through FAST: every write at offset 0 is case 1 — it opens a new SW log block and partially merges the previous one (3 missing sectors copied, its data block erased): 7 partial merges, 7 erases, 21 copies.',
      highlight: { roles: ['sw-log'] },
      expect: { erases: 7, 'merges.partial': 7, page_programs: 24 + 21 },
    },
  ],
};
