// Guided tours: plain data. Each stop is a moment of a scenario (after `step` requests
// and `op` flash operations of the next one), with narration, blocks to highlight and
// an optional quiz whose answer is shown at the next stop. The numbers in the text are
// the core's own: `expect` lists metrics at that moment, and tours.test.ts runs every
// stop through the real wasm core and checks them (counts from docs/schemes/*.md).
import type { Scenario } from '../scenario/model';
import type { Moment } from '../scenario/share';
import type { PredictKind } from './predict';

export interface Highlight {
  /** block role keys (palette.ts: 'log', 'sw-log', 'rw-log', 'data', 'primary', ...) */
  roles?: string[];
  /** blocks owned by these logical blocks */
  owners?: number[];
  /** blocks the revealed operations of the current request touched */
  touched?: boolean;
}

export interface TourStop {
  title: string;
  at: Moment;
  /** a different scenario from this stop on (the tour's own otherwise) */
  scenario?: Scenario;
  text: string;
  highlight?: Highlight;
  /** asked at this stop; the answer appears at the next stop */
  quiz?: { question: string; answer: string };
  /**
   * "What happens next?" at this stop (Predict.tsx): the questions to ask about the next
   * request; the core answers them (Session.predict_next), so they cannot drift.
   */
  predict?: PredictKind[];
  /** metrics at this moment (dotted paths into metrics()), checked by tours.test.ts */
  expect?: Record<string, number>;
  /** pages in each state at this moment (page_states()), checked by tours.test.ts */
  pages?: Partial<Record<'erased' | 'valid' | 'invalid' | 'retractable' | 'metadata', number>>;
  /**
   * What the text says about single blocks at this moment, checked by tours.test.ts against
   * the core: the role key (palette.ts), the owning LBN, and the pages top to bottom, one
   * letter each (E erased, V valid, I invalid, R retractable, M metadata).
   */
  blocks?: { block: number; role?: string; owner?: number; pages?: string }[];
}

export interface Tour {
  id: string;
  title: string;
  summary: string;
  /** every scheme the tour runs: it is offered only when the core has them all */
  schemes: string[];
  scenario: Scenario;
  stops: TourStop[];
}

const classroom = { preset: 'classroom' as const, blocks: 16, pages_per_block: 4 };

function pattern(scheme: string, params: Scenario['params'], text: string): Scenario {
  return { scheme, params, chip: { ...classroom }, workload: { kind: 'pattern', text } };
}

const THRASH = 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12';
const THRASH_OFF0 = 'w0-15 S1 S5 S9 S13 S1 S5 S9 S13';
const MERGES = 'w0-15 S4 S5 S6 S7 S0 S1 S8 S1 S5 S13 S2 S6 S14 S3 S7 S15';
const LAZY = 'w0-15 S1 S9 S10 S11 S9 S10 S11 S2 S3';
const KPAT = 'w0-19 w0 w4 w8 w12 w16 w1 w5 w9 w13 w17';
const FIG4 =
  'w0-67 w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25 w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33 w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5 w9 w10 w11 w13 w18';
const TIME_SHIFT = 'w0 w1 w2 w3 w0 w1 w4 w5 freeze w3 w4 w5 w6 r3 revert 1 r3 w6 unfreeze 1';
const rftlChip = { preset: 'rftl-large' as const, blocks: 12, pages_per_block: 32 };
const rftlWork = { kind: 'uniform' as const, n: 400, seed: 1, read_ratio: 0.3 };

/** The first tour: for students who have never seen an FTL (page mapping, greedy GC). */
const INTRO = 'w0-19 w0 w1 w4 w5 w8 w9 w12 w13 w16 w17 w0 w4 w8 w12';
export const INTRO_TOUR_ID = 'intro-ftl';
const intro: Scenario = {
  scheme: 'page',
  params: { op: 0.25 },
  chip: { preset: 'classroom', blocks: 8, pages_per_block: 4 },
  workload: { kind: 'pattern', text: INTRO },
};

export const TOURS: Tour[] = [
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    id: 'ltftl-time-shift',
    title: 'LTFTL: freeze, change, revert',
    summary:
      'Freeze a state, keep writing, and go back to it: the log keeps the old pages retractable (LTFTL, Figures 2 and 6).',
    schemes: ['ltftl'],
    scenario: pattern('ltftl', {}, TIME_SHIFT),
    stops: [
      {
        title: 'Eight writes, t = 0..7',
        at: { step: 8, op: 0 },
        text: 'w0 w1 w2 w3 w0 w1 w4 w5 (Figure 2, t = 0..7): sectors 0 and 1 were written twice, so their first copies are invalid. Every write also appends an entry (sector, old page, new page, time) to the log.',
        highlight: { roles: ['data', 'active'] },
        pages: { valid: 6, invalid: 2, retractable: 0 },
        expect: { 'scheme_metrics.global_time': 8, 'scheme_metrics.log_entries': 8 },
      },
      {
        title: 'Freeze: state 1 is S8',
        at: { step: 9, op: 0 },
        text: 'freeze flushes the log buffer and records state 1 with epoch 8: S8, the valid pages after t = 0..7.',
        quiz: {
          question:
            'Now w3 w4 w5 w6 overwrite three sectors of S8 and add sector 6. What becomes of the old copies of 3, 4 and 5?',
          answer:
            'They become retractable, not invalid: S8 still needs them (S8 ∩ Domain(U), 3 pages), so garbage collection may not reclaim them.',
        },
        expect: { 'scheme_metrics.frozen_states': 1, 'scheme_metrics.log_flushes': 1 },
        pages: { valid: 6, invalid: 2, retractable: 0 },
      },
      {
        title: 'Changes after the freeze',
        at: { step: 13, op: 0 },
        text: 'At t = 12 (Figure 2): 7 valid pages (S12), 3 retractable pages (the S8 copies of sectors 3, 4, 5), 2 invalid pages (needed by no state). U(8–12) in the log holds the four writes since the epoch.',
        highlight: { roles: ['data', 'active'] },
        pages: { valid: 7, invalid: 2, retractable: 3 },
        expect: { 'scheme_metrics.global_time': 12 },
      },
      {
        title: 'Reading the present',
        at: { step: 14, op: 0 },
        text: 'r3 reads sector 3’s newest copy, written at t = 8 after the freeze.',
        highlight: { roles: ['active'] },
        quiz: {
          question: 'revert 1 goes back to S8. Which copy will the next r3 read?',
          answer: 'The one S8 had: written at t = 3, before the freeze, in the first data block.',
        },
        pages: { retractable: 3 },
      },
      {
        title: 'Revert to S8',
        at: { step: 15, op: 0 },
        text: 'revert 1 undoes U(8–12): each changed sector takes back the old page of its first entry after the epoch; the map is dumped and the log rewritten (1 erase). The four pages written after the freeze are now invalid; the retractable ones are valid again.',
        highlight: { roles: ['data', 'active'] },
        pages: { valid: 6, invalid: 6, retractable: 0 },
        expect: { erases: 1, 'scheme_metrics.map_dumps': 1 },
      },
      {
        title: 'The past is the present',
        at: { step: 16, op: 0 },
        text: 'r3 read the pre-freeze copy. State 1 stays and could be reverted to again (time shift is linear); w6 and unfreeze 1 follow: unfreeze drops the state, and pages only it needed become invalid.',
        highlight: { roles: ['data'] },
        expect: { 'scheme_metrics.frozen_states': 1, wrong_reads: 0 },
      },
      {
        title: 'Unfreeze',
        at: { step: 18, op: 0 },
        text: 'unfreeze 1: no frozen state is left; from now on GC may reclaim every invalid page.',
        expect: { 'scheme_metrics.frozen_states': 0, wrong_reads: 0 },
      },
    ],
  },
  {
    id: 'fastcheck-power-cut',
    title: 'A power cut in the middle of a merge, and FastCheck’s recovery',
    summary:
      'The situation of FastCheck Figure 4: power fails right after the first merge of a victim log block; recovery reads the map directory, the map block, the checkpoints and one uncheckpointed region, and marks stale log pages by their merge sequence numbers.',
    schemes: ['fastcheck'],
    scenario: {
      scheme: 'fastcheck',
      params: { log_blocks: 7, checkpoint_lpns: 12 },
      chip: { preset: 'classroom', blocks: 32, pages_per_block: 4 },
      workload: { kind: 'pattern', text: FIG4 },
    },
    stops: [
      {
        title: 'Every data block written in place',
        at: { step: 68, op: 0 },
        text: 'w0-67 wrote each logical page once, in place. Blocks 0 and 1 are reserved for the map directory: fixed blocks that will say where the map block is. Both are still empty: no merge has happened, so the block map has not been logged yet.',
        highlight: { roles: ['map-dir', 'map'] },
        expect: { host_writes: 68, erases: 0 },
      },
      {
        title: 'A log region fills: one checkpoint page',
        at: { step: 80, op: 0 },
        text: 'Twelve updates went to the RW log blocks 19, 21 and 22 (the chip’s block numbers): one log region, sized so that its LPNs fill one page. When the region filled, FastCheck wrote those LPNs to a checkpoint block — one page for twelve writes (equation 3: N_writes / P metadata pages).',
        highlight: { roles: ['checkpoint', 'rw-log'] },
        expect: { 'by_cause.log.programs': 1, erases: 0 },
      },
      {
        title: 'The second region, with the future victim (block 26)',
        at: { step: 92, op: 0 },
        text: 'Twelve more updates filled region 1 (log blocks 24, 26 and 27), checkpointed by a second page. Log block 26 holds LPNs 41, 42, 46 and 49 — it will be the victim of Figure 4 (the paper calls it E).',
        highlight: { roles: ['rw-log'] },
        expect: { 'by_cause.log.programs': 2 },
      },
      {
        title: 'Merges log the block map',
        at: { step: 108, op: 0 },
        text: 'Replacing log blocks 19, 21, 22 and then 24 took 4 victims and 7 full merges; each merge logged the block map to a page of the map block (Cause “map”). Merging LBN 12 gave it a new data block, so block 26’s copy of LPN 49 is now stale: the data block’s merge sequence number (dbMSN) is newer than the log block’s (lbMSN).',
        highlight: { roles: ['map', 'rw-log'] },
        quiz: {
          question:
            'The next write makes log block 26 the victim. If power fails right after its first merge (LBN 10), which of block 26’s log pages must recovery treat as invalid?',
          answer:
            'LPNs 41 and 42 (merged into LBN 10’s new data block just before the cut) and 49 (merged earlier with LBN 12): for each, the data block’s MSN is newer than the log block’s.',
        },
        expect: { 'merges.full': 7, 'merges.full_victims': 4, erases: 16 },
      },
      {
        title: 'Figure 4: cut the power here',
        at: { step: 108, op: 10 },
        text: 'Request 109 (w18) made log block 26 (the paper’s E) the victim. LBN 10’s merge copied its sectors to a new block (8), logged the block map, and erased the old data block. This is the moment of Figure 4. Block 26’s copies of LPNs 41 and 42 are now invalid: the merge copied them to block 8 and FastCheck marked them −1 — but only in RAM, which a power cut loses; on flash they still look like log pages. Press “Cut power here” in the Power panel, then “Recover”, and step (→) through the six phases: map directory → map block → checkpoints → restoration scan of the uncheckpointed region → consistency check (LPNs 41, 42 and 49 set to −1, with both MSNs shown) → merge redo: the spare areas of the data blocks (88 reads) show that LBN 10’s merge finished and was logged, so nothing is redone (section 5.1 re-executes the last merge only when its block-map log was cut); LPN 46 stays in block 26, still the victim, and the next write to a RW log block merges it. The verdict compares every logical page with the reference model.',
        highlight: { touched: true },
        expect: { 'merges.full': 8, erases: 17 },
        blocks: [
          { block: 8, role: 'data', owner: 10, pages: 'VVVV' },
          { block: 12, pages: 'EEEE' },
          { block: 26, role: 'rw-log', pages: 'IIVI' },
        ],
      },
    ],
  },
];

export function tourById(id: string): Tour | undefined {
  return TOURS.find((t) => t.id === id);
}

/** Tours whose every scheme the core has. */
export function availableTours(hasScheme: (id: string) => boolean): Tour[] {
  return TOURS.filter((t) => t.schemes.every(hasScheme));
}

/** The scenario a stop runs: the last one named at or before it, else the tour's. */
export function stopScenario(tour: Tour, index: number): Scenario {
  for (let i = Math.min(index, tour.stops.length - 1); i >= 0; i--) {
    const s = tour.stops[i].scenario;
    if (s) return s;
  }
  return tour.scenario;
}
