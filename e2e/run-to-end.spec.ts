/// <reference lib="dom" />
// "Run to end" (issue 37, item 4): the worker runs the rest of the workload in timed
// chunks, the page shows progress and can cancel, and the Session it leaves behind is the
// one stepping leaves: the end and the steps back from it read the same as in a tab that
// never ran ahead.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { watch, counter, settled, openAt, pressTo, poll } from './helpers';

test.beforeAll(() => mkdirSync('test-results', { recursive: true }));

// FAST on random writes: merges all along, so the counters move at every step back.
const FAST = {
  scheme: 'fast',
  params: { log_blocks: 4 },
  chip: { preset: 'classroom', blocks: 64, pages_per_block: 8 },
  workload: { kind: 'uniform', n: 5000, seed: 3, read_ratio: 0.1 },
};

/** What the page shows of the moment: the counter, every metric and every page's state. */
async function shown(page: Page) {
  const at = await settled(page);
  const metrics = await page
    .locator('[data-testid^=metric-]')
    .evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}=${e.textContent}`));
  const pages = await page
    .locator('[data-testid=device-grid] rect.page')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-state')).join(''));
  return { step: at.step, op: at.op, metrics, pages };
}

/** The end of the run, then `n` op steps back (the global ← key). */
async function endAndBack(page: Page, n: number) {
  await page.getByRole('slider', { name: 'Jump to request' }).focus();
  await page.keyboard.press('End');
  await expect(page.getByTestId('step-counter')).toHaveAttribute('data-step', String(FAST.workload.n));
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen = [await shown(page)];
  for (let i = 0; i < n; i++) {
    await pressTo(page, 'ArrowLeft');
    seen.push(await shown(page));
  }
  return seen;
}

test('run to end leaves the Session stepping would: the end and the steps back from it read the same', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const page = await browser.newPage();
  const problems = watch(page);
  await openAt(page, FAST, 100);
  await page.getByTestId('tab-charts').click();
  await expect(page.getByTestId('charts-coverage')).toContainText('0–100 of 5,000');
  await page.getByTestId('run-to-end').click();
  await expect(page.getByTestId('charts-coverage')).toContainText('(the whole run)', { timeout: 60_000 });
  // the button went with the run: keyboard focus on the line that says the run is whole
  await expect(page.getByTestId('charts-coverage')).toBeFocused();
  expect((await counter(page)).step).toBe(100);
  await page.getByTestId('tab-chip').click();
  const ran = await endAndBack(page, 6);

  // A tab that never ran ahead: opened at the end, the same steps back.
  const other = await browser.newPage();
  const problems2 = watch(other);
  await openAt(other, FAST, FAST.workload.n);
  const stepped = await endAndBack(other, 6);

  expect(ran.map((m) => [m.step, m.op])).toEqual(stepped.map((m) => [m.step, m.op]));
  expect(ran).toEqual(stepped);
  // The steps back moved the chip: a merge's ops are revealed one by one.
  expect(new Set(ran.map((m) => m.pages)).size).toBeGreaterThan(1);
  // Every page drawn: the whole 64 × 8 chip.
  expect(ran[0].pages).toHaveLength(64 * 8);
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
});

test('run to end shows its progress and stops on Cancel, back at the moment shown', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  // BAST on random writes: a merge nearly every request, so the run takes seconds.
  const scenario = {
    scheme: 'bast',
    params: { log_blocks: 4 },
    chip: { preset: 'fast2007', blocks: 256, pages_per_block: 32 },
    workload: { kind: 'uniform', n: 5_000_000, seed: 2, read_ratio: 0.1 },
  };
  await openAt(page, scenario, 50);
  await page.getByTestId('tab-charts').click();
  await page.getByTestId('run-to-end').click();
  const bar = page.getByTestId('run-progress');
  await expect(bar).toBeVisible();
  // the clicked button is gone: keyboard focus on Cancel, not dropped to the page
  await expect(page.getByTestId('run-cancel')).toBeFocused();
  // Progress moves chunk by chunk (timed chunks in the worker), not in one jump at the end.
  await poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(50);
  const first = Number(await bar.getAttribute('value'));
  await poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(first);
  await expect(page.getByTestId('run-progress-text')).toContainText('of 5,000,000');
  await page.screenshot({ path: 'test-results/run-to-end-progress.png' });
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('run-to-end')).toBeVisible({ timeout: 30_000 });
  // cancelled from the keyboard: focus back on Run to end
  await expect(page.getByTestId('run-to-end')).toBeFocused();
  expect((await counter(page)).step).toBe(50);
  const covered = Number(
    ((await page.getByTestId('charts-coverage').textContent()) ?? '').match(/0–([\d,]+)/)![1].replace(/,/g, ''),
  );
  expect(covered).toBeGreaterThan(first);
  expect(covered).toBeLessThan(scenario.workload.n);
  await page.screenshot({ path: 'test-results/run-to-end-cancelled.png' });
  expect(problems).toEqual([]);
});
