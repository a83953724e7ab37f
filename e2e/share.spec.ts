import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test as isolated, type Download, type Page } from '@playwright/test';
import {
  sharedTest as test,
  watch,
  counter,
  hashMoment,
  settled,
  settledAt,
  recordMoments,
  still,
  chipStill,
  stepTo,
  poll,
} from './helpers';
import lz from 'lz-string';

const { compressToEncodedURIComponent } = lz;

// Links, tours, presentation, compare and exports (issue 10).

async function metrics(page: Page) {
  return page
    .locator('[data-testid^=metric-]')
    .evaluateAll((els) =>
      els.map((e) => `${e.getAttribute('data-testid')}=${e.querySelector('dd')?.textContent}`).join('|'),
    );
}

async function gridSignature(page: Page) {
  return page
    .locator('[data-testid=device-grid] rect.page')
    .evaluateAll((rects) => rects.map((r) => r.getAttribute('data-state')).join(''));
}

async function ready(page: Page, path = '/') {
  await page.goto(path);
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
}

function shot(page: Page, name: string) {
  mkdirSync('test-results', { recursive: true });
  return page.screenshot({ path: `test-results/share-${name}.png` });
}

async function saved(download: Download): Promise<Buffer> {
  const path = await download.path();
  return readFileSync(path!);
}

test('the address bar holds the moment drawn: after every command, and during a reveal', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  /** The step counter and the address bar, read in one task. */
  const both = () =>
    page.evaluate(() => {
      const el = document.querySelector('[data-testid=step-counter]')!;
      return {
        step: Number(el.getAttribute('data-step')),
        op: Number(el.getAttribute('data-op')),
        hash: location.hash,
      };
    });
  const commands = ['btn-step-op', 'btn-step-request', 'btn-step-op', 'btn-back', 'btn-step-request'];
  for (const id of commands) {
    await page.getByTestId(id).click();
    // While the request is revealed frame by frame, every sample agrees.
    for (let i = 0; i < 6; i++) {
      const { hash, ...drawn } = await both();
      if (hash) expect(hashMoment(hash)).toEqual(drawn);
    }
    const { hash, ...at } = await settled(page);
    expect(hashMoment(hash)).toEqual(at);
  }
  // Keys held down (faster than the address bar may be written): it catches up at rest.
  for (let i = 0; i < 15; i++) await page.keyboard.press('ArrowRight');
  const { hash, ...at } = await settled(page);
  expect(hashMoment(hash)).toEqual(at);
  expect(problems).toEqual([]);
});

test('a copied link opens the same step, operation and metrics in a fresh page', async ({ page, browser }) => {
  const problems = watch(page);
  await ready(page);
  // Go somewhere particular: a few requests on, then into the middle of one.
  // Each click waits for its new moment: settled() right after a click can read the moment before it.
  for (let i = 0; i < 3; i++) await stepTo(page, 'btn-step-request');
  await stepTo(page, 'btn-step-op');
  const { hash: _h, ...here } = await settled(page);
  const m = await metrics(page);
  const grid = await gridSignature(page);
  await page.getByTestId('speed').selectOption('20req');
  await page.getByTestId('copy-link').click();
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toMatch(/#v1=/);
  await shot(page, 'copy-link');

  const fresh = await browser.newContext({
    viewport: { width: 1280, height: 720 },
  });
  const other = await fresh.newPage();
  const problems2 = watch(other);
  await other.goto(url);
  await settledAt(other, here);
  expect(await metrics(other)).toBe(m);
  expect(await gridSignature(other)).toBe(grid);
  await expect(other.getByTestId('scenario-line')).toContainText('Page mapping');
  await expect(other.getByTestId('speed')).toHaveValue('20req');
  await fresh.close();
  // The address bar follows the state: a reload opens the same moment.
  await page.getByRole('button', { name: 'Close the link box' }).click();
  await stepTo(page, 'btn-step-op');
  await stepTo(page, 'btn-step-op');
  const { hash: _h2, ...later } = await settled(page);
  const laterMetrics = await metrics(page);
  await poll(() => page.url()).not.toBe(url);
  await page.reload();
  await settledAt(page, later);
  expect(await metrics(page)).toBe(laterMetrics);
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
});

test('a corrupted link shows a clear message and the default scenario', async ({ page }) => {
  const problems = watch(page);
  await ready(page, '/#v1=N4IgLgpgTgZglgQwDYgFwgK4BMC2BnALQHk');
  await expect(page.getByTestId('link-error')).toContainText(/damaged|cannot be used/);
  await expect(page.getByTestId('link-error')).toContainText('default scenario');
  await expect(page.locator('[data-testid=device-grid] rect.page')).toHaveCount(64);
  await expect(page.getByTestId('scenario-line')).toContainText('Page mapping');
  await shot(page, 'corrupted');
  // A link from a newer version is explained too.
  await page.goto(`/#v9=${compressToEncodedURIComponent('{}')}`);
  await expect(page.getByTestId('link-error')).toContainText('newer version');
  expect(problems).toEqual([]);
});

test('an older (v0) link is migrated, and a link that needed a trace offers to keep the rest', async ({ page }) => {
  const problems = watch(page);
  const bare = {
    scheme: 'bast',
    params: { log_blocks: 2 },
    chip: { preset: 'classroom' },
    workload: { kind: 'pattern', text: 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12' },
  };
  await ready(page, `/#v0=${compressToEncodedURIComponent(JSON.stringify(bare))}`);
  await expect(page.getByTestId('link-notice')).toContainText('older version');
  await expect(page.getByTestId('scenario-line')).toContainText('BAST');
  expect(await counter(page)).toEqual({ step: 0, op: 0 });

  const withTrace = {
    v: 1,
    scenario: {
      scheme: 'fast',
      params: { log_blocks: 8 },
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'trace', name: 'src1_2.csv', missing: true },
    },
    at: { step: 50, op: 0 },
  };
  await page.goto(`/#v1=${compressToEncodedURIComponent(JSON.stringify(withTrace))}`);
  await expect(page.getByTestId('link-trace-missing')).toContainText('src1_2.csv');
  await shot(page, 'trace-missing');
  await page.getByTestId('keep-rest').click();
  await expect(page.getByTestId('scenario-line')).toContainText('FAST');
  await expect(page.getByTestId('scenario-line')).toContainText('hot/cold');
  await expect(page.getByTestId('link-trace-missing')).toHaveCount(0);
  // Or upload it again: the file picker opens, on the link's scheme and chip. The link is
  // opened in a page that has started (a hash changed mid-startup may be overwritten by the
  // startup's own address, which failed once under load).
  await ready(page, '/');
  await page.goto(`/#v1=${compressToEncodedURIComponent(JSON.stringify(withTrace))}`);
  await expect(page.getByTestId('link-trace-missing')).toBeVisible();
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('upload-again').click()]);
  expect(chooser).toBeTruthy();
  await expect(page.getByTestId('scenario-line')).toContainText('FAST');
  expect(problems).toEqual([]);
});

test('the scheme picker offers every scheme of the core, and RFTL on a small chip shows the core message', async ({
  page,
}) => {
  const problems = watch(page);
  await ready(page);
  const options = await page
    .getByTestId('scheme')
    .locator('option')
    .evaluateAll((os) => os.map((o) => (o as unknown as { value: string }).value));
  for (const id of ['page', 'bast', 'fast', 'ofast', 'kraft', 'kast', 'rftl', 'gftl', 'nftl'])
    expect(options).toContain(id);
  await page.getByTestId('scheme').selectOption('kraft');
  for (const p of ['log_blocks', 'k', 'switch_max', 'fill_max'])
    await expect(page.getByTestId(`param-${p}`)).toBeVisible();
  // Every param the catalog lists is offered, including ones added after this UI (FastCheck's).
  if (options.includes('fastcheck')) {
    await page.getByTestId('scheme').selectOption('fastcheck');
    for (const p of ['log_blocks', 'checkpoint_lpns']) await expect(page.getByTestId(`param-${p}`)).toBeVisible();
  }
  // Picking RFTL picks a chip it runs on and says why (issue 19); forcing the small pages
  // back shows the core's own message and Apply is refused.
  await page.getByTestId('scheme').selectOption('rftl');
  await expect(page.getByTestId('fit-note')).toContainText(/pages per block/);
  await page.getByLabel('Pages/block').fill('4');
  await expect(page.locator('.form-errors')).toContainText(/pages per block/);
  await expect(page.getByTestId('apply')).toBeDisabled();
  // The pattern field uses the core's parser.
  await page.getByTestId('workload-kind').selectOption('pattern');
  await page.getByTestId('pattern').fill('w0-15 S0 (w1');
  await expect(page.getByText(/line 1, column/)).toBeVisible();
  await page.getByTestId('pattern').fill('w0-15 S0 S4');
  await expect(page.getByText('18 requests')).toBeVisible();
  expect(problems).toEqual([]);
});

// Every tour run to its end by its Next button (Next enabled at every stop, a quiz's answer
// shown after it, "Finish tour" closing the panel): e2e/layout.spec.ts's 1024 px walk, which
// checks the layout at each of those stops too.
test('a tour link, presentation mode, and PageDown / PageUp', async ({ page }) => {
  const problems = watch(page);
  await ready(page, '/#tour=bast-thrashing');
  const panel = page.getByTestId('tour-panel');
  await expect(panel).toHaveAttribute('data-stop', '0');
  await settledAt(page, { step: 16 });
  await page.getByTestId('present-toggle').click();
  await expect(page.locator('.app')).toHaveAttribute('data-present', 'true');
  await expect(page.getByTestId('apply')).toBeHidden();
  await page.locator('body').click({ position: { x: 600, y: 700 } });
  await page.keyboard.press('PageDown');
  await expect(panel).toHaveAttribute('data-stop', '1');
  await settledAt(page, { step: 18 });
  await page.keyboard.press('PageDown');
  await expect(panel).toHaveAttribute('data-stop', '2');
  await expect(page.getByTestId('tour-answer')).toContainText('2.');
  await settledAt(page, { step: 18, op: 5 });
  await expect(page.locator('[data-testid=device-grid] g.block.tour-hi').first()).toBeVisible();
  await still(page);
  await shot(page, 'present');
  await page.keyboard.press('PageUp');
  await expect(panel).toHaveAttribute('data-stop', '1');
  // Stepping past the quiz's moment yourself reveals the answer.
  await expect(page.getByTestId('tour-answer-stepped')).toHaveCount(0);
  await page.getByTestId('btn-step-request').click();
  await expect(page.getByTestId('tour-answer-stepped')).toContainText('full merge');
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageUp');
  await expect(panel).toHaveAttribute('data-stop', '1');
  await settledAt(page, { step: 18, op: 0 });
  // The tour and its stop travel in a copied link.
  await page.keyboard.press('Escape');
  await expect(page.locator('.app')).toHaveAttribute('data-present', 'false');
  await page.getByTestId('copy-link').click();
  const url = await page.getByTestId('share-url').inputValue();
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.getByTestId('tour-panel')).toHaveAttribute('data-stop', '1');
  await settledAt(other, { step: 18 });
  expect(problems).toEqual([]);
});

test('exports download non-empty files of the right type', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  // the app opens at request 0: write something first
  for (let i = 0; i < 5; i++) await page.getByTestId('btn-step-request').click();
  await settledAt(page, { step: 5 });
  const grab = async (testId: string) => {
    await page.getByTestId(testId.startsWith('export') ? 'export-menu' : 'file-menu').click();
    const [d] = await Promise.all([page.waitForEvent('download'), page.getByTestId(testId).click()]);
    return { name: d.suggestedFilename(), body: await saved(d) };
  };
  const csv = await grab('export-metrics-csv');
  expect(csv.name).toMatch(/\.csv$/);
  expect(csv.body.toString()).toMatch(/^metric,page\r\nscheme,page\r\n/);
  expect(csv.body.toString()).toMatch(/\nerases,\d+/);
  const json = await grab('export-metrics-json');
  expect(json.name).toMatch(/\.json$/);
  expect(JSON.parse(json.body.toString()).metrics.host_writes).toBeGreaterThan(0);
  const png = await grab('export-grid-png');
  expect(png.name).toMatch(/\.png$/);
  expect(png.body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.body.length).toBeGreaterThan(2000);
  const svg = await grab('export-grid-svg');
  expect(svg.name).toMatch(/\.svg$/);
  expect(svg.body.toString()).toMatch(/<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  // The single view's charts are offered too (any <svg data-chart>).
  await page.getByTestId('tab-charts').click();
  await expect(page.locator('svg[data-chart]').first()).toBeVisible();
  const chartSvg = await grab('export-chart-svg-0');
  expect(chartSvg.name).toMatch(/\.svg$/);
  expect(chartSvg.body.toString()).toMatch(/<svg[^>]+xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  const chartPng = await grab('export-chart-png-0');
  expect(chartPng.body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  await page.getByTestId('tab-chip').click();
  const scenario = await grab('save-scenario');
  expect(scenario.name).toMatch(/\.json$/);
  const file = JSON.parse(scenario.body.toString());
  expect(file).toMatchObject({
    v: 1,
    scenario: { scheme: 'page' },
    at: { step: (await counter(page)).step },
  });

  // Open a scenario file: a bare Session scenario.
  await page.getByTestId('file-menu').click();
  await page.getByTestId('open-scenario-input').setInputFiles({
    name: 'fast.json',
    mimeType: 'application/json',
    buffer: Buffer.from(
      JSON.stringify({
        scheme: 'fast',
        params: { log_blocks: 3 },
        chip: { preset: 'classroom' },
        workload: { kind: 'pattern', text: 'w0-15 S1 S5 S9 S13' },
      }),
    ),
  });
  await expect(page.getByTestId('scenario-line')).toContainText('FAST');
  await page.getByTestId('open-scenario-input').setInputFiles({
    name: 'bad.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{oops'),
  });
  await expect(page.getByTestId('link-error')).toContainText('bad.json');
  expect(problems).toEqual([]);
});

test('compare: BAST with 4, 8 and 16 log blocks on one screen, best marked, exports', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = watch(page);
  const bast = {
    v: 1,
    scenario: {
      scheme: 'bast',
      params: { log_blocks: 4 },
      chip: { preset: 'classroom', blocks: 32, pages_per_block: 4 },
      workload: {
        kind: 'hotcold',
        n: 3000,
        seed: 3,
        read_ratio: 0.1,
        hot_fraction: 0.2,
        hot_ratio: 0.8,
      },
    },
    at: { step: 0, op: 0 },
  };
  await ready(page, `/#v1=${compressToEncodedURIComponent(JSON.stringify(bast))}`);
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('compare-view')).toBeVisible();
  await expect(page.locator('[data-testid^=compare-run-]')).toHaveCount(3);
  // The single view's keys are off while comparing.
  await page.locator('.compare-head').click();
  await page.keyboard.press('Space');
  // Nothing was queued or started playing by the key.
  await settled(page);
  await expect(page.getByTestId('btn-play')).toHaveAttribute('aria-pressed', 'false');
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-table')).toBeVisible({
    timeout: 30_000,
  });
  const erases = page.getByTestId('compare-row-erases');
  await expect(erases.locator('td')).toHaveCount(3);
  await expect(erases.locator('td.best')).toHaveCount(1);
  // With more log blocks BAST erases less: the 16-log-block run is best.
  await expect(erases.locator('td').nth(2)).toHaveClass(/best/);
  await expect(page.locator('[data-testid=compare-chart] path.chart-line')).toHaveCount(3);
  await expect(page.locator('[data-testid^=compare-grid-] svg.device-grid')).toHaveCount(3);
  await chipStill(page);
  await shot(page, 'compare');
  // Synchronised stepping: every view moves to the same request.
  await page.getByTestId('compare-scrubber').fill('1500');
  await expect(page.getByTestId('compare-counter')).toContainText('1500');
  const [csv] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-csv').click()]);
  expect((await saved(csv)).toString()).toMatch(/^metric,BAST · Log blocks 4,BAST · Log blocks 8,BAST · Log blocks 16/);
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-chart-png').click()]);
  expect((await saved(png)).subarray(0, 4).toString('hex')).toBe('89504e47');
  const [svg] = await Promise.all([page.waitForEvent('download'), page.getByTestId('compare-chart-svg').click()]);
  expect((await saved(svg)).toString()).toContain('<path');
  // The header's Export menu offers the charts on screen too.
  await page.getByTestId('export-menu').click();
  const [chartPng] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-chart-png-0').click()]);
  expect(chartPng.suggestedFilename()).toMatch(/cumulative-block-erases\.png$/);
  expect((await saved(chartPng)).subarray(0, 4).toString('hex')).toBe('89504e47');
  // Other cumulative counts from series(), same runs.
  await page.getByTestId('compare-chart-pick').selectOption('wa');
  await expect(page.getByTestId('compare-chart')).toContainText('Write amplification so far');
  await expect(page.locator('[data-testid=compare-chart] path.chart-line')).toHaveCount(3);
  // The compare runs travel in a link.
  await page.getByTestId('copy-link').click();
  const url = await page.getByTestId('share-url').inputValue();
  const other = await page.context().newPage();
  await other.goto(url);
  await expect(other.locator('[data-testid^=compare-run-]')).toHaveCount(3);
  await other.close();
  await page.getByRole('button', { name: 'Close the link box' }).click();
  await page.getByTestId('compare-close').click();
  await expect(page.getByTestId('compare-view')).toHaveCount(0);
  await expect(page.locator('[data-testid=device-grid] rect.page')).toHaveCount(128);
  expect(problems).toEqual([]);
});

test('compare: a long run shows progress and can be cancelled', async ({ page }) => {
  test.setTimeout(60_000);
  const problems = watch(page);
  const big = {
    v: 1,
    scenario: {
      scheme: 'fast',
      params: { log_blocks: 4 },
      chip: { preset: 'classroom', blocks: 16, pages_per_block: 4 },
      workload: { kind: 'uniform', n: 3_000_000, seed: 1, read_ratio: 0 },
    },
    at: { step: 0, op: 0 },
  };
  await ready(page, `/#v1=${compressToEncodedURIComponent(JSON.stringify(big))}`);
  await page.getByTestId('compare-toggle').click();
  await page.getByTestId('compare-run').click();
  await expect(page.getByTestId('compare-progress')).toBeVisible();
  await poll(async () => Number(await page.getByTestId('compare-progress').getAttribute('value'))).toBeGreaterThan(0);
  await page.getByTestId('compare-cancel').click();
  await expect(page.getByTestId('compare-status')).toHaveText('Cancelled.');
  await expect(page.getByTestId('compare-progress')).toHaveCount(0);
  await expect(page.getByTestId('compare-table')).toHaveCount(0);
  // The app still works afterwards.
  await page.getByTestId('compare-close').click();
  expect((await stepTo(page, 'btn-step-request')).startsWith('0:')).toBe(false);
  expect(problems).toEqual([]);
});

test('the header tools work from the keyboard', async ({ page }) => {
  const problems = watch(page);
  await ready(page);
  await page.getByTestId('tour-menu').focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('tour-intro-ftl')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tour-panel')).toHaveAttribute('data-stop', '0');
  // Escape closes a menu and gives focus back to its button.
  await page.getByTestId('export-menu').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('export-metrics-csv')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('export-metrics-csv')).toHaveCount(0);
  await expect(page.getByTestId('export-menu')).toBeFocused();
  expect(problems).toEqual([]);
});

test('a tour plays the operations up to the next stop and pauses there', async ({ page }) => {
  const problems = watch(page);
  await ready(page, '/#tour=bast-thrashing');
  const panel = page.getByTestId('tour-panel');
  await page.getByTestId('tour-next').click();
  await expect(panel).toHaveAttribute('data-stop', '1');
  await settledAt(page, { step: 18, op: 0 });
  // Every moment the counter shows while the tour plays, recorded in the page (a poll could
  // miss one under load).
  const seen = await recordMoments(page);
  await page.getByTestId('tour-play').click();
  await expect(page.getByTestId('tour-stop')).toBeVisible();
  // ... it pauses at the next stop's moment ...
  await expect(panel).toHaveAttribute('data-stop', '2', { timeout: 15_000 });
  await settledAt(page, { step: 18, op: 5 });
  // ... having moved one operation at a time (the quiz's answer waits until the request has finished).
  const ops = (await seen()).map((m) => m.split(':').map(Number));
  expect(ops.every(([step]) => step === 18)).toBe(true);
  expect(ops.every(([, op], i) => i === 0 || op > ops[i - 1][1])).toBe(true);
  expect(ops.length).toBeGreaterThan(1);
  expect(ops.at(-1)).toEqual([18, 5]);
  await expect(page.getByTestId('tour-answer-stepped')).toHaveCount(0);
  await expect(page.getByTestId('tour-play')).toBeVisible();
  await expect(page.getByTestId('tour-answer')).toBeVisible();
  expect(problems).toEqual([]);
});

isolated.describe(() => {
  // The route below must see the core's fetch: the app's service worker (clientsClaim) can
  // claim the page before the worker fetches its wasm and answer from its precache, which
  // page.route never sees (Playwright: disable service workers when intercepting). Seen in a
  // fresh-clone run: the core loaded unheld, `asked` stayed 0.
  isolated.use({ serviceWorkers: 'block' });

  isolated('a hash changed during startup is the one opened, and the address bar keeps it', async ({ page }) => {
    const problems = watch(page);
    // Hold the core (its wasm) until the hash has changed: the app listens but is not ready.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked = 0;
    await page.route('**/*.wasm', async (route) => {
      asked++;
      await held;
      await route.continue();
    });
    await page.goto('/#tour=intro-ftl', { waitUntil: 'commit' });
    await page.waitForFunction(() => document.documentElement.dataset.hashListening === 'true');
    // the page's core is being fetched (and held): the app cannot be ready
    await poll(() => asked).toBeGreaterThan(0);
    await expect(page.getByTestId('tour-panel')).toHaveCount(0);
    // the app's own hashchange listener (registered first) has run when ours does
    await page.evaluate(
      () =>
        new Promise<void>((r) => {
          addEventListener('hashchange', () => r(), { once: true });
          location.hash = '#tour=fast-merges';
        }),
    );
    release();
    const panel = page.getByTestId('tour-panel');
    await expect(panel).toHaveAttribute('data-tour', 'fast-merges');
    await expect(panel).toHaveAttribute('data-stop', '0');
    const at = await settled(page);
    // the address bar holds the tour's first stop (the startup wrote nothing else over it)
    expect(at.hash).toMatch(/^#v1=/);
    const state = JSON.parse(lz.decompressFromEncodedURIComponent(at.hash.slice(4)) ?? 'null') as {
      view: { tour?: { id: string; index: number } };
    };
    expect(state.view.tour).toEqual({ id: 'fast-merges', index: 0 });
    await expect(page.getByTestId('error')).toHaveCount(0);
    // Playwright's own warning for the blocked registration, not the app's.
    expect(problems.filter((p) => p !== 'console.warning: Service Worker registration blocked by Playwright')).toEqual(
      [],
    );
  });
});
