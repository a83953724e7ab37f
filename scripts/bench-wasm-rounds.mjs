#!/usr/bin/env node
// The in-the-loop rounds of scripts/bench.mjs (section 2, issue 37's wasm / native cells), also
// runnable alone on a few schemes to check the measure:
//   node scripts/bench-wasm-rounds.mjs [--schemes page,rftl] [--rounds N] [--n REQUESTS]
//        [--ftl PATH] [--pkg DIR] [--port N] [--json FILE] [--tries N] [--extra N]
// --tries: takes of a native sample that had under 0.9 of a core (default 4, as the bench; 1 on a
// loaded machine, where the CPU-time ratios are the ones to read).
//
// A round runs every scheme once: the loop's native sample (`ftl bench --runs 1`, one process),
// the full-speed wasm run, the loop's native sample again; then the player's native sample
// (`ftl bench --player`), the player's wasm run (`Session.run_ahead`) and the player's native
// sample again. Three ratios per wasm run, each the wasm run's M req/s over native M req/s of
// the same path: over the native sample just before it (`before`: bench.mjs's cells), over the
// mean of the two natives just before and after it (`ratios`: the native speed at the wasm
// run's midpoint if the host's speed changed gradually across the three runs, the mean of two
// samples if not), and by CPU time (`cpuRatios`: the wasm worker thread's CPU, /proc schedstat
// of Chromium's DedicatedWorker threads, over the native run's thread CPU, `ftl bench`'s
// cpu_s), which leaves out the time a run waited for a core behind another process and the
// CPU of threads other than the run's (V8's background compiles; a wasm run's page faults
// and its memory's growth are on its own thread and count). This VM's host gives a process
// up to 1.6x more or fewer cycles within minutes (the bench's drift line); native after /
// before (`drift`) says how far it moved across one wasm run.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWasmBench } from './bench-browser-lib.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const DIR = join(tmpdir(), 'ftlscope-bench');

export const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const mean = (a, b) => (a + b) / 2;

/** The loop's scenario: 8,192 x 64 fastcheck, 16 log blocks where the scheme has them. */
export function loopScenario(scheme, n) {
  const logBlocks = !['rftl', 'gftl', 'nftl', 'page', 'ltftl', 'dftl'].includes(scheme);
  return JSON.stringify({
    scheme,
    chip: { preset: 'fastcheck', blocks: 8192, pages_per_block: 64 },
    params: logBlocks ? { log_blocks: 16 } : {},
    workload: { kind: 'uniform', n, seed: 1 },
  });
}

/**
 * One `ftl bench --runs 1` process of `json` (`player`: the player's path, `--player`): its
 * JSON (`nat`) and its share of a core (CPU (user + sys) / wall of the process, or null).
 */
export function loopSample(ftl, json, player = false) {
  const argv = ['bench', '--scenario', json, '--runs', '1', ...(player ? ['--player'] : [])];
  mkdirSync(DIR, { recursive: true });
  const rusage = join(DIR, `loop-rusage-${process.pid}.txt`);
  // Timed by bash's `time` (getrusage, to the millisecond), not /usr/bin/time's 10 ms steps: a
  // page-mapping sample is a 0.06 s process, where those steps read a full core as 0.86 and
  // retook samples that had the core, keeping the one whose rounding looked best (session 12).
  const timed = 'TIMEFORMAT="%3R %3U %3S"; { time "$0" "$@"; } 2>"$LOOP_RUSAGE"';
  const r = spawnSync('bash', ['-c', timed, ftl, ...argv], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, LOOP_RUSAGE: rusage },
  });
  if (r.status !== 0) throw new Error(`ftl bench failed (exit ${r.status}): ${(r.stderr || '').slice(0, 300)}`);
  const nat = JSON.parse(r.stdout);
  const [wall, user, sys] = readFileSync(rusage, 'utf8').trim().split(/\s+/).slice(-3).map(Number);
  // A share above 1 is rounding.
  return { nat, share: wall > 0 ? Math.min(1, (user + sys) / wall) : null };
}

export const LOOP_SHARE = 0.9;
export const LOOP_TRIES = 4;

/** A cell whose per-round ratios (bracketed) span more than this gets the extra rounds. */
export const WIDE = 0.1;

/**
 * `rounds` rounds of every scheme of `schemes` for every build of `builds` ([key, ftl] with a
 * pkg of the same key open in `wasmBench`, or no wasmBench: native samples only), in the order
 * the file's head describes. Then up to `extra` more rounds, two at a time (a scheme's count
 * stays odd, so its median is one round's ratio), of the schemes with a cell whose bracketed
 * ratios span more than WIDE, while the extra rounds have taken under `extraBudget` times the
 * first `rounds` rounds' time. Which schemes get them depends on the spread alone, never on the
 * ratios' level, so the extra rounds narrow a cell's median without moving it either way.
 * Returns { `${key} ${scheme}`: acc } (see `newAcc`). `onError` gets the messages of a failed
 * sample, `onRound(round, scheme, key, acc)` each round's; `times` gets the seconds the first
 * rounds (`first`) and the extra ones (`extra`) took.
 */
export async function loopRounds({
  builds,
  schemes,
  rounds,
  scenario,
  wasmBench,
  tries = LOOP_TRIES,
  extra = 0,
  extraBudget = 1,
  times = {},
  onError = () => {},
  onRound = () => {},
}) {
  const samples = {};
  const round = async (i, among) => {
    for (const scheme of among) {
      for (const [key, ftl] of builds) {
        const acc = (samples[`${key} ${scheme}`] ??= newAcc());
        await oneRound(acc, ftl, key, scenario(scheme), wasmBench, tries, (e) => onError(scheme, e));
        onRound(i, scheme, key, acc);
      }
    }
  };
  const t0 = Date.now();
  for (let i = 0; i < rounds; i++) await round(i, schemes);
  const budget = (Date.now() - t0) * extraBudget;
  const t1 = Date.now();
  const wide = (s) =>
    builds.some(([key]) => samples[`${key} ${s}`]?.ratios.some((xs) => xs.length && width(xs) > WIDE));
  // A pair starts while the budget lasts (it may end past it).
  for (let i = rounds; i + 2 <= rounds + extra && Date.now() - t1 < budget; i += 2) {
    const among = schemes.filter(wide);
    if (!among.length) break;
    await round(i, among);
    await round(i + 1, among);
  }
  times.first = (t1 - t0) / 1000;
  times.extra = (Date.now() - t1) / 1000;
  return samples;
}

/** max - min of `xs`. */
const width = (xs) => Math.max(...xs) - Math.min(...xs);

/**
 * Per scheme and build: `xs` the loop's native M req/s before the full-speed wasm run (the loop
 * row's samples), `after` the same after it, `natPlayer` / `natPlayerAfter` the player's;
 * `wasm[k]`, `ratios[k]` (bracketed), `before[k]` (over the native before only), `cpuRatios[k]`
 * and `drift[k]` (native after / before) for k = 0 the player's path, 1 the full-speed one.
 */
function newAcc() {
  const two = () => [[], []];
  return {
    xs: [],
    shares: [],
    retaken: 0,
    short: 0,
    after: [],
    natPlayer: [],
    natPlayerAfter: [],
    loopOps: 0,
    wasm: two(),
    wasmMb: 0,
    ratios: two(),
    before: two(),
    cpuRatios: two(),
    drift: two(),
    wasmFailed: false,
  };
}

async function oneRound(acc, ftl, key, json, wasmBench, tries, onError) {
  // A sample on a core of its own (retaken when it had under LOOP_SHARE of one): a process
  // that waited behind another one measures that one (docs/performance.md, "Issue 37
  // (session 11, p-loop)").
  const sample = (player) => {
    let best = null;
    let taken = 0;
    while (taken < tries) {
      const s = loopSample(ftl, json, player);
      taken++;
      if (!best || (s.share ?? 1) > (best.share ?? 1)) best = s;
      if (s.share == null || s.share >= LOOP_SHARE) break;
    }
    acc.retaken += taken - 1;
    if (best.share != null && best.share < LOOP_SHARE) acc.short++;
    return best;
  };
  const rate = (s) => s.nat.requests_per_s;
  // The run's CPU seconds natively (`ftl bench`'s cpu_s, when it reports it).
  const cpuOf = (s) => (s.nat.cpu_s == null ? null : s.nat.cpu_s);
  let first;
  try {
    first = sample(false);
  } catch (e) {
    onError(e);
    return;
  }
  acc.xs.push(rate(first));
  acc.shares.push(first.share);
  acc.loopOps = first.nat.flash_ops;
  if (!wasmBench || acc.wasmFailed) return;
  try {
    // Full speed first (bracketed by the loop's samples), then the player's path (by its own).
    for (const [k, full] of [
      [1, true],
      [0, false],
    ]) {
      const a = full ? first : sample(true);
      const r = await wasmBench.runOnce(key, json, full);
      const b = sample(!full);
      const w = r.requests / r.secs;
      acc.wasm[k].push(w);
      acc.ratios[k].push(w / mean(rate(a), rate(b)));
      acc.before[k].push(w / rate(a));
      acc.drift[k].push(rate(b) / rate(a));
      const [ca, cb] = [cpuOf(a), cpuOf(b)];
      // As the wall clock's: M req/s of CPU time, the wasm's over the mean of the natives'.
      if (r.workerCpu && ca && cb) acc.cpuRatios[k].push(1 / r.workerCpu / mean(1 / ca, 1 / cb));
      if (full) acc.after.push(rate(b));
      else {
        acc.natPlayer.push(rate(a));
        acc.natPlayerAfter.push(rate(b));
        acc.wasmMb = r.memory / 2 ** 20;
      }
    }
  } catch (e) {
    acc.wasmFailed = true;
    onError(e);
  }
}

/** min-max of `xs` to two decimals, or '-'. */
export const range = (xs) => (xs.length ? `${Math.min(...xs).toFixed(2)}-${Math.max(...xs).toFixed(2)}` : '-');
/** max / min of `xs` (1 = no spread), or null. */
export const spreadOf = (xs) => (xs.length ? Math.max(...xs) / Math.min(...xs) : null);

// ---- alone: a few schemes' rounds and the three measures side by side ---------------------------
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
  const schemes = opt('--schemes', 'page,bast,rftl,gftl,nftl,ltftl').split(',');
  const rounds = Number(opt('--rounds', 5));
  const n = Number(opt('--n', 1_000_000));
  const ftl = opt('--ftl', join(ROOT, 'core-wasm', 'target', 'release', 'ftl'));
  const pkg = opt('--pkg', join(ROOT, 'web', 'src', 'sim', 'pkg'));
  const out = opt('--json', null);
  const t0 = Date.now();
  const l0 = loadavg()[0];
  const wasmBench = await openWasmBench({
    pkgs: { now: pkg },
    port: Number(opt('--port', process.env.PW_PORT ?? 4202)),
  });
  let samples;
  try {
    samples = await loopRounds({
      builds: [['now', ftl]],
      schemes,
      rounds,
      scenario: (s) => loopScenario(s, n),
      wasmBench,
      tries: Number(opt('--tries', LOOP_TRIES)),
      extra: Number(opt('--extra', 0)),
      onError: (s, e) => console.log(`[rounds] ${s}: ${e.message}`),
      // Each round's ratios as taken (stderr): player, full speed; bracketed / before only / CPU.
      onRound: (i, s, _k, a) =>
        process.stderr.write(
          `round ${i} ${s} ${[0, 1].map((k) => [a.ratios[k], a.before[k], a.cpuRatios[k]].map((xs) => xs.at(-1)?.toFixed(2) ?? '-').join('/')).join('  ')}\n`,
        ),
    });
  } finally {
    await wasmBench.close();
  }
  console.log(
    `[rounds] ${rounds} rounds (+ up to ${Number(opt('--extra', 0))} for wide cells), ${((Date.now() - t0) / 1000).toFixed(0)} s, load ${l0.toFixed(1)}-${loadavg()[0].toFixed(1)}; per path: median (range, max/min) of the per-round ratios`,
  );
  for (const s of schemes) {
    const a = samples[`now ${s}`];
    if (!a) continue;
    for (const [k, path] of ['player', 'full speed'].entries()) {
      const f = (xs) => (xs.length ? `${median(xs).toFixed(2)} (${range(xs)}, ${spreadOf(xs).toFixed(2)})` : '-');
      console.log(
        `${s.padEnd(10)} ${path.padEnd(10)} bracketed ${f(a.ratios[k])}  before only ${f(a.before[k])}  cpu ${f(a.cpuRatios[k])}  native after/before ${range(a.drift[k])}`,
      );
    }
  }
  if (out) writeFileSync(out, JSON.stringify(samples));
}
