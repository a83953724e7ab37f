import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { sharedTest as test, settled, watch } from './helpers';

// The Paper results page (web/src/papers): claims beside our figures, and a claim's
// scenario opened in the simulator from its button.

test('Paper results lists the claims and opens a claim’s scenario in the simulator', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/');
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  // Keyboard: the header button opens the page, its heading takes the focus.
  await page.getByTestId('papers-toggle').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('papers')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Paper results' })).toBeFocused();
  for (const paper of ['FAST', 'KRAFT', 'RFTL', 'FastCheck', 'LTFTL']) {
    await expect(page.locator('.papers-paper h3', { hasText: paper }).first()).toBeVisible();
  }
  const row = page.getByTestId('claim-rftl-table4-32-100');
  await expect(row).toContainText('419 µs');
  await expect(row).toContainText('426');
  await expect(row).toContainText('matches');
  await expect(row).toContainText('ftl run --scheme rftl --chip rftl-large --blocks 192 --pages-per-block 32');
  await expect(page.getByTestId('claim-fastcheck-redo')).toContainText('88');
  mkdirSync('test-results', { recursive: true });
  await page.screenshot({ path: 'test-results/papers-page.png', fullPage: false });
  await page.getByTestId('papers-filter').selectOption('RFTL');
  await expect(page.getByTestId('claim-fast-2.4-thrashing')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/papers-rftl.png', fullPage: false });
  await page.getByTestId('papers-filter').selectOption('all');

  // Open the BAST thrashing scenario: the page closes and the simulator shows it.
  await page.getByTestId('open-fast-2.4-thrashing').click();
  await expect(page.getByTestId('papers')).toHaveCount(0);
  await expect(page.getByTestId('scenario-line')).toContainText('BAST');
  await expect(page.getByTestId('scenario-line')).toContainText('16×4');
  // Escape closes the page again.
  await page.getByTestId('papers-toggle').click();
  await expect(page.getByTestId('papers')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('papers')).toHaveCount(0);
  await expect(page.getByTestId('papers-toggle')).toBeFocused();
  expect(problems).toEqual([]);
});

test('a live-pages scenario (RFTL Table 4) opens from its link', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/');
  // the startup's default is open (its load would otherwise queue after the paper's)
  await settled(page);
  await page.getByTestId('papers-toggle').click();
  await page.getByTestId('open-rftl-table4-64-50').click();
  await expect(page.getByTestId('scenario-line')).toContainText('2 live pages of 64 per logical block');
  await expect(page.locator('[data-testid=error]')).toHaveCount(0);
  expect(problems).toEqual([]);
});
