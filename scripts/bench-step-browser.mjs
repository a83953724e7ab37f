#!/usr/bin/env node
/* global document, window, KeyboardEvent -- page.evaluate callbacks run in the browser */
// One op step on a big chip in Chromium, as a user waits for it (issue 26): from the key
// press to the canvas drawn with the new moment (the grid's probe, viz/canvasDelta.ts),
// and to the step counter changing; `steps` back, then `steps` forward; long tasks (> 50
// ms) over each run of steps (count and longest): the main thread's (the page's long-task
// observer) and the simulator worker's (a Chromium trace of the timeline category over each
// run of steps: the observer never sees the worker, where a step back's replay runs).
// `--trace`: a detailed trace instead, printing what each main-thread task over 50 ms spent
// its time in (the events inside it, longest first); the timings then include the tracing.
// Drives the production build (`npx vite build` first) with Playwright. Prints one JSON line.
//   node scripts/bench-step-browser.mjs [scheme] [blocks] [pages_per_block] [warm-up requests] [steps] [--port N] [--trace]
// Not a timed test: the benchmark (scripts/bench.mjs) reports it.
import { benchArgs, longTasks, openBench, startTrace, watchLongTasks } from './bench-browser-lib.mjs';

const { port: PORT, positional: args } = benchArgs();
const TRACE = args.includes('--trace');
const pos = args.filter((a) => a !== '--trace');
const [scheme = 'page', blocks = '65536', ppb = '64', warm = '5000000', stepsArg = '30'] = pos;
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
  // `steps` op steps back from the moment opened (each to a moment not yet shown: the
  // worker seeks from its keyframe), then `steps` forward again; long tasks per direction
  // (main thread and worker) and how many of the steps were drawn by change only.
  const attributed = [];
  const byChange = () =>
    page.evaluate(() => document.querySelector('[data-testid=device-canvas]').__ftlGrid.byChange());
  const run = async (key) => {
    const tracing = await startTrace(page, TRACE);
    const [c0, b0] = [await page.evaluate(() => performance.now()), await byChange()];
    const rs = [];
    for (let i = 0; i < steps; i++) rs.push(await press(key));
    const [c1, b1] = [await page.evaluate(() => performance.now()), await byChange()];
    const long = (await longTasks(page)).filter((t) => t.start >= c0 && t.start < c1).map((t) => t.ms);
    const traced = await tracing.stop();
    attributed.push(...traced.main);
    return { rs, long, worker: traced.worker, byChange: b1 - b0 };
  };
  const back = await run('ArrowLeft');
  const fwd = await run('ArrowRight');
  const med = (xs) => {
    const a = xs.filter((x) => x != null).sort((x, y) => x - y);
    return a.length ? Number(a[Math.floor(a.length / 2)].toFixed(1)) : null;
  };
  // The longest task over 50 ms, null when there was none.
  const max = (xs) => (xs.length ? Number(Math.max(...xs).toFixed(1)) : null);
  const over = (xs) => xs.filter((d) => d > 50).length;
  console.log(
    JSON.stringify({
      scheme,
      chip: `${blocks} x ${ppb}`,
      warm_requests: Number(warm),
      open_s: openS,
      steps,
      drawn_by_change: fwd.byChange,
      back_drawn_by_change: back.byChange,
      step_drawn_ms_median: med(fwd.rs.map((r) => r.drawn)),
      step_drawn_ms_max: max(fwd.rs.map((r) => r.drawn)),
      step_counter_ms_median: med(fwd.rs.map((r) => r.counted)),
      back_drawn_ms_median: med(back.rs.map((r) => r.drawn)),
      back_drawn_ms_max: max(back.rs.map((r) => r.drawn)),
      back_counter_ms_median: med(back.rs.map((r) => r.counted)),
      // Every press, so a caller can pool several runs (scripts/bench.mjs takes three).
      step_drawn_ms: fwd.rs.map((r) => Number(r.drawn.toFixed(1))),
      back_drawn_ms: back.rs.map((r) => Number(r.drawn.toFixed(1))),
      // Main-thread tasks (the long-task observer) and the worker's (the trace), > 50 ms.
      long_tasks_over_50ms: over(fwd.long) + over(back.long),
      longest_task_ms: max([...fwd.long, ...back.long]),
      forward_long_tasks: over(fwd.long),
      forward_longest_task_ms: max(fwd.long),
      back_long_tasks: over(back.long),
      back_longest_task_ms: max(back.long),
      worker_tasks_over_50ms: fwd.worker.length + back.worker.length,
      worker_longest_task_ms: max([...fwd.worker, ...back.worker]),
      forward_worker_tasks: fwd.worker.length,
      back_worker_tasks: back.worker.length,
      back_worker_longest_task_ms: max(back.worker),
      ...(TRACE ? { traced_long_tasks: attributed } : {}),
    }),
  );
} finally {
  await close();
}
