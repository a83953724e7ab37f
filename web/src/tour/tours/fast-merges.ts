// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';
import { pattern } from './common';

const MERGES = 'w0-15 S4 S5 S6 S7 S0 S1 S8 S1 S5 S13 S2 S6 S14 S3 S7 S15';

export const fastMerges: Tour = {
  id: 'fast-merges',
  title: 'Switch, partial and full merges',
  summary: 'FAST retires log blocks three ways; their costs differ by a factor of ten (FAST paper 3.4, Fig. 7).',
  schemes: ['fast'],
  scenario: pattern('fast', { log_blocks: 3 }, MERGES),
  stops: [
    {
      title: 'An SW log block filled in order',
      at: { step: 20, op: 0 },
      text: 'After the 16 in-place writes, S4 (offset 0: case 1) opened the SW log block for LBN 1, and S5 S6 S7 followed in order (case 2.1): it holds the whole logical block, in order.',
      highlight: { roles: ['sw-log'] },
      quiz: {
        question: 'S0 is at offset 0, so the SW log block must be retired. How many pages will be copied?',
        answer:
          'None: a full, in-order SW log block is switched — it becomes LBN 1’s data block and the old data block is erased. 1 erase, 0 copies.',
      },
      predict: ['kind', 'copies'],
      expect: { erases: 0 },
    },
    {
      title: 'Switch',
      at: { step: 21, op: 0 },
      text: 'The switch: 1 erase, no copy. S0 opened a new SW log block for LBN 0, and S1 follows it next.',
      highlight: { roles: ['sw-log', 'data'] },
      expect: { erases: 1, 'merges.switch': 1, page_programs: 21 },
    },
    {
      title: 'A half-filled SW log block',
      at: { step: 22, op: 0 },
      text: 'The SW log block holds S0 S1 of LBN 0: offsets 0–1 in order, offsets 2–3 still erased.',
      highlight: { roles: ['sw-log'] },
      quiz: {
        question: 'S8 (offset 0 of LBN 2) retires it. How many pages will be copied, and how many blocks erased?',
        answer:
          '2 copies and 1 erase: a partial merge copies the missing S2 and S3 from the data block into the SW log block, which becomes LBN 0’s data block; the old data block is erased.',
      },
      predict: ['kind', 'copies'],
      expect: { erases: 1 },
    },
    {
      title: 'Partial merge',
      at: { step: 23, op: 0 },
      text: 'The partial merge: 2 copies, 1 erase. Now eight writes off offset 0 (S1 S5 S13 S2 S6 S14 S3 S7) go to the RW log blocks.',
      highlight: { roles: ['data'] },
      expect: { erases: 2, 'merges.partial': 1, page_programs: 25 },
    },
    {
      title: 'The RW log blocks are full',
      at: { step: 31, op: 0 },
      text: 'Both RW log blocks are full. The first holds S1 S5 S13 S2: sectors of LBN 0, 1 and 3. It is the next victim.',
      highlight: { roles: ['rw-log'] },
      quiz: {
        question: 'S15 needs a RW page. How many blocks will be erased?',
        answer:
          '4: one full merge per logical block in the victim (LBN 0, 1, 3), each erasing its old data block, then the victim itself.',
      },
      predict: ['kind', 'victim', 'copies'],
      expect: { erases: 2 },
    },
    {
      title: 'Full merges',
      at: { step: 32, op: 0 },
      text: 'Three full merges for one victim: 4 erases and 12 page copies, besides the host write itself (13 programs) (its response time is the worst of the run). That is why FAST tries to keep sequential writes in the SW log block, where a switch costs one erase.',
      highlight: { roles: ['data', 'rw-log'] },
      expect: { erases: 6, 'merges.full': 3, 'merges.full_victims': 1, page_programs: 46 },
    },
  ],
};
