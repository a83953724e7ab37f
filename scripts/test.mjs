#!/usr/bin/env node
// `npm test`: the toolchain and the wasm build (pre), then two lanes, each a chain of commands
// that stops at its first failure:
//   rust  lint:rust (cargo fmt, clippy, the Rust structure check); cargo test --release;
//         gen-types --check
//   web   lint:js (ESLint, prettier); vitest; typecheck; vite build; playwright test
// (`npm run lint` is lint:js then lint:rust.) By default they overlap where a core would
// otherwise idle, and Playwright runs alone:
//   - lint:rust needs neither node_modules nor the wasm, so it starts at once, beside npm ci
//     (mostly I/O) and the wasm build (~1.3 cores busy of 2 when alone);
//   - the rest of the rust lane waits for pre (cargo would block on the build directory's lock
//     anyway; gen-types needs prettier); the web lane's steps up to vite build run beside it;
//   - playwright waits for the rust lane: beside cargo's compile, Chromium and cargo starved
//     each other (both lanes at once, idle fresh clone: 1,420 s against 1,368 s one after the
//     other, docs/performance.md, "session 20, lead").
// `--serial` runs pre, the rust lane, then the web lane, one after the other; `--lanes` runs
// both lanes at once after pre, playwright included. Each line of output is prefixed with its
// lane; the exit code is non-zero when any command failed; both lanes always run (a failed pre
// stops only the steps that need it).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const mode = process.argv.includes('--lanes') ? 'lanes' : process.argv.includes('--serial') ? 'serial' : 'overlap';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

// A step is a command [cmd, args], or 'after pre' / 'after rust': wait until that one is done
// (in the default mode only; whether it passed does not matter, except that a failed pre fails
// the lane waiting for it).
const PRE = [
  ['node', ['scripts/bootstrap.mjs', '--browser']],
  ['node', ['scripts/build-wasm.mjs']],
];
const LANES = {
  rust: [
    [npm, ['run', 'lint:rust']],
    'after pre',
    ['cargo', ['test', '--manifest-path', 'core-wasm/Cargo.toml', '--workspace', '--release']],
    ['node', ['scripts/gen-types.mjs', '--check']],
  ],
  web: [
    'after pre',
    [npm, ['run', 'lint:js']],
    [npx, ['vitest', 'run']],
    [npm, ['run', 'typecheck']],
    [npx, ['vite', 'build']],
    'after rust',
    [npx, ['playwright', 'test']],
  ],
};

// FTL_TEST_LANES (a JSON object of lanes, with `pre` as one of them if wanted) replaces PRE and
// LANES: scripts/test.mjs's own check of its order and exit codes, without the real suite.
if (process.env.FTL_TEST_LANES) {
  const lanes = JSON.parse(process.env.FTL_TEST_LANES);
  PRE.splice(0, PRE.length, ...(lanes.pre ?? []));
  delete lanes.pre;
  for (const k of Object.keys(LANES)) delete LANES[k];
  Object.assign(LANES, lanes);
}
const T0 = Date.now();
const show = ([cmd, args]) => `${cmd} ${args.join(' ')}`;
const secs = (t0) => `${Math.round((Date.now() - t0) / 1000)} s`;

/** One command, each line of its output prefixed with the lane's name; resolves to its exit code. */
function runPrefixed(lane, [cmd, args]) {
  return new Promise((resolve) => {
    console.log(`[${lane}] $ ${show([cmd, args])}`);
    const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    for (const [from, to] of [
      [child.stdout, process.stdout],
      [child.stderr, process.stderr],
    ])
      createInterface({ input: from, crlfDelay: Infinity }).on('line', (l) => to.write(`[${lane}] ${l}\n`));
    child.on('error', (e) => {
      console.error(`[${lane}] could not run ${cmd}: ${e.message}`);
      resolve(127);
    });
    child.on('close', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

const names = Object.keys(LANES);
/** Per lane (and pre): settles when it is done, to the failed command or null. */
const done = {};
const settle = {};
for (const lane of ['pre', ...names]) done[lane] = new Promise((resolve) => (settle[lane] = resolve));

/** A lane's steps in order, stopping at the first failure: the failed command, or null. */
async function runLane(lane, steps) {
  const t0 = Date.now();
  for (const step of steps) {
    if (typeof step === 'string') {
      const [, other] = step.split(' ');
      if (!(other in done)) throw new Error(`${lane}: no lane named ${other}`);
      if (mode !== 'overlap' && other !== 'pre') continue;
      const failed = await done[other];
      if (other === 'pre' && failed !== null) {
        console.error(`[${lane}] FAILED: the pre-steps failed (${failed})`);
        return `${lane}: the pre-steps`;
      }
      continue;
    }
    const t = Date.now();
    const code = await runPrefixed(lane, step);
    if (code !== 0) {
      console.error(`[${lane}] FAILED: ${show(step)} (exit ${code}) after ${secs(t)}`);
      return show(step);
    }
    console.log(`[${lane}] ok: ${show(step)} in ${secs(t)}`);
  }
  console.log(`[${lane}] lane done in ${secs(t0)}`);
  return null;
}

const start = (lane) => runLane(lane, lane === 'pre' ? PRE : LANES[lane]).then(settle[lane]);
if (mode === 'serial') {
  // pre, then each lane in turn (its waits are met or skipped).
  for (const lane of ['pre', ...names]) await start(lane);
} else {
  // Every lane starts now, up to its first wait ('lanes' skips the waits for other lanes).
  for (const lane of ['pre', ...names]) start(lane);
}
const failed = await Promise.all(['pre', ...names].map((l) => done[l]));
const bad = failed.filter((f) => f !== null);
if (bad.length > 0) {
  console.error(`[test] FAILED after ${secs(T0)}: ${bad.join('; ')}`);
  process.exit(1);
}
console.log(`[test] every check passed in ${secs(T0)}`);
