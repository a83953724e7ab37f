import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import lz from 'lz-string';
import { sharedTest as test, counter, settled, settledAt, stepTo, watch, poll } from './helpers';

// What is on screen at (request, flash operation) is the simulation's state at that
// moment (issue 14; docs/architecture.md, "Op-exact moments").

const { compressToEncodedURIComponent } = lz;

function link(scenario: object, at: { step: number; op: number }) {
  return `/#v1=${compressToEncodedURIComponent(JSON.stringify({ v: 1, scenario, at }))}`;
}

async function open(page: Page, path: string, at: { step: number; op: number }) {
  await page.goto(path);
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify(at));
}

async function metric(page: Page, key: string) {
  return Number((await page.getByTestId(`metric-${key}`).locator('dd').textContent())?.replace(/[^0-9.]/g, ''));
}

async function ops(page: Page) {
  return Number(await page.getByTestId('step-counter').getAttribute('data-ops'));
}

/** One step, waiting until the app settled on the next moment. */
async function stepOp(page: Page) {
  await stepTo(page, 'btn-step-op');
}

function shot(page: Page, name: string) {
  mkdirSync('test-results', { recursive: true });
  return page.screenshot({ path: `test-results/opexact-${name}.png` });
}

const BAST = {
  scheme: 'bast',
  params: { log_blocks: 2 },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12' },
};

test('BAST full merge: erases, host writes and block 6 change exactly when their operations are shown', async ({
  page,
}) => {
  const problems = watch(page);
  await open(page, link(BAST, { step: 18, op: 0 }), { step: 18, op: 0 });
  const erases0 = await metric(page, 'erases');
  const writes0 = await metric(page, 'host_writes');
  const band6 = page.locator('[data-testid=device-grid] g.block[data-block="6"] .role-text');
  await expect(band6).not.toHaveText('DATA L0');

  await stepOp(page);
  expect(await counter(page)).toEqual({ step: 18, op: 1 });
  const n = await ops(page);
  expect(n).toBeGreaterThan(3);
  expect(await metric(page, 'erases')).toBe(erases0);
  expect(await metric(page, 'host_writes')).toBe(writes0);

  // Op by op: erases count only the erases shown so far; block 6 is LBN 0's data block
  // only once a program into it is shown; the host write counts when the request completes.
  let erasesShown = 0;
  let programmed6 = false;
  let shotTaken = false;
  for (let k = 1; k <= n; k++) {
    if (k > 1) await stepOp(page);
    const text = (await page.getByTestId('narration').locator('.narration-text').textContent()) ?? '';
    const lastOp = text.trim().split('\n').pop() ?? '';
    if (/^erase block \d+/.test(lastOp)) erasesShown++;
    if (/^program lpn \d+ into page \d+ of block 6 /.test(lastOp)) programmed6 = true;
    const done = k === n;
    expect(await metric(page, 'erases'), `op ${k}: ${lastOp}`).toBe(erases0 + erasesShown);
    expect(await metric(page, 'host_writes'), `op ${k}`).toBe(done ? writes0 + 1 : writes0);
    // Before its first program block 6 is not LBN 0's data block; while the merge copies
    // into it, it is the merge's destination (BAST's block map points at it after the
    // copies); when the request completes it reads DATA L0.
    const block6 = page.locator('[data-testid=device-grid] g.block[data-block="6"]');
    if (done) await expect(band6).toHaveText('DATA L0');
    else if (!programmed6) await expect(band6, `op ${k}: ${lastOp}`).not.toHaveText('DATA L0');
    else expect(['dest', 'data'], `op ${k}: ${lastOp}`).toContain(await block6.getAttribute('data-role'));
    if (!done) expect(await counter(page)).toEqual({ step: 18, op: k });
    if (!shotTaken && programmed6 && !done) {
      // Mid-merge: the victims are marked until their erases are shown.
      await expect(page.locator('[data-testid=device-grid] g.block.victim').first()).toBeVisible();
      await shot(page, 'bast-merge-mid-request');
      shotTaken = true;
    }
  }
  expect(erasesShown).toBeGreaterThan(0);
  expect(programmed6).toBe(true);
  expect(await counter(page)).toEqual({ step: 19, op: 0 });
  expect(problems).toEqual([]);
});

test('FastCheck tour stop 5: the map block the narration writes to is drawn as a map block', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/#tour=fastcheck-power-cut');
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-stop', '0');
  await page.locator('body').click({ position: { x: 600, y: 700 } });
  for (let i = 1; i <= 4; i++) {
    await page.keyboard.press('PageDown');
    await expect(panel).toHaveAttribute('data-stop', String(i));
  }
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify({ step: 108, op: 10 }));
  const events = page.getByTestId('event-list');
  const said =
    ((await page.getByTestId('narration').textContent()) ?? '') +
    ((await events.count()) ? await events.first().textContent() : '');
  const m = /map block (\d+)/.exec(said);
  expect(m, said).not.toBeNull();
  const block = m![1];
  await expect(page.locator(`[data-testid=device-grid] g.block[data-block="${block}"]`)).toHaveAttribute(
    'data-role',
    'map',
  );
  expect(problems).toEqual([]);
});

const FASTCHECK = {
  scheme: 'fastcheck',
  params: {},
  chip: { preset: 'classroom', blocks: 32, pages_per_block: 4 },
  workload: { kind: 'pattern', text: '(w0-40)x4 (w3 w9 w17 w33 w2 w21)x20' },
};

/** Steps op by op into the middle of a request that needs 4 or more operations. */
async function intoLongRequest(page: Page) {
  for (let i = 0; i < 200; i++) {
    await stepOp(page);
    const n = await ops(page);
    const { op } = await counter(page);
    if (n >= 4 && op === Math.floor(n / 2)) return;
    if (n >= 4 && op < Math.floor(n / 2)) continue;
    if (n > 0 && n < 4) await page.getByTestId('btn-step-request').click();
  }
  throw new Error('no request with 4 operations');
}

test('power cut mid-request on a branch, recover, cut again inside the recovery, recover: ok, the branch’s counters', async ({
  page,
}) => {
  // Two cuts and two recoveries revealed op by op: three times the default budget on a loaded machine.
  test.slow();
  const problems = watch(page);
  await open(page, link(FASTCHECK, { step: 100, op: 0 }), { step: 100, op: 0 });
  // First cut, mid-request: the run branches after recovery.
  await intoLongRequest(page);
  await page.getByTestId('power-cut').click();
  await expect(page.getByTestId('power-off')).toBeVisible();
  await expect(page.getByTestId('narration')).not.toContainText('{');
  await page.getByTestId('power-recover').click();
  await page.getByTestId('power-finish').click();
  await expect(page.getByTestId('power-verdict')).toContainText('Recovered');
  // Five requests, each whole: a click during a reveal lands it first (midmerge.spec.ts), so
  // the clicks need not wait out each reveal's 250 ms frames; settled on the fifth.
  const from = (await settled(page)).step;
  for (let i = 0; i < 5; i++) await page.getByTestId('btn-step-request').click();
  await settledAt(page, { step: from + 5, op: 0 });
  // Second cut, mid-request on the branch.
  await intoLongRequest(page);
  const r2 = (await counter(page)).step;
  const writes = await metric(page, 'host_writes');
  // Every request is a write; one (the first cut's) was never acknowledged.
  expect(writes).toBe(r2 - 1);
  await page.getByTestId('power-cut').click();
  await expect(page.getByTestId('power-off')).toBeVisible();
  expect((await counter(page)).step).toBe(r2);
  await page.getByTestId('power-recover').click();
  await expect(page.getByTestId('power-recovering')).toBeVisible();
  await expect(page.getByTestId('narration')).toContainText('Power is back');
  for (let i = 0; i < 3; i++) await stepOp(page);
  await expect(page.getByTestId('narration')).toContainText('Recovery — op 3/');
  // Cut again inside the recovery.
  await page.getByTestId('power-cut-recovery').click();
  await expect(page.getByTestId('power-off')).toContainText('during the recovery');
  await expect(page.getByTestId('narration')).toContainText('during the recovery');
  await shot(page, 'power-cut-in-recovery');
  await page.getByTestId('power-recover').click();
  await stepOp(page);
  await shot(page, 'recovering-again');
  await page.getByTestId('power-finish').click();
  await expect(page.getByTestId('power-verdict')).toContainText('Recovered');
  await poll(async () => (await counter(page)).step).toBe(r2 + 1);
  expect(await metric(page, 'host_writes')).toBe(writes);
  // The session stays on its branch: the next request counts on from there.
  await page.getByTestId('btn-step-request').click();
  await poll(async () => (await counter(page)).step).toBe(r2 + 2);
  expect(await metric(page, 'host_writes')).toBe(writes + 1);
  expect(problems).toEqual([]);
});
