import { describe, expect, it } from 'vitest';
import type { SimEvent } from '../sim/protocol';
import { blockGroups, hoverText, presentCodes } from './chipInfo';
import { cdf, countValues, validPerBlock } from './Charts';
import { groupEvents, newEvents, planEffects } from './effects';
import { jumpTarget } from './EventList';
import { adjacentMarker, binMarkers, markerKind } from './markers';
import { BAND_CHAR_W, BLOCK_ROLES, bandLabel, bandTextColor, luminance } from './palette';
import { canvasLayout, packColor } from './CanvasGrid';

const merge = [
  { kind: 'victim' as SimEvent['kind'], text: 'victim log block 4' },
  { kind: 'merge' as SimEvent['kind'], text: 'full merge of LBN 0' },
  { kind: 'read', pbn: 0, page: 0, lpn: 0, cause: 'full_merge' },
  { kind: 'program', pbn: 6, page: 0, lpn: 0, cause: 'full_merge' },
  { kind: 'read', pbn: 4, page: 0, lpn: 1, cause: 'full_merge' },
  { kind: 'program', pbn: 6, page: 1, lpn: 1, cause: 'full_merge' },
  { kind: 'erase', pbn: 0, cause: 'full_merge' },
  { kind: 'erase', pbn: 4, cause: 'full_merge' },
  { kind: 'program', pbn: 7, page: 0, lpn: 9, cause: 'host' },
] as unknown as SimEvent[];

describe('effects', () => {
  it('pairs a read and a program with the same cause and LPN into one copy', () => {
    const plan = planEffects(merge);
    expect(plan.map((e) => e.kind)).toEqual(['label', 'label', 'copy', 'copy', 'erase', 'erase', 'program']);
    const copy = plan[2];
    expect(copy).toMatchObject({ kind: 'copy', from: { pbn: 0, page: 0 }, to: { pbn: 6, page: 0 }, lpn: 0 });
    // one slot per operation, in order
    expect(plan.filter((e) => e.kind !== 'label').map((e) => e.slot)).toEqual([0, 1, 2, 3, 4]);
  });

  it('moves a token from a read shown in an earlier step to the program of this one', () => {
    // op by op: the read (event 2) was revealed before, the program (event 3) now
    const plan = planEffects(merge.slice(3, 4), null, null, merge.slice(0, 3));
    expect(plan).toEqual([{ kind: 'copy', from: { pbn: 0, page: 0 }, to: { pbn: 6, page: 0 }, lpn: 0, slot: 0 }]);
    // a read already paired with its program before is not reused
    expect(
      planEffects(
        [{ kind: 'program', pbn: 6, page: 2, lpn: 0, cause: 'full_merge' }] as unknown as SimEvent[],
        null,
        null,
        merge.slice(0, 4),
      )[0].kind,
    ).toBe('program');
  });

  it('adds role changes at the end', () => {
    const plan = planEffects([], new Uint8Array([1, 0]), new Uint8Array([0, 5]));
    expect(plan).toEqual([
      { kind: 'role', pbn: 0, from: 1, to: 0, slot: 0 },
      { kind: 'role', pbn: 1, from: 0, to: 5, slot: 0 },
    ]);
  });

  it('finds the newly revealed events, and none on jumps', () => {
    const ev = merge.slice(0, 5);
    expect(newEvents({ step: 18, opCursor: 2, eventCount: 4 }, 18, 3, ev)).toEqual(ev.slice(4));
    expect(newEvents({ step: 18, opCursor: 0, eventCount: 0 }, 19, 0, ev)).toEqual(ev);
    expect(newEvents({ step: 18, opCursor: 0, eventCount: 3 }, 18, 1, ev)).toEqual(ev);
    expect(newEvents({ step: 10, opCursor: 0, eventCount: 3 }, 18, 0, ev)).toEqual([]);
    expect(newEvents({ step: 18, opCursor: 3, eventCount: 5 }, 18, 2, ev)).toEqual([]);
    expect(newEvents(null, 1, 0, ev)).toEqual([]);
  });

  it('groups operations under their narration notes', () => {
    const g = groupEvents(merge);
    // the victim note and the merge note head one group
    expect(g.length).toBe(1);
    expect(g[0].note?.text).toBe('victim log block 4');
    expect(g[0].items).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(groupEvents([merge[8], merge[0], merge[2]]).map((x) => x.items)).toEqual([[0], [2]]);
  });

  it('jumps from an event to the state after its operation', () => {
    // completed request (opCount 0) at step 19: base is 18
    expect(jumpTarget(merge, 3, 19, 0)).toEqual([18, 2]);
    expect(jumpTarget(merge, 1, 19, 0)).toEqual([18, 1]);
    // in progress at step 18
    expect(jumpTarget(merge, 8, 18, 11)).toEqual([18, 7]);
  });
});

describe('markers', () => {
  const m = new Uint32Array([18, 1, 19, 1, 20, 2, 900, 32]);
  it('bins dense markers and ORs their bits', () => {
    const bins = binMarkers(m, 1000, 10);
    expect(bins).toEqual([
      { index: 18, bin: 0, count: 3, bits: 3 },
      { index: 900, bin: 9, count: 1, bits: 32 },
    ]);
    expect(markerKind(3)?.key).toBe('merge');
    expect(markerKind(33)?.key).toBe('power');
  });
  it('finds the next and previous marker', () => {
    expect(adjacentMarker(m, 18, 1)).toBe(19);
    expect(adjacentMarker(m, 18, -1)).toBe(null);
    expect(adjacentMarker(m, 500, -1)).toBe(20);
  });
});

describe('chip helpers', () => {
  it('describes a block for the hover line', () => {
    const a = {
      ppb: 2,
      pageStates: new Uint8Array([1, 2, 0, 0]),
      pageLpns: new Uint32Array([7, 3, 0xffffffff, 0xffffffff]),
      blockRoles: new Uint8Array([5, 0]),
      eraseCounts: new Uint32Array([4, 0]),
      owners: new Int32Array([2, -1]),
    };
    expect(hoverText({ block: 0, page: 0 }, a)).toBe(
      'Block 0 · Log block · erase count 4 · owner LBN 2 · valid pages 1/2 · page 0 (PPN 0): Valid, LPN 7',
    );
    expect(hoverText({ block: 1, page: null }, a)).toContain('owner LBN —');
  });
  it('groups RFTL triples', () => {
    const roles = new Uint8Array([6, 7, 8, 6, 7, 8, 0]);
    const owners = new Int32Array([0, 0, 0, 1, 1, 1, -1]);
    expect(blockGroups(roles, owners)).toEqual([
      { first: 0, owner: 0 },
      { first: 3, owner: 1 },
    ]);
    expect(blockGroups(new Uint8Array([1, 1, 1]), new Int32Array([0, 1, 2]))).toEqual([]);
  });
  it('lists the codes present', () => {
    expect(presentCodes(new Uint8Array([0, 2, 2, 13]))).toEqual([0, 2, 13]);
  });
  it('lays a 64K-block chip out as one image', () => {
    const l = canvasLayout(65536, 32, 720, 420);
    expect(l.cols * l.rows).toBeGreaterThanOrEqual(65536);
    expect(l.imgH).toBe(l.rows * 33);
    expect(packColor('#ff0000')).toBe(0xff0000ff);
  });
});

describe('palette', () => {
  it('shows the owning LBN only on roles that belong to a logical block, when there is room', () => {
    expect(bandLabel(BLOCK_ROLES[5], 3, 60)).toBe('LOG L3');
    expect(bandLabel(BLOCK_ROLES[0], 3, 60)).toBe('FREE');
    expect(bandLabel(BLOCK_ROLES[5], 3, 30)).toBe('LOG');
    expect(bandLabel(BLOCK_ROLES[1], -1, 60)).toBe('DATA');
  });

  it('never clips the band text: the LBN only when the whole label fits (issue 25, "ATA L14")', () => {
    // a 32-block chip at 1366 px: about 50 px a block
    expect(bandLabel(BLOCK_ROLES[1], 14, 50)).toBe('DATA');
    expect(bandLabel(BLOCK_ROLES[1], 14, 60)).toBe('DATA L14');
    expect(bandLabel(BLOCK_ROLES[5], 0, 64, [0, 2, 5])).toBe('LOG L0,2…');
    for (const room of [30, 44, 50, 60, 90])
      for (const lbn of [0, 14, 123])
        expect(bandLabel(BLOCK_ROLES[1], lbn, room).length * BAND_CHAR_W).toBeLessThanOrEqual(
          Math.max(room, 4 * BAND_CHAR_W),
        );
  });

  it('gives every role enough text contrast on its band', () => {
    for (const r of BLOCK_ROLES) {
      if (r.color.startsWith('var(')) continue;
      const l = luminance(r.color);
      const t = bandTextColor(r) === '#000000' ? 0 : 1;
      const ratio = t === 0 ? (l + 0.05) / 0.05 : 1.05 / (l + 0.05);
      expect(ratio).toBeGreaterThanOrEqual(4.5);
    }
  });
});

describe('charts data', () => {
  it('builds a CDF that ends at 100 %', () => {
    const c = cdf([
      [200, 3],
      [5000, 1],
    ]);
    expect(c[0]).toEqual([200, 0]);
    expect(c[1]).toEqual([200, 75]);
    expect(c[2]).toEqual([5000, 100]);
  });
  it('counts values and valid pages', () => {
    expect(countValues([0, 2, 2])).toEqual([
      [0, 1],
      [2, 2],
    ]);
    expect([...validPerBlock(new Uint8Array([1, 1, 2, 0, 1, 0]), 3)]).toEqual([2, 1]);
  });
});
