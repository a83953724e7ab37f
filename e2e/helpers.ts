// Shared by the e2e specs: what every test asserts about the page, and where it stands.
import { expect, test as base, type BrowserContext, type Locator, type Page } from '@playwright/test';
import lz from 'lz-string';

/** Console errors and warnings, uncaught errors and any request off this machine. */
export function watch(page: Page) {
  const problems: string[] = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`console.${msg.type()}: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
  page.on('request', (req) => {
    const url = new URL(req.url());
    if (
      !['127.0.0.1', 'localhost'].includes(url.hostname) &&
      !url.protocol.startsWith('data') &&
      !url.protocol.startsWith('blob')
    ) {
      problems.push(`off-site request: ${req.url()}`);
    }
  });
  return problems;
}

/**
 * `expect.poll` polling every 20, 50, then 100 ms. Its default back-off (100, 250, 500, then
 * 1,000 ms) makes a state reached after 120 ms cost 350 ms and one reached after 900 ms cost
 * 1.85 s: over the suite's ~130 polls that was idle time. The timeout is expect's own.
 */
export function poll<T>(actual: () => T | Promise<T>, options: string | { timeout?: number; message?: string } = {}) {
  return expect.poll(actual, {
    intervals: [20, 50, 100],
    ...(typeof options === 'string' ? { message: options } : options),
  });
}

/** The step counter: requests completed and flash operations revealed. */
export async function counter(page: Page) {
  const el = page.getByTestId('step-counter');
  return { step: Number(await el.getAttribute('data-step')), op: Number(await el.getAttribute('data-op')) };
}

/** The app opened on its default scenario, the chip drawn and stepping enabled. */
export async function ready(page: Page) {
  await page.goto('/');
  await expect(page.locator('[data-testid=device-grid] rect.page').first()).toBeVisible();
  await expect(page.getByTestId('btn-step-op')).toBeEnabled();
  // the startup done: nothing queued or revealing, the address bar written for the moment
  await settled(page);
}

/** A trace file chosen in the upload control: its dialog open with the trace's summary. */
export async function openUpload(page: Page, file: string) {
  await page.getByTestId('trace-input').setInputFiles(file);
  const dialog = page.getByTestId('trace-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('trace-summary')).toBeVisible();
  return dialog;
}

/** A test's start: console problems watched, the window sized, the app `ready`. */
export async function readyAt(page: Page, size: { width: number; height: number }) {
  const problems = watch(page);
  await page.setViewportSize(size);
  await ready(page);
  return problems;
}

/**
 * Click a stepping control and wait until the app has settled on another moment (not
 * merely until the counter moved: a reveal, the address bar or a panel may still follow).
 */
export async function stepTo(page: Page, testid: string) {
  return actTo(page, () => page.getByTestId(testid).click());
}

/** Do `act` from a settled moment and wait until settled on another moment. */
async function actTo(page: Page, act: () => Promise<void>) {
  const before = await settled(page);
  await act();
  const handle = await page.waitForFunction((was) => {
    const doc = document.documentElement.dataset;
    const el = document.querySelector('[data-testid=step-counter]');
    if (doc.settled !== 'true' || !el) return null;
    const at = `${el.getAttribute('data-step')}:${el.getAttribute('data-op')}`;
    return at !== was && doc.hashMoment === at ? at : null;
  }, `${before.step}:${before.op}`);
  return (await handle.jsonValue()) as string;
}

/**
 * Wait until nothing is moving (no command queued, no reveal, not playing) and the
 * address bar holds the moment drawn; then the moment and the hash, read together.
 */
export async function settled(page: Page): Promise<{ step: number; op: number; hash: string }> {
  const handle = await page.waitForFunction(() => {
    const doc = document.documentElement.dataset;
    const el = document.querySelector('[data-testid=step-counter]');
    if (doc.settled !== 'true' || !el) return null;
    const at = { step: Number(el.getAttribute('data-step')), op: Number(el.getAttribute('data-op')) };
    // The address bar was written for this moment (useHashRoute).
    if (doc.hashMoment !== `${at.step}:${at.op}`) return null;
    return { ...at, hash: location.hash };
  });
  return (await handle.jsonValue()) as { step: number; op: number; hash: string };
}

/** The moment a `#v1=` address holds (share.ts's format), decoded here independently. */
export function hashMoment(hash: string): { step: number; op: number } {
  const m = /^#v1=(.+)$/.exec(hash);
  if (!m) throw new Error(`not a v1 state link: ${hash.slice(0, 40)}`);
  const state = JSON.parse(lz.decompressFromEncodedURIComponent(m[1]) ?? 'null') as {
    at: { step: number; op: number };
  };
  return state.at;
}

/**
 * Wait until every SVG chip on the page has finished its colour transitions and token
 * effects, drawn in the theme the document now has (DeviceGrid's data-fills, data-fx and
 * data-fills-theme): a screenshot or a colour check then sees the final picture.
 */
export async function chipStill(page: Page) {
  await page.waitForFunction(() => {
    const theme = document.documentElement.dataset.theme ?? '';
    return Array.from(document.querySelectorAll<SVGSVGElement>('svg.device-grid')).every((s) => {
      const d = s.dataset;
      return d.fills !== 'running' && (d.fx ?? 'idle') === 'idle' && (!d.fillsTheme || d.fillsTheme === theme);
    });
  });
}

/** Settled (nothing queued, revealing or playing; the address bar written) and the chip still. */
export async function still(page: Page) {
  const at = await settled(page);
  await chipStill(page);
  return at;
}

/** A `?scenario=…&at=…` address: the scenario opened at request `at`. */
export function scenarioUrl(scenario: object, at = 0) {
  return `/?scenario=${encodeURIComponent(JSON.stringify(scenario))}${at ? `&at=${at}` : ''}`;
}

/**
 * Watch, from before an action, for a Step request reveal (`data-revealing` on `.app`): a
 * MutationObserver records, at each commit while revealing, the moment shown and the
 * Metrics panel's values. Tests wait on that record, which stays, not on the transient
 * attribute (a loaded machine can end a reveal before a poll sees it).
 */
export async function watchReveal(page: Page) {
  await page.evaluate(() => {
    type Frame = { step: number; op: number; metrics: Record<string, string> };
    const w = window as unknown as { __reveal: Frame[] };
    w.__reveal = [];
    const app = document.querySelector('.app');
    if (!app) throw new Error('no .app');
    const look = () => {
      if (app.getAttribute('data-revealing') !== 'true') return;
      const el = document.querySelector('[data-testid=step-counter]');
      const step = Number(el?.getAttribute('data-step'));
      const op = Number(el?.getAttribute('data-op'));
      const last = w.__reveal[w.__reveal.length - 1];
      if (last && last.step === step && last.op === op) return;
      const metrics = Object.fromEntries(
        Array.from(document.querySelectorAll('[data-testid^=metric-]'), (m) => [
          m.getAttribute('data-testid') ?? '',
          m.querySelector('dd')?.textContent?.trim() ?? '',
        ]),
      );
      w.__reveal.push({ step, op, metrics });
    };
    new MutationObserver(look).observe(document.body, {
      attributes: true,
      childList: true,
      subtree: true,
      characterData: true,
    });
  });
  return {
    /** Wait until a reveal has started; its first frame (the state before the request). */
    started: async () => {
      const h = await page.waitForFunction(() => (window as unknown as { __reveal: unknown[] }).__reveal[0]);
      return (await h.jsonValue()) as { step: number; op: number; metrics: Record<string, string> };
    },
    /** Every moment shown while revealing, in order. */
    frames: () =>
      page.evaluate(() =>
        (window as unknown as { __reveal: { step: number; op: number }[] }).__reveal.map(({ step, op }) => ({
          step,
          op,
        })),
      ),
  };
}

// ---- q-walk (issue 35, item 7): waits on moments the app has settled on, not on counters ----

/**
 * Wait until the app has settled (nothing queued, revealing or playing; the address bar
 * written) on request `step` — and operation `op` when given. A counter read while a reveal
 * runs can pass through the wanted numbers; this waits for the moment the app rests on.
 */
export async function settledAt(
  page: Page,
  want: { step: number; op?: number },
  timeout?: number,
): Promise<{ step: number; op: number; hash: string }> {
  const handle = await page.waitForFunction(
    (w) => {
      const doc = document.documentElement.dataset;
      const el = document.querySelector('[data-testid=step-counter]');
      if (doc.settled !== 'true' || !el) return null;
      const at = { step: Number(el.getAttribute('data-step')), op: Number(el.getAttribute('data-op')) };
      if (doc.hashMoment !== `${at.step}:${at.op}`) return null;
      if (at.step !== w.step || (w.op !== undefined && at.op !== w.op)) return null;
      return { ...at, hash: location.hash };
    },
    want,
    { timeout },
  );
  return (await handle.jsonValue()) as { step: number; op: number; hash: string };
}

/**
 * Record every moment the step counter shows from now on ("step:op"), by a MutationObserver
 * installed in the page before the action: a moment shown for one frame of a reveal is
 * seen, where polling could miss it. Returns a reader of the moments seen so far.
 */
export async function recordMoments(page: Page): Promise<() => Promise<string[]>> {
  await page.evaluate(() => {
    const w = window as unknown as { __moments: string[]; __momentsObserver?: MutationObserver };
    w.__momentsObserver?.disconnect();
    w.__moments = [];
    const el = document.querySelector('[data-testid=step-counter]');
    if (!el) throw new Error('no step counter');
    const note = () => w.__moments.push(`${el.getAttribute('data-step')}:${el.getAttribute('data-op')}`);
    w.__momentsObserver = new MutationObserver(note);
    w.__momentsObserver.observe(el, { attributes: true, attributeFilter: ['data-step', 'data-op'] });
  });
  return () => page.evaluate(() => (window as unknown as { __moments: string[] }).__moments.slice());
}

/** Open a scenario at request `at` and wait until the app has settled there. */
export async function openAt(page: Page, scenario: object, at = 0) {
  await page.goto(scenarioUrl(scenario, at));
  await expect(page.getByTestId('step-counter')).toHaveAttribute('data-step', String(at));
  return settled(page);
}

/** Press a key (← → Home End…) and wait until settled on another moment (as stepTo). */
export async function pressTo(page: Page, key: string) {
  return actTo(page, () => page.keyboard.press(key));
}

/** Wait until the element is wholly inside the window (not merely visible: not below it). */
export async function inWindow(locator: Locator) {
  await poll(() =>
    locator.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    }),
  ).toBe(true);
}

// ---- one page a worker (issue 37, session 24): the app's cold start paid once, not per test ----

const TEST_EVENTS = ['console', 'pageerror', 'request', 'response', 'dialog', 'download', 'filechooser'] as const;

/**
 * `test` whose `page` (and `context`) is one page a worker keeps for the spec files that use it,
 * handed to each test blank (about:blank, the project's window size or the test's `viewport`),
 * with the origin's storage (local and session storage, IndexedDB, service worker and its
 * caches, cookies) cleared after the test, its listeners, routes, extra pages and media
 * emulation removed. What it saves: a fresh context and page cost ~0.6 s, and the app's first
 * load in a new renderer ~1 s more than a load in a renderer that has run it (its script and
 * wasm compiled; HTTP cache warm), at load 12 on the 2-core machine. A test that needs what
 * cannot be undone (addInitScript, a route seen by a service worker, offline, another scale
 * factor) uses Playwright's own `test`.
 */
export const sharedTest = base.extend<object, { shared: { context: BrowserContext; page: Page; origin: string } }>({
  shared: [
    async ({ browser }, provide, workerInfo) => {
      const { baseURL, viewport } = workerInfo.project.use;
      const context = await browser.newContext({ baseURL, viewport });
      const page = await context.newPage();
      await provide({ context, page, origin: new URL(baseURL ?? 'http://127.0.0.1').origin });
      await context.close();
    },
    { scope: 'worker' },
  ],
  context: async ({ shared }, provide) => provide(shared.context),
  page: async ({ shared, viewport }, provide) => {
    const { context, page, origin } = shared;
    if (viewport) await page.setViewportSize(viewport);
    await provide(page);
    for (const p of context.pages()) if (p !== page) await p.close();
    for (const e of TEST_EVENTS) page.removeAllListeners(e);
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    await page.emulateMedia({ media: null, colorScheme: null, reducedMotion: null });
    if (page.url().startsWith(origin)) await page.evaluate(() => sessionStorage.clear()).catch(() => {});
    await page.goto('about:blank');
    const cdp = await context.newCDPSession(page);
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    await cdp.detach();
    await context.clearCookies();
  },
});
