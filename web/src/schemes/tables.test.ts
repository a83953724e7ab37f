import { describe, expect, it } from 'vitest';
import type { ViewTable } from '../sim/protocol';
import {
  gftlBound,
  kraftLogBlocks,
  parseBlockUse,
  relativeTables,
  rftlBound,
  rftlGroups,
  tablesShownElsewhere,
} from './tables';
import { binTimeline } from './types';
import { histBins } from './LatencyHistogram';
import { coreScenario, isUploadWorkload } from '../trace/types';
import { loadNodeCore } from '../scenario/testing/nodeCore';

// Which tables a scheme's panels draw comes from the catalog's panel kinds (the real core).
loadNodeCore();

// Shapes as the core prints them (probed from the wasm build; docs/schemes/*.md).
const kraft: ViewTable[] = [
  {
    title: 'Log blocks (K = 2, 2 log blocks)',
    columns: [],
    rows: [
      ['0', '0', '2', '0 2', 'no', '2', '3'],
      ['1', '1', '0', 'free', '-', '0', '0'],
    ],
  },
  {
    title: 'Relative addressing, log block 0 (pbn 0): LBN[] = [0, 2]',
    columns: [],
    rows: [
      ['0', '0', '0', '0', '0', '0·4 + 0 = 0'],
      ['1', '1', '1', '2', '1', '2·4 + 1 = 9'],
      ['2', '2', '-', '-', '-', '(skipped)'],
    ],
  },
  { title: 'Block map (data blocks)', columns: [], rows: [] },
  { title: "Mapping RAM by the KRAFT paper's bit widths (2-B)", columns: [], rows: [] },
];

describe('scheme tables', () => {
  it('reads KRAFT log blocks and relative addressing', () => {
    const logs = kraftLogBlocks(kraft)!;
    expect(logs.k).toBe(2);
    expect(logs.logBlocks[0]).toMatchObject({ slot: 0, pbn: 0, lbns: [0, 2], serial: false, top: 2, free: false });
    expect(logs.logBlocks[1]).toMatchObject({ free: true, lbns: [], serial: null });
    const rel = relativeTables(kraft);
    expect(rel).toHaveLength(1);
    expect(rel[0]).toMatchObject({ slot: 0, pbn: 0, lbns: [0, 2] });
    expect(rel[0].rows[1]).toMatchObject({ ri: 1, lbn: 2, rlsn: 1, lsn: 9 });
    expect(rel[0].rows[2]).toMatchObject({ ri: null, lsn: null });
    expect(tablesShownElsewhere('kraft', kraft).map((t) => t.title)).toEqual(['Block map (data blocks)']);
    expect(tablesShownElsewhere('page', kraft)).toHaveLength(4);
  });

  it('reads RFTL groups with the GC step', () => {
    const t: ViewTable[] = [
      {
        title: 'Block map (RAM): primary / replacement / buffer, pages used',
        columns: [],
        rows: [
          ['0', '1 (32/32)', '0 (0/32)', '2 (10/32)', 'primary+buffer GC: step 5 of 8'],
          ['1', '4 (3/32)', '3 (0/32)', '5 (0/32)', '-'],
        ],
      },
    ];
    const g = rftlGroups(t)!;
    expect(g[0]).toMatchObject({ lbn: 0, primary: { pbn: 1, used: 32, of: 32 }, gcStep: 5, gcOf: 8 });
    expect(g[1].gc).toBeNull();
    expect(parseBlockUse('x')).toBeNull();
  });

  it('computes the Table 2 bounds on the large-block chip', () => {
    const t = { read_us: 25, read_oob_us: 25, program_us: 300, erase_us: 2000 };
    expect(rftlBound(t)).toBe(2325);
    expect(gftlBound(t, 32)).toBe(2000 + 25 + 32 * 25);
  });
});

describe('timeline binning and histogram', () => {
  it('keeps the longest request of each bin with its GC part, up to the step', () => {
    const flat = [300000, 0, 2325000, 2000000, 25000, 0, 325000, 0, 9_000_000, 0];
    const one = binTimeline(flat, 4, 100);
    expect(one).toMatchObject({
      n: 4,
      binSize: 1,
      total: [300, 2325, 25, 325],
      gc: [0, 2000, 0, 0],
      maxTotal: 2325,
      maxGc: 2000,
    });
    const two = binTimeline(flat, 4, 2);
    expect(two).toMatchObject({ binSize: 2, total: [2325, 325], gc: [2000, 0] });
    expect(binTimeline(flat, 0, 10).n).toBe(0);
  });

  it('bins few distinct values one per bar, many into ranges', () => {
    const few = histBins(
      {
        read: [
          [25, 3],
          [50, 4],
        ],
        write: [[325, 10]],
      },
      16,
    );
    expect(few.map((b) => [b.x0, b.read, b.write])).toEqual([
      [25, 3, 0],
      [50, 4, 0],
      [325, 0, 10],
    ]);
    const many = histBins(
      { read: [], write: Array.from({ length: 100 }, (_, i) => [i * 10, 1] as [number, number]) },
      10,
    );
    expect(many.reduce((s, b) => s + b.write, 0)).toBe(100);
    expect(many.length).toBeLessThanOrEqual(10);
  });
});

describe('trace helpers', () => {
  it('strips the page-side fields of an upload before the core sees it', () => {
    const s = {
      scheme: 'page',
      chip: { preset: 'classroom' },
      workload: { kind: 'trace', fit: 'fold', name: 'a.csv', upload: 3 },
    };
    expect(isUploadWorkload(s.workload)).toBe(true);
    expect(coreScenario(s)).toEqual({
      scheme: 'page',
      chip: { preset: 'classroom' },
      workload: { kind: 'trace', fit: 'fold' },
    });
    expect(isUploadWorkload({ kind: 'trace', text: 'w0' })).toBe(false);
  });
});
