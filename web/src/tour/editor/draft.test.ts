// The editor's draft: stops added at moments, reordered, deleted, highlights toggled; and the
// check before Try it / Save names every problem, including the new highlight fields.
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../../scenario/testing/nodeCore';
import type { Scenario } from '../../scenario/model';
import { tourFromObject } from '../tourFile';
import { TOURS } from '../tours';
import {
  addStop,
  checkDraft,
  deleteStop,
  draftFile,
  draftFromStored,
  draftOf,
  moveStop,
  newDraft,
  problemLine,
  slug,
  toggleBlock,
  togglePage,
  updateStop,
} from './draft';

loadNodeCore();

const BAST: Scenario = {
  scheme: 'bast',
  params: { log_blocks: 2 },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-15 S0 S4 S8 S12' },
};

function threeStops() {
  let d = newDraft(BAST);
  d = addStop(d, { step: 16, op: 0 }).draft;
  d = addStop(d, { step: 18, op: 0 }).draft;
  d = addStop(d, { step: 19, op: 2 }).draft;
  d.stops.forEach((_, i) => (d = updateStop(d, i, { text: `text ${i}` })));
  return d;
}

describe('tour editor draft', () => {
  it('adds stops after the selected one, moves and deletes them', () => {
    const d = threeStops();
    expect(d.stops.map((s) => s.at.step)).toEqual([16, 18, 19]);
    const mid = addStop(d, { step: 17, op: 0 }, 0);
    expect(mid.index).toBe(1);
    expect(mid.draft.stops.map((s) => s.at.step)).toEqual([16, 17, 18, 19]);
    const up = moveStop(d, 2, -1);
    expect(up.index).toBe(1);
    expect(up.draft.stops.map((s) => s.at.step)).toEqual([16, 19, 18]);
    // The ends do not move further.
    expect(moveStop(d, 0, -1).draft).toBe(d);
    expect(moveStop(d, 2, 1).draft).toBe(d);
    expect(deleteStop(d, 1).stops.map((s) => s.at.step)).toEqual([16, 19]);
  });

  it('toggles picked blocks and pages, sorted; empty highlights leave the file', () => {
    let h = toggleBlock(undefined, 3);
    h = toggleBlock(h, 1);
    expect(h.blocks).toEqual([1, 3]);
    h = togglePage(h, 2, 1);
    h = togglePage(h, 0, 3);
    expect(h.pages).toEqual([
      [0, 3],
      [2, 1],
    ]);
    h = togglePage(toggleBlock(toggleBlock(h, 1), 3), 2, 1);
    h = togglePage(h, 0, 3);
    const d = updateStop(threeStops(), 0, { highlight: h, predict: [] });
    expect(d.stops[0].highlight).toBeUndefined();
    expect(d.stops[0].predict).toBeUndefined();
  });

  it('a good draft checks clean and saves as a file that reads back to the same tour', () => {
    let d = threeStops();
    d = updateStop(d, 0, { highlight: { blocks: [0], pages: [[1, 2]] } });
    d = updateStop(d, 1, { predict: ['kind', 'copies'] });
    const { tour, problems } = checkDraft(d);
    expect(problems).toEqual([]);
    expect(tour!.stops[0].highlight).toEqual({ blocks: [0], pages: [[1, 2]] });
    expect(tourFromObject(JSON.parse(JSON.stringify(draftFile(d)))).tour).toEqual(tour);
  });

  it('names every problem: empty text, a prediction mid-request, a stop past the workload, a block off the chip', () => {
    let d = threeStops();
    d = updateStop(d, 0, { text: ' ', highlight: { blocks: [16], pages: [[2, 4]] } });
    d = updateStop(d, 2, { predict: ['victim'] });
    d = { ...addStop(d, { step: 30, op: 0 }).draft, title: '' };
    d = updateStop(d, 3, { text: 'see [x](glossary:nope)' });
    const lines = checkDraft(d).problems.map(problemLine);
    expect(lines).toEqual([
      'title: give the tour a title',
      'Stop 1 · text: write what the students should read here',
      'Stop 3 · predict: a prediction is asked between requests: at.op must be 0',
      'Stop 4 · text: unknown glossary term "nope" (in [x](glossary:nope))',
    ]);
    // The shape checks come first; with them fixed, the core's are named.
    const shaped = updateStop(updateStop({ ...d, title: 'T' }, 2, { predict: [] }), 3, { text: 'ok' });
    const core = checkDraft(updateStop(shaped, 0, { text: 'ok' })).problems.map(problemLine);
    expect(core).toEqual([
      'Stop 1 · highlight.blocks[0]: no block 16: the chip has 16',
      'Stop 1 · highlight.pages[0]: no page 4 of block 2: the chip has 16 blocks of 4 pages',
      'Stop 4 · at.step: request 30 is beyond the workload (20 requests)',
    ]);
  });

  it('edits a built-in tour as a copy with its own id, and reads back only a draft-shaped store', () => {
    const intro = TOURS[0];
    const copy = draftOf(intro, true);
    expect(copy.id).not.toBe(intro.id);
    expect(copy.id).toBe(slug(copy.title));
    expect(copy.stops).toEqual(intro.stops);
    expect(copy.stops).not.toBe(intro.stops);
    expect(draftOf(intro, false).id).toBe(intro.id);
    expect(draftFromStored(JSON.parse(JSON.stringify(copy)))).toEqual(copy);
    expect(draftFromStored({ ...copy, stops: [{ title: 1 }] })).toBeNull();
    expect(draftFromStored('x')).toBeNull();
    const odd = { ...copy, stops: [{ ...copy.stops[0], highlight: { blocks: 'all', pages: [[1]] } }] };
    expect(draftFromStored(odd)!.stops[0].highlight).toBeUndefined();
    const fine = { ...copy, stops: [{ ...copy.stops[0], highlight: { blocks: [1], pages: [[1, 2]] } }] };
    expect(draftFromStored(fine)!.stops[0].highlight).toEqual({ blocks: [1], pages: [[1, 2]] });
    expect(slug('  Über FTLs: BAST!  ')).toBe('uber-ftls-bast');
    expect(slug('!!!')).toBe('my-tour');
  });
});
