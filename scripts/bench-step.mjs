#!/usr/bin/env node
// Stepping one flash operation on a large chip, in the .wasm the app ships (issue 14):
// median latency of Session.step_op / back_op, alone and with the getters a snapshot reads
// (web/src/sim/host.ts takeSnapshot). Prints one JSON line. Not a timed test.
//   node scripts/bench-step.mjs [scheme] [blocks] [pages_per_block] [warm-up requests] [steps]
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PKG = join(ROOT, 'web', 'src', 'sim', 'pkg');
const { initSync, Session } = await import(join(PKG, 'ftlscope_wasm.js'));
const wasm = initSync({ module: readFileSync(join(PKG, 'ftlscope_wasm_bg.wasm')) });

const [scheme = 'page', blocksArg = '65536', ppbArg = '64', warmArg = '3000000', stepsArg = '60'] =
  process.argv.slice(2);
const blocks = Number(blocksArg);
const ppb = Number(ppbArg);
const warm = Number(warmArg);
const steps = Number(stepsArg);
const scenario = {
  scheme,
  params: scheme === 'page' ? {} : { log_blocks: 64 },
  chip: { preset: 'classroom', blocks, pages_per_block: ppb },
  workload: { kind: 'uniform', n: warm + 10 * steps, seed: 7 },
};
const s = new Session(JSON.stringify(scenario));
let t = performance.now();
s.run(warm);
const warmS = (performance.now() - t) / 1000;

const med = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length ? Number(a[Math.floor(a.length / 2)].toFixed(2)) : null;
};
const getters = () => {
  s.page_states();
  s.block_roles();
  s.block_erase_counts();
  s.block_owners();
  s.metrics();
  s.events();
  s.narration();
  s.view();
  s.victims();
};
// What the worker reads after a step on a big chip since issue 26: the core's delta (what
// the step changed) and the small getters, instead of the whole chip.
const deltaGetters = () => {
  const d = s.take_delta();
  if (!d.full()) {
    d.pages();
    d.page_states();
    d.page_lpns();
    d.blocks();
    d.block_roles();
    d.block_owners();
    d.block_erase_counts();
    d.owner_sets();
  }
  d.free();
  s.metrics();
  s.events();
  s.narration();
  s.view();
  s.victims();
};
// Step op by op; times split into the first op of a request (runs it whole, keeps the
// state before it) and the later ones (re-run from the kept state, paused after k ops).
const first = [];
const inner = [];
const back = [];
const withGetters = [];
const withDelta = [];
const backDelta = [];
let multi = 0;
for (let i = 0; i < steps; i++) {
  t = performance.now();
  s.step_op();
  const dt = performance.now() - t;
  (s.op_cursor() <= 1 ? first : inner).push(dt);
  if (s.op_count() > 1) multi++;
  t = performance.now();
  if (i % 2 === 0) {
    getters();
    withGetters.push(dt + performance.now() - t);
    s.take_delta().free(); // the next delta starts from the moment just read whole
  } else {
    deltaGetters();
    withDelta.push(dt + performance.now() - t);
  }
  if (i % 5 === 4) {
    t = performance.now();
    s.back_op();
    const db = performance.now() - t;
    back.push(db);
    t = performance.now();
    deltaGetters();
    backDelta.push(db + performance.now() - t);
    s.step_op();
    deltaGetters();
  }
}
console.log(
  JSON.stringify({
    scheme,
    chip: `${blocks} x ${ppb}`,
    warm_requests: warm,
    warm_s: Number(warmS.toFixed(1)),
    steps,
    requests_with_several_ops: multi,
    step_op_ms_median: med([...first, ...inner]),
    first_op_of_request_ms_median: med(first),
    later_op_ms_median: med(inner),
    back_op_ms_median: med(back),
    step_op_plus_snapshot_getters_ms_median: med(withGetters),
    step_op_plus_delta_ms_median: med(withDelta),
    back_op_plus_delta_ms_median: med(backDelta),
    wasm_memory_mb: Math.round(wasm.memory.buffer.byteLength / 2 ** 20),
  }),
);
