// The open timing model in the app (docs/timing.md): the queue strip above the chip,
// the narration's "waits ... behind the full merge", and the response-time tail chart.
import { expect, test } from '@playwright/test';
import lz from 'lz-string';

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
  await expect(page.getByTestId('queue-note')).toHaveText(
    'read of lpn 1 waits 4.1 ms behind the full merge that the write of lpn 4 triggered',
  );
  await expect(page.getByTestId('narration')).toContainText('Read of lpn 1 waits 4.1 ms behind the full merge');
  await expect(page.getByTestId('queue-serving')).toContainText('4,060 µs');
  await expect(page.getByTestId('queue-waiting').first()).toContainText('read lpn 2');
  await page.getByTestId('tab-charts').click();
  const tail = page.getByTestId('chart-latency-tail');
  await expect(tail).toContainText('host requests, open model');
  await expect(tail).toContainText('p90');
});
