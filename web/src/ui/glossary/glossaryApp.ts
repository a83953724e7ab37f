// The glossary's entries for what the app shows around the papers' structures: page and
// block states, metrics, timing, power cuts, and words the narration uses (issue 35).
// Each cites the paper section it follows, or says it is this app's own word and where
// it is written down (docs/).
import type { GlossaryEntry } from './glossaryTypes';

export const APP_TERMS: GlossaryEntry[] = [
  {
    id: 'ftl',
    term: 'FTL — flash translation layer',
    patterns: ['FTLs', 'FTL', 'flash translation layer'],
    definition:
      'FAST §2.1: the software in the flash controller that lets the host see a disk of logical sectors. It maps each logical address to a physical page, writes updates out of place into erased pages, and erases blocks to make room (garbage collection, merges) and to spread wear.',
  },
  {
    id: 'page-erased',
    term: 'Erased page (free)',
    patterns: ['Erased', 'erased pages', 'erased page', 'free pages', 'free page'],
    definition:
      'LTFTL §3.2 (“free”), RFTL §2.1: a page of an erased block, never programmed since. Flash can program a page only when it is erased; the whole block is erased at once.',
  },
  {
    id: 'page-valid',
    term: 'Valid page',
    patterns: ['Valid', 'valid pages', 'valid page', 'valid copy', 'valid'],
    definition:
      'LTFTL §3.2: a page that holds legitimate data — the copy of its LPN the FTL’s map points to now (or a copy just programmed whose map update is under way).',
  },
  {
    id: 'page-invalid',
    term: 'Invalid page',
    patterns: ['Invalid', 'invalid pages', 'invalid page', 'invalid', 'invalidated', 'marked −1'],
    definition:
      'LTFTL §3.2: a page whose data was updated or deleted: the map no longer points to it. It stays on the chip until its block is erased; cleaning reclaims it (FAST writes “−1” for such a sector in its log map, §3.4).',
  },
  {
    id: 'torn',
    term: 'Torn page',
    patterns: ['torn pages', 'torn page', 'Torn', 'torn'],
    definition:
      'Not a term of these papers; FastCheck §1, §5 recover from “sudden power failure”. This app’s model (docs/schemes/recovery.md): a page whose program the power cut interrupted holds neither the old nor the new data, and its checksum fails; recovery must skip it and map no LPN to it.',
  },
  {
    id: 'ack',
    term: 'Acknowledged write',
    patterns: ['acknowledged writes', 'acknowledged write', 'acknowledged'],
    definition:
      'FastCheck §1 (consistency after a power failure). A write whose request completed before the power cut: the host was told it is stored, so after recovery its data must be found (docs/schemes/recovery.md). A write cut half-way may come back old or new, never torn.',
  },
  {
    id: 'block-free',
    term: 'Free block',
    patterns: ['Free', 'free blocks', 'free block', 'free-block list', 'FREE'],
    definition:
      'FAST §2.2, §3.4 (“the free-block list”): an erased block that no role uses yet; merges and GC take their destination from here and give erased blocks back.',
  },
  {
    id: 'block-data',
    term: 'Data block',
    patterns: ['Data', 'data blocks', 'data block', 'DATA'],
    definition:
      'FAST §2.2: the block a logical block (LBN) is mapped to by the block-level map; each logical page has its fixed offset in it. Updates go to log blocks instead.',
  },
  {
    id: 'block-log',
    term: 'Log block',
    patterns: ['Log block', 'log blocks', 'log block', 'Log blocks', 'LOG'],
    definition:
      'FAST §2.2–2.3 (BAST), KRAFT §2: a block that takes updates of data blocks, mapped page by page, until a merge folds it back into data blocks. BAST gives a log block to one LBN; FAST shares RW log blocks; KRAFT bounds the sharing by K.',
  },
  {
    id: 'op',
    term: 'Over-provisioning',
    patterns: ['Over-provisioning', 'over-provisioning'],
    definition:
      'Not a term of these papers (the app’s page-mapping parameter, docs/cli.md “--op”): the share of physical pages kept beyond the logical space, so that GC always finds victims with invalid pages.',
  },
  {
    id: 'log-util',
    term: 'Log utilisation',
    patterns: ['Log utilisation', 'log utilisation', 'Utilisation', 'utilisation'],
    definition:
      'FAST §1, §2.4, Figure 4: “the percentage of the written sectors in a log block when it is replaced”, averaged over the replacements so far (the core counts written pages for BAST and FAST, valid pages for KRAFT). Low utilisation means merges came early.',
  },
  {
    id: 'die-util',
    term: 'Die utilisation (SSD)',
    patterns: ['Per-die utilisation', 'per-die utilisation', 'die utilisation'],
    definition:
      'Not a term of these papers: the device view’s measure (docs/ssd.md, like `ftl run --channels`): the share of the run’s time a die was busy with flash operations. Striping spreads the work so that the dies share it.',
  },
  {
    id: 'unwritten',
    term: 'Unwritten reads',
    patterns: ['Unwritten reads', 'unwritten reads', 'never wrote'],
    definition:
      'This app’s count (docs/traces.md): host reads of pages never written. They find nothing on the chip, so they are left out of the read latency.',
  },
  {
    id: 'host-vs-programs',
    term: 'Host writes vs page programs',
    patterns: [
      'Host writes',
      'host writes',
      'Host reads',
      'host requests',
      'Host requests',
      'host reads',
      'Page programs',
      'page programs',
      'Page reads',
    ],
    definition:
      'FAST §2.1 (commands vs low-level operations): host writes and reads are the requests the computer sent; page programs, page reads and erases are what the chip did for them, including merge and GC copies. Their ratio is the write amplification.',
  },
  {
    id: 'program',
    term: 'Program, read, erase',
    patterns: ['programs', 'program', 'programmed', 'Block erases', 'erases', 'erase', 'erased'],
    definition:
      'RFTL §2.1: a page is the unit of reading and programming (writing), a block the unit of erasing. A page is programmed once between erases; an erase (ms) is much slower than a program (hundreds of µs) or a read (tens of µs).',
  },
  {
    id: 'merge',
    term: 'Merge',
    patterns: ['Merges', 'merges', 'merge', 'merged'],
    definition:
      'FAST §2.2, §3.4: making a log block free by folding its pages back into data blocks: copy the newest pages into a free block, change the map, erase the old blocks. Switch, partial and full merges differ in how much they copy.',
  },
  {
    id: 'percentile',
    term: 'p50, p90, p99 (percentiles)',
    patterns: ['p50', 'p90', 'p99.9', 'p99', 'p999', 'percentiles'],
    definition:
      'Not a term of these papers (docs/timing.md): p99 is the response time that 99 % of requests beat (nearest rank); p50 is the median. The tail chart reads them off its y axis.',
  },
  {
    id: 'timing-model',
    term: 'Closed and open timing model',
    patterns: ['open model', 'closed model', 'timing model', 'Open model', 'Closed model'],
    definition:
      'This app’s choice (docs/timing.md); RFTL §3 models requests as periodic tasks. Closed: each request starts when the previous one ends, so none waits. Open: requests arrive at their own times (the trace’s, or a fixed or Poisson rate) and queue for the one chip, first come, first served.',
  },
  {
    id: 'queue',
    term: 'Request queue',
    patterns: ['Request queue', 'queue', 'waiting'],
    definition:
      'docs/timing.md (open model): requests that arrived while the chip served an earlier one — and the GC or merge it triggered — wait here in arrival order. A request leaves the queue when its last operation completes.',
  },
  {
    id: 'wait-service',
    term: 'Wait and service time',
    patterns: ['service time', 'service', 'Service', 'wait', 'waits', 'waited', 'Wait'],
    definition:
      'docs/timing.md: service is the chip’s time for the request’s own operations plus the GC or merge scheduled with it (RFTL §3: execution time e); wait is the time it queued before its first operation. Response = wait + service; in the closed model wait is 0.',
  },
  {
    id: 'sector',
    term: 'Sector, LSN, PSN',
    patterns: ['sectors', 'sector', 'LSNs', 'LSN', 'lsns', 'lsn', 'PSN', 'psn'],
    definition:
      'FAST §2.2, KRAFT §2-B: a sector is the host’s unit of data (here one page); LSN is a logical sector number, PSN a physical one. FAST’s log map and KRAFT’s tables map LSN to PSN; “S12” is sector 12.',
  },
  {
    id: 'bo',
    term: 'BO — block offset',
    patterns: ['BO'],
    definition:
      'RFTL §4.1: an LPN is split into its logical block (LBN) and the page’s offset in it (BO); RFTL’s mapping slots are (BO, PBN) pairs.',
  },
  {
    id: 'ri-rlsn',
    term: 'RI and RLSN (KRAFT)',
    patterns: ['RLSN', 'RI'],
    definition:
      'KRAFT §2-B, Figure 2: per page of a log block, RI (0 … K−1) says which of the block’s LBN[ ] entries the page belongs to, RLSN (0 … N−1) its offset there: LSN = LBN[RI[PSN]]·N + RLSN[PSN]. Small numbers, so less RAM.',
  },
  {
    id: 'sub-table',
    term: 'Sub-table, α, π (RFTL)',
    patterns: ['Sub-table', 'sub-tables', 'sub-table', 'subtables', 'subtable', 'α', 'π'],
    definition:
      'RFTL §4.1: a logical block’s page map (π entries, one per page) is cut into N = ⌈π/α⌉ sub-tables of α entries, the most one page’s OOB holds; each sub-table is written into the OOB of the page just programmed, and RAM keeps only where each sub-table is.',
  },
  {
    id: 'beta',
    term: 'β and k (RFTL’s partial GC)',
    patterns: ['β', 'partial GC', 'distributed GC'],
    definition:
      'RFTL §4.4, equations (1)–(2): GC of a full primary block is cut into at most k steps, one per request period; each step copies at most β valid pages (β = ⌊t / (T_rdpg + T_wrpg + 2 T_rdoob)⌋ for the time t left after the request), the last one erases.',
  },
  {
    id: 'bound',
    term: 'L(p) — worst-case response bound',
    patterns: ['L(p)', 'T_er'],
    definition:
      'RFTL §3, Table 2: the longest a request can take when GC is cut into steps no longer than one erase (T_er, the longest atomic operation): L(p) = max{T_er + U(e_w), U(e_r)}. GFTL’s is larger by its OOB scan.',
  },
  {
    id: 'intent-log',
    term: 'Intent log (LTFTL)',
    patterns: ['intent log', 'Intent log', 'log entries', 'log entry', 'log section', 'log buffer'],
    definition:
      'LTFTL §4: the log section holds one entry ⟨sector, old page, new page, global_time⟩ per write — a record of intent, so the map can be rebuilt and a revert can undo writes. Entries are collected in a one-page RAM buffer and written when it is full.',
  },
  {
    id: 'epoch',
    term: 'Epoch (LTFTL state)',
    patterns: ['epoch', 'Epoch', 'global_time', 'global time'],
    definition:
      'LTFTL §4: freeze sets a state’s epoch to the global time of the last log entry; revert undoes log entries backward until it reaches that epoch. global_time counts writes (§3.1: “virtual time”).',
  },
  {
    id: 'map-dump',
    term: 'Map dump (LTFTL)',
    patterns: ['map dumps', 'map dump', 'Map dump', 'page-map dumps', 'dumped', 'threshold'],
    definition:
      'LTFTL §4: the up-to-date mapping table (inverted: page → sector) written to the mapping section when the log grows past its threshold (16 B × pages per state), at start-up, and (here) on revert; older log entries then are no longer needed for the map. FastCheck §6.1 charges FAST with this logging the same way.',
  },
  {
    id: 'mrg',
    term: 'MRG — merge response time',
    patterns: ['MRG'],
    definition:
      'KRAFT §3, Table 2: the average time a merge takes (ms), the paper’s measure of merge cost; LATE is the average read/write latency.',
  },
  {
    id: 'fast-cases',
    term: 'FAST’s write cases (Fig. 5)',
    patterns: ['case 1', 'case 2.1', 'case 2.2', 'case 2.3', 'case 3', 'Fig. 5', 'SW condition'],
    definition:
      'FAST §3.3, Figure 5: an update goes to the SW log block if it starts a block (lsn mod N = 0: case 1) or continues the SW block in order (case 2.1); one that breaks the order merges the SW block (2.2, 2.3); any other goes to the RW log blocks (case 3).',
  },
  {
    id: 'round-robin',
    term: 'Round robin, LRU (victim choice)',
    patterns: ['round robin', 'round-robin', 'LRU'],
    definition:
      'FAST §3.4: when the RW log blocks are full, the victim is chosen in turn (round robin), the oldest first. KRAFT §2-A: the most-filled serial log block, else the least recently used (LRU), “likely to hold less valid pages”.',
  },
  {
    id: 'thresholds',
    term: 'Fill and switch threshold (KRAFT)',
    patterns: ['Fill threshold', 'fill threshold', 'Switch threshold', 'switch threshold', 'fill copies'],
    definition:
      'KRAFT §2-A, Algorithm 1 (“fill cost is low”, “switch cost is low”): KRAFT fills the gap before a page to keep a log block serial, or switches a serial block early, when it costs at most this many pages. The paper gives no number; our defaults N/4 and N/2 (docs/schemes/kraft.md).',
  },
  {
    id: 'precondition',
    term: 'Precondition',
    patterns: ['Precondition', 'precondition', 'preconditioned'],
    definition:
      'Not a term of these papers (docs/compare.md): writing the drive before the measured run — fill every logical page once, then N random writes — so the run starts from a used chip, not an empty one.',
  },
  {
    id: 'wrong-read',
    term: 'Wrong read',
    patterns: ['Wrong reads', 'wrong reads', 'WRONG READ'],
    definition:
      'This app’s check: a read that returned another version than the last one written (the reference model). Always 0 unless the simulator has a bug.',
  },
  {
    id: 'power-cut',
    term: 'Power cut and recovery',
    patterns: ['power cuts', 'power cut', 'Power cut', 'Power', 'recovery', 'Recovery', 'recovered'],
    definition:
      'FastCheck §5, LTFTL §4: when the power fails the RAM maps are lost; at the next start the FTL rebuilds them from flash (checkpoints, map blocks, OOB scans, logs) and must find every acknowledged write.',
  },
];
