// The tour stop "why an SSD stripes writes" (issue 40, item 4): a tour's device stop opens
// the device view at the stop's device operation with the tour panel beside the dies;
// stepping works there; a one-chip stop brings the chip view back; a reload (the link)
// returns to the device stop; print draws the dies; the editor adds a device stop.
// Screenshots at 1024 x 768 and 1366 x 768, normal and presentation.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { counter, watch, poll } from './helpers';

const SHOTS = 'test-results/device-tour';

async function atStop(page: Page, index: number) {
  await expect(page.getByTestId('tour-panel')).toHaveAttribute('data-stop', String(index));
}

/** The device view settled at a device operation, its 8 dies drawn. */
async function deviceAt(page: Page, cursor: number) {
  const view = page.getByTestId('device-view');
  await expect(view).toHaveAttribute('data-ready', 'true');
  await expect(view).toHaveAttribute('data-cursor', String(cursor));
  await expect(page.locator('.device-die [data-testid=device-grid]')).toHaveCount(8);
}

test('the striping tour: one chip, then 8 dies with the tour beside them, and back', async ({ page }) => {
  test.setTimeout(180_000);
  const problems = watch(page);
  mkdirSync(SHOTS, { recursive: true });
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/#tour=ssd-striping');
  const panel = page.getByTestId('tour-panel');
  await atStop(page, 0);
  await expect(panel).toContainText('A burst of 32 writes on one chip');
  // One chip: the first write done, the other 31 queued above the chip.
  await poll(() => counter(page)).toEqual({ step: 1, op: 0 });
  await expect(page.getByTestId('queue-strip')).toBeVisible();
  await expect(page.getByTestId('device-view')).toHaveCount(0);

  await page.getByTestId('tour-next').click();
  await atStop(page, 1);
  await poll(() => counter(page)).toEqual({ step: 32, op: 0 });

  // The device stop: 8 dies at device operation 9 (die 0's second write), the tour beside.
  await page.getByTestId('tour-next').click();
  await atStop(page, 2);
  await deviceAt(page, 9);
  const view = page.getByTestId('device-view');
  await expect(view).toHaveAttribute('data-current-die', '0');
  await expect(page.locator('.layout')).toBeHidden();
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('The same burst striped over 8 dies');
  await expect(page.getByTestId('tour-answer')).toContainText('About 0.8 ms');
  // What the text says: each die's queue holds at most 4 writes (die 0 has started its second).
  await expect(page.getByTestId('die-queue-0').locator('li')).toHaveCount(3);
  for (let d = 1; d < 8; d++) await expect(page.getByTestId(`die-queue-${d}`).locator('li')).toHaveCount(4);
  for (const [w, h] of [
    [1366, 768],
    [1024, 768],
  ]) {
    await page.setViewportSize({ width: w, height: h });
    await deviceAt(page, 9);
    await page.screenshot({ path: `${SHOTS}/stop-${w}x${h}.png` });
    await page.getByTestId('present-toggle').click();
    await expect(page.locator('.app')).toHaveAttribute('data-present', 'true');
    await deviceAt(page, 9);
    await page.screenshot({ path: `${SHOTS}/stop-${w}x${h}-present.png` });
    await page.getByTestId('present-toggle').click();
    await expect(page.locator('.app')).toHaveAttribute('data-present', 'false');
  }
  await page.setViewportSize({ width: 1366, height: 768 });

  // Step in the device view: die 1's second write, the tour stays.
  await page.getByTestId('device-step').click();
  await deviceAt(page, 10);
  await expect(view).toHaveAttribute('data-current-die', '1');
  await atStop(page, 2);

  // The last stop, on the same device: the burst done at 807 µs.
  await page.getByTestId('tour-next').click();
  await atStop(page, 3);
  await deviceAt(page, 32);
  await expect(page.getByTestId('device-now')).toHaveText('807.0 µs');
  await expect(page.getByTestId('device-status')).toContainText('Host requests done: 32 of 32');

  // A reload (the address bar's link) comes back to this stop on the device.
  await page.reload();
  await atStop(page, 3);
  await deviceAt(page, 32);

  // Print: the device stops draw their 8 dies.
  await page.getByTestId('tour-print').click();
  await expect(page.getByTestId('print-tour')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('print-dies')).toHaveCount(2);
  await expect(page.getByTestId('print-dies').first().locator('[data-die]')).toHaveCount(8);
  await expect(page.getByTestId('print-dies').last()).toContainText('device time 807.0 µs');
  await page.getByTestId('print-close').click();

  // Back to a one-chip stop: the chip view returns, at that stop's moment.
  await page.getByTestId('tour-prev').click();
  await atStop(page, 2);
  await deviceAt(page, 9);
  await page.getByTestId('tour-prev').click();
  await atStop(page, 1);
  await expect(page.getByTestId('device-view')).toHaveCount(0);
  await expect(page.locator('.layout')).toBeVisible();
  await expect(page.locator('.chip-area [data-testid=device-grid] rect.page').first()).toBeVisible();
  await poll(() => counter(page)).toEqual({ step: 32, op: 0 });
  expect(problems).toEqual([]);
});

test('the tour editor adds a stop on the device view', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/#tour=ssd-striping');
  await atStop(page, 0);
  // Edit this tour: a copy in the editor, at its first (one-chip) stop.
  await page.getByTestId('tour-edit').click();
  const editor = page.getByTestId('tour-editor');
  await expect(editor).toHaveAttribute('data-stops', '4');
  await expect(page.getByTestId('device-view')).toHaveCount(0);
  // Its third stop is on the device: the device view opens with the editor beside it.
  await editor.getByTestId('ted-stop-item').nth(2).locator('.ted-stop-go').click();
  await deviceAt(page, 9);
  await expect(editor.getByTestId('ted-stop-at')).toHaveText('On a device of 8 dies, at device operation 9.');
  await page.getByTestId('device-step').click();
  await deviceAt(page, 10);
  const add = editor.getByTestId('ted-add');
  await expect(add).toContainText('device operation 10');
  await add.click();
  await expect(editor).toHaveAttribute('data-stops', '5');
  await expect(editor.getByTestId('ted-stop')).toHaveAttribute('data-index', '3');
  await expect(editor.getByTestId('ted-stop-at')).toHaveText('On a device of 8 dies, at device operation 10.');
  // The list names each stop's place: a chip stop by request, a device stop by its operation.
  await expect(editor.getByTestId('ted-stop-place')).toHaveText([
    'r1',
    'r32',
    'op 9 (8 dies)',
    'op 10 (8 dies)',
    'op 32 (8 dies)',
  ]);
  await page.screenshot({ path: `${SHOTS}/editor-1366x768.png` });
  // Selecting a one-chip stop brings the chip view back, the editor above it.
  await editor.getByTestId('ted-stop-item').nth(0).locator('.ted-stop-go').click();
  await expect(page.getByTestId('device-view')).toHaveCount(0);
  await poll(() => counter(page)).toEqual({ step: 1, op: 0 });
  await expect(page.getByTestId('tour-editor')).toBeVisible();
  expect(problems).toEqual([]);
});
