// A layout change in the middle of a page's fade (issue 35, 7118eea): the grid restarts its
// fills when only its layout changes (a resize, presentation, a text step), and each page's
// delay counts from the plan's start (web/src/viz/fillDelays.ts). So a fade under way goes
// on at once from the colour it had reached; it used to hold that colour through its slot's
// whole delay again (a torn page stood 99 % faded, rgb(137, 34, 84), until the recovery).
// The page's clock is Playwright's (page.clock): D3's transitions (performance.now,
// requestAnimationFrame, setTimeout) move only when the test runs the clock, so every
// colour below is read at a known time from the plan's start, whatever the machine's load.
import { expect, type Page } from '@playwright/test';
import { sharedTest as test, readyAt, poll } from './helpers';

/** The grid's fills generation (DeviceGrid's data-fills-gen: one more per restart of its fades). */
const fillsGen = (page: Page) =>
  page.evaluate(() => Number(document.querySelector<SVGSVGElement>('svg.device-grid')?.dataset.fillsGen ?? 0));

/** Each page cell's state and drawn colour, by ppn. */
const cells = (page: Page) =>
  page.evaluate(() =>
    Array.from(document.querySelectorAll<SVGRectElement>('svg.device-grid rect.page'), (r) => ({
      ppn: Number(r.getAttribute('data-ppn')),
      state: r.getAttribute('data-state'),
      fill: getComputedStyle(r).fill,
    })),
  );

const fillOf = (page: Page, ppn: number) =>
  page.evaluate((p) => {
    const r = document.querySelector<SVGRectElement>(`svg.device-grid rect.page[data-ppn="${p}"]`);
    return r ? getComputedStyle(r).fill : null;
  }, ppn);

/** A frame of the page's clock (its requestAnimationFrame runs every 16 ms of it). */
const FRAME = 16;

test('a resize in the middle of a page’s fade carries the fade on at once, not after its delay again', async ({
  page,
}) => {
  await page.clock.install();
  const problems = await readyAt(page, { width: 1366, height: 768 });
  const before = await cells(page);
  const gen0 = await fillsGen(page);
  // From here the page's time moves only by runFor.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  // Step op: the first request's host program fills an erased page (in its slot: the plan's
  // delay for a program is 0.6 of a slot, a slot at least 220 ms: ChipView, fillDelays.ts).
  await page.getByTestId('btn-step-op').click();
  await poll(() => fillsGen(page)).toBeGreaterThan(gen0);
  const gen1 = await fillsGen(page);
  const after = await cells(page);
  const changed = after.filter((c, i) => c.state !== before[i].state);
  expect(changed.length, 'the operation changes a page').toBeGreaterThan(0);
  const { ppn } = changed[0];
  const from = before[after.indexOf(changed[0])].fill;
  // Still its old colour: its fade waits for its slot.
  expect(await fillOf(page, ppn)).toBe(from);

  // Frame by frame until the fade has begun, then two frames more: a colour on the way.
  let frames = 0;
  while ((await fillOf(page, ppn)) === from) {
    expect(++frames, 'the fade begins within its slot').toBeLessThan(60);
    await page.clock.runFor(FRAME);
  }
  await page.clock.runFor(2 * FRAME);
  const midway = await fillOf(page, ppn);
  expect(midway).not.toBe(from);

  // A layout change: the grid restarts its fills for the new size.
  await page.setViewportSize({ width: 1300, height: 768 });
  await poll(() => fillsGen(page)).toBeGreaterThan(gen1);
  expect(await fillOf(page, ppn), 'the restart keeps the colour reached').toBe(midway);
  // Three frames on, the fade has gone on from there (the old code held it for the slot's
  // delay again, at least 132 ms: eight frames).
  await page.clock.runFor(3 * FRAME);
  const on = await fillOf(page, ppn);
  expect(on, 'the fade goes on at once after the layout change').not.toBe(midway);
  expect(on).not.toBe(from);

  // And it ends in the page's state's colour, the grid idle.
  await page.clock.runFor(1000);
  await expect(page.locator('svg.device-grid')).toHaveAttribute('data-fills', 'idle');
  // the legend's swatch for the page's state (PageState: 0 erased, 1 valid, 2 invalid, ...)
  const key = ['erased', 'valid', 'invalid', 'retractable', 'metadata', 'torn'][Number(changed[0].state)];
  const swatch = await page
    .locator(`[data-testid=legend] rect.legend-${key}`)
    .evaluate((r) => getComputedStyle(r).fill);
  expect(await fillOf(page, ppn)).toBe(swatch);
  await page.clock.resume();
  expect(problems).toEqual([]);
});
