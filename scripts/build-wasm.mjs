#!/usr/bin/env node
// Build the Rust core to WebAssembly and generate the JS bindings the web app imports:
//   cargo build --release --target wasm32-unknown-unknown -p ftlscope-wasm   (in core-wasm/)
//   wasm-bindgen --target web --experimental-reset-state-function --out-dir web/src/sim/pkg <the .wasm>
// Skipped when the outputs are newer than every file under core-wasm/crates and Cargo.lock.
// `--force` rebuilds regardless.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(ROOT, 'core-wasm');
const OUT = join(ROOT, 'web', 'src', 'sim', 'pkg');
const WASM = join(CORE, 'target', 'wasm32-unknown-unknown', 'release', 'ftlscope_wasm.wasm');
const OUTPUTS = ['ftlscope_wasm.js', 'ftlscope_wasm_bg.wasm', 'ftlscope_wasm.d.ts'].map((f) => join(OUT, f));
// Written last, so a half-finished build (or a hand-made stub in pkg/) is never taken as fresh.
const STAMP = join(OUT, '.build-stamp');

// A fresh rustup install puts cargo in ~/.cargo/bin without touching this shell's PATH.
{
  const cargoBin = join(homedir(), '.cargo', 'bin');
  const sep = process.platform === 'win32' ? ';' : ':';
  if (existsSync(cargoBin) && !(process.env.PATH || '').split(sep).includes(cargoBin)) {
    process.env.PATH = `${cargoBin}${sep}${process.env.PATH || ''}`;
  }
}

function log(msg) {
  console.log(`[build-wasm] ${msg}`);
}

function fail(msg) {
  console.error(`[build-wasm] ERROR: ${msg}`);
  process.exit(1);
}

function run(cmd, args, cwd) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd });
  if (r.error) fail(`could not run ${cmd}: ${r.error.message} (did scripts/bootstrap.mjs run?)`);
  if (r.status !== 0) fail(`\`${cmd} ${args.join(' ')}\` failed with exit code ${r.status}.`);
}

function newestMtime(path) {
  const st = statSync(path);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(path)) {
    if (entry === 'target' || entry.startsWith('.')) continue;
    newest = Math.max(newest, newestMtime(join(path, entry)));
  }
  return newest;
}

function upToDate() {
  if (![STAMP, ...OUTPUTS].every(existsSync)) return false;
  const oldestOutput = Math.min(...[STAMP, ...OUTPUTS].map((f) => statSync(f).mtimeMs));
  // This script too: a change of the bindgen flags rebuilds the bindings.
  const inputs = [
    join(CORE, 'crates'),
    join(CORE, 'Cargo.lock'),
    join(CORE, 'Cargo.toml'),
    fileURLToPath(import.meta.url),
  ].filter(existsSync);
  const newestInput = Math.max(...inputs.map(newestMtime));
  return oldestOutput > newestInput;
}

if (!existsSync(join(CORE, 'crates', 'wasm', 'src', 'lib.rs'))) {
  fail('core-wasm/crates/wasm/src/lib.rs does not exist: nothing to build.');
}
if (!process.argv.includes('--force') && upToDate()) {
  log(`${relative(ROOT, OUT)} is up to date, skipping (use --force to rebuild)`);
  process.exit(0);
}
run('cargo', ['build', '--release', '--target', 'wasm32-unknown-unknown', '-p', 'ftlscope-wasm'], CORE);
if (!existsSync(WASM)) fail(`cargo did not produce ${relative(ROOT, WASM)}.`);
// --experimental-reset-state-function: __wbg_reset_state() re-instantiates the module
// with a fresh memory, so the worker recovers from a trap (web/src/sim/revival.ts).
run('wasm-bindgen', ['--target', 'web', '--experimental-reset-state-function', '--out-dir', OUT, WASM], ROOT);
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
log(`wrote ${relative(ROOT, OUT)}`);
