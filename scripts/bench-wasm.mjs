#!/usr/bin/env node
// Times one scenario in the same .wasm the app ships, in this Node process (so its
// memory peak is the scenario's own). Used by scripts/bench.mjs (the 8 GB chip's wasm
// memory); prints one JSON line. The loop's rows and the seek row are taken in Chromium
// (scripts/bench-wasm-browser.mjs, which has the one seek loop).
//   node scripts/bench-wasm.mjs '<scenario json>' [runs] [--full-speed]
// --full-speed: Session.set_full_speed(true) first (no keyframes, no run log: the loop
// `ftl bench` times natively), to compare wasm and native on the same path.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
// FTLSCOPE_PKG: time another build of the core (scripts/bench.mjs --pkg).
const PKG = process.env.FTLSCOPE_PKG || join(ROOT, 'web', 'src', 'sim', 'pkg');
const { initSync, Session } = await import(join(PKG, 'ftlscope_wasm.js'));
const wasm = initSync({ module: readFileSync(join(PKG, 'ftlscope_wasm_bg.wasm')) });

const [json, runsArg, ...rest] = process.argv.slice(2);
const runs = Number(runsArg ?? 3);
const fullSpeed = rest.includes('--full-speed');

const secs = [];
// CPU seconds of this process during each run (all threads: V8's compiler threads too):
// comparable with a native run's CPU time when other work shares the machine.
const cpuSecs = [];
let requests = 0;
let ops = 0;
for (let i = 0; i < runs; i++) {
  const s = new Session(json);
  requests = s.total();
  if (fullSpeed) s.set_full_speed(true);
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  // run() takes a u32 count; a run is at most 20 M requests.
  s.run(requests);
  secs.push((performance.now() - t0) / 1000);
  const c = process.cpuUsage(c0);
  cpuSecs.push((c.user + c.system) / 1e6);
  const m = JSON.parse(s.metrics());
  if (m.wrong_reads > 0) throw new Error(`${m.wrong_reads} wrong reads`);
  ops = m.page_reads + m.oob_reads + m.page_programs + m.erases;
  s.free();
}
secs.sort((a, b) => a - b);
cpuSecs.sort((a, b) => a - b);
const median = secs[Math.floor(secs.length / 2)];
console.log(
  JSON.stringify({
    requests,
    flash_ops: ops,
    runs_s: secs,
    median_s: median,
    cpu_s: cpuSecs,
    median_cpu_s: cpuSecs[Math.floor(cpuSecs.length / 2)],
    requests_per_s: requests / median,
    flash_ops_per_s: ops / median,
    wasm_memory_bytes: wasm.memory.buffer.byteLength,
  }),
);
