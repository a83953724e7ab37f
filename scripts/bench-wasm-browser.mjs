#!/usr/bin/env node
/* global window -- page.evaluate callbacks run in the browser */
// scripts/bench-wasm.mjs in Chromium, where the app runs its wasm (issue 37, item 5): the
// same .wasm (web/src/sim/pkg: the production build ships it byte for byte), the same runs
// (`Session.run` of the whole workload, the player's path as "Run to end" takes it, or with
// `--full-speed` the loop `ftl bench` times), in a dedicated worker as the app runs it. One
// Chromium for every scenario given (started once); the pkg and the page come from a server
// on 127.0.0.1 started here (no other requests: any other is aborted and counted). Prints
// one JSON line per scenario and path, with bench-wasm.mjs's fields plus `scheme`,
// `full_speed` and `engine` (the browser, its V8 and the thread).
//   node scripts/bench-wasm-browser.mjs '<scenario json>' ['<scenario json>' ...] [runs]
//        [--full-speed | --both] [--seek K] [--main-thread] [--profile FILE] [--port N]
// --both: both paths, the player's and the full-speed one, alternating run by run.
// cpu_s: CPU seconds of Chromium's renderer processes during each run (CDP
// SystemInfo.getProcessInfo; all their threads), the figure load disturbs least.
// --profile FILE: V8's CPU profile (CDP Profiler) of every run, on the page's main thread
// (the page's CDP session does not reach the worker), written to FILE (.cpuprofile, opens
// in Chromium's DevTools) and its top functions by self time printed to stderr.
// FTLSCOPE_PKG: time another build of the core (as bench-wasm.mjs).
import { createServer } from 'node:http';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, launchChromium } from './bench-browser-lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PKG = process.env.FTLSCOPE_PKG || join(ROOT, 'web', 'src', 'sim', 'pkg');

const { port: PORT, positional } = benchArgs();
const flag = (name) => positional.includes(name);
const value = (name) => (flag(name) ? positional[positional.indexOf(name) + 1] : undefined);
const seeks = Number(value('--seek') ?? 0);
const profileFile = value('--profile');
const mainThread = flag('--main-thread') || !!profileFile;
const paths = flag('--both') ? [false, true] : [flag('--full-speed')];
const rest = positional.filter((a, i) => !['--seek', '--profile'].includes(positional[i - 1]));
const scenarios = rest.filter((a) => a.startsWith('{'));
const runs = Number(rest.find((a) => /^\d+$/.test(a)) ?? 3);
if (!scenarios.length) throw new Error("usage: bench-wasm-browser.mjs '<scenario json>' ... [runs] [--full-speed]");

// What the worker (or the page, --main-thread) runs: one Session at a time, opened, run
// and closed by separate calls, so the CPU read between calls brackets `run` alone.
const CORE = `
import init, { Session } from './pkg/ftlscope_wasm.js';
const wasm = await init({ module_or_path: './pkg/ftlscope_wasm_bg.wasm' });
let s = null;
export function call(op, arg) {
  if (op === 'open') {
    s = new Session(arg.json);
    if (arg.full) s.set_full_speed(true);
    return s.total();
  }
  if (op === 'run') {
    const t0 = performance.now();
    // run() takes a u32 count; a run is at most 20 M requests.
    s.run(s.total());
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
const WORKER = `
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
const PAGE = `<!doctype html><meta charset="utf-8"><title>wasm bench</title><script type="module">
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
const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x').pathname;
  const fixed = { '/': PAGE, '/core.js': CORE, '/worker.js': WORKER }[url];
  let body = fixed;
  if (body == null && url.startsWith('/pkg/')) {
    const rel = normalize(url.slice(5));
    if (!rel.startsWith('..')) {
      try {
        body = readFileSync(join(PKG, rel));
      } catch {
        /* 404 below */
      }
    }
  }
  if (body == null) {
    res.writeHead(404).end();
    return;
  }
  const ext = url === '/' ? '.html' : url.slice(url.lastIndexOf('.'));
  res.writeHead(200, { 'content-type': TYPES[ext] ?? 'application/octet-stream' }).end(body);
});
await new Promise((resolve, reject) => server.listen(PORT, '127.0.0.1', resolve).on('error', reject));
const base = `http://127.0.0.1:${PORT}`;

const browser = await launchChromium();
try {
  const cdp = await browser.newBrowserCDPSession();
  const { product, jsVersion } = await cdp.send('Browser.getVersion');
  // CPU seconds of the renderer processes (the page's, which holds its worker's thread).
  const rendererCpu = async () =>
    (await cdp.send('SystemInfo.getProcessInfo')).processInfo
      .filter((p) => p.type === 'renderer')
      .reduce((a, p) => a + p.cpuTime, 0);
  const page = await browser.newPage();
  // The page's errors (a pkg that fails to load) on stderr, not a silent wait.
  page.on('pageerror', (e) => process.stderr.write(`[page] ${e.message}\n`));
  page.on('console', (m) => m.type() === 'error' && process.stderr.write(`[page] ${m.text()}\n`));
  let outside = 0;
  await page.route(
    (u) => !u.href.startsWith(base),
    (r) => {
      outside++;
      return r.abort();
    },
  );
  await page.goto(`${base}/`);
  await page.waitForFunction(() => window.ready === true, null, { timeout: 60_000 });
  const call = (op, arg) => page.evaluate(([op, arg]) => window.call(op, arg), [op, arg]);
  const engine = `${product} (V8 ${jsVersion}), ${mainThread ? "the page's main thread" : 'a dedicated worker'}`;

  let profiler = null;
  if (profileFile) {
    profiler = await page.context().newCDPSession(page);
    await profiler.send('Profiler.enable');
    await profiler.send('Profiler.setSamplingInterval', { interval: 200 });
    await profiler.send('Profiler.start');
  }
  for (const json of scenarios) {
    const scheme = JSON.parse(json).scheme;
    const acc = paths.map(() => ({ secs: [], cpu: [], requests: 0, ops: 0, memory: 0, seek: [] }));
    for (let i = 0; i < runs; i++) {
      for (const [k, full] of paths.entries()) {
        const a = acc[k];
        a.requests = await call('open', { json, full });
        const c0 = await rendererCpu();
        a.secs.push(await call('run'));
        a.cpu.push((await rendererCpu()) - c0);
        if (i === runs - 1 && seeks > 0) a.seek = await call('seek', seeks);
        const m = await call('close');
        if (m.wrong_reads > 0) throw new Error(`${scheme}: ${m.wrong_reads} wrong reads`);
        a.ops = m.ops;
        a.memory = m.memory;
      }
    }
    for (const [k, full] of paths.entries()) {
      const { secs, cpu, requests, ops, memory, seek } = acc[k];
      const mid = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
      const median = mid(secs);
      seek.sort((x, y) => x - y);
      console.log(
        JSON.stringify({
          scheme,
          full_speed: full,
          engine,
          requests,
          flash_ops: ops,
          runs_s: [...secs].sort((x, y) => x - y),
          median_s: median,
          cpu_s: [...cpu].sort((x, y) => x - y),
          median_cpu_s: mid(cpu),
          requests_per_s: requests / median,
          flash_ops_per_s: ops / median,
          wasm_memory_bytes: memory,
          seek_ms: seek.length ? { median: seek[Math.floor(seek.length / 2)], max: seek.at(-1), n: seek.length } : null,
        }),
      );
    }
  }
  if (profiler) {
    const { profile } = await profiler.send('Profiler.stop');
    writeFileSync(profileFile, JSON.stringify(profile));
    printTop(profile);
  }
  if (outside) throw new Error(`${outside} requests outside ${base} (aborted)`);
} finally {
  await browser.close();
  server.close();
}

/** The profile's functions by self time (samples), the top 25, to stderr. */
function printTop(profile) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  profile.samples.forEach((id, i) => {
    const f = byId.get(id).callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i + 1] ?? 0));
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [k, us] of top) process.stderr.write(`${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}\n`);
}
