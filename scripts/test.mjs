#!/usr/bin/env node
// `npm test`: the toolchain and the wasm build, then two lanes, each a chain of commands that
// stops at its first failure:
//   rust  cargo test --release; gen-types --check; npm run lint (ESLint, prettier, cargo fmt,
//         clippy, the Rust structure check)
//   web   vitest; typecheck; vite build; playwright test
// One after the other by default; `--lanes` runs them at once. Measured from a fresh clone on
// the 2-core machine, idle: one after the other 1,368 s, at once 1,420 s (Playwright 810 ->
// 1,064 s, cargo's compile starved beside Chromium): no core was idle enough to win
// (docs/performance.md, "session 20, lead"). Each line of output is prefixed with its lane;
// the exit code is non-zero when any command failed; both lanes always run.
import { spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const serial = !process.argv.includes('--lanes');
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

const PRE = [
  ['node', ['scripts/bootstrap.mjs', '--browser']],
  ['node', ['scripts/build-wasm.mjs']],
];
const LANES = {
  rust: [
    ['cargo', ['test', '--manifest-path', 'core-wasm/Cargo.toml', '--workspace', '--release']],
    ['node', ['scripts/gen-types.mjs', '--check']],
    [npm, ['run', 'lint']],
  ],
  web: [
    [npx, ['vitest', 'run']],
    [npm, ['run', 'typecheck']],
    [npx, ['vite', 'build']],
    [npx, ['playwright', 'test']],
  ],
};

// FTL_TEST_LANES (a JSON object of lanes) replaces LANES: scripts/test.mjs's own check of
// its exit codes, without the real suite.
if (process.env.FTL_TEST_LANES) {
  Object.assign(LANES, JSON.parse(process.env.FTL_TEST_LANES));
  PRE.length = 0;
}
const T0 = Date.now();
const show = ([cmd, args]) => `${cmd} ${args.join(' ')}`;
const secs = (t0) => `${Math.round((Date.now() - t0) / 1000)} s`;

for (const step of PRE) {
  console.log(`[test] $ ${show(step)}`);
  const r = spawnSync(step[0], step[1], { stdio: 'inherit', cwd: ROOT });
  if (r.status !== 0) {
    console.error(`[test] FAILED: ${show(step)} (exit ${r.status ?? r.signal ?? r.error?.message})`);
    process.exit(1);
  }
}

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

/** A lane's commands in order, stopping at the first failure: the failed command, or null. */
async function runLane(lane) {
  const t0 = Date.now();
  for (const step of LANES[lane]) {
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

const names = Object.keys(LANES);
const failed = serial
  ? await names.reduce(async (acc, lane) => [...(await acc), await runLane(lane)], Promise.resolve([]))
  : await Promise.all(names.map(runLane));
const bad = failed.filter((f) => f !== null);
if (bad.length > 0) {
  console.error(`[test] FAILED after ${secs(T0)}: ${bad.join('; ')}`);
  process.exit(1);
}
console.log(`[test] every check passed in ${secs(T0)}`);
