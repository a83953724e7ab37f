// The glossary's entries for the papers' structures and operations (issues 19, 25, 35).
// Each definition follows the paper it cites (/work/shared/papers/).
import type { GlossaryEntry } from './glossaryTypes';

export const PAPER_TERMS: GlossaryEntry[] = [
  {
    id: 'lpn',
    term: 'LPN — logical page number',
    patterns: ['LPNs', 'LPN', 'lpns', 'lpn'],
    definition:
      'RFTL §4.1, FAST §2.2 (there: logical sector, lsn). The page number the computer (the host) uses. The FTL maps each LPN to the physical page that holds its newest copy; the number drawn inside a page is its LPN.',
  },
  {
    id: 'lbn',
    term: 'LBN — logical block number',
    patterns: ['LBNs', 'LBN', 'lbn'],
    definition:
      'FAST §2.2 (lbn = lsn div sectors per block), RFTL §4.1. A group of consecutive logical pages as large as one flash block (LPN ÷ pages per block). Block-mapping FTLs map whole LBNs to physical blocks; a band’s “L3” names the LBN a block serves.',
  },
  {
    id: 'pbn',
    term: 'PBN — physical block number',
    patterns: ['PBNs', 'PBN', 'pbn'],
    definition:
      'FAST §2.2. The number of a block on the chip, written under each block. Erasing works on one whole PBN at a time.',
  },
  {
    id: 'oob',
    term: 'OOB — out-of-band (spare) area',
    patterns: ['OOB'],
    definition:
      'RFTL §2.1, LTFTL §4. A few spare bytes next to every page, written with it. FTLs keep the page’s LPN, a sequence number or a sub-table there, so the map can be rebuilt after a power cut.',
  },
  {
    id: 'sw-log',
    term: 'SW log block (sequential write)',
    patterns: ['SW log blocks', 'SW log block', 'SW log', 'SW'],
    definition:
      'FAST §3.2–3.3. FAST’s log block for writes that arrive in order from offset 0 of one logical block. When it is full and in order it becomes the data block with no copying (a switch).',
  },
  {
    id: 'rw-log',
    term: 'RW log block (random write)',
    patterns: ['RW log blocks', 'RW log block', 'RW log', 'RW'],
    definition:
      'FAST §3.2–3.4. FAST’s shared log blocks: any updated page of any logical block is appended to them (full associativity). Reusing one forces a full merge of every logical block it holds pages of.',
  },
  {
    id: 'switch',
    term: 'Switch merge',
    patterns: ['switch merges', 'switch merge', 'switches', 'switch'],
    definition:
      'FAST §3.4 (BAST §2.2). The cheapest merge: a log block that holds every page of its logical block, in order, simply becomes the data block; the old data block is erased. 1 erase, no copies.',
  },
  {
    id: 'partial',
    term: 'Partial merge',
    patterns: ['partial merges', 'partial merge', 'partially merges'],
    definition:
      'FAST §3.4, Figure 7a. A log block written in order but not to the end: the missing pages are copied into it from the data block, then it becomes the data block. A few copies, 1 erase.',
  },
  {
    id: 'full',
    term: 'Full merge',
    patterns: ['full merges', 'full merge', 'full-merged'],
    definition:
      'FAST §3.4 (three steps: copy, change the map, erase). The newest copy of every page of a logical block, wherever it is, is copied into a free block, which becomes the data block; the old data block (and, when emptied, the log block) is erased. The most expensive merge.',
  },
  {
    id: 'wa',
    term: 'Write amplification',
    patterns: ['write amplification', 'Write amplification'],
    definition:
      'Not a term of these papers: this app’s measure (Metrics, docs/cli.md). Pages the chip programmed ÷ pages the host wrote. Garbage-collection and merge copies push it above 1; it costs time and wears the blocks out.',
  },
  {
    id: 'gc',
    term: 'Garbage collection',
    patterns: ['garbage collection', 'Garbage collection', 'GC'],
    definition:
      'RFTL §1, §4.4; LTFTL §4 (“block cleaning”). Making free blocks: pick a victim block, copy its still-valid pages elsewhere, erase it. Greedy GC picks the block with the fewest valid pages.',
  },
  {
    id: 'gc-runs',
    term: 'GC runs and merges',
    patterns: ['GC runs', 'GC run'],
    definition:
      'This app’s rule (docs/classroom.md, “Metrics”). How the Metrics panel counts cleaning. A merge or a GC run counts at its first flash operation — the moment it starts (a merge that begins with a read counts at that read, not at its last copy or its erase). Merge schemes (BAST, FAST, O-FAST, FastCheck, FAST + LTFTL-style log, KRAFT, KAST, NFTL) count merges, as switch / partial / full, and show no GC runs; GC schemes (page mapping, LTFTL, RFTL, GFTL) count GC runs.',
  },
  // Issue 25: every structure, chip tag and metric the app shows (papers in /work/shared/papers).
  {
    id: 'map-directory',
    term: 'Map directory',
    patterns: ['map directory', 'Map directory', 'DIR'],
    definition:
      'FastCheck §3.2: fixed blocks, read first at start-up, that say which physical blocks hold the map blocks. The chip tag DIR.',
  },
  {
    id: 'map-block',
    term: 'Map block',
    patterns: ['map blocks', 'map block', 'Map block', 'MAP'],
    definition:
      'FastCheck §3.2, §4.2: metadata blocks that keep the block-mapping table on flash; it is logged there whenever a merge changes it. The chip tag MAP (DFTL’s translation blocks carry it too, docs/schemes/dftl.md).',
  },
  {
    id: 'translation-page',
    term: 'Translation page, translation block (DFTL)',
    patterns: ['translation pages', 'translation page', 'Translation page', 'translation blocks', 'translation block'],
    definition:
      'DFTL (Gupta et al., ASPLOS 2009; docs/schemes/dftl.md): the whole page map is kept on flash, cut into translation pages of page size / 4 entries (one 4-byte physical page number per LPN). They are written out of place into translation blocks, apart from data blocks, and garbage-collected like them.',
  },
  {
    id: 'gtd',
    term: 'GTD — global translation directory (DFTL)',
    patterns: ['GTD', 'global translation directory'],
    definition:
      'DFTL (docs/schemes/dftl.md): a small table in RAM that says where each translation page is on flash, one entry per translation page. After a power cut it is rebuilt from the translation pages’ spare area.',
  },
  {
    id: 'cmt',
    term: 'CMT — cached mapping table (DFTL)',
    patterns: ['CMT', 'cached mapping table'],
    definition:
      'DFTL (docs/schemes/dftl.md): the mapping entries (LPN → physical page) DFTL holds in RAM, a fixed number with segmented LRU replacement. A miss reads the LPN’s translation page; evicting a changed (dirty) entry writes its translation page back with every dirty entry of that page at once (batch update).',
  },
  {
    id: 'checkpoint-block',
    term: 'Checkpoint block',
    patterns: ['checkpoint blocks', 'checkpoint block', 'Checkpoint', 'checkpoint', 'CKPT'],
    definition:
      'FastCheck §3.2, §4.1: blocks that periodically record the log-page-mapping table, so recovery reads it back instead of scanning every log page. The chip tag CKPT.',
  },
  {
    id: 'msn',
    term: 'dbMSN / lbMSN — merge sequence numbers',
    patterns: ['dbMSN', 'lbMSN', 'MSN'],
    definition:
      'FastCheck §5.2: MSN counts the merges done. A log block keeps the MSN at its creation (lbMSN), a data block the MSN of the merge that made it (dbMSN); after a crash they tell which log pages were already merged.',
  },
  {
    id: 'retractable',
    term: 'Retractable page',
    patterns: ['retractable pages', 'retractable page', 'Retractable', 'retractable'],
    definition:
      'LTFTL §3.2 (equation 2): an invalid page that still belongs to a frozen state, so garbage collection must not reclaim it (a revert may need it back).',
  },
  {
    id: 'frozen',
    term: 'Frozen state (freeze / unfreeze)',
    patterns: ['frozen states', 'frozen state', 'Frozen states', 'frozen', 'freeze', 'unfreeze', 'Freeze', 'Unfreeze'],
    definition:
      'LTFTL §4 (LTFTL_freeze, LTFTL_unfreeze): freeze records the state of the whole flash at this moment (a state id); pages it needs become retractable. Unfreeze forgets a state: its retractable pages become plain invalid pages.',
  },
  {
    id: 'revert',
    term: 'Revert',
    patterns: ['reverts', 'revert', 'Revert', 'reverted'],
    definition:
      'LTFTL §3.1 (equation 1), §4 (LTFTL_revert): go back to a frozen state by undoing the intent-log entries written after it, newest first, back to its epoch.',
  },
  {
    id: 'rftl-blocks',
    term: 'Primary, replacement and buffer block',
    patterns: [
      'primary blocks',
      'primary block',
      'replacement blocks',
      'replacement block',
      'buffer blocks',
      'buffer block',
      'Primary',
      'Replacement',
      'Buffer',
      'primary',
      'replacement',
      'buffer',
      'PRI',
      'REP',
      'BUF',
    ],
    definition:
      'RFTL §4.1, §4.3: each logical block has three physical blocks: the primary serves writes, the buffer takes writes while the primary is being cleaned, the replacement receives the primary’s valid pages. Chip tags PRI, REP, BUF.',
  },
  {
    id: 'associativity',
    term: 'Associativity K',
    patterns: ['Associativity K', 'associativity K', 'K-associative', 'associativity', 'Associativity'],
    definition:
      'KRAFT §2-A: how many logical blocks one log block may hold pages of. BAST has 1, FAST’s RW log blocks any number; KRAFT and KAST bound it by K, which bounds a merge’s cost.',
  },
  {
    id: 'relative-addressing',
    term: 'Relative addressing',
    patterns: ['relative addressing', 'Relative addressing'],
    definition:
      'KRAFT §2-B: a log block keeps a small table LBN[ ] of the logical blocks it serves; each page stores an index RI into it and its offset RLSN, so LSN = LBN[RI]·N + RLSN.',
  },
  {
    id: 'victim',
    term: 'Victim',
    patterns: ['victims', 'victim', 'Victim'],
    definition:
      'FAST §2.2 (“victim log block”), §3.4. The block a garbage collection or merge cleans: its valid pages are copied away and it is erased. Ringed on the chip while the clean-up runs.',
  },
  {
    id: 'tag-dest',
    term: 'DEST — GC or merge destination',
    patterns: ['DEST'],
    definition:
      'FAST §3.4 (step 1: copy to a free block). The chip tag of the free block a merge or garbage collection copies valid pages into.',
  },
  {
    id: 'tag-act',
    term: 'ACT — active block (write frontier)',
    patterns: ['ACT', 'write frontier', 'Active'],
    definition:
      'This app’s tag (page mapping: LTFTL §4 “allocates a new page from the data section”). The chip tag of the block a page-mapping FTL is filling with new writes.',
  },
  {
    id: 'tag-m',
    term: 'M — metadata page',
    patterns: ['metadata pages', 'metadata page', 'Metadata', 'metadata', 'META'],
    definition:
      'FastCheck §3.2, LTFTL §4 (metadata, mapping and log sections). A page drawn with M (or a META block) holds the FTL’s own data (a map, a checkpoint, log entries), not a host’s logical page.',
  },
  {
    id: 'erases-per-block',
    term: 'Erases per block (wear)',
    patterns: ['erase counts', 'erase count', 'Erases per block', 'wear levelling'],
    definition:
      'FAST §2.1 (an upper limit on erases per block; wear levelling). How often each block was erased (“e2” under a block): flash blocks wear out after a limited number of erases, so FTLs try to spread them (wear levelling).',
  },
  {
    id: 'mapping-ram',
    term: 'Mapping RAM',
    patterns: ['Mapping RAM', 'mapping RAM', 'RAM', 'SRAM'],
    definition:
      'FAST §2.1 (tables in SRAM), KRAFT §2-B, RFTL §4.1. The RAM the FTL’s mapping tables take. Page mapping needs an entry per page; block and hybrid mapping far fewer.',
  },
  {
    id: 'latency',
    term: 'Response time (latency)',
    patterns: [
      'Response time',
      'Response-time',
      'response times',
      'response time',
      'response',
      'Flash time',
      'latency',
      'Latency',
    ],
    definition:
      'RFTL §2.2: “the time cost from the request issued from file system to the finishing time of the requested operation”. Response = wait + service (docs/timing.md). Flash time is the sum of all operation times.',
  },
];
