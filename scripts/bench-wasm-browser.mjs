#!/usr/bin/env node
// scripts/bench-wasm.mjs in Chromium, where the app runs its wasm (issue 37, item 5): the
// same .wasm (web/src/sim/pkg: the production build ships it byte for byte), the same runs
// (the player's path as "Run to end" takes it: `Session.run_ahead` of the whole workload,
// or with --logged `Session.run`, logged request by request as a seek's replay is; or with
// `--full-speed` the loop `ftl bench` times), in a dedicated worker as the app runs it. One
// Chromium for every scenario given (started once; bench-browser-lib.mjs openWasmBench, which
// scripts/bench.mjs also uses to alternate these runs with native ones). Prints
// one JSON line per scenario and path, with bench-wasm.mjs's fields plus `scheme`,
// `full_speed` and `engine` (the browser, its V8 and the thread).
//   node scripts/bench-wasm-browser.mjs '<scenario json>' ['<scenario json>' ...] [runs]
//        [--full-speed | --both] [--logged] [--seek K] [--main-thread] [--profile FILE] [--port N]
// --both: both paths, the player's and the full-speed one, alternating run by run.
// cpu_s: CPU seconds of Chromium's renderer processes during each run (CDP
// SystemInfo.getProcessInfo; all their threads), the figure load disturbs least.
// --profile FILE: V8's CPU profile (CDP Profiler) of every run, on the page's main thread
// (the page's CDP session does not reach the worker), written to FILE (.cpuprofile, opens
// in Chromium's DevTools) and its top functions by self time printed to stderr.
// FTLSCOPE_PKG: time another build of the core (as bench-wasm.mjs).
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchArgs, openWasmBench } from './bench-browser-lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PKG = process.env.FTLSCOPE_PKG || join(ROOT, 'web', 'src', 'sim', 'pkg');

const { port: PORT, positional } = benchArgs();
const flag = (name) => positional.includes(name);
const value = (name) => (flag(name) ? positional[positional.indexOf(name) + 1] : undefined);
const seeks = Number(value('--seek') ?? 0);
const profileFile = value('--profile');
const mainThread = flag('--main-thread') || !!profileFile;
const logged = flag('--logged');
const paths = flag('--both') ? [false, true] : [flag('--full-speed')];
const rest = positional.filter((a, i) => !['--seek', '--profile'].includes(positional[i - 1]));
const scenarios = rest.filter((a) => a.startsWith('{'));
const runs = Number(rest.find((a) => /^\d+$/.test(a)) ?? 3);
if (!scenarios.length) throw new Error("usage: bench-wasm-browser.mjs '<scenario json>' ... [runs] [--full-speed]");

const wb = await openWasmBench({ pkgs: { now: PKG }, port: PORT, mainThread });
try {
  const page = wb.page('now');
  const engine = wb.engine;

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
        const r = await wb.runOnce('now', json, full, i === runs - 1 ? seeks : 0, logged);
        a.requests = r.requests;
        a.secs.push(r.secs);
        a.cpu.push(r.cpu);
        if (r.seek.length) a.seek = r.seek;
        a.ops = r.ops;
        a.memory = r.memory;
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
} finally {
  await wb.close();
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
