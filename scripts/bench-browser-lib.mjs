/* global window -- page.evaluate callbacks run in the browser */
// What the browser benchmarks share (scripts/bench-step-browser.mjs,
// scripts/bench-run-browser.mjs): the arguments, `vite preview` of the production build
// (`npx vite build` first) and its wait, Chromium's launch, and the long-task observer.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * `--port N` (else PW_PORT, else 4202), `--dist DIR` (a production build other than dist/,
 * to alternate two builds in one run) and the other arguments in order.
 */
export function benchArgs(argv = process.argv.slice(2)) {
  const opt = (name) => {
    const at = argv.indexOf(name);
    if (at < 0) return undefined;
    const v = argv[at + 1];
    argv = argv.filter((_, i) => i !== at && i !== at + 1);
    return v;
  };
  const portArg = opt('--port');
  const dist = opt('--dist');
  const port = Number(portArg ?? process.env.PW_PORT ?? 4202);
  if (dist) process.env.BENCH_DIST = dist;
  return { port, dist, positional: argv };
}

/** Headless Chromium (/usr/bin/chromium or CHROMIUM_PATH), as every browser bench runs it. */
export function launchChromium() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    // CHROMIUM_ARGS: more switches, space-separated (e.g. --js-flags=--perf-prof for `perf`).
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--no-first-run',
      ...(process.env.CHROMIUM_ARGS?.split(' ').filter(Boolean) ?? []),
    ],
  });
}

/**
 * `vite preview` on the port and Chromium (/usr/bin/chromium or CHROMIUM_PATH), once the
 * server answers. `close()` stops both.
 */
export async function openBench(port) {
  const server = spawn(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
      'preview',
      '--host',
      '127.0.0.1',
      '--port',
      String(port),
      '--strictPort',
      ...(process.env.BENCH_DIST ? ['--outDir', process.env.BENCH_DIST] : []),
    ],
    { cwd: ROOT, stdio: 'ignore' },
  );
  const base = `http://127.0.0.1:${port}`;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(base)).ok) break;
      } catch {
        /* not up yet */
      }
      if (i > 300) throw new Error('vite preview did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
    const browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
    return {
      base,
      page,
      close: async () => {
        await browser.close();
        server.kill();
      },
    };
  } catch (e) {
    server.kill();
    throw e;
  }
}

/** Starts recording the page's long tasks (> 50 ms, the browser's definition). */
export function watchLongTasks(page) {
  return page.evaluate(() => {
    window.__long = [];
    new PerformanceObserver((l) =>
      l.getEntries().forEach((e) => window.__long.push({ start: e.startTime, ms: e.duration })),
    ).observe({ type: 'longtask' });
  });
}

/** The long tasks recorded since `watchLongTasks`: `[{start, ms}]`, start in page ms. */
export function longTasks(page) {
  return page.evaluate(() => window.__long);
}

/**
 * Starts a Chromium trace (CDP Tracing, through Playwright) of the page. `stop()` ends it
 * and returns `{ main, worker }`: the renderer main thread's tasks over 50 ms as
 * `[{ms, top: [[what, ms], ...]}]` (`top` the events inside the task by duration:
 * functions with their script, layout, paint, GC, message handlers, so a long task says
 * where it went; only with `detail`), and the length in ms of every task over 50 ms on the
 * page's worker threads (the simulator's worker: the page's long-task observer never sees
 * them). Without `detail` only the timeline categories are traced (less overhead; the
 * tasks, RunTask, are in the disabled-by-default one: without it the worker shows none).
 */
export async function startTrace(page, detail = true) {
  const browser = page.context().browser();
  const categories = detail
    ? ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink.user_timing']
    : ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
  await browser.startTracing(page, { categories });
  return {
    stop: async () => {
      const trace = JSON.parse((await browser.stopTracing()).toString('utf8'));
      return { main: detail ? attributeLongTasks(trace) : [], worker: workerLongTasks(trace) };
    },
  };
}

/** Tasks over 50 ms on worker threads (DedicatedWorker), in ms. */
function workerLongTasks(trace) {
  const events = trace.traceEvents ?? trace;
  const workers = new Set(
    events.filter((e) => e.name === 'thread_name' && /Worker/.test(e.args?.name ?? '')).map((e) => `${e.pid}:${e.tid}`),
  );
  return events
    .filter((e) => e.ph === 'X' && e.name === 'RunTask' && e.dur > 50_000 && workers.has(`${e.pid}:${e.tid}`))
    .map((e) => Number((e.dur / 1000).toFixed(1)));
}

function attributeLongTasks(trace) {
  const events = trace.traceEvents ?? trace;
  const mainTids = new Set(
    events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`),
  );
  const onMain = events.filter((e) => e.ph === 'X' && mainTids.has(`${e.pid}:${e.tid}`));
  const what = (e) => {
    const d = e.args?.data ?? {};
    // file:line:column of the minified code (line 1-based): map it with the build's source
    // map (`npx vite build --sourcemap`).
    if (d.functionName || d.url)
      return `${e.name} ${d.functionName || '(anonymous)'} ${(d.url ?? '').split('/').pop()}:${(d.lineNumber ?? -1) + 1}:${d.columnNumber ?? ''}`;
    if (d.type) return `${e.name} ${d.type}`;
    return e.name;
  };
  return onMain
    .filter((e) => e.name === 'RunTask' && e.dur > 50_000)
    .map((t) => {
      const inside = onMain
        .filter((e) => e !== t && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur && e.name !== 'RunTask')
        .sort((a, b) => b.dur - a.dur)
        .slice(0, 6)
        .map((e) => [what(e), Number((e.dur / 1000).toFixed(1))]);
      return { ms: Number((t.dur / 1000).toFixed(1)), top: inside };
    });
}
