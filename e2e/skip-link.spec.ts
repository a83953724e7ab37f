// The page's first Tab stop skips the header and the scenario form (session 18): before it,
// Tab crossed ~10 header controls and ~20 form fields before reaching Step.
import { expect } from '@playwright/test';
import { sharedTest as test, ready, settled, watch, poll } from './helpers';

test('the first Tab stop skips to the simulation, and the next Tab is Step', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  const skip = page.getByTestId('skip-link');
  // Off screen until the keyboard reaches it.
  await expect(skip).not.toBeInViewport();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: 'test-results/skip-link.png' });
  await page.keyboard.press('Enter');
  await expect(page.locator('main.center')).toBeFocused();
  await expect(skip).not.toBeInViewport();
  // The next Tab stop is the playback toolbar's first enabled button (Back, or Step at op 0).
  await page.keyboard.press('Tab');
  const firstControl = await page.evaluate(() => {
    const bar = document.querySelector('[role=toolbar][aria-label=Playback]');
    const first = Array.from(bar?.querySelectorAll('button') ?? []).find((b) => !b.disabled);
    return first !== undefined && first === document.activeElement ? first.dataset.testid : null;
  });
  expect(firstControl).toMatch(/^btn-/);
  if (firstControl === 'btn-step-op') {
    // And it steps: the keyboard reached the simulation.
    const before = await settled(page);
    await page.keyboard.press('Enter');
    await poll(async () => {
      const now = await settled(page);
      return `${now.step}:${now.op}`;
    }).not.toBe(`${before.step}:${before.op}`);
  }
  expect(problems).toEqual([]);
});

test('in compare, the skip goes to the comparison', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await page.getByTestId('skip-link').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('compare-view')).toBeFocused();
  expect(problems).toEqual([]);
});
