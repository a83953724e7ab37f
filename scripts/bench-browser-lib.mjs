/* global window -- page.evaluate callbacks run in the browser */
// What the browser benchmarks share (scripts/bench-step-browser.mjs,
// scripts/bench-run-browser.mjs, scripts/bench-wasm-browser.mjs, scripts/bench.mjs): the
// arguments, `vite preview` of the production build (`npx vite build` first) and its wait,
// Chromium's launch, the long-task observer, and the app's .wasm run in a worker of one
// Chromium kept open (openWasmBench).
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
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

/**
 * CPU ns of the DedicatedWorker threads of `pids` (Chromium's renderers): field 1 of
 * /proc/PID/task/TID/schedstat, the thread's time on a CPU, in ns (exact for a thread that is
 * not running: it is brought up to date when the thread leaves the CPU). Null off Linux.
 */
function workerCpuNs(pids) {
  let ns = 0;
  try {
    for (const pid of pids) {
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        try {
          if (!readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').startsWith('DedicatedWorker')) continue;
          ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
        } catch {
          /* the thread ended */
        }
      }
    }
  } catch {
    return null;
  }
  return ns;
}

// ---- the app's .wasm in Chromium (openWasmBench) -------------------------------------------
// What the worker (or the page, mainThread) runs: one Session at a time, opened, run and
// closed by separate calls, so the CPU read between calls brackets `run` alone.
const WASM_CORE = `
import init, { Session } from './pkg/ftlscope_wasm.js';
const wasm = await init({ module_or_path: './pkg/ftlscope_wasm_bg.wasm' });
let s = null;
let ahead = false;
export function call(op, arg) {
  if (op === 'open') {
    s = new Session(arg.json);
    if (arg.full) s.set_full_speed(true);
    // The player's path as "Run to end" takes it (run_ahead: the run log a stretch at a
    // time while the run is quiet), unless \`logged\` asks for Session.run (logged request by
    // request: a seek's replay, "Run to end" before session 14).
    ahead = !arg.full && !arg.logged;
    return s.total();
  }
  if (op === 'run') {
    const t0 = performance.now();
    // run() takes a u32 count; a run is at most 20 M requests.
    if (ahead) s.run_ahead(s.total());
    else s.run(s.total());
    return (performance.now() - t0) / 1000;
  }
  if (op === 'seek') {
    // Spread-out steps, backwards and forwards, as a scrubber does (the bench's seek row).
    const ms = [];
    const n = s.total();
    let x = 0x9e3779b9;
    for (let k = 0; k < arg; k++) {
      x = (x * 1103515245 + 12345) >>> 0;
      const step = x % (n + 1);
      const t = performance.now();
      s.seek(step);
      ms.push(performance.now() - t);
      if (s.step() !== step) throw new Error('seek(' + step + ') landed on ' + s.step());
    }
    return ms;
  }
  if (op === 'close') {
    const m = JSON.parse(s.metrics());
    s.free();
    s = null;
    return {
      wrong_reads: m.wrong_reads,
      ops: m.page_reads + m.oob_reads + m.page_programs + m.erases,
      memory: wasm.memory.buffer.byteLength,
    };
  }
  throw new Error('unknown op ' + op);
}
`;
const WASM_WORKER = `
import { call } from './core.js';
onmessage = ({ data: [op, arg] }) => {
  try {
    postMessage([call(op, arg)]);
  } catch (e) {
    postMessage([null, String(e)]);
  }
};
// Loaded (the wasm compiled): messages sent before this might find no handler.
postMessage(['ready']);
`;
const wasmPage = (mainThread) => `<!doctype html><meta charset="utf-8"><title>wasm bench</title><script type="module">
if (${mainThread}) {
  const { call } = await import('./core.js');
  window.call = async (op, arg) => call(op, arg);
} else {
  const w = new Worker('./worker.js', { type: 'module' });
  await new Promise((resolve, reject) => {
    w.onmessage = resolve;
    w.onerror = (e) => reject(new Error(e.message));
  });
  window.call = (op, arg) =>
    new Promise((resolve, reject) => {
      w.onmessage = ({ data: [r, e] }) => (e ? reject(new Error(e)) : resolve(r));
      w.onerror = (e) => reject(new Error(e.message));
      w.postMessage([op, arg]);
    });
}
window.ready = true;
</script>`;
const TYPES = { '.js': 'text/javascript', '.wasm': 'application/wasm', '.html': 'text/html' };

/**
 * The app's .wasm (a wasm-bindgen pkg dir, as web/src/sim/pkg: the production build ships
 * it byte for byte) in one headless Chromium kept open, each pkg in a page of its own
 * (`/<key>/`) with a dedicated worker as the app runs it (or on the page's main thread),
 * served from 127.0.0.1:`port` by a server in this process (no other requests: any other is
 * aborted and counted, and `close()` throws if there were any). `pkgs`: { key: dir }.
 * Returns { engine, page(key), runOnce(key, json, full, seeks), close() }; `runOnce`
 * opens a Session of the scenario (`full`: the full-speed path, `set_full_speed`), runs the
 * whole workload (the player's: `Session.run_ahead` as "Run to end" runs it, or with `logged`
 * `Session.run`; full speed: `Session.run`) and closes it: { secs (by the worker's clock), cpu (CPU
 * seconds of Chromium's renderer processes over the run: CDP SystemInfo.getProcessInfo, all
 * their threads), workerCpu (CPU seconds of their DedicatedWorker threads over the run, /proc;
 * null off Linux), requests, ops, memory (wasm bytes), seek (ms of `seeks` seeks after it) }.
 */
export async function openWasmBench({ pkgs, port, mainThread = false }) {
  const page = wasmPage(mainThread);
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x').pathname;
    const [, key, ...restParts] = url.split('/');
    const rest = `/${restParts.join('/')}`;
    let body = key in pkgs ? { '/': page, '/core.js': WASM_CORE, '/worker.js': WASM_WORKER }[rest] : undefined;
    if (body == null && key in pkgs && rest.startsWith('/pkg/')) {
      const rel = normalize(rest.slice(5));
      if (!rel.startsWith('..')) {
        try {
          body = readFileSync(join(pkgs[key], rel));
        } catch {
          /* 404 below */
        }
      }
    }
    if (body == null) {
      res.writeHead(404).end();
      return;
    }
    const ext = rest === '/' ? '.html' : rest.slice(rest.lastIndexOf('.'));
    res.writeHead(200, { 'content-type': TYPES[ext] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise((resolve, reject) => server.listen(port, '127.0.0.1', resolve).on('error', reject));
  const base = `http://127.0.0.1:${port}`;
  let browser;
  try {
    browser = await launchChromium();
    const cdp = await browser.newBrowserCDPSession();
    const { product, jsVersion } = await cdp.send('Browser.getVersion');
    // CPU seconds of the renderer processes (the pages', which hold their workers' threads).
    const renderers = async () =>
      (await cdp.send('SystemInfo.getProcessInfo')).processInfo.filter((p) => p.type === 'renderer');
    const rendererCpu = async () => (await renderers()).reduce((a, p) => a + p.cpuTime, 0);
    let outside = 0;
    const pages = {};
    for (const key of Object.keys(pkgs)) {
      const p = await browser.newPage();
      // The page's errors (a pkg that fails to load) on stderr, not a silent wait.
      p.on('pageerror', (e) => process.stderr.write(`[page ${key}] ${e.message}\n`));
      p.on('console', (m) => m.type() === 'error' && process.stderr.write(`[page ${key}] ${m.text()}\n`));
      await p.route(
        (u) => !u.href.startsWith(base),
        (r) => {
          outside++;
          return r.abort();
        },
      );
      await p.goto(`${base}/${key}/`);
      await p.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
      pages[key] = p;
    }
    const call = (key, op, arg) => pages[key].evaluate(([op, arg]) => window.call(op, arg), [op, arg]);
    return {
      engine: `${product} (V8 ${jsVersion}), ${mainThread ? "the page's main thread" : 'a dedicated worker'}`,
      page: (key) => pages[key],
      async runOnce(key, json, full, seeks = 0, logged = false) {
        const requests = await call(key, 'open', { json, full, logged });
        const pids = (await renderers()).map((p) => p.id);
        const c0 = await rendererCpu();
        const w0 = workerCpuNs(pids);
        const secs = await call(key, 'run');
        const w1 = workerCpuNs(pids);
        const cpu = (await rendererCpu()) - c0;
        const workerCpu = w0 == null || w1 == null ? null : (w1 - w0) / 1e9;
        const seek = seeks > 0 ? await call(key, 'seek', seeks) : [];
        const m = await call(key, 'close');
        if (m.wrong_reads > 0) throw new Error(`${JSON.parse(json).scheme}: ${m.wrong_reads} wrong reads`);
        return { secs, cpu, workerCpu, requests, ops: m.ops, memory: m.memory, seek };
      },
      async close() {
        await browser.close();
        server.close();
        if (outside) throw new Error(`${outside} requests outside ${base} (aborted)`);
      },
    };
  } catch (e) {
    await browser?.close();
    server.close();
    throw e;
  }
}
