// LTFTL (Zhang et al.): the paper's claims beside our figures (data, listed in ../claims.ts;
// papers.wasm.test.ts re-runs each through the core).
import type { Claim } from '../claimTypes';
import { classroom } from './common';

export const LTFTL_CLAIMS: Claim[] = [
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
