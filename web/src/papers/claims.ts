// The five papers' claims beside our figures, as data. Every claim with a scenario is
// re-run through the core by papers.wasm.test.ts, which checks `ours` (within
// `tolerance`), so the page cannot drift from what the simulator does. A claim without a
// scenario is pinned by the Rust test named in `pinnedBy`. docs/schemes/*.md explain
// every departure; the commands reproduce the figures with the CLI (`ftl`).
import type { Scenario } from '../scenario/model';

export type Paper = 'FAST' | 'KRAFT' | 'RFTL' | 'FastCheck' | 'LTFTL';

export type Verdict = 'matches' | 'close' | 'differs' | 'paper inconsistent';

/** What a scenario's run gives the measure: the core's metrics JSON and the page states. */
export interface RunResult {
  // The core's metrics JSON (docs/cli.md field names).
  metrics: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  pageStates: Uint8Array;
}

/** The few Session methods a claim's probe may use (the wasm Session has them all). */
export interface SessionLike {
  goto(step: number, ops: number): void;
  power_cut(): void;
  recover(): void;
  recovering(): boolean;
  step_op(): boolean;
  metrics(): string;
}

export interface Claim {
  id: string;
  paper: Paper;
  /** section, table or figure */
  where: string;
  claim: string;
  /** the paper's figure, as the paper states it */
  paperFigure: string;
  /** our figure (what the core gives for `scenario`, checked by the test) */
  ours: number;
  unit: string;
  /** relative tolerance of the check against the core (0: exact) */
  tolerance: number;
  verdict: Verdict;
  /** why it matches or differs (docs/schemes/*.md has the details) */
  note: string;
  /** the doc that discusses it */
  doc: string;
  /** the scenario our figure comes from; the page's Open button loads it */
  scenario?: Scenario;
  /** a second run the measure compares against (e.g. the other scheme) */
  baseline?: Scenario;
  measure?: (run: RunResult, baseline?: RunResult) => number;
  /** instead of `measure`: drive a Session of the scenario (e.g. cut power and recover) */
  probe?: (session: SessionLike) => number;
  /** the CLI command (when it is not the scenario's own `ftl run`) */
  command?: string;
  /** the Rust test that pins a claim without a scenario */
  pinnedBy?: string;
}

/** FastCheck Figure 4 as the FastCheck tour builds it (web/src/tour/tours.ts). */
const FIG4 =
  'w0-67 w5 w6 w7 w9 w13 w14 w15 w17 w21 w22 w23 w25 w49 w50 w49 w51 w41 w42 w46 w49 w29 w30 w31 w33 w53 w54 w55 w57 w61 w62 w63 w65 w1 w2 w3 w5 w9 w10 w11 w13 w18';

/** Cut power right after LBN 10's merge (request 109, operation 10), recover, reveal it. */
function recoverAtFigure4(s: SessionLike) {
  s.goto(108, 10);
  s.power_cut();
  s.recover();
  while (s.recovering()) s.step_op();
  return JSON.parse(s.metrics()).scheme_metrics.recovery_logging.last_recovery;
}

/** Uniform writes over exactly 4 logical blocks: the chip has log + 1 spare + 4 data blocks. */
const fourHot = (scheme: string, logBlocks: number): Scenario => ({
  scheme,
  params: { log_blocks: logBlocks },
  chip: { preset: 'fast2007', blocks: logBlocks + 5, pages_per_block: 32 },
  workload: { kind: 'uniform', n: 50_000, seed: 1, read_ratio: 0 },
});

const classroom = (blocks = 16): Scenario['chip'] => ({ preset: 'classroom', blocks, pages_per_block: 4 });

/** RFTL Table 4 / 5 runs: a 192-block rftl-large chip (64 logical blocks), Multimedia's mix. */
const rftlLive = (scheme: string, pi: number, live: number): Scenario => ({
  scheme,
  params: {},
  chip: { preset: 'rftl-large', blocks: 192, pages_per_block: pi },
  workload: { kind: 'live', n: 100_000, seed: 1, read_ratio: 0.38, block_pages: pi, live },
});

const wAvg = (r: RunResult) => r.metrics.latency_us.write.mean as number;
const tAvg = (r: RunResult) => {
  const l = r.metrics.latency_us;
  return (l.write.mean * l.write.count + l.read.mean * l.read.count) / r.metrics.requests;
};
const worst = (r: RunResult) => Math.max(r.metrics.latency_us.read.worst, r.metrics.latency_us.write.worst);
const erases = (r: RunResult) => r.metrics.erases as number;
const programsBy = (r: RunResult, cause: string) => (r.metrics.by_cause?.[cause]?.programs ?? 0) as number;

const TABLE4: [number, number, number, number][] = [
  // π, %, paper W_avg, ours (192-block chip, 100,000 requests)
  [32, 50, 400, 405.3],
  [32, 100, 419, 426.4],
  [64, 50, 359, 363.0],
  [64, 100, 375, 372.3],
  [128, 50, 339, 341.7],
  [128, 100, 353, 345.3],
];

export const CLAIMS: Claim[] = [
  // ---- FAST (Lee et al., ACM TECS 2007) ------------------------------------------------
  {
    id: 'fast-2.4-thrashing',
    paper: 'FAST',
    where: '§2.4',
    claim:
      'BAST thrashes on S0 S4 S8 S12 repeated with 2 log blocks: every overwrite from the third on replaces a log block (two erases each).',
    paperFigure: '6 replacements, 12 erases',
    ours: 12,
    unit: 'erases',
    tolerance: 0,
    verdict: 'matches',
    note: 'Each victim holds one sector of four: 25 % log-block utilisation, as the paper says.',
    doc: 'docs/schemes/fast.md',
    scenario: {
      scheme: 'bast',
      params: { log_blocks: 2 },
      chip: classroom(),
      workload: { kind: 'pattern', text: 'w0-51 w0 w4 w8 w12 w0 w4 w8 w12' },
    },
    measure: erases,
  },
  {
    id: 'fast-3.1-no-thrashing',
    paper: 'FAST',
    where: '§3.1 (a)',
    claim: 'FAST absorbs the same pattern (moved off offset 0) in its RW log blocks: no merge.',
    paperFigure: '0 erases',
    ours: 0,
    unit: 'erases',
    tolerance: 0,
    verdict: 'matches',
    note: "At offset 0 the pattern goes to the SW log block instead (Figure 6 case 1); the paper's example ignores that.",
    doc: 'docs/schemes/fast.md',
    scenario: {
      scheme: 'fast',
      params: { log_blocks: 3 },
      chip: classroom(),
      workload: { kind: 'pattern', text: 'w0-47 w1 w5 w9 w13 w1 w5 w9 w13' },
    },
    measure: erases,
  },
  {
    id: 'fast-4-hot-blocks-16',
    paper: 'FAST',
    where: '§3.5 (nhb between 1 and nlb)',
    claim: 'With fewer hot blocks than log blocks, FAST needs no more erases than BAST.',
    paperFigure: 'FAST ≤ BAST',
    ours: 0.9637,
    unit: "× BAST's erases (4 hot blocks, 16 log blocks)",
    tolerance: 0.001,
    verdict: 'matches',
    note: 'Uniform writes over exactly 4 logical blocks of 32 sectors, 50,000 writes: FAST 2,999 erases, BAST 3,112.',
    doc: 'docs/schemes/fast.md',
    scenario: fourHot('fast', 16),
    baseline: fourHot('bast', 16),
    measure: (r, b) => erases(r) / erases(b!),
  },
  {
    id: 'fast-4-hot-blocks-8',
    paper: 'FAST',
    where: '§3.5 (nhb between 1 and nlb)',
    claim: 'With fewer hot blocks than log blocks, FAST needs no more erases than BAST.',
    paperFigure: 'FAST ≤ BAST',
    ours: 1.0601,
    unit: "× BAST's erases (4 hot blocks, 8 log blocks)",
    tolerance: 0.001,
    verdict: 'differs',
    note: 'With 8 log blocks (FAST: 1 SW + 7 RW) FAST erases 6 % more (3,299 vs 3,112; 4 log blocks: +42 %): every write at offset 0 is Figure 6’s case 1 and partial-merges the SW log block (1,502 partial merges, one erase each), which section 3.5 leaves out (fast.md).',
    doc: 'docs/schemes/fast.md',
    scenario: fourHot('fast', 8),
    baseline: fourHot('bast', 8),
    measure: (r, b) => erases(r) / erases(b!),
  },
  {
    id: 'fast-fig7b',
    paper: 'FAST',
    where: 'Figure 7b',
    claim: 'Figure 7b shows S8 in an RW log block next to the partial merge of the SW log block.',
    paperFigure: 'S8 in an RW log',
    ours: 0,
    unit: '(not reachable)',
    tolerance: 0,
    verdict: 'paper inconsistent',
    note: 'Under Figure 6, S8 is at offset 0 of its block: it always goes to the SW log block (case 1), never to an RW log. We follow Figure 6.',
    doc: 'docs/schemes/fast.md',
    pinnedBy:
      'cargo test --release -p ftlscope-sim --test fast case_2_2_partial_merge_writes_the_sector_into_the_sw_log_block',
  },
  // ---- KRAFT (Kang et al.) ---------------------------------------------------------------
  {
    id: 'kraft-256',
    paper: 'KRAFT',
    where: '§2-B, §3',
    claim: 'With the RAM FAST needs for 128 log blocks, KRAFT affords 256 (64 GB MLC, 2 KB pages, 128 per block).',
    paperFigure: '256 log blocks',
    ours: 256,
    unit: 'log blocks (K = 10; K = 8 gives 285, K = 16 240)',
    tolerance: 0,
    verdict: 'matches',
    note: 'Bit widths of section 2-B: PBN/LBN 18, LSN 25, RLSN 7, RI ⌈log2 K⌉ bits. The paper does not give its K.',
    doc: 'docs/schemes/kraft.md',
    command: 'ftl ram --capacity 64GB --page-bytes 2048 --pages-per-block 128 --log-blocks 128 --k 10',
    pinnedBy: 'cargo test --release -p ftlscope-sim --test kraft kraft_affords_about_256_log_blocks_in_fasts_ram',
  },
  {
    id: 'kraft-fig3-ri',
    paper: 'KRAFT',
    where: 'Figure 3',
    claim: 'Figure 3 looks up RI = 4 with K = 4.',
    paperFigure: 'RI = 4',
    ours: 3,
    unit: 'largest RI with K = 4',
    tolerance: 0,
    verdict: 'paper inconsistent',
    note: 'Section 2-B: RI ranges over 0..K−1, so K = 4 allows RI 0–3. We keep RI < K (the 4th LBN is RI = 3).',
    doc: 'docs/schemes/kraft.md',
    pinnedBy: 'cargo test --release -p ftlscope-sim --test kraft relative_addressing_table_and_worked_lsn',
  },
  {
    id: 'kraft-vs-fast-equal-ram-hot/cold',
    paper: 'KRAFT',
    where: '§3 (Figures 4–5)',
    claim: 'With the same RAM, KRAFT (more log blocks) responds faster than FAST.',
    paperFigure: 'KRAFT < FAST',
    ours: 0.9293,
    unit: "× FAST's mean write (hot/cold; KRAFT 20 log blocks, K = 8, 1,395 B vs FAST 16, 1,417 B)",
    tolerance: 0.001,
    verdict: 'matches',
    note: 'Hot/cold 80/20, 100,000 requests, 30 % reads: 1,799.7 vs 1,936.6 µs per write.',
    doc: 'docs/schemes/kraft.md',
    scenario: {
      scheme: 'kraft',
      params: { log_blocks: 20, k: 8 },
      chip: { preset: 'fast2007', blocks: 512, pages_per_block: 32 },
      workload: { kind: 'hotcold', n: 100_000, seed: 1, read_ratio: 0.3, hot_fraction: 0.2, hot_ratio: 0.8 },
    },
    baseline: {
      scheme: 'fast',
      params: { log_blocks: 16 },
      chip: { preset: 'fast2007', blocks: 512, pages_per_block: 32 },
      workload: { kind: 'hotcold', n: 100_000, seed: 1, read_ratio: 0.3, hot_fraction: 0.2, hot_ratio: 0.8 },
    },
    measure: (r, b) => wAvg(r) / wAvg(b!),
  },
  {
    id: 'kraft-vs-fast-equal-ram-OLTP',
    paper: 'KRAFT',
    where: '§3 (Figures 4–5)',
    claim: 'With the same RAM, KRAFT (more log blocks) responds faster than FAST.',
    paperFigure: 'KRAFT < FAST',
    ours: 1.2177,
    unit: "× FAST's mean write (OLTP; KRAFT 20 log blocks, K = 8, 1,395 B vs FAST 16, 1,417 B)",
    tolerance: 0.001,
    verdict: 'differs',
    note: 'OLTP (single pages over a skewed, scattered footprint): 3,707.5 vs 3,044.6 µs. Hot pages of many logical blocks: K = 8 takes a victim before the log blocks are full, where FAST’s full associativity fills them (kraft.md).',
    doc: 'docs/schemes/kraft.md',
    scenario: {
      scheme: 'kraft',
      params: { log_blocks: 20, k: 8 },
      chip: { preset: 'fast2007', blocks: 512, pages_per_block: 32 },
      workload: { kind: 'oltp', n: 100_000, seed: 1, read_ratio: 0.3, skew: 3 },
    },
    baseline: {
      scheme: 'fast',
      params: { log_blocks: 16 },
      chip: { preset: 'fast2007', blocks: 512, pages_per_block: 32 },
      workload: { kind: 'oltp', n: 100_000, seed: 1, read_ratio: 0.3, skew: 3 },
    },
    measure: (r, b) => wAvg(r) / wAvg(b!),
  },
  // ---- RFTL (Qin et al.) -------------------------------------------------------------------
  {
    id: 'rftl-table4-worst',
    paper: 'RFTL',
    where: 'Table 4',
    claim:
      'Worst response: a read T_rdoob + T_rdpg = 50 µs, a write T_er + T_rdoob + T_wrpg = 2,325 µs, whatever π and utilisation.',
    paperFigure: '2,325 µs',
    ours: 2325,
    unit: 'µs',
    tolerance: 0,
    verdict: 'matches',
    note: 'Every GC step is at most one erase or β copies (Table 2 bounds hold in every run).',
    doc: 'docs/schemes/rftl.md',
    scenario: rftlLive('rftl', 64, 4),
    measure: worst,
  },
  ...TABLE4.map(([pi, pct, paper, ours]): Claim => ({
    id: `rftl-table4-${pi}-${pct}`,
    paper: 'RFTL',
    where: `Table 4, Multimedia, π = ${pi}, ${pct} %`,
    claim: `Average write response time.`,
    paperFigure: `${paper} µs`,
    ours,
    unit: 'µs',
    tolerance: 0.005,
    verdict: Math.abs(ours - paper) <= 0.15 * paper ? 'matches' : 'differs',
    note: `Live-pages workload: ${pct === 100 ? 4 : 2} live pages per logical block (utilisation = live data per block: 4 pages at 100 %, 2 at 50 %). Within ±15 % of the paper (pinned by tests/rftl.rs).`,
    doc: 'docs/schemes/rftl.md',
    scenario: rftlLive('rftl', pi, pct === 100 ? 4 : 2),
    measure: wAvg,
  })),
  {
    id: 'rftl-table5-tavg',
    paper: 'RFTL',
    where: 'Table 5, Multimedia',
    claim: 'RFTL has a better average response time than NFTL (and GFTL).',
    paperFigure: 'RFTL 303 µs < NFTL 321 µs',
    ours: 0.8145,
    unit: "× NFTL's T_avg (π = 64, 100 %)",
    tolerance: 0.005,
    verdict: 'matches',
    note: 'On the live-pages workload. On uniform random updates (every page live) NFTL beats RFTL at π = 32; at π = 64 RFTL wins (613 vs 671 µs): rftl.md.',
    doc: 'docs/schemes/rftl.md',
    scenario: rftlLive('rftl', 64, 4),
    baseline: rftlLive('nftl', 64, 4),
    measure: (r, b) => tAvg(r) / tAvg(b!),
  },
  {
    id: 'rftl-table5-nftl-worst',
    paper: 'RFTL',
    where: 'Table 5, Multimedia',
    claim: "NFTL's worst response time.",
    paperFigure: '4,335 µs',
    ours: 6900,
    unit: 'µs (π = 64)',
    tolerance: 0,
    verdict: 'differs',
    note: "4,335 = 2·T_er + 335 µs: a merge with no valid-page copy. Our NFTL merge reads the replacement's OOB and copies the other live pages before its two erases (π = 32 uniform: 15,200 µs = the bound).",
    doc: 'docs/schemes/rftl.md',
    scenario: rftlLive('nftl', 64, 4),
    measure: worst,
  },
  // ---- FastCheck (Park et al.) ---------------------------------------------------------
  {
    id: 'fastcheck-eq4',
    paper: 'FastCheck',
    where: 'Equation 4, Figure 7',
    claim: 'LTFTL-style logging on FAST writes about 16× the log pages FastCheck writes (Figure 7: 60–120×).',
    paperFigure: '≥ 16×',
    ours: 22.91,
    unit: "× FastCheck's checkpoint pages",
    tolerance: 0.005,
    verdict: 'matches',
    note: '1,024-block chip (512 MB), 10 % log blocks, 150,000 hot/cold writes: 2,933 LTFTL-style log pages vs 128 checkpoint pages. Every merge also flushes a part-full log page (not in equation 2), so the ratio rises with merges (fastcheck.md: 17.5–131× on the 8 GB chip).',
    doc: 'docs/schemes/fastcheck.md',
    scenario: {
      scheme: 'fast-ltlog',
      params: { log_blocks: 102 },
      chip: { preset: 'fastcheck', blocks: 1024 },
      workload: { kind: 'hotcold', n: 150_000, seed: 9, read_ratio: 0, hot_fraction: 0.05, hot_ratio: 0.9 },
    },
    baseline: {
      scheme: 'fastcheck',
      params: { log_blocks: 102 },
      chip: { preset: 'fastcheck', blocks: 1024 },
      workload: { kind: 'hotcold', n: 150_000, seed: 9, read_ratio: 0, hot_fraction: 0.05, hot_ratio: 0.9 },
    },
    measure: (r, b) => programsBy(r, 'log') / programsBy(b!, 'log'),
  },
  {
    id: 'fastcheck-redo',
    paper: 'FastCheck',
    where: '§5.1, phase 6 (Figure 4)',
    claim: 'Recovery re-executes the last merge before the crash "if necessary" (its block-map log was cut).',
    paperFigure: 'last merge redone if needed',
    ours: 88,
    unit: 'spare-area reads in phase 6, 0 pages written',
    tolerance: 0,
    verdict: 'close',
    note: "At Figure 4's moment LBN 10's merge was logged, so nothing needs redoing: phase 6 only reads the spare areas of the data blocks (88) and writes nothing. LBN 11's merge (LPN 46, still in block E) is not redone by recovery: it runs at the next RW write, E still being the victim (fastcheck.md, \"Merge redo (phase 6)\").",
    doc: 'docs/schemes/fastcheck.md',
    scenario: {
      scheme: 'fastcheck',
      params: { log_blocks: 7, checkpoint_lpns: 12 },
      chip: { preset: 'classroom', blocks: 32, pages_per_block: 4 },
      workload: { kind: 'pattern', text: FIG4 },
    },
    probe: (s) => {
      const r = recoverAtFigure4(s);
      // The figure is the reads; a redo that wrote anything would not be this claim.
      return r.redo_ops === 0 ? r.data_block_scan : -1;
    },
  },
  // ---- LTFTL (Zhang et al.) --------------------------------------------------------------
  {
    id: 'ltftl-fig2',
    paper: 'LTFTL',
    where: 'Figure 2',
    claim: 'After freezing at S8 and writing on, the pages only the frozen state needs are retractable: {3, 6, 7}.',
    paperFigure: '3 retractable pages',
    ours: 3,
    unit: 'retractable pages',
    tolerance: 0,
    verdict: 'matches',
    note: 'The device view colours them; revert brings them back.',
    doc: 'docs/schemes/ltftl.md',
    scenario: {
      scheme: 'ltftl',
      params: { op: 0.25 },
      chip: classroom(),
      workload: { kind: 'pattern', text: 'w0 w1 w2 w3 w0 w1 w4 w5 freeze w3 w4 w5 w6' },
    },
    measure: (r) => r.pageStates.filter((x) => x === 3).length,
  },
  {
    id: 'ltftl-table1',
    paper: 'LTFTL',
    where: 'Table 1',
    claim: 'After a power cut inside any write, LTFTL reboots to its latest frozen state (transaction-consistent).',
    paperFigure: '100 %',
    ours: 100,
    unit: '% of 5,060 cuts',
    tolerance: 0,
    verdict: 'matches',
    note: 'The test requires the image of the latest frozen state, not just any consistent one.',
    doc: 'docs/schemes/ltftl.md',
    pinnedBy:
      'cargo test --release -p ftlscope-sim --test ltftl reliability_table1_transaction_consistency_after_power_cuts',
  },
];

const flag = (key: string) => `--${key.replace(/_/g, '-')}`;

/** The `ftl` command that reproduces a claim's scenario (or the claim's own command). */
export function commandFor(c: Claim): string {
  if (c.command) return c.command;
  if (!c.scenario) return c.pinnedBy ?? '';
  const run = (s: Scenario) => {
    const parts = ['ftl run', `--scheme ${s.scheme}`, `--chip ${s.chip.preset}`];
    if (s.chip.blocks !== undefined) parts.push(`--blocks ${s.chip.blocks}`);
    if (s.chip.pages_per_block !== undefined) parts.push(`--pages-per-block ${s.chip.pages_per_block}`);
    for (const [k, v] of Object.entries(s.params)) if (v !== undefined) parts.push(`${flag(k)} ${v}`);
    const w = s.workload;
    if (w.kind === 'pattern') parts.push(`--pattern "${w.text}"`);
    else if (w.kind !== 'trace') {
      const { kind, ...rest } = w;
      parts.push(
        `--gen ${kind}:${Object.entries(rest)
          .map(([k, v]) => `${k}=${v}`)
          .join(',')}`,
      );
    }
    return [...parts, '--json'].join(' ');
  };
  return c.baseline ? `${run(c.scenario)}\n${run(c.baseline)}` : run(c.scenario);
}

export const PAPERS: { id: Paper; title: string; file: string }[] = [
  {
    id: 'FAST',
    title: 'Lee et al., FAST: fully-associative sector translation (ACM TECS 2007)',
    file: 'fast-fully-associative-sector-translation.txt',
  },
  {
    id: 'KRAFT',
    title: 'Kang et al., KRAFT: K-associative relative addressing FTL',
    file: 'kraft-k-associative-relative-addressing.txt',
  },
  { id: 'RFTL', title: 'Qin et al., A real-time flash translation layer (RFTL)', file: 'rftl-real-time-ftl.txt' },
  {
    id: 'FastCheck',
    title: 'Park et al., FastCheck: crash recovery for FAST',
    file: 'fastcheck-crash-recovery-for-fast.txt',
  },
  { id: 'LTFTL', title: 'Zhang et al., LTFTL: lightweight time-shift FTL', file: 'ltftl-time-shift-ftl.txt' },
];
