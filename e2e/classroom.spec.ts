// Issue 19, ready for the classroom: presentation type sizes, the first minute, every scheme
// on the default chip, predictions, embedding, a course sub-folder and offline, printing.
import { createServer, type Server } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test as isolated, type Page } from '@playwright/test';
import { sharedTest as test, counter, readyAt, settled, watch, poll } from './helpers';

const SHOTS = 'test-results/classroom';

async function ready(page: Page, path = '/') {
  await page.goto(path);
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
}

/** Computed font size (px) of the first element matching each selector. */
async function fontSizes(page: Page, selectors: Record<string, string>) {
  const out: Record<string, number> = {};
  for (const [name, sel] of Object.entries(selectors)) {
    const el = page.locator(sel).first();
    await expect(el, name).toBeVisible();
    out[name] = await el.evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  }
  return out;
}

const MEANINGFUL = {
  'page number (LPN)': '[data-testid=device-grid] text.lpn',
  'band label': '[data-testid=device-grid] text.role-text',
  'block number': '[data-testid=device-grid] text.pbn',
  narration: '[data-testid=narration] .narration-text',
  'narration position': '[data-testid=narration] .narration-where',
  'request counter': '[data-testid=step-counter]',
  legend: '[data-testid=legend] .legend-item',
  'legend band': '[data-testid=legend] .legend-band',
  'legend title': '[data-testid=legend] .legend-title',
};

async function bottomOf(page: Page, sel: string) {
  const b = await page.locator(sel).first().boundingBox();
  expect(b, sel).not.toBeNull();
  return b!.y + b!.height;
}

test('presentation mode: everything that carries meaning is at least 18 px at 1366 × 768, zoom works, and it fits 1024 × 768', async ({
  page,
}) => {
  const problems = watch(page);
  await page.setViewportSize({ width: 1366, height: 768 });
  // A few requests in, so the chip has page numbers.
  await ready(page, '/#tour=intro-ftl');
  await page.getByTestId('tour-exit').click();
  for (let i = 0; i < 6; i++) await page.getByTestId('btn-step-request').click();
  await poll(async () => (await counter(page)).step).toBe(6);
  await page.getByTestId('present-toggle').click();
  await expect(page.locator('.app.presenting')).toBeVisible();
  const sizes = await fontSizes(page, MEANINGFUL);
  for (const [name, px] of Object.entries(sizes)) expect(px, `${name}: ${px} px`).toBeGreaterThanOrEqual(18);
  // The chip gets the room: the side panels are collapsed, the chip is most of the screen.
  await expect(page.locator('aside.right')).toBeHidden();
  await expect(page.locator('aside.left')).toBeHidden();
  // (the tour, narration and legend sit beside it since issue 35: the chip is as tall as
  // the space under the controls)
  const chip = (await page.getByTestId('device-grid').boundingBox())!;
  expect(chip.width).toBeGreaterThan(700);
  expect(chip.height).toBeGreaterThan(500);
  expect(chip.width * chip.height).toBeGreaterThan(0.4 * 1366 * 768);
  expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= innerHeight)).toBe(true);
  await page.screenshot({ path: `${SHOTS}/present-1366x768.png` });

  // +/- zoom: buttons and keys.
  const lpn = () =>
    page
      .locator('[data-testid=device-grid] text.lpn')
      .first()
      .evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  const before = await lpn();
  await page.getByTestId('zoom-in').click();
  await poll(lpn).toBeGreaterThan(before);
  await page.keyboard.press('-');
  await poll(lpn).toBe(before);
  // The metrics come back on demand.
  await page.getByTestId('side-toggle').click();
  await expect(page.locator('aside.right')).toBeVisible();
  await page.getByTestId('side-toggle').click();

  // 1024 × 768 with the tour open: the essentials are on screen, nothing scrolls.
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('about:blank');
  await page.goto('/#tour=intro-ftl');
  await expect(page.getByTestId('tour-panel')).toBeVisible();
  await page.getByTestId('tour-next').click();
  await expect(page.getByTestId('tour-panel')).toHaveAttribute('data-stop', '1');
  await page.getByTestId('present-toggle').click();
  await expect(page.locator('[data-testid=device-grid] text.lpn').first()).toBeVisible();
  for (const sel of [
    '.controls',
    '[data-testid=narration]',
    '[data-testid=device-grid]',
    '[data-testid=legend]',
    '[data-testid=tour-next]',
  ]) {
    expect(await bottomOf(page, sel), sel).toBeLessThanOrEqual(768);
  }
  expect(await page.evaluate(() => document.scrollingElement!.scrollHeight <= innerHeight)).toBe(true);
  const chip2 = (await page.getByTestId('device-grid').boundingBox())!;
  expect(chip2.height).toBeGreaterThan(200);
  const sizes2 = await fontSizes(page, MEANINGFUL);
  for (const [name, px] of Object.entries(sizes2)) expect(px, `1024: ${name}: ${px} px`).toBeGreaterThanOrEqual(18);
  await page.screenshot({ path: `${SHOTS}/present-1024x768.png` });
  expect(problems).toEqual([]);
});

test('the first minute: request 0, the welcome, the introductory tour with a glossary and a legend of every mark', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  expect((await counter(page)).step).toBe(0);
  await expect(page.getByTestId('welcome')).toContainText('Start the 3-minute tour');
  const marks = page.getByTestId('legend-marks');
  // only the marks drawn (issue 35): block numbers and erase counts; no page holds an LPN
  // yet and no band names an LBN
  await expect(marks).toContainText('times erased');
  await expect(marks).not.toContainText('its logical page (LPN)');
  await expect(marks).not.toContainText('the LBN it serves');
  await page.screenshot({ path: `${SHOTS}/welcome.png` });
  // a glossary term in the welcome opens its definition
  await page.locator('.welcome .term[data-term=gc]').click();
  await expect(page.getByTestId('glossary-gc')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('glossary-gc')).toBeHidden();
  await page.getByTestId('welcome-tour').click();
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toContainText('What a flash translation layer does');
  await expect(panel).toHaveAttribute('data-stops', '8');
  await expect(page.getByTestId('welcome')).toBeHidden();
  expect((await counter(page)).step).toBe(0);
  await expect(page.getByTestId('scenario-line')).toContainText('classroom 8×4');
  // The whole glossary from the header.
  await page.getByTestId('glossary-toggle').click();
  for (const t of [
    'LBN',
    'LPN',
    'PBN',
    'OOB',
    'SW log block',
    'RW log block',
    'Switch merge',
    'Partial merge',
    'Full merge',
    'Write amplification',
  ]) {
    await expect(page.getByTestId('glossary')).toContainText(t);
  }
  await page.keyboard.press('Escape');
  expect(problems).toEqual([]);
});

test('the welcome yields at 1024 × 768 (the narration, the chip and the legend stay in the window, normal and presentation); Escape from it closes it and gives the keyboard to Step op', async ({
  page,
}) => {
  const problems = await readyAt(page, { width: 1024, height: 768 });
  const welcome = page.getByTestId('welcome');
  for (const mode of ['normal', 'presentation']) {
    if (mode === 'presentation') await page.getByTestId('present-toggle').click();
    await expect(welcome).toBeVisible();
    for (const sel of [
      '[data-testid=welcome-close]',
      '[data-testid=narration]',
      '[data-testid=device-grid]',
      '[data-testid=legend]',
    ])
      expect(await bottomOf(page, sel), `${mode}: ${sel}`).toBeLessThanOrEqual(768);
    // above the narration, not over it
    const w = (await welcome.boundingBox())!;
    const n = (await page.getByTestId('narration').boundingBox())!;
    expect(w.y + w.height, mode).toBeLessThanOrEqual(n.y + 0.5);
    await page.screenshot({ path: `${SHOTS}/welcome-1024-${mode}.png` });
  }
  await page.getByTestId('welcome-tour').focus();
  await page.keyboard.press('Escape');
  await expect(welcome).toHaveCount(0);
  await expect(page.getByTestId('btn-step-op')).toBeFocused();
  // the card took that Escape: the presentation goes on
  await expect(page.locator('.app')).toHaveAttribute('data-present', 'true');
  expect(problems).toEqual([]);
});

test('presentation at 1366 × 768: the welcome’s text is whole at every text step, above the narration, its buttons in the window', async ({
  page,
}) => {
  const problems = await readyAt(page, { width: 1366, height: 768 });
  await page.getByTestId('present-toggle').click();
  await expect(page.locator('.app')).toHaveAttribute('data-present', 'true');
  const scale = page.getByTestId('present-scale');
  const labels = ['75%', '88%', '100%', '113%', '125%', '138%', '150%'];
  while ((await scale.textContent()) !== labels[0]) {
    const was = (await scale.textContent())!;
    await page.keyboard.press('-');
    await expect(scale).not.toHaveText(was);
  }
  for (const label of labels) {
    if ((await scale.textContent()) !== label) {
      await page.keyboard.press('+');
      await expect(scale).toHaveText(label);
    }
    // the card's text: all of it in its box (it scrolls only when cut), the box in the window
    await poll(
      () =>
        page.locator('.welcome p').evaluate((p) => {
          const r = p.getBoundingClientRect();
          return p.scrollHeight <= p.clientHeight + 1 && r.top >= 0 && r.bottom <= innerHeight;
        }),
      { message: `${label}: the welcome's text is whole` },
    ).toBe(true);
    expect(await bottomOf(page, '[data-testid=welcome-close]'), label).toBeLessThanOrEqual(768);
    const w = (await page.getByTestId('welcome').boundingBox())!;
    const n = (await page.getByTestId('narration').boundingBox())!;
    expect(w.y + w.height, label).toBeLessThanOrEqual(n.y + 0.5);
    expect(n.y + n.height, label).toBeLessThanOrEqual(768);
    if (label === '150%') await page.screenshot({ path: `${SHOTS}/welcome-1366-present-150.png` });
  }
  expect(problems).toEqual([]);
});

test('a prediction answered right at a tour stop, one answered wrong on demand, and the score at the end', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page, '/#tour=intro-ftl');
  const panel = page.getByTestId('tour-panel');
  for (let i = 0; i < 3; i++) {
    await page.getByTestId('tour-next').click();
    await expect(panel).toHaveAttribute('data-stop', String(i + 1));
  }
  await poll(async () => (await counter(page)).step).toBe(28);
  const predict = panel.getByTestId('predict');
  await expect(predict).toContainText('What happens next?');
  // Before checking, the request is not revealed and the quiz answer is hidden.
  await expect(page.getByTestId('tour-answer-stepped')).toHaveCount(0);
  await predict.getByTestId('predict-kind-gc').check();
  await predict.getByTestId('predict-victim').selectOption('3');
  await predict.getByTestId('predict-copies').selectOption('4');
  await page.screenshot({ path: `${SHOTS}/predict-asked.png` });
  // The Check button sits in the tour panel's footer, beside Next (issue 25).
  await panel.getByTestId('predict-check').click();
  for (const q of ['kind', 'victim', 'copies'])
    await expect(predict.getByTestId(`predict-result-${q}`)).toHaveAttribute('data-right', 'true');
  await expect(predict.getByTestId('predict-reason')).toContainText('erases blocks 3, 2 and copies 4 pages');
  // … and the request is then shown: it finished, so the quiz answer appears too.
  await poll(async () => (await counter(page)).step).toBe(29);
  await expect(page.getByTestId('tour-answer-stepped')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/predict-right.png` });

  // On demand, a wrong guess: the next request (w17) needs no garbage collection.
  await page.getByTestId('predict-toggle').click();
  const free = page.locator('main .rail > [data-testid=predict]');
  await free.getByTestId('predict-kind-gc').check();
  await free.getByTestId('predict-victim').selectOption('0');
  await free.getByTestId('predict-copies').selectOption('3');
  await free.getByTestId('predict-check').click();
  for (const q of ['kind', 'victim', 'copies'])
    await expect(free.getByTestId(`predict-result-${q}`)).toHaveAttribute('data-right', 'false');
  await expect(free.getByTestId('predict-result-kind')).toContainText('Nothing extra');
  await expect(free.getByTestId('predict-reason')).toContainText('w17 causes no garbage collection and no merge');
  await poll(async () => (await counter(page)).step).toBe(30);
  await page.screenshot({ path: `${SHOTS}/predict-wrong.png` });
  await page.getByTestId('predict-toggle').click();

  // The tour's score at its last stop counts the tour's own prediction.
  for (let i = 4; i < 8; i++) {
    await page.getByTestId('tour-next').click();
    await expect(panel).toHaveAttribute('data-stop', String(i));
  }
  await expect(page.getByTestId('tour-score')).toContainText('3 of 3 right');
  expect(problems).toEqual([]);
});

test('every scheme applies on the default chip (the form picks a chip the scheme runs on and says so)', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const problems = watch(page);
  await ready(page);
  const schemes = await page
    .getByTestId('scheme')
    .locator('option')
    .evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.textContent ?? '']));
  expect(schemes.length).toBeGreaterThanOrEqual(12);
  const line = page.getByTestId('scenario-line');
  for (const [id] of schemes) {
    // Start from the default chip each time.
    await page.getByTestId('preset').selectOption('hotcold-classroom');
    await page.getByTestId('scheme').selectOption(id);
    if (id === 'rftl' || id === 'gftl') await expect(page.getByTestId('fit-note')).toContainText('Chip changed to');
    await expect(page.getByTestId('apply')).toBeEnabled();
    const chipShown = await page.getByTestId('chip').inputValue();
    await page.getByTestId('apply').click();
    await expect(page.getByTestId('apply-error')).toHaveCount(0);
    await expect(line, id).toContainText(await page.getByTestId('scheme').locator(`option[value="${id}"]`).innerText());
    await expect(page.getByTestId('error')).toHaveCount(0);
    // The app runs exactly what the form shows.
    expect(await page.getByTestId('chip').inputValue()).toBe(chipShown);
  }
  // A scheme and chip that cannot run together are refused with the core's words, and nothing changes.
  await page.getByTestId('preset').selectOption('hotcold-classroom');
  await page.getByTestId('scheme').selectOption('bast');
  await page.getByTestId('param-log_blocks').fill('15');
  await expect(page.locator('.form-errors')).toContainText('BAST with 15 log blocks needs at least 17 blocks');
  await expect(page.getByTestId('apply')).toBeDisabled();
  expect(problems).toEqual([]);
});

test('embedding: ?embed=1 inside an <iframe> shows the chip, narration and controls only; the share menu gives the snippet', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page, '/#tour=fast-merges');
  await page.getByTestId('file-menu').click();
  await page.getByTestId('copy-embed').click();
  const snippet = await page.getByTestId('share-url').inputValue();
  expect(snippet).toMatch(
    /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed=1#v1=.+" width="\d+" height="\d+" title="ftlscope: .+"/,
  );
  const src = /src="([^"]+)"/.exec(snippet)![1].replace(/&amp;/g, '&');
  await page.setContent(
    `<!doctype html><html lang="en"><title>course page</title><link rel="icon" href="data:,"><body><h1>Week 3</h1>${snippet}</body></html>`,
  );
  const frame = page.frameLocator('iframe');
  await expect(frame.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(frame.getByTestId('narration')).toBeVisible();
  await expect(frame.getByTestId('btn-step-op')).toBeVisible();
  await expect(frame.getByTestId('tour-panel')).toBeVisible();
  for (const hidden of ['header.app-header', 'aside.left', 'aside.right', '[data-testid=welcome]'])
    await expect(frame.locator(hidden)).toBeHidden();
  // sized to its frame
  const box = (await page.locator('iframe').boundingBox())!;
  const grid = (await frame.getByTestId('device-grid').boundingBox())!;
  expect(grid.width).toBeGreaterThan(box.width * 0.8);
  expect(grid.x + grid.width).toBeLessThanOrEqual(box.x + box.width + 1);
  expect(src).toContain('embed=1');
  await page.screenshot({ path: `${SHOTS}/embed.png` });
  expect(problems).toEqual([]);
});

test('a tour on paper: one stop a page, each with its chip', async ({ page }) => {
  const problems = watch(page);
  await ready(page, '/#tour=intro-ftl');
  await page.getByTestId('tour-print').click();
  const pt = page.getByTestId('print-tour');
  await expect(pt).toHaveAttribute('data-ready', 'true');
  await expect(pt.getByTestId('print-stop')).toHaveCount(8);
  await expect(pt.getByTestId('print-stop').nth(3).locator('[data-testid=device-grid] text.lpn').first()).toBeVisible();
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('header.app-header')).toBeHidden();
  await expect(page.getByTestId('print-now')).toBeHidden();
  expect(
    await pt
      .getByTestId('print-stop')
      .first()
      .evaluate((e) => getComputedStyle(e).breakAfter),
  ).toBe('page');
  await page.emulateMedia({ media: 'screen' });
  await page.getByTestId('print-close').click();
  await expect(pt).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('classroom additions have no axe violations, light and dark', async ({ page }) => {
  // the config's hang detector (90 s): 18 s idle, 48 s at load 15 (session 18)
  await ready(page);
  const check = async () => {
    const r = await new AxeBuilder({ page })
      .include('.welcome')
      .include('header')
      .include('.legend')
      .include('.scenario-form')
      .analyze();
    return r.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  };
  await page.locator('.pattern-help summary').count();
  expect(await check()).toEqual([]);
  await page.getByTestId('welcome-tour').click();
  // the welcome's button starts the intro tour: wait for it, then each Next's stop
  const tour = page.getByTestId('tour-panel');
  await expect(tour).toHaveAttribute('data-tour', 'intro-ftl');
  await expect(tour).toHaveAttribute('data-stop', '0');
  await settled(page);
  for (let i = 1; i <= 3; i++) {
    await page.getByTestId('tour-next').click();
    await expect(tour).toHaveAttribute('data-stop', String(i));
  }
  await settled(page);
  await expect(page.getByTestId('predict')).toBeVisible();
  const panel = async () =>
    (await new AxeBuilder({ page }).include('.tour-panel').analyze()).violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(await panel()).toEqual([]);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator(':root[data-theme=dark]')).toHaveCount(1);
  expect(await panel()).toEqual([]);
  await page.getByTestId('present-toggle').click();
  expect(await panel()).toEqual([]);
});

/** dist/ under a course web site's folder, by a plain static server; stoppable. */
function courseServer(prefix: string): Promise<{ server: Server; url: string; notFound: string[] }> {
  const root = join(process.cwd(), 'dist');
  const types: Record<string, string> = {
    '.html': 'text/html',
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.wasm': 'application/wasm',
    '.svg': 'image/svg+xml',
    '.png': 'image/png',
    '.webmanifest': 'application/manifest+json',
    '.json': 'application/json',
  };
  const notFound: string[] = [];
  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (!path.startsWith(prefix)) {
      notFound.push(path);
      res.writeHead(404).end();
      return;
    }
    let rel = normalize(decodeURIComponent(path.slice(prefix.length)));
    if (rel === '' || rel === '.' || rel.endsWith('/')) rel = join(rel, 'index.html');
    try {
      const body = await readFile(join(root, rel));
      res.writeHead(200, { 'content-type': types[extname(rel)] ?? 'application/octet-stream' }).end(body);
    } catch {
      notFound.push(path);
      res.writeHead(404).end();
    }
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}${prefix}`, notFound }),
    ),
  );
}

isolated(
  'the build runs from /course/ftl/ of a plain static server, and offline after the first visit',
  async ({ page, context }) => {
    test.setTimeout(60_000);
    const problems = watch(page);
    const failed: string[] = [];
    page.on('response', (r) => {
      if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
    });
    const { server, url, notFound } = await courseServer('/course/ftl/');
    try {
      await page.goto(url);
      await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
      await expect(page.getByTestId('welcome')).toBeVisible();
      await page.getByTestId('btn-step-request').click();
      await poll(async () => (await counter(page)).step).toBe(1);
      // The service worker has precached every asset and controls the page.
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller)
          await new Promise((r) => navigator.serviceWorker.addEventListener('controllerchange', r, { once: true }));
      });
      const cached = await page.evaluate(async () => {
        const keys: string[] = [];
        for (const name of await caches.keys())
          for (const r of await (await caches.open(name)).keys()) keys.push(new URL(r.url).pathname);
        return keys;
      });
      expect(cached.some((k) => k.endsWith('.wasm'))).toBe(true);
      expect(cached.some((k) => /worker-.*\.js$/.test(k))).toBe(true);
      expect(cached).toContain('/course/ftl/index.html');
      expect(notFound).toEqual([]);
      expect(failed).toEqual([]);
    } finally {
      await new Promise((r) => server.close(r));
      server.closeAllConnections();
    }
    // Server gone, network off: the page reloads from the service worker and still simulates.
    await context.setOffline(true);
    await page.reload();
    await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
    await page.getByTestId('btn-step-request').click();
    await poll(async () => (await counter(page)).step).toBeGreaterThanOrEqual(1);
    // (the address bar now holds the state, so no welcome: the tour from the menu)
    await page.getByTestId('tour-menu').click();
    await page.getByTestId('tour-intro-ftl').click();
    await expect(page.getByTestId('tour-panel')).toBeVisible();
    await expect(page.getByTestId('scenario-line')).toContainText('classroom 8×4');
    await context.setOffline(false);
    expect(failed).toEqual([]);
    expect(problems).toEqual([]);
  },
);
