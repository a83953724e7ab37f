#!/usr/bin/env node
/* global document, window, requestAnimationFrame -- page.evaluate callbacks run in the browser */
// "Run to end" in Chromium, as a user waits for it (issue 37, item 4): from the click on
// the charts' "Run to end" to the charts covering the whole run and the moment shown again;
// long main-thread tasks (> 50 ms) during it; the CPU seconds of Chromium's renderer
// processes over the same span (CDP SystemInfo.getProcessInfo: the page's threads and its
// worker's, the figure load disturbs least). Drives the production build (`npx vite
// build` first) with Playwright. Prints one JSON line.
//   node scripts/bench-run-browser.mjs '<scenario json>' [at request] [--port N]
// Not a timed test: the benchmark reports it.
import { benchArgs, longTasks, openBench, watchLongTasks } from './bench-browser-lib.mjs';

const { port: PORT, positional: pos } = benchArgs();
const [json, atArg = '0'] = pos;
if (!json) throw new Error("usage: bench-run-browser.mjs '<scenario json>' [at request] [--port N]");
const scenario = JSON.parse(json);
const at = Number(atArg);

const { base, page, close } = await openBench(PORT);
try {
  const t0 = Date.now();
  await page.goto(`${base}/?scenario=${encodeURIComponent(JSON.stringify(scenario))}&at=${at}`);
  const stepIs = (w) =>
    page.waitForFunction(
      (w) => document.querySelector('[data-testid=step-counter]')?.getAttribute('data-step') === w,
      String(w),
      {
        timeout: 600_000,
      },
    );
  await stepIs(at);
  const openS = (Date.now() - t0) / 1000;
  await page.getByTestId('tab-charts').click();
  await page.getByTestId('run-to-end').waitFor();
  await watchLongTasks(page);
  // When the progress bar first shows the last request run, or goes away having been
  // shown (the page may take the last chunk and the run log in one frame): the run
  // itself, before the return to the moment shown and the charts' redraw.
  await page.evaluate(() => {
    window.__ranAt = null;
    let seen = false;
    const tick = () => {
      const p = document.querySelector('[data-testid=run-progress]');
      seen ||= !!p;
      if ((p && Number(p.getAttribute('value')) >= Number(p.getAttribute('max'))) || (seen && !p))
        window.__ranAt = performance.now();
      else requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    // The same span as the page sees it: from the click event (the user's click, without
    // Playwright's checks and round trips before it) to the first frame with the charts
    // whole and the progress bar gone (not the 20 ms polling below).
    window.__clickAt = null;
    window.__doneAt = null;
    const button = document.querySelector('[data-testid=run-to-end]');
    button.addEventListener('click', (e) => (window.__clickAt = e.timeStamp), { capture: true, once: true });
    const done = () => {
      const whole = document.querySelector('[data-testid=charts-coverage]')?.textContent?.includes('(the whole run)');
      if (window.__clickAt !== null && whole && !document.querySelector('[data-testid=run-progress]'))
        window.__doneAt = performance.now();
      else requestAnimationFrame(done);
    };
    requestAnimationFrame(done);
  });
  const cdp = await page.context().browser().newBrowserCDPSession();
  const rendererCpu = async () =>
    (await cdp.send('SystemInfo.getProcessInfo')).processInfo
      .filter((p) => p.type === 'renderer')
      .reduce((a, p) => a + p.cpuTime, 0);
  const cpu0 = await rendererCpu();
  const t1 = Date.now();
  const c1 = await page.evaluate(() => performance.now());
  await page.getByTestId('run-to-end').click();
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=charts-coverage]')?.textContent?.includes('(the whole run)') &&
      !document.querySelector('[data-testid=run-progress]'),
    null,
    { timeout: 1_800_000, polling: 20 },
  );
  const runS = (Date.now() - t1) / 1000;
  const cpuS = (await rendererCpu()) - cpu0;
  const ranAt = await page.evaluate(() => window.__ranAt);
  await page.waitForFunction(() => window.__doneAt !== null, null, { timeout: 60_000 });
  const inPage = await page.evaluate(() => (window.__doneAt - window.__clickAt) / 1000);
  await stepIs(at);
  // When each long task began, in ms after the click: the ones at the end are the return
  // to the moment shown and the charts; the ones during the run are the chunks' replies.
  const long = (await longTasks(page)).map((t) => ({ at_ms: Math.round(t.start - c1), ms: Math.round(t.ms) }));
  console.log(
    JSON.stringify({
      scheme: scenario.scheme,
      chip: `${scenario.chip.blocks} x ${scenario.chip.pages_per_block}`,
      requests: scenario.workload.n ?? null,
      at,
      open_s: openS,
      run_to_end_s: runS,
      renderer_cpu_s: Number(cpuS.toFixed(3)),
      // click event to the frame that shows the charts whole, by the page's clock
      in_page_s: Number(inPage.toFixed(3)),
      // click to the progress bar full: the run in the worker (the rest: back to the moment
      // shown, the run log fetched, the charts drawn)
      ran_s: ranAt == null ? null : Number(((ranAt - c1) / 1000).toFixed(3)),
      long_tasks_over_50ms: long.filter((t) => t.ms > 50).length,
      longest_task_ms: long.length ? Math.max(...long.map((t) => t.ms)) : 0,
      long_tasks: long,
    }),
  );
} finally {
  await close();
}
