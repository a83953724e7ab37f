// The DFTL tour in the app (issue 38): its stops reach the CMT miss, the dirty eviction's
// batched translation-page write and the GC of a translation block, and its prediction
// (GC of translation block 13, one copy) is answered right by the core.
import { expect } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { sharedTest as test, chipStill, settledAt, watch } from './helpers';

test('DFTL tour: CMT miss, batched write-back, translation-block GC predicted and shown', async ({ page }) => {
  test.setTimeout(120_000);
  const problems = watch(page);
  mkdirSync('test-results', { recursive: true });
  await page.goto('/#tour=dftl-cached-map');
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-stop', '0');
  await expect(panel).toContainText('ASPLOS 2009');
  await page.getByTestId('tour-next').click();
  await expect(panel).toHaveAttribute('data-stop', '1');
  await expect(page.getByTestId('tour-answer')).toContainText('translation page 0, with all 5 of its dirty entries');
  await expect(page.locator('[data-testid=device-grid] g.block.tour-hi').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/dftl-tour-writeback.png' });
  for (let i = 2; i <= 4; i++) {
    await page.getByTestId('tour-next').click();
    await expect(panel).toHaveAttribute('data-stop', String(i));
  }
  await settledAt(page, { step: 353 }, 60_000);
  const predict = panel.getByTestId('predict');
  await expect(predict).toContainText('What happens next?');
  await predict.getByTestId('predict-kind-gc').check();
  await predict.getByTestId('predict-victim').selectOption('13');
  await predict.getByTestId('predict-copies').selectOption('1');
  await page.screenshot({ path: 'test-results/dftl-tour-predict.png' });
  await panel.getByTestId('predict-check').click();
  for (const q of ['kind', 'victim', 'copies'])
    await expect(predict.getByTestId(`predict-result-${q}`)).toHaveAttribute('data-right', 'true');
  await page.getByTestId('tour-next').click();
  await expect(panel).toHaveAttribute('data-stop', '5');
  await settledAt(page, { step: 353, op: 3 });
  await chipStill(page);
  await page.screenshot({ path: 'test-results/dftl-tour-translation-gc.png' });
  expect(problems).toEqual([]);
});
