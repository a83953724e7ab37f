import { describe, expect, it } from 'vitest';
import type { Panel } from '../sim/protocol';
import {
  fixed1,
  gftlBound,
  kraftLogBlocks,
  panelTable,
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

// Shapes as the core sends them (ftl/panel.rs; docs/schemes/*.md).
const kraft: Panel[] = [
  {
    title: 'Log blocks (K = 2, 2 log blocks)',
    data: {
      kind: 'associative_log_blocks',
      k: 2,
      log_blocks: [
        { slot: 0, pbn: 0, associativity: 2, lbns: [0, 2], free: false, serial: false, top: 2, last_used: 3 },
        { slot: 1, pbn: 1, associativity: 0, lbns: [], free: true, serial: null, top: 0, last_used: 0 },
      ],
    },
  },
  {
    title: 'Relative addressing, log block 0 (pbn 0): LBN[] = [0, 2]',
    data: {
      kind: 'relative_addressing',
      slot: 0,
      pbn: 0,
      pages_per_block: 4,
      lbns: [0, 2],
      rows: [
        { psn: 0, page: 0, ri: 0, lbn: 0, rlsn: 0, lsn: 0 },
        { psn: 1, page: 1, ri: 1, lbn: 2, rlsn: 1, lsn: 9 },
        { psn: 2, page: 2, ri: null, lbn: null, rlsn: null, lsn: null },
      ],
    },
  },
  { title: 'Block map (data blocks)', data: { kind: 'data_and_log_map', entries: [] } },
  {
    title: "Mapping RAM by the KRAFT paper's bit widths (2-B)",
    data: {
      kind: 'mapping_ram',
      pages_per_block: 4,
      k: 2,
      pbn_bits: 4,
      lbn_bits: 4,
      lsn_bits: 6,
      ri_bits: 1,
      rlsn_bits: 2,
      fast_log_bits_per_block: 28,
      kraft_log_bits_per_block: 24,
      fast_log_blocks: 2,
      fast_bytes: 15,
      kraft_bytes_same_log_blocks: 14,
      kraft_log_blocks: 2,
    },
  },
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
    const fill = (pbn: number, used: number) => ({ pbn, used, of: 32 });
    const t: Panel[] = [
      {
        title: 'Block map (RAM): primary / replacement / buffer, pages used',
        data: {
          kind: 'block_groups',
          groups: [
            {
              lbn: 0,
              primary: fill(1, 32),
              replacement: fill(0, 0),
              buffer: fill(2, 10),
              gc: { kind: 'primary_and_buffer', step: 5, of: 8 },
            },
            { lbn: 1, primary: fill(4, 3), replacement: fill(3, 0), buffer: fill(5, 0), gc: null },
          ],
        },
      },
    ];
    const g = rftlGroups(t)!;
    expect(g[0]).toMatchObject({ lbn: 0, primary: { pbn: 1, used: 32, of: 32 }, gcStep: 5, gcOf: 8 });
    expect(g[1].gc).toBeNull();
    expect(rftlGroups(kraft)).toBeNull();
    // The generic list reads them as they always read.
    expect(panelTable(t[0]).rows).toEqual([
      ['0', '1 (32/32)', '0 (0/32)', '2 (10/32)', 'primary+buffer GC: step 5 of 8'],
      ['1', '4 (3/32)', '3 (0/32)', '5 (0/32)', '-'],
    ]);
  });

  it('reads every panel kind as the plain table the generic list shows', () => {
    expect(panelTable(kraft[0]).rows).toEqual([
      ['0', '0', '2', '0 2', 'no', '2', '3'],
      ['1', '1', '0', 'free', '-', '0', '0'],
    ]);
    expect(panelTable(kraft[1]).rows).toEqual([
      ['0', '0', '0', '0', '0', '0·4 + 0 = 0'],
      ['1', '1', '1', '2', '1', '2·4 + 1 = 9'],
      ['2', '2', '-', '-', '-', '(skipped)'],
    ]);
    expect(panelTable(kraft[3]).rows[0]).toEqual([
      'bits per log block',
      '28 (PBN 4 + 4×LSN 6)',
      '24 (PBN 4 + 2×LBN 4 + 4×(RI 1 + RLSN 2))',
    ]);
    const rw: Panel = {
      title: 'Sector-mapping table: RW log blocks',
      data: {
        kind: 'shared_log_blocks',
        blocks: [{ order: 0, pbn: 7, lsns: [-1, -1, null, 3] }],
      },
    };
    expect(panelTable(rw)).toEqual({
      title: 'Sector-mapping table: RW log blocks',
      columns: ['order', 'pbn', 'lsns'],
      rows: [['0', '7', '-1 -1 · 3']],
    });
    const bast: Panel = {
      title: 'Sector-mapping table: log blocks',
      data: {
        kind: 'dedicated_log_blocks',
        pages_per_block: 4,
        next_victim: 1,
        slots: [
          { slot: 0, pbn: 5, lbn: 2, lsns: [9, 8] },
          { slot: 1, pbn: null, lbn: null, lsns: [] },
        ],
      },
    };
    expect(panelTable(bast).rows).toEqual([
      ['0', '5', '2', '9 8 · ·'],
      ['1', '-', '-', ''],
    ]);
    const sub: Panel = {
      title: 'Sub-table indices',
      data: {
        kind: 'sub_table_index',
        sub_tables: [
          { first: 0, last: 3 },
          { first: 4, last: 7 },
        ],
        rows: [{ lbn: 0, at: [{ pbn: 1, page: 2 }, null] }],
      },
    };
    expect(panelTable(sub)).toMatchObject({
      columns: ['lbn', 'sub-table 0 (BO 0..3)', 'sub-table 1 (BO 4..7)'],
      rows: [['0', '1:2', '-']],
    });
    const queue: Panel = {
      title: 'Central GC queue',
      data: {
        kind: 'gc_queue',
        max_steps: 9,
        jobs: [
          { lbn: 3, phase: { phase: 'copy', page: 2 }, steps: 4 },
          { lbn: 5, phase: { phase: 'erase_buffer' }, steps: 8 },
        ],
      },
    };
    expect(panelTable(queue).rows).toEqual([
      ['0', '3', 'Copy(2)', '4 of at most 9'],
      ['1', '5', 'EraseBuf', '8 of at most 9'],
    ]);
  });

  it('prints one decimal as the core did (ties to even)', () => {
    expect([6.25, 6.75, 12.5, 68.75, 0, 33.333].map(fixed1)).toEqual(['6.2', '6.8', '12.5', '68.8', '0.0', '33.3']);
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
