#!/usr/bin/env node
// Stepping one flash operation on a large chip, in the .wasm the app ships (issue 14):
// median latency of Session.step_op / back_op, alone and with the getters a snapshot reads
// (web/src/sim/host.ts takeSnapshot: a getter that returns JSON text is parsed, as the
// worker does), and of `steps` Backs in a row at the end (each with its delta). Prints one
// JSON line. Not a timed test.
//   node scripts/bench-step.mjs [scheme] [blocks] [pages_per_block] [warm-up requests] [steps] [--against DIR]...
// `--against DIR` (repeatable): another wasm-bindgen build (a web/src/sim/pkg directory,
// e.g. main's) stepped through the same moments in the same process, alternating step by
// step with this one, so load on the machine hits both alike; prints one line per build,
// then a line of ratios (this build / the other) of the medians.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const pkgs = [join(ROOT, 'web', 'src', 'sim', 'pkg')];
const positional = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--against') pkgs.push(resolve(args[++i]));
  else positional.push(args[i]);
}
const [scheme = 'page', blocksArg = '65536', ppbArg = '64', warmArg = '3000000', stepsArg = '60'] = positional;
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

const med = (xs) => {
  const a = [...xs].sort((x, y) => x - y);
  return a.length ? Number(a[Math.floor(a.length / 2)].toFixed(3)) : null;
};
// A getter's value as the worker holds it (host.ts parses the ones that cross as JSON text).
const read = (v) => (typeof v === 'string' ? JSON.parse(v) : v);

/** One build: its Session at the same moments, and its samples. */
async function bench(pkg) {
  const m = await import(pathToFileURL(join(pkg, 'ftlscope_wasm.js')).href);
  const wasm = m.initSync({ module: readFileSync(join(pkg, 'ftlscope_wasm_bg.wasm')) });
  const s = new m.Session(JSON.stringify(scenario));
  let t = performance.now();
  s.run(warm);
  const warmS = (performance.now() - t) / 1000;
  const getters = () => {
    s.page_states();
    s.block_roles();
    s.block_erase_counts();
    s.block_owners();
    read(s.metrics());
    read(s.events());
    s.narration();
    read(s.view());
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
      read(d.owner_sets());
    }
    d.free();
    read(s.metrics());
    read(s.events());
    s.narration();
    read(s.view());
    s.victims();
  };
  const r = {
    first: [],
    inner: [],
    back: [],
    withGetters: [],
    withDelta: [],
    backDelta: [],
    backAfterBack: [],
    view: [],
    multi: 0,
  };
  r.viewBytes = () => {
    const v = s.view();
    return typeof v === 'string' ? v.length : JSON.stringify(v).length;
  };
  // Step i (op by op); times split into the first op of a request (runs it whole, keeps the
  // state before it) and the later ones (re-run from the kept state, paused after k ops).
  r.step = (i) => {
    let t = performance.now();
    s.step_op();
    const dt = performance.now() - t;
    (s.op_cursor() <= 1 ? r.first : r.inner).push(dt);
    if (s.op_count() > 1) r.multi++;
    t = performance.now();
    if (i % 2 === 0) {
      getters();
      r.withGetters.push(dt + performance.now() - t);
      s.take_delta().free(); // the next delta starts from the moment just read whole
    } else {
      deltaGetters();
      r.withDelta.push(dt + performance.now() - t);
    }
    t = performance.now();
    read(s.view());
    r.view.push(performance.now() - t);
    if (i % 5 === 4) {
      t = performance.now();
      s.back_op();
      const db = performance.now() - t;
      r.back.push(db);
      t = performance.now();
      deltaGetters();
      r.backDelta.push(db + performance.now() - t);
      s.step_op();
      deltaGetters();
    }
  };
  // Back after Back (issue 37 item 3): no state before the request is kept then. A build
  // with `prepare_back` makes the next Back's state while the app is idle (the worker calls
  // it once the moment is posted): timed apart, as `prepare_back_ms_median`, and included
  // in `back_after_back_cpu_ms_median` (the CPU a step back costs in all). A build with
  // `prepare_back_part` makes it in parts, one worker task each, as the worker does.
  // Each task (a Back with its delta, one prepare or one part of it) is timed by the wall
  // and by the process's CPU: the longest of each (`longest_task_*`, the worker task a key
  // pressed meanwhile waits for), and the parts a prepare took.
  r.prepare = [];
  r.backCpu = [];
  r.tasks = [];
  r.parts = [];
  const task = (what, fn) => {
    const [t, c] = [performance.now(), process.cpuUsage()];
    const v = fn();
    const { user, system } = process.cpuUsage(c);
    r.tasks.push({ what, ms: performance.now() - t, cpu: (user + system) / 1000 });
    return v;
  };
  r.backAgain = () => {
    const t = performance.now();
    task('back', () => {
      s.back_op();
      deltaGetters();
    });
    const dt = performance.now() - t;
    r.backAfterBack.push(dt);
    const t1 = performance.now();
    let parts = 0;
    if (s.prepare_back_part) {
      do parts++;
      while (task('prepare part', () => s.prepare_back_part()));
    } else if (s.prepare_back) task('prepare', () => s.prepare_back());
    const dp = performance.now() - t1;
    if (s.prepare_back) r.prepare.push(dp);
    if (parts) r.parts.push(parts);
    r.backCpu.push(dt + dp);
  };
  const longest = (key) => r.tasks.reduce((a, b) => (b[key] > a[key] ? b : a), { ms: 0, cpu: 0, what: null });
  r.summary = () => ({
    pkg: pkg.startsWith(ROOT) ? pkg.slice(ROOT.length + 1) : pkg,
    scheme,
    chip: `${blocks} x ${ppb}`,
    warm_requests: warm,
    warm_s: Number(warmS.toFixed(1)),
    steps,
    requests_with_several_ops: r.multi,
    step_op_ms_median: med([...r.first, ...r.inner]),
    first_op_of_request_ms_median: med(r.first),
    later_op_ms_median: med(r.inner),
    back_op_ms_median: med(r.back),
    step_op_plus_snapshot_getters_ms_median: med(r.withGetters),
    step_op_plus_delta_ms_median: med(r.withDelta),
    back_op_plus_delta_ms_median: med(r.backDelta),
    back_after_back_plus_delta_ms_median: med(r.backAfterBack),
    prepare_back_ms_median: med(r.prepare),
    back_after_back_cpu_ms_median: med(r.backCpu),
    prepare_parts_median: med(r.parts),
    longest_task_ms: Number(longest('ms').ms.toFixed(1)),
    longest_task_cpu_ms: Number(longest('ms').cpu.toFixed(1)),
    longest_task_what: longest('ms').what,
    longest_cpu_task_ms: Number(longest('cpu').cpu.toFixed(1)),
    longest_cpu_task_what: longest('cpu').what,
    prepare_task_ms_max: Number(Math.max(0, ...r.tasks.filter((x) => x.what !== 'back').map((x) => x.ms)).toFixed(1)),
    view_read_ms_median: med(r.view),
    view_bytes_last: r.viewBytes(),
    wasm_memory_mb: Math.round(wasm.memory.buffer.byteLength / 2 ** 20),
  });
  return r;
}

const runs = [];
for (const p of pkgs) runs.push(await bench(p));
// Alternate the builds step by step, so both see the same load; which goes first flips
// every two steps (a step reads whole or by delta by its parity: flipping on parity would
// always put one build's delta reads after the other's whole-chip garbage).
for (let i = 0; i < steps; i++) {
  const order = Math.floor(i / 2) % 2 === 0 ? runs : [...runs].reverse();
  for (const r of order) r.step(i);
}
// Then `steps` op steps back in a row, alternating the same way.
for (let i = 0; i < steps; i++) {
  const order = Math.floor(i / 2) % 2 === 0 ? runs : [...runs].reverse();
  for (const r of order) r.backAgain();
}
const sums = runs.map((r) => r.summary());
for (const s of sums) console.log(JSON.stringify(s));
if (sums.length > 1) {
  for (const other of sums.slice(1)) {
    const ratio = { ratio: `${sums[0].pkg} / ${other.pkg}` };
    for (const k of Object.keys(sums[0])) {
      if (/_ms_median$|_bytes|_ms$|_ms_max$/.test(k) && other[k]) ratio[k] = Number((sums[0][k] / other[k]).toFixed(2));
    }
    console.log(JSON.stringify(ratio));
  }
}
