// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Tour } from '../tourTypes';

const rftlChip = { preset: 'rftl-large' as const, blocks: 12, pages_per_block: 32 };
const rftlWork = { kind: 'uniform' as const, n: 400, seed: 1, read_ratio: 0.3 };

export const rftlBounded: Tour = {
  id: 'rftl-bounded',
  title: 'RFTL’s bounded response time',
  summary:
    'Garbage collection cut into steps that ride on writes: no request waits more than one erase plus one write (RFTL paper 4.2–4.5).',
  schemes: ['rftl', 'nftl'],
  scenario: { scheme: 'rftl', params: {}, chip: { ...rftlChip }, workload: { ...rftlWork } },
  stops: [
    {
      title: 'Three blocks per logical block',
      at: { step: 0, op: 0 },
      text: 'RFTL on a 12-block large-block chip (2 KB pages, 32 per block): each of the 4 logical blocks owns a primary, a replacement and a buffer block. 400 random requests, 30% reads. A write costs one OOB read (the sub-table) and one program: 325 µs.',
      highlight: { roles: ['primary'] },
      expect: { erases: 0 },
    },
    {
      title: 'A full primary block',
      at: { step: 179, op: 0 },
      text: 'Logical block 1’s primary block is full. Its garbage collection is due — but RFTL never runs it all at once.',
      highlight: { owners: [1] },
      quiz: {
        question: 'The next request writes to logical block 1. How long will it take, at most?',
        answer:
          '2,200 µs: the write (325 µs) plus one GC step of at most β = 5 valid-page copies. No step is longer than one erase (2,000 µs).',
      },
      expect: { 'latency_us.write.worst': 325, gc_runs: 0 },
    },
    {
      title: 'One GC step rides on the write',
      at: { step: 180, op: 0 },
      text: 'GC step 1 of 8: 5 valid pages copied into the replacement block, right after the host write. Worst write so far: 2,200 µs. The Metrics panel counts this GC run once (GC runs 1), at its first operation, although its 8 steps ride on 8 different writes.',
      highlight: { owners: [1] },
      expect: { 'latency_us.write.worst': 2200, erases: 0, gc_runs: 1 },
    },
    {
      title: 'The last step: one erase',
      at: { step: 188, op: 0 },
      text: 'The final step erases the old primary and exchanges roles. It costs T_er + U(e_w) = 2,000 + 325 = 2,325 µs: the paper’s bound L(p).',
      highlight: { owners: [1] },
      expect: { 'latency_us.write.worst': 2325, erases: 1 },
    },
    {
      title: 'Bounded, over the whole run',
      at: { step: 400, op: 0 },
      text: 'After 400 requests the worst write is still 2,325 µs and the worst read 50 µs (T_rdpg + T_rdoob): every response time is bounded.',
      highlight: { roles: ['primary', 'replacement', 'buffer'] },
      expect: { 'latency_us.write.worst': 2325, 'latency_us.read.worst': 50 },
    },
    {
      title: 'NFTL on the same requests',
      at: { step: 400, op: 0 },
      scenario: { scheme: 'nftl', params: {}, chip: { ...rftlChip }, workload: { ...rftlWork } },
      text: 'NFTL merges a data block and its full replacement block in one go, inside the unlucky write: its worst write here is 13,900 µs — six times RFTL’s bound.',
      highlight: { roles: ['data', 'replacement'] },
      expect: { 'latency_us.write.worst': 13900 },
    },
  ],
};
