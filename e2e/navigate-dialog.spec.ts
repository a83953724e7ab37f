// A link opened while the upload dialog is open (session 16, p-ui5): changing only the
// address bar's hash to a tour loaded the tour behind the modal dialog, and the user saw
// nothing happen. Chosen (docs/links-tours-compare.md): the navigation closes the dialog,
// the tour shows, and a banner says why the dialog went.
import { expect, test } from '@playwright/test';
import { openUpload, ready, settled, watch } from './helpers';

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
  // The tour's own controls take clicks (nothing modal covers them).
  await page.getByTestId('tour-exit').click({ trial: true });
  await page.screenshot({ path: 'test-results/navigate-dialog-tour.png' });
  // The dialog opens again for a file chosen now, over the tour.
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await page.getByTestId('trace-input').setInputFiles('traces/oltp.csv');
  await expect(dialog).toBeVisible();
  expect(problems).toEqual([]);
});
