// The open timing model in the app (docs/timing.md): the queue strip above the chip,
// the narration's "waits ... behind the full merge", and the response-time tail chart.
import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import lz from 'lz-string';
import { sharedTest as test, ready, still, watch } from './helpers';

const SHOTS = 'test-results/timing';
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

const state = {
  v: 1,
  scenario: {
    scheme: 'bast',
    params: { log_blocks: 1 },
    chip: { preset: 'classroom' },
    workload: { kind: 'pattern', text: 'w0 w1 w2 w3 w0 w4 w4 r1 r2 r3 w5 r0 r4' },
    timing: { model: 'open', rate: 1000 },
  },
  at: { step: 7, op: 0 },
};

test('open model: the queue behind a merge, the narration and the tail chart', async ({ page }) => {
  await page.goto(`/#v1=${lz.compressToEncodedURIComponent(JSON.stringify(state))}`);
  await expect(page.getByTestId('narration')).toContainText('Write lpn 4');
  // The read of lpn 1 (arrived at 7 ms, during the 4.86 ms merge from 6 ms) is next.
  await page.keyboard.press('ArrowRight');
  // why it waited: the narration's line (the strip keeps its fixed rows, issue 35)
  await expect(page.getByTestId('narration')).toContainText(
    'Read of lpn 1 waits 4.1 ms behind the full merge that the write of lpn 4 triggered',
  );
  // The read's one operation is done: it leaves the box (issue 35), shown as done with its wait.
  await expect(page.getByTestId('queue-done')).toContainText('read lpn 1 done · waited 4,060 µs');
  await expect(page.getByTestId('queue-serving')).toHaveCount(0);
  await expect(page.getByTestId('queue-waiting').first()).toContainText('read lpn 2');
  await expect(page.getByTestId('queue-strip')).toContainText('Request queue (open model)');
  await expect(page.getByTestId('queue-legend')).toContainText('being served');
  // Metrics say response, wait and service apart, and agree with the narration's 4.1 ms wait:
  // the read waited 4,060 µs and took 15 µs (host requests, open model).
  await expect(page.getByTestId('metrics-timing-model')).toContainText('open model');
  await expect(page.getByTestId('metric-read_wait')).toContainText('4.06 ms · 4.06 ms');
  await expect(page.getByTestId('metric-read_service')).toContainText('15 µs · 15 µs');
  await expect(page.getByTestId('metric-read_response')).toContainText('4.08 ms · 4.08 ms');
  await expect(page.getByTestId('legend-timing')).toContainText('open model');
  await expect(page.getByTestId('scenario-timing')).toContainText('open model, fixed 1,000/s');
  await still(page);
  await page.screenshot({ path: `${SHOTS}/queue-open.png` });
  await page.getByTestId('queue-strip').screenshot({ path: `${SHOTS}/queue-strip.png` });
  // One step on: the next read is served while the write behind it waits.
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('queue-done')).toContainText('read lpn 2 done');
  await page.getByTestId('tab-charts').click();
  const tail = page.getByTestId('chart-latency-tail');
  await expect(tail).toContainText('host requests, open model');
  await expect(tail).toContainText('p90');
});

test('the scenario form chooses the timing model: closed, or open at a fixed or Poisson rate', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await expect(page.getByTestId('scenario-timing')).toContainText('closed model');
  await expect(page.getByTestId('timing-closed')).toBeChecked();
  await expect(page.getByTestId('timing-help')).toContainText('no request waits');
  await page.getByTestId('timing-open').check();
  // A generated workload has no arrival times: a rate, Poisson first.
  await expect(page.getByTestId('timing-arrivals')).toHaveValue('poisson');
  await expect(page.locator('[data-testid=timing-arrivals] option[value=trace]')).toBeDisabled();
  await page.getByTestId('timing-rate').fill('800');
  await page.getByTestId('timing-seed').fill('7');
  await page.getByTestId('timing-field').screenshot({ path: `${SHOTS}/timing-form-poisson.png` });
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-timing')).toContainText('open model, Poisson 800/s (seed 7)');
  await expect(page.getByTestId('legend-timing')).toContainText('open model');
  await expect(page.getByTestId('queue-strip')).toBeVisible();
  await expect(page.getByTestId('metrics-timing-model')).toContainText('open model');
  // Fixed rate; an empty rate is refused with the reason.
  await page.getByTestId('timing-arrivals').selectOption('fixed');
  await expect(page.getByTestId('timing-seed')).toHaveCount(0);
  await page.getByTestId('timing-rate').fill('');
  await expect(page.getByTestId('timing-problem')).toContainText('rate');
  await expect(page.getByTestId('apply')).toBeDisabled();
  await page.getByTestId('timing-rate').fill('250');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-timing')).toContainText('open model, fixed 250/s');
  await page.getByTestId('timing-field').screenshot({ path: `${SHOTS}/timing-form-fixed.png` });
  // Back to closed: no queue, the legend says so.
  await page.getByTestId('timing-closed').check();
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-timing')).toContainText('closed model');
  await expect(page.getByTestId('queue-strip')).toHaveCount(0);
  await expect(page.getByTestId('legend-timing')).toContainText('closed model');
  expect(problems).toEqual([]);
});
