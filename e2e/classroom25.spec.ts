// Issue 25, in front of a class: the power-cut panel reads right, a restored moment reads as
// the stepped one, the tour's buttons stay in view, presentation keeps the chip's marks.
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { counter, watch } from './helpers';

const SHOTS = 'test-results/classroom25';
test.beforeAll(() => mkdirSync(SHOTS, { recursive: true }));

const BAST = {
  scheme: 'bast',
  params: { log_blocks: 2 },
  chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
  workload: { kind: 'pattern', text: 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12' },
};

const url = (scenario: object, at = 0) =>
  `/?scenario=${encodeURIComponent(JSON.stringify(scenario))}${at ? `&at=${at}` : ''}`;

async function open(page: Page, path: string, at: { step: number; op: number }) {
  await page.goto(path);
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect.poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify(at));
}

async function stepOp(page: Page) {
  const before = JSON.stringify(await counter(page));
  await page.getByTestId('btn-step-op').click();
  await expect.poll(async () => JSON.stringify(await counter(page))).not.toBe(before);
}

test('power cut: Step and Play disabled with the reason, no stale banner after recovery, the verdict wraps, the counter names the lost request', async ({
  page,
}) => {
  const problems = watch(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  await open(page, url(BAST, 18), { step: 18, op: 0 });
  for (let i = 0; i < 5; i++) await stepOp(page);
  await page.getByTestId('power-cut').click();
  await expect(page.getByTestId('power-off')).toBeVisible();
  for (const id of ['btn-step-op', 'btn-step-request', 'btn-play']) {
    const b = page.getByTestId(id);
    await expect(b, id).toBeDisabled();
    await expect(b, id).toHaveAttribute('aria-describedby', 'controls-why');
  }
  await expect(page.getByTestId('controls-why')).toContainText('Recover');
  // The keys do nothing either: no "power is off" error.
  await page.locator('body').click({ position: { x: 700, y: 740 } });
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Space');
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('power-off')).toBeVisible();
  await expect(page.getByTestId('error')).toHaveCount(0);
  await page.screenshot({ path: `${SHOTS}/power-off.png` });

  await page.getByTestId('power-recover').click();
  await page.getByTestId('power-finish').click();
  const verdict = page.getByTestId('power-verdict').locator('.recovery-verdict');
  await expect(verdict).toContainText('no torn page mapped');
  await expect(page.getByTestId('error')).toHaveCount(0);
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
  // Its whole text is inside the panel (wrapped, not cut at the edge), in a live region.
  const fit = await verdict.evaluate((e) => {
    const panel = e.closest('.panel')!.getBoundingClientRect();
    const r = e.getBoundingClientRect();
    return { sw: e.scrollWidth, cw: e.clientWidth, inside: r.right <= panel.right + 0.5 };
  });
  expect(fit.sw).toBeLessThanOrEqual(fit.cw);
  expect(fit.inside).toBe(true);
  await expect(page.getByTestId('power-live')).toHaveAttribute('aria-live', 'polite');
  // The counter says what became of the cut request (recovery counts it as done).
  expect((await counter(page)).step).toBe(19);
  await expect(page.getByTestId('counter-cut')).toHaveText(/request 19 (lost in|survived) the cut/);
  await page.screenshot({ path: `${SHOTS}/power-recovered.png` });
  expect(problems).toEqual([]);
});

/** The element at the centre of `testId` is that element (nothing covers it, no scrolling needed). */
async function inViewAndOnTop(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    return r.top >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && !!hit && el.contains(hit);
  });
}

for (const c of [
  { name: 'app 1366×768, intro stop 4', vp: [1366, 768], path: '/#tour=intro-ftl', stops: 3, present: false },
  {
    name: 'app 1366×768, FastCheck stop 5',
    vp: [1366, 768],
    path: '/#tour=fastcheck-power-cut',
    stops: 4,
    present: false,
  },
  {
    name: 'presentation 1024×768, FAST merges stop 3',
    vp: [1024, 768],
    path: '/#tour=fast-merges',
    stops: 2,
    present: true,
  },
  { name: 'embed 800×500, intro stop 4', vp: [800, 500], path: '/?embed=1#tour=intro-ftl', stops: 3, present: false },
]) {
  test(`tour buttons stay in view without scrolling: ${c.name}`, async ({ page }) => {
    const problems = watch(page);
    await page.setViewportSize({ width: c.vp[0], height: c.vp[1] });
    await page.goto(c.path);
    const panel = page.getByTestId('tour-panel');
    await expect(panel).toHaveAttribute('data-stop', '0');
    if (c.present) {
      await page.getByTestId('present-toggle').click();
      await expect(page.locator('.app.presenting')).toBeVisible();
    }
    for (let i = 1; i <= c.stops; i++) {
      await expect(page.getByTestId('tour-next')).toBeEnabled();
      expect(await inViewAndOnTop(page, 'tour-next'), `stop ${i}: Next in view`).toBe(true);
      // A real click at its place on screen: no scrolling first.
      const b = (await page.getByTestId('tour-next').boundingBox())!;
      await page.mouse.click(b.x + b.width / 2, b.y + b.height / 2);
      await expect(panel).toHaveAttribute('data-stop', String(i));
    }
    await expect(page.getByTestId('tour-next')).toBeEnabled();
    for (const id of ['tour-next', 'tour-prev', 'marker-prev']) expect(await inViewAndOnTop(page, id), id).toBe(true);
    if (await panel.getByTestId('predict').count())
      expect(await inViewAndOnTop(page, 'predict-check'), 'predict-check').toBe(true);
    expect(await page.evaluate(() => scrollY)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/tour-${c.name.replace(/[^a-z0-9]+/gi, '-')}.png` });
    expect(problems).toEqual([]);
  });
}
