// The five papers' claims beside our figures, as data (one file per paper in claims/). Every claim with a scenario is
// re-run through the core by papers.wasm.test.ts, which checks `ours` (within
// `tolerance`), so the page cannot drift from what the simulator does. A claim without a
// scenario is pinned by the Rust test named in `pinnedBy`. docs/schemes/*.md explain
// every departure; the commands reproduce the figures with the CLI (`ftl`).
import type { Scenario } from '../scenario/model';
import type { Claim, Paper } from './claimTypes';
import { FAST_CLAIMS } from './claims/fast';
import { KRAFT_CLAIMS } from './claims/kraft';
import { RFTL_CLAIMS } from './claims/rftl';
import { FASTCHECK_CLAIMS } from './claims/fastcheck';
import { LTFTL_CLAIMS } from './claims/ltftl';

export type { Claim, Paper, RunResult, SessionLike, Verdict } from './claimTypes';

/** Every claim, paper by paper in the order of PAPERS. */
export const CLAIMS: Claim[] = [...FAST_CLAIMS, ...KRAFT_CLAIMS, ...RFTL_CLAIMS, ...FASTCHECK_CLAIMS, ...LTFTL_CLAIMS];

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
