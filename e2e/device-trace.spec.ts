// An uploaded trace in the device view itself (issue 40): the trace uploaded for the chip
// view runs on an 8-die device when the form's Device fields open it, striped over the
// dies (page striping: device page p on die p mod 8), stepped op by op in time order,
// cut and recovered with no acknowledged write lost. The device worker reads the file
// again from the page's File (nothing leaves the browser: `watch` fails on any request
// off the machine). Screenshots at 1366 x 768 and 1024 x 768.
import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { readyAt } from './helpers';

const SHOTS = 'test-results/device-trace';

/** Uploads hotcold.msr.csv for page mapping on fast2007 cut to 32 blocks, and opens it on 8 x 1 dies. */
async function openHotcoldOn8Dies(page: Page) {
  // hotcold.msr.csv: 2,000 page requests made for fast2007 cut to 32 blocks, written as 1,998
  // records (`ftl export` joins two runs of consecutive pages: traces/README.md); its first
  // three: write of page 131, write of page 58, read of page 411.
  await page.getByTestId('trace-input').setInputFiles('traces/hotcold.msr.csv');
  await expect(page.getByTestId('trace-requests')).toHaveText('2,000');
  await page.getByTestId('trace-scheme').selectOption('page');
  await page.getByTestId('trace-chip').selectOption('fast2007');
  await page.getByTestId('trace-blocks').fill('32');
  await page.getByTestId('trace-fit-none').check();
  await expect(page.getByTestId('trace-fit-preview')).toContainText('0 of 2,000 requests touched');
  await page.getByTestId('trace-run').click();
  await expect(page.getByTestId('scenario-line')).toContainText('trace “hotcold.msr.csv”');
  await applyDevice(page);
}

async function applyDevice(page: Page) {
  await page.getByTestId('device-channels').selectOption('8');
  await page.getByTestId('device-dies').selectOption('1');
  await page.getByTestId('device-stripe').selectOption('page');
  await page.getByTestId('apply').click();
}

test('an uploaded trace runs on 8 dies in the device view, in time order, and survives a power cut', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const problems = await readyAt(page, { width: 1366, height: 768 });
  await openHotcoldOn8Dies(page);
  const view = page.getByTestId('device-view');
  await expect(view).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  await expect(page.locator('.device-die')).toHaveCount(8);
  await expect(page.getByTestId('device-trace')).toContainText('hotcold.msr.csv');
  await expect(page.getByTestId('device-error')).toHaveCount(0);
  // The trace's host requests (its 1,998 records), not the scenario's generated workload.
  // ftl run --scheme page --chip fast2007 --blocks 32 --trace traces/hotcold.msr.csv --channels 8: 1,998.
  await expect(page.getByTestId('device-status')).toContainText('of 1998;');

  // Step op by op: each operation's start is no earlier than the one before (time order),
  // and the operations fall on several dies; the first is the trace's first write (page
  // 131: die 3). 16 operations, not 40: each step redraws 8 dies of 2,048 pages (~1.3 s a
  // step at load 15), and the trace's first 16 records already fall on 7 dies (pages 131, 58,
  // 411, 116, 99, 89, 19, 90, 133, 294, 178, 130, 144, 109, 38, 142: dies 3, 2, 3, 4, 3, 1, 3,
  // 2, 5, 6, 2, 2, 0, 5, 6, 6), so 15 pairs are checked for order and >= 4 dies can fail.
  const STEPS = 16;
  const seen: { die: number; start: number }[] = [];
  for (let i = 1; i <= STEPS; i++) {
    await page.getByTestId('device-step').click();
    await expect(view).toHaveAttribute('data-cursor', String(i));
    seen.push({
      die: Number(await view.getAttribute('data-current-die')),
      start: Number(await view.getAttribute('data-current-start')),
    });
  }
  expect(seen[0].die).toBe(3);
  for (let i = 1; i < seen.length; i++) expect(seen[i].start).toBeGreaterThanOrEqual(seen[i - 1].start);
  expect(new Set(seen.map((s) => s.die)).size).toBeGreaterThanOrEqual(4);
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/stepped-1366x768.png` });

  // Cut the power here: every die stops; power on, every die recovers from its own chip.
  const power = page.getByTestId('device-power');
  await page.getByTestId('device-cut').click();
  await expect(power).toHaveAttribute('data-power', 'off');
  await expect(page.getByTestId('device-step')).toBeDisabled();
  await page.getByTestId('device-recover').click();
  await expect(power).toHaveAttribute('data-power', 'recovering');
  await page.getByTestId('device-step').click();
  await expect(page.locator('.device-die[data-current]')).toHaveCount(1);
  await page.getByTestId('device-recover-whole').click();
  await expect(power).toHaveAttribute('data-power', 'recovered');
  const verdict = page.getByTestId('device-verdict');
  await expect(verdict).toHaveAttribute('data-ok', 'true');
  await expect(verdict).toContainText('no acknowledged write lost');
  await expect(page.locator('[data-testid^=die-recovery-] b.ok')).toHaveCount(8);
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.screenshot({ path: `${SHOTS}/recovered-1024x768.png` });

  // The run goes on after the recovery, on the trace's requests.
  await page.getByTestId('device-step').click();
  await expect(view).toHaveAttribute('data-cursor', String(STEPS + 1));
  await expect(power).toHaveAttribute('data-power', 'on');
  await expect(page.getByTestId('device-status')).toContainText('the run after a power cut');
  await page.screenshot({ path: `${SHOTS}/run-on-1024x768.png` });
  expect(problems).toEqual([]);
});

test('Cancel while the device worker still reads the upload stops it and leaves the device view', async ({ page }) => {
  test.setTimeout(120_000);
  // The test hook (docs/ssd.md): the device worker's reader waits after its first chunk until
  // released, so the parse is still under way when Cancel is clicked, however fast the machine.
  await page.addInitScript(() => {
    (window as unknown as { __ftlscopeHoldDeviceRead: boolean }).__ftlscopeHoldDeviceRead = true;
  });
  const problems = await readyAt(page, { width: 1280, height: 720 });
  await openHotcoldOn8Dies(page);
  const view = page.getByTestId('device-view');
  const reading = page.getByTestId('device-reading');
  // The first chunk is read (the whole small file: 100 %) and the reader is held there.
  await expect(reading).toHaveAttribute('data-percent', '100');
  await expect(view).not.toHaveAttribute('data-ready', 'true');
  await page.screenshot({ path: `${SHOTS}/reading-held-1280x720.png` });
  await page.getByTestId('device-reading-cancel').click();
  await expect(view).toHaveCount(0);
  await expect(page.locator('[data-testid=device-grid]').first()).toBeVisible();
  await expect(page.getByTestId('scenario-line')).toContainText('trace “hotcold.msr.csv”');

  // Opened again, held again; released, the same upload opens on the device: the hold was
  // all that kept it.
  await applyDevice(page);
  await expect(reading).toHaveAttribute('data-percent', '100');
  await expect(view).not.toHaveAttribute('data-ready', 'true');
  await page.evaluate(() =>
    (window as unknown as { __ftlscopeReleaseDeviceRead: () => void }).__ftlscopeReleaseDeviceRead(),
  );
  await expect(view).toHaveAttribute('data-ready', 'true', { timeout: 60_000 });
  await expect(reading).toHaveCount(0);
  await expect(page.getByTestId('device-status')).toContainText('of 1998;');
  expect(problems).toEqual([]);
});
