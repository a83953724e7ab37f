// The power panel (issue 35, item 3): one verdict, shown only with the recovery it
// describes complete on screen; a torn page drawn, named in the legend, the hover text and
// the narration; one request number in counter, panel and narration.
import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { sharedTest as test, counter, settled, watch, poll } from './helpers';

test.beforeAll(() => mkdirSync('test-results', { recursive: true }));

// FAST paper 3.4 (the fast-merges tour): request 32 (S15) finds the RW log full and runs
// full merges of the victim's logical blocks; its first operation reads a sector, the
// second programs it into the merge destination.
const FAST = {
  scheme: 'fast',
  params: { log_blocks: 3 },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-15 S4 S5 S6 S7 S0 S1 S8 S1 S5 S13 S2 S6 S14 S3 S7 S15' },
};

async function open(page: Page, at: number) {
  await page.goto(`/?scenario=${encodeURIComponent(JSON.stringify(FAST))}&at=${at}`);
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify({ step: at, op: 0 }));
}

async function press(page: Page, testid: string) {
  const before = await settled(page);
  await page.getByTestId(testid).click();
  await poll(async () => {
    const at = await settled(page);
    return `${at.step}:${at.op}` !== `${before.step}:${before.op}`;
  }).toBe(true);
}

const counterText = (page: Page) => page.getByTestId('step-counter');
const narration = (page: Page) => page.getByTestId('narration').locator('.narration-text');

test('a cut mid-merge tears the program under way: its own state, legend entry, hover and narration line', async ({
  page,
}) => {
  const problems = watch(page);
  await open(page, 31);
  await press(page, 'btn-step-op');
  // One request number: the request in play, counted from 1, in counter and panel.
  await expect(counterText(page)).toContainText('Request 32 / 32');
  await expect(counterText(page)).toContainText('op 1/');
  await expect(page.getByTestId('power-panel')).toContainText('After operation 1 of request 32');
  await page.getByTestId('power-cut').click();
  await expect(page.getByTestId('power-off')).toContainText('during request 32, after operation 1');
  await expect(counterText(page)).toContainText('Request 32 / 32');
  const torn = page.locator('[data-testid=device-grid] rect.page[data-state="5"]');
  await expect(torn).toHaveCount(1);
  const cell = page.locator('[data-testid=device-grid] g.page-cell:has(rect.page[data-state="5"]) > title');
  await expect(cell).toContainText('Torn: a program (or its block’s erase) under way when power failed');
  await expect(page.getByTestId('legend').locator('[data-state-key=torn]')).toBeVisible();
  await expect(narration(page)).toContainText('Power cut during request 32');
  await expect(narration(page)).toContainText(/Page \d of block \d+ is torn/);
  await page.screenshot({ path: 'test-results/power-torn.png' });
  expect(problems).toEqual([]);
});

test('the verdict shows only with its recovery complete on screen: Back into the recovery hides it', async ({
  page,
}) => {
  const problems = watch(page);
  await open(page, 31);
  await press(page, 'btn-step-op');
  await page.getByTestId('power-cut').click();
  await expect(page.getByTestId('power-off')).toBeVisible();
  await page.getByTestId('power-recover').click();
  await expect(page.getByTestId('power-recovering')).toContainText(
    'Recovering from the chip alone, after the cut in request 32',
  );
  await settled(page);
  await expect(counterText(page)).toContainText('Request 32 / 32');
  await page.screenshot({ path: 'test-results/power-recovering.png' });
  await page.getByTestId('power-finish').click();
  const verdict = page.getByTestId('power-verdict');
  await expect(verdict).toContainText('Recovered');
  // Request 32 was the workload's last: no "next request" to go on with.
  await expect(verdict).toContainText('That was the workload’s last request.');
  await expect(verdict).not.toContainText('next request');
  await settled(page);
  // The last recovery operation is narrated with "Recovery done".
  await expect(narration(page)).toContainText(/Recovery — op (\d+)\/\1: /);
  await expect(narration(page)).toContainText('Recovery done');
  await page.screenshot({ path: 'test-results/power-verdict.png' });
  // Back into the recovery: "Recovering… operation n-1 of n", and no verdict beside it.
  await press(page, 'btn-back');
  await expect(page.getByTestId('power-recovering')).toBeVisible();
  await expect(verdict).toHaveCount(0);
  await page.screenshot({ path: 'test-results/power-back-into-recovery.png' });
  // Step to the recovery's end again: its verdict is back.
  await press(page, 'btn-step-op');
  await expect(page.getByTestId('power-recovering')).toHaveCount(0);
  await expect(verdict).toContainText('Recovered');
  expect(problems).toEqual([]);
});

test('FAST full merge mid-way: the destination reads DEST beside the old DATA block', async ({ page }) => {
  const problems = watch(page);
  await open(page, 31);
  for (let i = 0; i < 6; i++) await press(page, 'btn-step-op');
  const bands = page.locator('[data-testid=device-grid] g.block[data-role=dest]');
  await expect(bands).toHaveCount(1);
  await page.screenshot({ path: 'test-results/fast-full-merge-midway.png' });
  expect(problems).toEqual([]);
});

test('a big chip on the canvas draws the torn page in its own colour and names it in the legend', async ({ page }) => {
  const problems = watch(page);
  // 1,100 × 4 pages: past the SVG's 4,096 pages, so the chip is drawn on a canvas.
  const big = { ...FAST, chip: { ...FAST.chip, blocks: 1100 } };
  await page.goto(`/?scenario=${encodeURIComponent(JSON.stringify(big))}&at=31`);
  const canvas = page.getByTestId('device-canvas');
  await expect(canvas).toBeVisible();
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify({ step: 31, op: 0 }));
  await press(page, 'btn-step-op');
  // Before the cut no page is torn: neither the legend nor the canvas shows the colour.
  const tornPixels = () =>
    canvas.evaluate((c: HTMLCanvasElement) => {
      // read a copy (the test's readbacks must not make the app's canvas warn)
      const copy = document.createElement('canvas');
      copy.width = c.width;
      copy.height = c.height;
      const ctx = copy.getContext('2d', { willReadFrequently: true })!;
      ctx.drawImage(c, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      // #882255, the torn page's fill (palette.ts)
      for (let i = 0; i < d.length; i += 4) if (d[i] === 0x88 && d[i + 1] === 0x22 && d[i + 2] === 0x55) n++;
      return n;
    });
  expect(await tornPixels()).toBe(0);
  await page.getByTestId('power-cut').click();
  await expect(page.getByTestId('power-off')).toContainText('during request 32, after operation 1');
  await expect(page.getByTestId('legend').locator('[data-state-key=torn]')).toBeVisible();
  await expect(narration(page)).toContainText(/Page \d of block \d+ is torn/);
  // the torn cell is painted: at least a few pixels of its colour on the canvas
  await poll(tornPixels).toBeGreaterThan(4);
  await page.screenshot({ path: 'test-results/power-torn-canvas.png' });
  expect(problems).toEqual([]);
});
