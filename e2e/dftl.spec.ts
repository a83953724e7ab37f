/// <reference lib="dom" />
// DFTL's panels (issue 38): the CMT's entries, the address-translation counters and the
// GTD, as the generic table list draws them, and their words in the glossary.
import { mkdirSync } from 'node:fs';
import { expect } from '@playwright/test';
import { sharedTest as test, ready, still, watch, poll } from './helpers';

test('DFTL shows its CMT, its translation counters and its GTD as requests run', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('preset').selectOption('hotcold-classroom');
  await page.getByTestId('scheme').selectOption('dftl');
  await page.getByTestId('apply').click();
  await expect(page.getByTestId('scenario-line')).toContainText('DFTL');
  const cmt = page.getByRole('region', { name: /^CMT \(cached mapping table, RAM\)/ });
  const counters = page.getByRole('region', { name: 'Address translation (DFTL)' });
  const gtd = page.getByRole('region', { name: /^GTD \(global translation directory, RAM\)/ });
  await expect(cmt).toBeVisible();
  await expect(gtd).toBeVisible();
  for (let i = 0; i < 12; i++) await page.getByTestId('btn-step-request').click();
  await poll(async () =>
    Number(await page.getByTestId('step-counter').getAttribute('data-step')),
  ).toBeGreaterThanOrEqual(12);
  // The classroom default CMT holds 4 entries: after 12 requests it is full, and some are dirty.
  await expect(cmt.locator('h2')).toContainText('4 of 4 entries');
  await expect(cmt.locator('tbody tr')).toHaveCount(4);
  await expect(cmt.locator('tbody')).toContainText('dirty');
  const misses = counters.locator('tr', { hasText: 'CMT misses' }).locator('td').nth(1);
  expect(Number(await misses.innerText())).toBeGreaterThan(0);
  // The words are glossary terms.
  await expect(cmt.locator('h2').getByRole('button', { name: /CMT/ }).first()).toBeVisible();
  mkdirSync('test-results', { recursive: true });
  await still(page);
  await cmt.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/dftl-panels.png', fullPage: true });
  expect(problems).toEqual([]);
});
