import { expect, type Page } from '@playwright/test';
import lz from 'lz-string';
import { sharedTest as test, counter, watch, poll } from './helpers';

// Every key press counts, however fast (issue 14); ←/→/Space step and play unless a text
// field has focus. Run 20 times under load: `npm run test:e2e:stress`.

const { compressToEncodedURIComponent } = lz;

// One flash operation per request (page mapping, writes to a fresh chip): n presses of →
// land on request n.
const SCENARIO = {
  scheme: 'page',
  params: {},
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-39' },
};

async function open(page: Page) {
  await page.goto(
    `/#v1=${compressToEncodedURIComponent(JSON.stringify({ v: 1, scenario: SCENARIO, at: { step: 0, op: 0 } }))}`,
  );
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify({ step: 0, op: 0 }));
}

test('10 quick → presses with the scrubber focused land 10 requests on', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  await page.getByTestId('scrubber').focus();
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await poll(async () => (await counter(page)).step).toBe(10);
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft');
  await poll(async () => (await counter(page)).step).toBe(6);
  expect(problems).toEqual([]);
});

test('10 quick → presses on the page step 10 flash operations, 10 ← step back', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  await page.locator('body').click({ position: { x: 5, y: 700 } });
  for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
  await poll(async () => (await counter(page)).step).toBe(10);
  for (let i = 0; i < 7; i++) await page.keyboard.press('ArrowLeft');
  await poll(async () => (await counter(page)).step).toBe(3);
  expect(problems).toEqual([]);
});

test('with the speed menu focused, → steps and Space plays (the speed is unchanged)', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  const speed = page.getByTestId('speed');
  const v = await speed.inputValue();
  await speed.focus();
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await poll(async () => (await counter(page)).step).toBe(3);
  await expect(speed).toHaveValue(v);
  await expect(speed).toBeFocused();
  await page.keyboard.press('Space');
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  await expect(speed).toHaveValue(v);
  expect(problems).toEqual([]);
});

test('in a text field, arrows and Space type instead of stepping', async ({ page }) => {
  const problems = watch(page);
  await open(page);
  await page.getByTestId('btn-step-request').click();
  await poll(async () => (await counter(page)).step).toBe(1);
  const field = page.getByTestId('pattern');
  await field.focus();
  const c = await counter(page);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  // Commands run in order: had an arrow stepped, this request step would land further on.
  await page.getByTestId('btn-step-request').click();
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify({ step: c.step + 1, op: 0 }));
  expect(problems).toEqual([]);
});
