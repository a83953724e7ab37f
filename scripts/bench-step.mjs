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
// Step op by op; times split into the first op of a request (runs it whole, keeps the
// state before it) and the later ones (re-run from the kept state, paused after k ops).
const first = [];
const inner = [];
const back = [];
const withGetters = [];
let multi = 0;
for (let i = 0; i < steps; i++) {
  t = performance.now();
  s.step_op();
  const dt = performance.now() - t;
  (s.op_cursor() <= 1 ? first : inner).push(dt);
  if (s.op_count() > 1) multi++;
  t = performance.now();
  getters();
  withGetters.push(dt + performance.now() - t);
  if (i % 5 === 4) {
    t = performance.now();
    s.back_op();
    back.push(performance.now() - t);
    s.step_op();
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
    wasm_memory_mb: Math.round(wasm.memory.buffer.byteLength / 2 ** 20),
  }),
);
