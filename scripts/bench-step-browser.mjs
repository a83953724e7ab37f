#!/usr/bin/env node
/* global document, window, KeyboardEvent -- page.evaluate callbacks run in the browser */
// One op step on a big chip in Chromium, as a user waits for it (issue 26): from the key
// press to the canvas drawn with the new moment (the grid's probe, viz/canvasDelta.ts),
// and to the step counter changing; forward and back; long tasks (> 50 ms) over the steps.
// Drives the production build (`npx vite build` first) with Playwright. Prints one JSON line.
//   node scripts/bench-step-browser.mjs [scheme] [blocks] [pages_per_block] [warm-up requests] [steps] [--port N]
// Not a timed test: the benchmark (scripts/bench.mjs) reports it.
import { benchArgs, longTasks, openBench, watchLongTasks } from './bench-browser-lib.mjs';

const { port: PORT, positional: pos } = benchArgs();
const [scheme = 'page', blocks = '65536', ppb = '64', warm = '5000000', stepsArg = '40'] = pos;
const steps = Number(stepsArg);

const scenario = {
  scheme,
  params: scheme === 'page' ? {} : { log_blocks: 64 },
  chip: { preset: 'classroom', blocks: Number(blocks), pages_per_block: Number(ppb) },
  workload: { kind: 'uniform', n: Number(warm) + 10 * steps, seed: 7 },
};

const { base, page, close } = await openBench(PORT);
try {
  const t0 = Date.now();
  await page.goto(`${base}/?scenario=${encodeURIComponent(JSON.stringify(scenario))}&at=${warm}`);
  await page.waitForFunction(
    (w) => document.querySelector('[data-testid=step-counter]')?.getAttribute('data-step') === w,
    warm,
    {
      timeout: 600_000,
    },
  );
  await page.waitForFunction(() => {
    const p = document.querySelector('[data-testid=device-canvas]')?.__ftlGrid;
    return p && p.idle() && p.drawn() === p.received();
  });
  const openS = (Date.now() - t0) / 1000;
  await watchLongTasks(page);
  // One key press: ms to the counter changing and to the canvas drawn with the new moment.
  const press = (key) =>
    page.evaluate(async (key) => {
      const probe = document.querySelector('[data-testid=device-canvas]').__ftlGrid;
      const counter = document.querySelector('[data-testid=step-counter]');
      const was = `${counter.getAttribute('data-step')}/${counter.getAttribute('data-op')}`;
      const r0 = probe.received();
      const t = performance.now();
      let counted = null;
      window.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
      for (;;) {
        await new Promise((r) => setTimeout(r, 0));
        const now = `${counter.getAttribute('data-step')}/${counter.getAttribute('data-op')}`;
        if (counted == null && now !== was) counted = performance.now() - t;
        if (probe.received() > r0 && probe.drawn() >= probe.received() && probe.idle()) break;
        if (performance.now() - t > 30_000) throw new Error('no redraw');
      }
      return { drawn: performance.now() - t, counted, byChange: probe.byChange() };
    }, key);
  const fwd = [];
  const back = [];
  let byChange = 0;
  for (let i = 0; i < steps; i++) {
    const r = await press(i % 4 === 3 ? 'ArrowLeft' : 'ArrowRight');
    (i % 4 === 3 ? back : fwd).push(r);
    byChange = r.byChange;
  }
  const long = (await longTasks(page)).map((t) => t.ms);
  const med = (xs) => {
    const a = xs.filter((x) => x != null).sort((x, y) => x - y);
    return a.length ? Number(a[Math.floor(a.length / 2)].toFixed(1)) : null;
  };
  const max = (xs) => Number(Math.max(...xs).toFixed(1));
  console.log(
    JSON.stringify({
      scheme,
      chip: `${blocks} x ${ppb}`,
      warm_requests: Number(warm),
      open_s: openS,
      steps,
      drawn_by_change: byChange,
      step_drawn_ms_median: med(fwd.map((r) => r.drawn)),
      step_drawn_ms_max: max(fwd.map((r) => r.drawn)),
      step_counter_ms_median: med(fwd.map((r) => r.counted)),
      back_drawn_ms_median: med(back.map((r) => r.drawn)),
      back_drawn_ms_max: max(back.map((r) => r.drawn)),
      long_tasks_over_50ms: long.filter((d) => d > 50).length,
      longest_task_ms: long.length ? max(long) : 0,
    }),
  );
} finally {
  await close();
}
