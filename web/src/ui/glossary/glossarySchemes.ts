// The glossary's entries for the schemes' names, as headings, the scenario line and the
// narration use them (issue 35). Each cites where the papers describe the scheme.
import type { GlossaryEntry } from './glossaryTypes';

export const SCHEME_TERMS: GlossaryEntry[] = [
  {
    id: 'scheme-page',
    term: 'Page mapping (greedy GC)',
    patterns: ['Page mapping', 'page mapping', 'page-mapping', 'greedy'],
    definition:
      'FAST §2.1 (sector-level mapping), LTFTL §4: every logical page may sit in any physical page; updates go to the next erased page and greedy GC cleans the block with the fewest valid pages. The flexible baseline, with the largest map.',
  },
  {
    id: 'scheme-bast',
    term: 'BAST — block-associative sector translation',
    patterns: ['BAST'],
    definition:
      'FAST §2.2: hybrid mapping in which each log block serves one logical block; a collision in a block without a log block replaces a victim log block by a merge.',
  },
  {
    id: 'scheme-fast',
    term: 'FAST, O-FAST — fully-associative sector translation',
    patterns: ['FAST', 'O-FAST'],
    definition:
      'FAST §3: one SW log block for sequential updates plus RW log blocks any logical block may use (full associativity), so log space fills before merging. O-FAST (§3.6) skips merge copies of sectors that already have newer copies.',
  },
  {
    id: 'scheme-fastcheck',
    term: 'FastCheck',
    patterns: ['FastCheck', 'FAST+LTlog', 'LTFTL-style'],
    definition:
      'FastCheck §3–5: FAST with the block map logged in map blocks (found through the map directory), the log-page map checkpointed, and merge sequence numbers to check the log after a power cut. “FAST + LTFTL-style log” is the alternative its §6 compares.',
  },
  {
    id: 'scheme-kraft',
    term: 'KRAFT, KAST — K-associative log blocks',
    patterns: ['KRAFT', 'KAST'],
    definition:
      'KRAFT §2: a log block may hold pages of at most K logical blocks, which bounds a merge; KRAFT also keeps log blocks serial (cheap switches) and stores each page as RI/RLSN (relative addressing). KAST (KRAFT §3, [3]) bounds K without keeping blocks serial.',
  },
  {
    id: 'scheme-rftl',
    term: 'RFTL, GFTL, NFTL — real-time FTLs',
    patterns: ['RFTL', 'GFTL', 'NFTL'],
    definition:
      'RFTL §4: three physical blocks per logical block and GC split into steps no longer than an erase, so every request finishes within L(p). GFTL and NFTL are the schemes it compares (RFTL §2.2, §5): GFTL with a central GC queue, NFTL merging a block chain with two erases.',
  },
  {
    id: 'scheme-ltftl',
    term: 'LTFTL — lightweight time-shift FTL',
    patterns: ['LTFTL', 'Time shift', 'time shift', 'time-shift'],
    definition:
      'LTFTL §3–4: a page-mapping FTL that can freeze the state of the flash and later revert to it, by keeping the pages that state needs (retractable) and an intent log of every mapping change.',
  },
  {
    id: 'scheme-dftl',
    term: 'DFTL — demand-based page mapping',
    patterns: ['DFTL'],
    definition:
      'DFTL (Gupta, Kim, Urgaonkar, ASPLOS 2009; docs/schemes/dftl.md): page mapping whose map lives on flash in translation pages; RAM holds only the GTD and a cached mapping table (CMT) of recently used entries, so a page-level map fits a small RAM at the cost of translation-page reads and writes.',
  },
];
