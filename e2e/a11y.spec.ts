import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { sharedTest as test, chipStill, still } from './helpers';

// axe-core on what issue 10 added: header tools, menus, the tour panel, the compare view,
// in the light and dark themes. Two tests, one a page (the tour, the compare view), so that
// the two workers share them and each stays well inside the config's hang detector: as one
// test it took 35 s idle and passed 60 s at load 16.
test.describe.configure({ mode: 'parallel' });

async function violations(page: Page, ...selectors: string[]) {
  let b = new AxeBuilder({ page });
  for (const s of selectors) b = b.include(s);
  const r = await b.analyze();
  return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The FAST merges tour opened, nothing moving. */
async function tourOpen(page: Page) {
  await page.goto('/#tour=fast-merges');
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  await still(page);
}

test('header tools, tour panel and tours menu have no axe violations', async ({ page }) => {
  await tourOpen(page);
  expect(await violations(page, 'header', '.tour-panel')).toEqual([]);
  await page.getByTestId('tour-menu').click();
  expect(await violations(page, 'header')).toEqual([]);
});

test('the compare view (with a run the chip cannot hold) and the header have no axe violations, light and dark', async ({
  page,
}) => {
  await tourOpen(page);
  await page.getByTestId('compare-toggle').click();
  // A run that cannot be built on the 16-block chip (the defaults fit it since issue 16).
  await page.getByTestId('compare-scheme-1').selectOption('fast');
  await page.getByTestId('compare-run-1').getByLabel('Log blocks').fill('16');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-table')).toBeVisible({ timeout: 30_000 });
  // FAST with 16 log blocks on a 16-block chip: the core's message is shown, and accessible.
  await expect(page.getByTestId('compare-errors')).toContainText('FAST · Log blocks 16');
  await chipStill(page);
  expect(await violations(page, '.compare')).toEqual([]);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await chipStill(page);
  expect(await violations(page, '.compare', 'header')).toEqual([]);
});
