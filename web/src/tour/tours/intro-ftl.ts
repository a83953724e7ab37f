// A guided tour: data, listed in ../tours.ts; tours.test.ts checks every stop against the core.
import type { Scenario } from '../../scenario/model';
import type { Tour } from '../tourTypes';

/** The first tour: for students who have never seen an FTL (page mapping, greedy GC). */
const INTRO = 'w0-19 w0 w1 w4 w5 w8 w9 w12 w13 w16 w17 w0 w4 w8 w12';
export const INTRO_TOUR_ID = 'intro-ftl';
const intro: Scenario = {
  scheme: 'page',
  params: { op: 0.25 },
  chip: { preset: 'classroom', blocks: 8, pages_per_block: 4 },
  workload: { kind: 'pattern', text: INTRO },
};

export const introFtl: Tour = {
  id: INTRO_TOUR_ID,
  title: 'What a flash translation layer does (3 minutes)',
  summary:
    'Pages and blocks, out-of-place writes, invalid pages, garbage collection and write amplification, on an 8-block chip.',
  schemes: ['page'],
  scenario: intro,
  stops: [
    {
      title: 'Pages and blocks',
      at: { step: 0, op: 0 },
      text: 'This is a flash chip: 8 blocks (columns, numbered 0–7 underneath) of 4 pages each. Flash has two rules. A page can be written (programmed) only when it is erased — hollow, dashed boxes. And erasing works only on a whole block at once, and is slow. The computer above sees 20 logical pages, numbered 0–19 (LPNs); the other 12 physical pages are spare room. The flash translation layer (FTL) keeps a map from each logical page to the physical page that holds it.',
      highlight: { roles: ['free'] },
      pages: { erased: 32, valid: 0 },
      expect: { host_writes: 0, erases: 0 },
    },
    {
      title: 'Writing: the number in a page is its LPN',
      at: { step: 20, op: 0 },
      text: 'w0-19 wrote logical pages 0 to 19 once. The FTL filled blocks 0–4 in order; each green page is valid and shows the logical page it holds (its LPN). The band above each block says what the block is for: DATA (full of data) or ACT (the block being written now).',
      highlight: { roles: ['data', 'active'] },
      pages: { valid: 20, erased: 12, invalid: 0 },
      expect: { host_writes: 20, page_programs: 20 },
    },
    {
      title: 'An update is written somewhere else',
      at: { step: 21, op: 0 },
      text: 'The computer wrote logical page 0 again. Page 0 of block 0 cannot be overwritten without erasing its whole block, so the FTL wrote the new copy into a fresh page of block 5 and moved the map entry there: an out-of-place write. The old copy in block 0 is now invalid (red, hatched): still on the chip, but never read again.',
      highlight: { touched: true },
      pages: { valid: 20, invalid: 1, erased: 11 },
      expect: { host_writes: 21, page_programs: 21 },
    },
    {
      title: 'Invalid pages pile up',
      at: { step: 28, op: 0 },
      text: 'Seven more updates (LPNs 1, 4, 5, 8, 9, 12, 13) left 8 invalid pages in blocks 0–3, two in each. Only 4 erased pages are left, all in block 7, which the FTL keeps in reserve for cleaning up. The next write is w16.',
      highlight: { roles: ['data'] },
      pages: { valid: 20, invalid: 8, erased: 4 },
      quiz: {
        question:
          'w16 needs a free page, and the only free block is the reserve. What will the FTL do before it can write?',
        answer:
          'Garbage collection: it picks blocks with the fewest valid pages (blocks 3 and 2, two valid pages each), copies their valid pages into the reserve block 7, and erases them — 4 copies and 2 erases for one write.',
      },
      predict: ['kind', 'victim', 'copies'],
      expect: { erases: 0 },
    },
    {
      title: 'Garbage collection, one operation at a time',
      at: { step: 28, op: 5 },
      text: 'Operations 1–4 read the valid pages of block 3 (LPNs 14 and 15) and programmed them into block 7, marked DEST while garbage collection fills it; operation 5 erased block 3, which is hollow again and free. The Metrics panel counts a GC run at its first operation: GC runs reads 1 here. The same follows for block 2: that second run starts, and counts, at operation 6. Step with → to watch each read, program and erase.',
      highlight: { touched: true },
      pages: { valid: 20, invalid: 6, erased: 6 },
      expect: { erases: 1, page_programs: 30, gc_runs: 1 },
      blocks: [
        { block: 7, role: 'dest', pages: 'VVEE' },
        { block: 3, role: 'free', pages: 'EEEE' },
      ],
    },
    {
      title: 'Room again',
      at: { step: 29, op: 0 },
      text: 'After cleaning blocks 3 and 2, w16 went into block 3. That one write cost the chip 5 page programs (4 copies and its own) and 2 erases. The erase count under each block (e1) records how often it has been erased: flash blocks wear out after a few thousand erases.',
      highlight: { touched: true },
      expect: { host_writes: 29, page_programs: 33, erases: 2, gc_runs: 2 },
    },
    {
      title: 'Write amplification',
      at: { step: 34, op: 0 },
      text: 'At the end: the computer wrote 34 pages, the chip programmed 42 (8 were garbage-collection copies) and erased 4 blocks. Write amplification = pages programmed ÷ pages written = 42 ÷ 34 ≈ 1.24. Every FTL in this app is a different answer to one question: how to keep write amplification, erases and waiting low. Try the other tours, or Step request and watch the Metrics panel.',
      highlight: { roles: ['data', 'active'] },
      expect: { host_writes: 34, page_programs: 42, erases: 4, write_amplification: 1.235 },
    },
  ],
};
