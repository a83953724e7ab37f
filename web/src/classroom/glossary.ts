// The words of the papers, explained once (GlossaryTerm pops them up wherever they appear in a
// tour's text or the welcome). Definitions follow the papers' usage (FAST 2.x, KRAFT 2-A, ...).
export interface GlossaryEntry {
  id: string;
  term: string;
  /** how the term is written in running text (matched whole-word, case-sensitive) */
  patterns: string[];
  definition: string;
}

export const GLOSSARY: GlossaryEntry[] = [
  {
    id: 'lpn',
    term: 'LPN — logical page number',
    patterns: ['LPNs', 'LPN'],
    definition:
      'The page number the computer (the host) uses. The FTL maps each LPN to the physical page that holds its newest copy; the number drawn inside a page is its LPN.',
  },
  {
    id: 'lbn',
    term: 'LBN — logical block number',
    patterns: ['LBNs', 'LBN'],
    definition:
      'A group of consecutive logical pages as large as one flash block (LPN ÷ pages per block). Block-mapping FTLs map whole LBNs to physical blocks; a band’s “L3” names the LBN a block serves.',
  },
  {
    id: 'pbn',
    term: 'PBN — physical block number',
    patterns: ['PBNs', 'PBN'],
    definition:
      'The number of a block on the chip, written under each block. Erasing works on one whole PBN at a time.',
  },
  {
    id: 'oob',
    term: 'OOB — out-of-band (spare) area',
    patterns: ['OOB'],
    definition:
      'A few spare bytes next to every page, written with it. FTLs keep the page’s LPN, a sequence number or a sub-table there, so the map can be rebuilt after a power cut.',
  },
  {
    id: 'sw-log',
    term: 'SW log block (sequential write)',
    patterns: ['SW log blocks', 'SW log block', 'SW log'],
    definition:
      'FAST’s log block for writes that arrive in order from offset 0 of one logical block. When it is full and in order it becomes the data block with no copying (a switch).',
  },
  {
    id: 'rw-log',
    term: 'RW log block (random write)',
    patterns: ['RW log blocks', 'RW log block', 'RW log'],
    definition:
      'FAST’s shared log blocks: any updated page of any logical block is appended to them (full associativity). Reusing one forces a full merge of every logical block it holds pages of.',
  },
  {
    id: 'switch',
    term: 'Switch merge',
    patterns: ['switch merges', 'switch merge', 'switches', 'switch'],
    definition:
      'The cheapest merge: a log block that holds every page of its logical block, in order, simply becomes the data block; the old data block is erased. 1 erase, no copies.',
  },
  {
    id: 'partial',
    term: 'Partial merge',
    patterns: ['partial merges', 'partial merge', 'partially merges'],
    definition:
      'A log block written in order but not to the end: the missing pages are copied into it from the data block, then it becomes the data block. A few copies, 1 erase.',
  },
  {
    id: 'full',
    term: 'Full merge',
    patterns: ['full merges', 'full merge', 'full-merged'],
    definition:
      'The newest copy of every page of a logical block, wherever it is, is copied into a free block, which becomes the data block; the old data block (and, when emptied, the log block) is erased. The most expensive merge.',
  },
  {
    id: 'wa',
    term: 'Write amplification',
    patterns: ['write amplification', 'Write amplification'],
    definition:
      'Pages the chip programmed ÷ pages the host wrote. Garbage-collection and merge copies push it above 1; it costs time and wears the blocks out.',
  },
  {
    id: 'gc',
    term: 'Garbage collection',
    patterns: ['garbage collection', 'Garbage collection'],
    definition:
      'Making free blocks: pick a victim block, copy its still-valid pages elsewhere, erase it. Greedy GC picks the block with the fewest valid pages.',
  },
  {
    id: 'gc-runs',
    term: 'GC runs and merges',
    patterns: ['GC runs', 'GC run'],
    definition:
      'How the Metrics panel counts cleaning. A merge or a GC run counts at its first flash operation — the moment it starts (a merge that begins with a read counts at that read, not at its last copy or its erase). Merge schemes (BAST, FAST, O-FAST, FastCheck, FAST + LTFTL-style log, KRAFT, KAST, NFTL) count merges, as switch / partial / full, and show no GC runs; GC schemes (page mapping, LTFTL, RFTL, GFTL) count GC runs.',
  },
  // Issue 25: every structure, chip tag and metric the app shows (papers in /work/shared/papers).
  {
    id: 'map-directory',
    term: 'Map directory',
    patterns: ['map directory'],
    definition:
      'FastCheck §3.2: fixed blocks, read first at start-up, that say which physical blocks hold the map blocks. The chip tag DIR.',
  },
  {
    id: 'map-block',
    term: 'Map block',
    patterns: ['map blocks', 'map block'],
    definition:
      'FastCheck §3.2: metadata blocks that keep the block-mapping table on flash; it is logged there whenever a merge changes it. The chip tag MAP.',
  },
  {
    id: 'checkpoint-block',
    term: 'Checkpoint block',
    patterns: ['checkpoint blocks', 'checkpoint block'],
    definition:
      'FastCheck §3.2: blocks that periodically record the log-page-mapping table, so recovery reads it back instead of scanning every log page. The chip tag CKPT.',
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
    patterns: ['retractable pages', 'retractable page', 'retractable'],
    definition:
      'LTFTL §3.2: an invalid page that still belongs to a frozen state, so garbage collection must not reclaim it (a revert may need it back).',
  },
  {
    id: 'frozen',
    term: 'Frozen state (freeze / unfreeze)',
    patterns: ['frozen states', 'frozen state', 'freeze', 'unfreeze'],
    definition:
      'LTFTL §3.3: freeze records the state of the whole flash at this moment (a state id); pages it needs become retractable. Unfreeze forgets a state: its retractable pages become plain invalid pages.',
  },
  {
    id: 'revert',
    term: 'Revert',
    patterns: ['reverts', 'revert'],
    definition:
      'LTFTL §3.3: go back to a frozen state by undoing the intent-log entries written after it, newest first.',
  },
  {
    id: 'rftl-blocks',
    term: 'Primary, replacement and buffer block',
    patterns: ['primary block', 'replacement block', 'buffer block'],
    definition:
      'RFTL §3: each logical block has three physical blocks: the primary serves writes, the buffer takes writes while the primary is being cleaned, the replacement receives the primary’s valid pages. Chip tags PRI, REP, BUF.',
  },
  {
    id: 'associativity',
    term: 'Associativity K',
    patterns: ['associativity K', 'K-associative', 'associativity'],
    definition:
      'KRAFT §2: how many logical blocks one log block may hold pages of. BAST has 1, FAST’s RW log blocks any number; KRAFT and KAST bound it by K, which bounds a merge’s cost.',
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
    patterns: ['victims', 'victim'],
    definition:
      'The block a garbage collection or merge cleans: its valid pages are copied away and it is erased. Ringed on the chip while the clean-up runs.',
  },
  {
    id: 'tag-dest',
    term: 'DEST — GC or merge destination',
    patterns: ['DEST'],
    definition: 'The chip tag of the free block a merge or garbage collection copies valid pages into.',
  },
  {
    id: 'tag-act',
    term: 'ACT — active block (write frontier)',
    patterns: ['ACT', 'write frontier'],
    definition: 'The chip tag of the block a page-mapping FTL is filling with new writes.',
  },
  {
    id: 'tag-m',
    term: 'M — metadata page',
    patterns: ['metadata pages', 'metadata page'],
    definition:
      'A page drawn with M holds the FTL’s own data (a map, a checkpoint, log entries), not a host’s logical page.',
  },
  {
    id: 'erases-per-block',
    term: 'Erases per block (wear)',
    patterns: ['erase counts', 'erase count', 'Erases per block'],
    definition:
      'How often each block was erased (“e2” under a block): flash blocks wear out after a limited number of erases, so FTLs try to spread them (wear levelling).',
  },
  {
    id: 'mapping-ram',
    term: 'Mapping RAM',
    patterns: ['Mapping RAM', 'mapping RAM'],
    definition:
      'The RAM the FTL’s mapping tables take. Page mapping needs an entry per page; block and hybrid mapping far fewer.',
  },
  {
    id: 'latency',
    term: 'Latency (flash time, response time)',
    patterns: ['Flash time', 'response time', 'latency'],
    definition:
      'The time the chip is busy for a request (reads, programs, erases at the chip’s timings): a request that triggers a merge or GC waits for it.',
  },
];

export interface TextPart {
  text: string;
  entry?: GlossaryEntry;
}

const ALL = GLOSSARY.flatMap((e) => e.patterns.map((p) => ({ p, e }))).sort((a, b) => b.p.length - a.p.length);
const RE = new RegExp(`\\b(${ALL.map((x) => x.p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'g');

/** Split running text at glossary terms; each entry is marked at its first appearance only. */
export function splitTerms(text: string): TextPart[] {
  const out: TextPart[] = [];
  const seen = new Set<string>();
  let last = 0;
  for (const m of text.matchAll(RE)) {
    const hit = ALL.find((x) => x.p === m[1]);
    if (!hit || seen.has(hit.e.id)) continue;
    seen.add(hit.e.id);
    if (m.index > last) out.push({ text: text.slice(last, m.index) });
    out.push({ text: m[1], entry: hit.e });
    last = m.index + m[1].length;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}
