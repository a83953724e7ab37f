// A teacher's pass (session 17, p-ui6): the app projected, driven from the keyboard.
// A 1280 × 720 projector at 150 % browser zoom is 853 × 480 CSS pixels at 1.5 device pixels
// each; there the tour panel and the welcome were squeezed to their borders, their buttons
// cut off by the panel's own edge (screenshots in the session's notes).
import { expect, test, type Locator } from '@playwright/test';
import { watch } from './helpers';

test.use({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });

/** Every button of `panel` lies wholly inside the panel's box (the panel clips what overflows). */
async function buttonsInside(panel: Locator, ids: string[]) {
  await panel.scrollIntoViewIfNeeded();
  const box = (await panel.boundingBox())!;
  for (const id of ids) {
    const b = (await panel.getByTestId(id).boundingBox())!;
    expect(b, `${id} inside its panel`).toBeTruthy();
    expect(b.y, `${id}'s top`).toBeGreaterThanOrEqual(box.y);
    expect(b.y + b.height, `${id}'s foot in the panel`).toBeLessThanOrEqual(box.y + box.height + 0.5);
    expect(b.height, `${id} drawn`).toBeGreaterThan(10);
  }
}

test('at 150 % zoom on a 1280 × 720 projector the tour and the welcome keep their buttons', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/');
  const welcome = page.getByTestId('welcome');
  await expect(welcome).toBeVisible();
  await expect(page.getByTestId('welcome-tour')).toBeEnabled();
  await buttonsInside(welcome, ['welcome-tour', 'welcome-close']);
  // Its text has lines of its own, not a sliver.
  expect((await welcome.boundingBox())!.height).toBeGreaterThan(100);
  await page.screenshot({ path: 'test-results/projector-welcome.png' });

  await page.goto('/#tour=fast-merges');
  const tour = page.getByTestId('tour-panel');
  await expect(tour).toBeVisible();
  await expect(page.getByTestId('tour-next')).toBeEnabled();
  await buttonsInside(tour, ['tour-prev', 'tour-play', 'tour-next', 'tour-exit', 'tour-share', 'tour-print']);
  expect((await page.getByTestId('tour-body').boundingBox())!.height).toBeGreaterThan(40);
  // ...and take a click (nothing covers them).
  await page.getByTestId('tour-exit').click({ trial: true });
  await page.getByTestId('tour-next').click();
  await expect(tour).toHaveAttribute('data-stop', '1');
  await page.screenshot({ path: 'test-results/projector-tour.png' });
  expect(problems).toEqual([]);
});

test('the keys hint names every key of the single view, the tour’s PageDown / PageUp too', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/');
  const hint = page.locator('.keys-hint');
  for (const key of ['Space', '→', '←', 'PageDown', 'PageUp'])
    await expect(hint.locator('kbd', { hasText: key })).toHaveCount(1);
});

test('the header’s scenario line says nothing rather than two letters at 1024 px, and says it at 1366 px', async ({
  page,
}) => {
  const text = page.locator('[data-testid=scenario-line] .scenario-text');
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/#tour=fast-merges');
  await expect(page.getByTestId('scenario-line')).toHaveAttribute('data-scheme', 'fast');
  await expect(text).toHaveCount(1);
  // 33 px of it was left: "FA…"
  expect((await page.getByTestId('scenario-line').boundingBox())!.width).toBeLessThan(128);
  await expect(text).toBeHidden();
  // Nor a lone "…": the line itself draws no ellipsis (its text's is hidden with the text).
  expect(await page.getByTestId('scenario-line').evaluate((e) => getComputedStyle(e).textOverflow)).toBe('clip');
  await expect(page.getByTestId('scenario-line')).toHaveAttribute('title', /^FAST · classroom 16×4/);
  await page.setViewportSize({ width: 1366, height: 768 });
  await expect(text).toBeVisible();
});

test('Tab walks the whole page at 1024 × 768: every stop shows its focus, and it comes round (no trap)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/#tour=fast-merges');
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  await expect(page.getByTestId('tour-next')).toBeEnabled();
  const seen: string[] = [];
  for (let i = 0; i < 200; i++) {
    await page.keyboard.press('Tab');
    const at = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      if (!el || el === document.body) return { key: 'body', ring: true };
      const cs = getComputedStyle(el);
      // the file input is drawn by its label, which shows the ring (trace.css)
      const drawn = el.matches('input[type=file]') ? el.closest('.trace-upload')!.querySelector('.button-like')! : el;
      const ds = getComputedStyle(drawn);
      const ring = (ds.outlineStyle !== 'none' && parseFloat(ds.outlineWidth) > 0) || ds.boxShadow !== 'none';
      return {
        key: `${el.tagName}#${el.id}[${el.dataset.testid ?? ''}]${cs.display}:${(el.textContent ?? '').slice(0, 20)}`,
        ring,
      };
    });
    expect(at.ring, `focus shown on ${at.key}`).toBe(true);
    if (seen.length > 0 && at.key === seen[0]) break;
    seen.push(at.key);
  }
  // Round again to the first stop, through the tour's buttons and the playback controls.
  expect(seen.length).toBeLessThan(200);
  for (const id of ['tour-next', 'tour-exit', 'btn-step-op', 'btn-play', 'power-cut'])
    expect(
      seen.some((k) => k.includes(`[${id}]`)),
      id,
    ).toBe(true);
});
