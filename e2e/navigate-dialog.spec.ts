// A link opened while the upload dialog is open (session 16, p-ui5): changing only the
// address bar's hash to a tour loaded the tour behind the modal dialog, and the user saw
// nothing happen. Chosen (docs/links-tours-compare.md): the navigation closes the dialog,
// the tour shows, and a banner says why the dialog went.
import { expect } from '@playwright/test';
import { sharedTest as test, openUpload, ready, settled, watch } from './helpers';

test('a tour opened by hash while the upload dialog is open closes the dialog and shows the tour', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  const dialog = await openUpload(page, 'traces/oltp.csv');
  await page.evaluate(() => (location.hash = '#tour=fast-merges'));
  // The tour is what the user sees: its panel, not under a dialog.
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.modal-backdrop')).toHaveCount(0);
  const notice = page.getByTestId('link-notice');
  await expect(notice).toContainText('The upload dialog was closed');
  await settled(page);
  await expect(page.getByTestId('scenario-line')).toHaveAttribute('data-scheme', 'fast');
  // The keyboard is on what the link opened, the tour's stop, not on the upload button the
  // dialog handed focus back to (session 17).
  await expect(page.getByTestId('tour-body')).toBeFocused();
  // The tour's own controls take clicks (nothing modal covers them).
  await page.getByTestId('tour-exit').click({ trial: true });
  await page.screenshot({ path: 'test-results/navigate-dialog-tour.png' });
  // The dialog opens again for a file chosen now, over the tour.
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByTestId('trace-input').setInputFiles('traces/oltp.csv');
  await expect(dialog).toBeVisible();
  expect(problems).toEqual([]);
});

test('a scenario link or Back that closes the upload dialog puts the keyboard on the view opened', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  const main = page.locator('main.center');
  // Back: from a tour (a history entry of its own) to the default scenario's address.
  await page.evaluate(() => (location.hash = '#tour=fast-merges'));
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  await settled(page);
  let dialog = await openUpload(page, 'traces/oltp.csv');
  await page.goBack();
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('tour-panel')).toHaveCount(0);
  await expect(page.getByTestId('link-notice')).toContainText('The upload dialog was closed');
  await expect(main).toBeFocused();
  // A `#v1=` link: the scenario's main view.
  await settled(page);
  const link = await page.evaluate(() => location.hash);
  await page.getByTestId('link-notice').getByRole('button', { name: 'Dismiss' }).click();
  await page.evaluate(() => (location.hash = '#tour=fast-merges'));
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  await settled(page);
  dialog = await openUpload(page, 'traces/oltp.csv');
  await page.evaluate((h) => (location.hash = h), link);
  await expect(dialog).toBeHidden();
  await expect(page.getByTestId('tour-panel')).toHaveCount(0);
  await expect(main).toBeFocused();
  // Tab goes on from there into the page (no trap, nothing lost).
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveCount(1);
  expect(problems).toEqual([]);
});
