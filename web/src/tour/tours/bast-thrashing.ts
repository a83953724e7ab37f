// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';
import { pattern, THRASH } from './common';

export const bastThrashing: Tour = {
  id: 'bast-thrashing',
  title: 'Why BAST thrashes',
  summary:
    'Two log blocks, four logical blocks written in turn: every write evicts a log block that holds one sector (FAST paper 2.4).',
  schemes: ['bast'],
  scenario: pattern('bast', { log_blocks: 2 }, THRASH),
  stops: [
    {
      title: 'The data blocks are written',
      at: { step: 16, op: 0 },
      text: 'w0-15 wrote logical pages 0–15 once: each went in place into the data block of its logical block (LBN 0–3). No log block, no erase yet. Now the pattern S0 S4 S8 S12 S0 S4 S8 S12 overwrites offset 0 of each of the four logical blocks, twice.',
      highlight: { roles: ['data'] },
      expect: { erases: 0, host_writes: 16 },
    },
    {
      title: 'Each log block is dedicated to one logical block',
      at: { step: 18, op: 0 },
      text: 'S0 and S4 collided with written pages, so BAST gave LBN 0 and LBN 1 a log block each. Both log blocks are now in use, each holding a single sector.',
      highlight: { roles: ['log'] },
      quiz: {
        question:
          'S8 comes next. LBN 2 has no log block and none is free or full. How many blocks will this one write erase?',
        answer:
          '2. Rule 3 (round robin) evicts LBN 0’s log block with 1 of its 4 sectors used: a full merge copies LBN 0’s 4 up-to-date sectors into a free block and erases the old data block and the log block.',
      },
      predict: ['kind', 'copies'],
      expect: { erases: 0 },
    },
    {
      title: 'In the middle of the full merge',
      at: { step: 18, op: 5 },
      text: 'The full merge copies LBN 0’s up-to-date sectors: each is read (from log block 4 if it is there, else from data block 0), then programmed into free block 6, labelled DEST L0 while it is filled. After 5 operations LPNs 0 and 1 are copied and LPN 2 has just been read. A copy is valid in both places, block 6’s new page and its source alike, until the merge erases the source’s block; the stale LPN 0 in page 0 of block 0 stays invalid. The merge counted at its first operation (Merges: full 1). Its 2 erases come last, and with them block 6 becomes DATA L0; LBN 2’s new log block appears at operation 11, with S8.',
      highlight: { touched: true },
      expect: { erases: 0, 'merges.full': 1, page_programs: 20 },
      blocks: [
        { block: 6, role: 'dest', owner: 0, pages: 'VVEE' },
        { block: 0, role: 'data', owner: 0, pages: 'IVVV' },
        { block: 4, role: 'log', owner: 0, pages: 'VEEE' },
      ],
    },
    {
      title: 'One write, two erases',
      at: { step: 19, op: 0 },
      text: 'S8 cost 4 reads, 5 programs and 2 erases. The evicted log block was 25% used (log utilisation 0.25). S12 will do the same to LBN 1’s log block, and so on round the four logical blocks.',
      highlight: { roles: ['log'] },
      expect: { erases: 2, 'merges.full': 1, log_utilisation: 0.25 },
    },
    {
      title: 'Thrashing',
      at: { step: 24, op: 0 },
      text: 'From S8 on, every write found no log block for its logical block: 6 replacements, each victim with 1 of 4 sectors used, 6 full merges, 12 erases for 8 writes. Two log blocks cannot serve four logical blocks written in turn. FAST’s answer: share the log blocks (see the tour “Full associativity”).',
      highlight: { roles: ['log'] },
      expect: { erases: 12, 'merges.full': 6, host_writes: 24 },
    },
  ],
};
