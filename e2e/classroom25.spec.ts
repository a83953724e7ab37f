// Issue 25, in front of a class: the power-cut panel reads right, a restored moment reads as
// the stepped one, the tour's buttons stay in view, presentation keeps the chip's marks.
import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test as isolated, type Page } from '@playwright/test';
import { sharedTest as test, counter, settled, stepTo, watch, poll } from './helpers';

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
  await poll(async () => JSON.stringify(await counter(page))).toBe(JSON.stringify(at));
}

async function stepOp(page: Page) {
  await stepTo(page, 'btn-step-op');
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

/** Page numbers, band LBNs and erase counts on the chip, and their smallest font size. */
async function chipMarks(page: Page) {
  return page.getByTestId('device-grid').evaluate((g) => {
    const size = (e: Element) => parseFloat(getComputedStyle(e).fontSize);
    const lpn = Array.from(g.querySelectorAll('text.lpn'));
    const lbn = Array.from(g.querySelectorAll('text.role-text')).filter((e) => / L\d/.test(e.textContent ?? ''));
    const erase = Array.from(g.querySelectorAll('text.pbn')).filter((e) => /· e\d/.test(e.textContent ?? ''));
    const all = [...lpn, ...lbn, ...erase];
    return { lpn: lpn.length, lbn: lbn.length, erase: erase.length, min: all.length ? Math.min(...all.map(size)) : 0 };
  });
}

/** Every visible text of the app smaller than 18 px (presentation mode's floor). */
async function smallTexts(page: Page) {
  return page.evaluate(() => {
    const out: string[] = [];
    const walker = document.createTreeWalker(document.querySelector('.app')!, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const el = n.parentElement!;
      if (!n.textContent?.trim() || el.closest('title, option')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const fs = parseFloat(getComputedStyle(el).fontSize);
      if (fs < 18) out.push(`${fs} px: ${n.textContent.trim().slice(0, 40)}`);
    }
    return out;
  });
}

for (const vp of [
  { width: 1024, height: 768 },
  { width: 1366, height: 768 },
]) {
  test(`presentation ${vp.width}×${vp.height}, FAST merges tour, A+ to the largest step: page numbers, band LBNs and erase counts stay, ≥ 18 px`, async ({
    page,
  }) => {
    const problems = watch(page);
    await page.setViewportSize(vp);
    await page.goto('/#tour=fast-merges');
    const panel = page.getByTestId('tour-panel');
    await expect(panel).toHaveAttribute('data-stop', '0');
    await page.getByTestId('tour-next').click();
    await expect(panel).toHaveAttribute('data-stop', '1');
    await page.getByTestId('present-toggle').click();
    await expect(page.locator('.app.presenting')).toBeVisible();
    const zoomIn = page.locator('.present-tools [data-testid=zoom-in]');
    for (let stepNo = 0; ; stepNo++) {
      const scale = await page.getByTestId('present-scale').textContent();
      await poll(async () => {
        const m = await chipMarks(page);
        return m.lpn >= 17 && m.lbn >= 3 && m.erase === 16 && m.min >= 18;
      }, `${scale}: marks`).toBe(true);
      expect(await smallTexts(page), `${scale}: texts under 18 px`).toEqual([]);
      expect(await inViewAndOnTop(page, 'tour-next'), `${scale}: Next in view`).toBe(true);
      await page.screenshot({ path: `${SHOTS}/present-${vp.width}-${stepNo}.png` });
      if (await zoomIn.isDisabled()) break;
      await zoomIn.click();
      await expect(page.getByTestId('present-scale')).not.toHaveText(scale ?? '');
    }
    expect(problems).toEqual([]);
  });
}

isolated(
  'presentation, canvas view (8,192 pages): zoomed in, its page numbers and band text are at least 18 px, and so are its zoom controls',
  async ({ page }) => {
    const problems = watch(page);
    await page.setViewportSize({ width: 1366, height: 768 });
    // Every text the chip's canvas draws, with its font.
    await page.addInitScript(() => {
      const w = window as unknown as { __texts: [string, string][] };
      w.__texts = [];
      const fill = CanvasRenderingContext2D.prototype.fillText;
      CanvasRenderingContext2D.prototype.fillText = function (text, x, y, max) {
        if (this.canvas.getAttribute('data-testid') === 'device-canvas') w.__texts.push([String(text), this.font]);
        return fill.call(this, text, x, y, max);
      };
    });
    const scenario = {
      scheme: 'fast',
      params: {},
      chip: { preset: 'classroom', blocks: 512, pages_per_block: 16 },
      workload: { kind: 'uniform', n: 3000, seed: 1, read_ratio: 0 },
    };
    await page.goto(url(scenario, 1500));
    await expect(page.getByTestId('device-canvas')).toBeVisible();
    await poll(async () => (await counter(page)).step).toBe(1500);
    await page.getByTestId('present-toggle').click();
    await expect(page.locator('.app.presenting')).toBeVisible();
    const tools = page.locator('.canvas-tools');
    for (const el of await tools.locator('button, .zoom-level, label').all())
      expect(await el.evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(18);
    const drawn = () => page.evaluate(() => (window as unknown as { __texts: [string, string][] }).__texts);
    for (let i = 0; i < 6; i++) {
      await page.evaluate(() => ((window as unknown as { __texts: [string, string][] }).__texts = []));
      await tools.getByTestId('zoom-in').click();
      await poll(async () => (await page.getByTestId('zoom-level').textContent()) ?? '').toMatch(/px\/page/);
      for (const [text, font] of await drawn())
        expect(parseFloat(font), `"${text}" drawn at ${font}`).toBeGreaterThanOrEqual(18);
    }
    // Zoomed in all the way: page numbers are drawn.
    await poll(async () => (await drawn()).filter(([t]) => /^\d+$/.test(t)).length).toBeGreaterThan(10);
    await page.screenshot({ path: `${SHOTS}/present-canvas.png` });
    expect(problems).toEqual([]);
  },
);

test('print tour: each printed stop has its own highlight, the one the live stop shows', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/#tour=fast-merges');
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-stop', '0');
  const stops = Number(await panel.getAttribute('data-stops'));
  const hi = (root: string) =>
    page.evaluate(
      (sel) =>
        Array.from(document.querySelectorAll(`${sel} g.block.tour-hi`))
          .map((g) => (g as SVGGElement).dataset.block)
          .join(','),
      root,
    );
  // Each stop's moment, from the tour's file: the live highlight is read only once that
  // moment is drawn and nothing moves (right after Next the previous stop's is still up).
  const at: { step: number; op: number }[] = (
    JSON.parse(readFileSync('web/src/tour/tours/fast-merges.tour.json', 'utf8')) as {
      stops: { at: { step: number; op: number } }[];
    }
  ).stops.map((s) => s.at);
  expect(at).toHaveLength(stops);
  const live: string[] = [];
  for (let i = 0; i < stops; i++) {
    if (i > 0) {
      await page.getByTestId('tour-next').click();
      await expect(panel).toHaveAttribute('data-stop', String(i));
    }
    await poll(async () => {
      const s = await settled(page);
      return `${s.step}:${s.op}`;
    }).toBe(`${at[i].step}:${at[i].op}`);
    await expect(page.getByTestId('tour-next')).toBeEnabled();
    // The highlight is applied in the commit that draws the stop (TourPanel's layout
    // effect): read once, here, it is this stop's, never the previous one's.
    const now = await hi('.chip-area');
    expect(now, `stop ${i + 1}'s live highlight`).not.toBe('');
    live.push(now);
  }
  await page.getByTestId('tour-print').click();
  const printed = page.getByTestId('print-stop');
  await expect(printed).toHaveCount(stops);
  await expect(page.locator('[data-testid=print-stop] [data-testid=device-grid]')).toHaveCount(stops);
  for (let i = 0; i < stops; i++)
    expect(await hi(`[data-testid=print-stop]:nth-of-type(${i + 1})`), `stop ${i + 1}`).toBe(live[i]);
  expect(new Set(live).size).toBeGreaterThan(1);
  expect(problems).toEqual([]);
});

test('the embed code’s title names the scheme and the tour, not their ids', async ({ page }) => {
  const problems = watch(page);
  await page.goto('/#tour=bast-thrashing');
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  const title = (await page.getByTestId('tour-panel').locator('#tour-h').textContent())!.replace(/^Tour · /, '');
  await page.getByTestId('file-menu').click();
  await page.getByTestId('copy-embed').click();
  const snippet = await page.getByTestId('share-url').inputValue();
  const t = /title="([^"]+)"/.exec(snippet)![1];
  expect(t).toContain('BAST');
  expect(t).toContain(title);
  expect(t).not.toContain('bast-thrashing');
  expect(problems).toEqual([]);
});
