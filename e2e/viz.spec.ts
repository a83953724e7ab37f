import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';

function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  return problems;
}

function url(scenario: object, at = 0) {
  return `/?scenario=${encodeURIComponent(JSON.stringify(scenario))}${at ? `&at=${at}` : ''}`;
}

async function counter(page: Page) {
  const el = page.getByTestId('step-counter');
  return { step: Number(await el.getAttribute('data-step')), op: Number(await el.getAttribute('data-op')) };
}

const BAST = {
  scheme: 'bast',
  params: { log_blocks: 2 },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-15 (w1 w5 w9 w13)x2' },
};

test.beforeAll(() => mkdirSync('test-results', { recursive: true }));

test('views render: chip, charts, light and dark, with no console errors', async ({ page }) => {
  const problems = watch(page);
  await page.goto(url(BAST, 18));
  await expect.poll(async () => (await counter(page)).step).toBe(18);
  await expect(page.locator('[data-testid=device-grid] rect.page')).toHaveCount(64);
  await page.screenshot({ path: 'test-results/viz-chip-light.png' });
  await page.getByTestId('tab-charts').click();
  await expect(page.getByTestId('charts')).toBeVisible();
  await page.screenshot({ path: 'test-results/viz-charts-light.png' });
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await page.waitForTimeout(300);
  await page.screenshot({ path: 'test-results/viz-charts-dark.png' });
  await page.getByTestId('tab-chip').click();
  await page.waitForTimeout(500);
  await page.screenshot({ path: 'test-results/viz-chip-dark.png' });
  expect(problems).toEqual([]);
});
