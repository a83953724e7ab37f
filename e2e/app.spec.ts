import { mkdirSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';
import { watch, counter, settled, stepTo, chipStill, poll, sharedTest as test } from './helpers';

// Collect console errors/warnings, page errors and off-site requests for each test.

/** A string that changes whenever any page's state changes. */
async function gridSignature(page: Page) {
  return page
    .locator('[data-testid=device-grid] rect.page')
    .evaluateAll((rects) => rects.map((r) => r.getAttribute('data-state')).join(''));
}

async function metric(page: Page, key: string) {
  return (await page.getByTestId(`metric-${key}`).locator('dd').textContent())?.trim();
}

async function ready(page: Page) {
  await page.goto('/');
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
}

test('opens on a ready default scenario at request 0 with the welcome, no console errors', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await expect(page.locator('[data-testid=device-grid] rect.page')).toHaveCount(64);
  await expect(page.getByTestId('scenario-line')).toContainText('Page mapping');
  // The first minute (issue 19): request 0 of a short workload, a welcome and the tour.
  expect((await counter(page)).step).toBe(0);
  expect(Number(await metric(page, 'host_writes'))).toBe(0);
  await expect(page.getByTestId('welcome')).toBeVisible();
  await expect(page.getByTestId('welcome-tour')).toBeEnabled();
  await expect(page.getByTestId('narration')).not.toBeEmpty();
  await page.getByTestId('btn-step-request').click();
  await poll(async () => (await counter(page)).step).toBe(1);
  await poll(() => gridSignature(page)).toMatch(/1/);
  await expect(page.getByRole('heading', { name: 'Metrics' })).toBeVisible();
  // Hover details are in <title>: pbn, role, erase count, owner, valid pages.
  const title = await page.locator('[data-testid=device-grid] g.block > title').first().textContent();
  expect(title).toMatch(/Block 0 · .+ · erase count \d+ · owner LBN .+ · valid pages \d+\/4/);
  // Tests never modify tracked files: the screenshot stays in test-results/.
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/ftlscope-default.png' });
  expect(problems).toEqual([]);
});

test('stepping changes the counters and the grid', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  const before = {
    c: await counter(page),
    grid: await gridSignature(page),
    programs: await metric(page, 'page_programs'),
  };
  for (let i = 0; i < 5; i++) await page.getByTestId('btn-step-request').click();
  await poll(async () => (await counter(page)).step).toBeGreaterThanOrEqual(before.c.step + 4);
  await poll(() => gridSignature(page)).not.toBe(before.grid);
  await poll(() => metric(page, 'page_programs')).not.toBe(before.programs);

  // Step op reveals one operation at a time: the event list grows or a new request starts.
  await stepTo(page, 'btn-step-op');
  await expect(page.getByTestId('event-list').locator('li').first()).toBeVisible();
  expect(problems).toEqual([]);
});

test('play and pause', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('speed').selectOption('20req');
  const start = (await counter(page)).step;
  await page.getByTestId('btn-play').click();
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'true');
  await poll(async () => (await counter(page)).step, { timeout: 10_000 }).toBeGreaterThan(start + 3);
  await page.getByTestId('btn-play').click();
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  // Settled means nothing is queued, revealing or playing: paused, nothing moves on its own.
  const paused = await settled(page);
  expect(await counter(page)).toEqual({ step: paused.step, op: paused.op });

  // Space toggles too (focus not in a text field).
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  await page.keyboard.press('Space');
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  expect(problems).toEqual([]);
});

test('step back undoes a step, by button and by arrow keys', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  const c0 = await counter(page);
  const g0 = await gridSignature(page);
  const m0 = await metric(page, 'page_programs');
  await page.getByTestId('btn-step-request').click();
  await poll(async () => JSON.stringify(await counter(page))).not.toBe(JSON.stringify(c0));
  const c1 = JSON.stringify(await counter(page));
  await page.getByTestId('btn-step-request').click();
  await poll(async () => JSON.stringify(await counter(page))).not.toBe(c1);
  expect((await counter(page)).step).toBeGreaterThan(c0.step);
  // Back one operation at a time until we are where we started.
  for (let i = 0; i < 50 && JSON.stringify(await counter(page)) !== JSON.stringify(c0); i++) {
    await stepTo(page, 'btn-back');
  }
  expect(await counter(page)).toEqual(c0);
  expect(await gridSignature(page)).toBe(g0);
  expect(await metric(page, 'page_programs')).toBe(m0);

  // → then ← with the keyboard lands on the same state again.
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  await page.keyboard.press('ArrowRight');
  await poll(async () => JSON.stringify(await counter(page))).not.toBe(JSON.stringify(c0));
  await page.keyboard.press('ArrowLeft');
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify(c0));
  expect(await gridSignature(page)).toBe(g0);
  expect(problems).toEqual([]);
});

test('the scrubber seeks, and arrow keys in a text field do not step', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  // The slider is a native range input: Home/End/arrows move it (and do not step ops).
  const scrubber = page.getByTestId('scrubber');
  await scrubber.focus();
  await page.keyboard.press('Home');
  await poll(async () => (await counter(page)).step).toBe(0);
  await poll(() => metric(page, 'host_writes')).toBe('0');
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await poll(async () => (await counter(page)).step).toBe(10);
  await page.keyboard.press('End');
  await poll(async () => (await counter(page)).step).toBe(200);
  await page.getByTestId('workload-n').focus();
  const c = await counter(page);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('Space');
  // The keys went to the text field: nothing was queued, nothing plays, the moment is the same.
  const after = await settled(page);
  expect({ step: after.step, op: after.op }).toEqual(c);
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  expect(problems).toEqual([]);
});

test('an inline pattern runs, and a bad scenario shows an error instead of a blank page', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('workload-kind').selectOption('pattern');
  await page.getByTestId('pattern').fill('w0 w4 w8 w12 r3 (w1 w2)x3');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('step-counter')).toContainText('/ 11');
  await expect(page.getByTestId('scenario-line')).toContainText('pattern');

  await page.getByTestId('pattern').fill('w0 (w1');
  await page.getByTestId('apply').click();
  // The form refuses it with the core's message (issue 19: Apply runs what the form shows or
  // changes nothing).
  await expect(page.getByTestId('apply-error')).toBeVisible();
  await expect(page.getByTestId('apply-error')).toContainText(/pattern|close|paren|\(/i);
  await expect(page.getByTestId('step-counter')).toContainText('/ 11');
  // The previous scenario is still there.
  await expect(page.locator('[data-testid=device-grid] rect.page')).toHaveCount(64);
  expect(problems).toEqual([]);
});

test('dark theme renders and is remembered', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await chipStill(page);
  await page.screenshot({ path: 'test-results/ftlscope-dark.png' });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  expect(problems).toEqual([]);
});

test('the application-like generators are offered, each described in one sentence, and run', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  for (const [label, words] of [
    ['Digital camera', 'camera'],
    ['OLTP database', 'database'],
    ['Postmark (mail server)', 'Postmark'],
  ] as const) {
    await page.getByTestId('workload-kind').selectOption({ label });
    await expect(page.getByTestId('workload-help')).toContainText(words);
    await page.getByTestId('apply').click();
    await expect(page.getByTestId('step-counter')).toContainText('/ 200');
    await page.getByTestId('btn-step-request').click();
    await poll(async () => (await counter(page)).step).toBeGreaterThan(0);
  }
  expect(problems).toEqual([]);
});
