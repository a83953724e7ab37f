#!/usr/bin/env node
// Toolchain pre-step for `npm start` / `npm test`. Node built-ins only: it runs
// before node_modules exist. Every check is idempotent and says what it does.
//
//   node scripts/bootstrap.mjs            Rust wasm target, wasm-bindgen-cli, node_modules
//   node scripts/bootstrap.mjs --browser  ... plus Debian's chromium for Playwright
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { homedir } from 'node:os';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CORE = join(ROOT, 'core-wasm');
const WANT_BROWSER = process.argv.includes('--browser');
const CHROMIUM = '/usr/bin/chromium';

// A fresh rustup install puts cargo in ~/.cargo/bin without touching this shell's PATH.
{
  const cargoBin = join(homedir(), '.cargo', 'bin');
  const sep = process.platform === 'win32' ? ';' : ':';
  if (existsSync(cargoBin) && !(process.env.PATH || '').split(sep).includes(cargoBin)) {
    process.env.PATH = `${cargoBin}${sep}${process.env.PATH || ''}`;
  }
}

function log(msg) {
  console.log(`[bootstrap] ${msg}`);
}

function fail(msg) {
  console.error(`[bootstrap] ERROR: ${msg}`);
  process.exit(1);
}

/** Run a command, output to the terminal; returns true on exit code 0. */
function run(cmd, args, opts = {}) {
  log(`$ ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: ROOT, ...opts });
  if (r.error) {
    console.error(`[bootstrap] could not run ${cmd}: ${r.error.message}`);
    return false;
  }
  return r.status === 0;
}

/** Run a command quietly and return its stdout, or null if it could not run / failed. */
function capture(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', cwd: ROOT, ...opts });
  if (r.error || r.status !== 0) return null;
  return r.stdout;
}

// (a) the wasm32 target -------------------------------------------------------
function ensureWasmTarget() {
  const installed = capture('rustup', ['target', 'list', '--installed']);
  if (installed === null) {
    fail('`rustup` was not found. Install Rust with rustup (https://rustup.rs) and re-run.');
  }
  if (installed.split(/\s+/).includes('wasm32-unknown-unknown')) {
    log('rust target wasm32-unknown-unknown: installed');
    return;
  }
  log('rust target wasm32-unknown-unknown: missing, installing');
  if (!run('rustup', ['target', 'add', 'wasm32-unknown-unknown'])) {
    fail('`rustup target add wasm32-unknown-unknown` failed.');
  }
}

// (b) wasm-bindgen-cli pinned to the wasm-bindgen crate in Cargo.lock ----------
function lockedWasmBindgenVersion() {
  const lockPath = join(CORE, 'Cargo.lock');
  if (!existsSync(lockPath)) {
    // No lock file (yet): use the exact pin in the wasm crate's manifest if there is one.
    const manifest = join(CORE, 'crates', 'wasm', 'Cargo.toml');
    const pin =
      existsSync(manifest) &&
      /^wasm-bindgen\s*=\s*(?:\{[^}]*version\s*=\s*)?"=([^"]+)"/m.exec(readFileSync(manifest, 'utf8'));
    if (pin) {
      log(`core-wasm/Cargo.lock missing; using the exact pin wasm-bindgen =${pin[1]} from crates/wasm/Cargo.toml`);
      return pin[1];
    }
    log('core-wasm/Cargo.lock missing, generating it');
    if (!run('cargo', ['generate-lockfile'], { cwd: CORE })) {
      fail('`cargo generate-lockfile` failed in core-wasm/.');
    }
  }
  const text = readFileSync(lockPath, 'utf8');
  for (const block of text.split(/^\[\[package\]\]\s*$/m)) {
    const name = /^name\s*=\s*"([^"]+)"/m.exec(block);
    const version = /^version\s*=\s*"([^"]+)"/m.exec(block);
    if (name && version && name[1] === 'wasm-bindgen') return version[1];
  }
  fail('no [[package]] named "wasm-bindgen" in core-wasm/Cargo.lock.');
}

function ensureWasmBindgen() {
  const want = lockedWasmBindgenVersion();
  const out = capture('wasm-bindgen', ['--version']);
  const have = out ? (/(\d+\.\d+\.\d+\S*)/.exec(out) || [])[1] : null;
  if (have === want) {
    log(`wasm-bindgen-cli ${have}: matches Cargo.lock`);
    return;
  }
  log(
    have
      ? `wasm-bindgen-cli ${have} does not match wasm-bindgen ${want} in Cargo.lock, installing ${want}`
      : `wasm-bindgen-cli missing, installing ${want} (this compiles from source and takes a few minutes)`,
  );
  const args = ['install', 'wasm-bindgen-cli', '--version', `=${want}`];
  if (!run('cargo', [...args, '--locked', '--force'])) {
    log(
      'install with --locked failed (a locked dependency may be missing from the registry); retrying without --locked',
    );
    if (!run('cargo', [...args, '--force'])) {
      fail(`could not install wasm-bindgen-cli ${want} with cargo.`);
    }
  }
  const now = capture('wasm-bindgen', ['--version']);
  if (!now || !now.includes(want)) {
    fail(
      `wasm-bindgen-cli ${want} was installed but \`wasm-bindgen --version\` says ${JSON.stringify((now || 'nothing').trim())}; is ~/.cargo/bin first on PATH?`,
    );
  }
  log(`wasm-bindgen-cli ${want}: installed`);
}

// (c) node_modules --------------------------------------------------------------
function ensureNodeModules() {
  const nm = join(ROOT, 'node_modules');
  const marker = join(nm, '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  let reason = null;
  if (!existsSync(nm)) reason = 'node_modules missing';
  else if (!existsSync(marker)) reason = 'node_modules incomplete';
  else if (existsSync(lock) && statSync(lock).mtimeMs > statSync(marker).mtimeMs) {
    reason = 'package-lock.json is newer than node_modules';
  }
  if (!reason) {
    log('node_modules: up to date');
    return;
  }
  log(`${reason}: running npm ci`);
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  if (!run(npm, ['ci', '--no-audit', '--no-fund'])) fail('`npm ci` failed.');
}

// (d) Debian chromium for Playwright ------------------------------------------
function ensureChromium() {
  if (existsSync(CHROMIUM)) {
    log(`chromium: ${CHROMIUM} present`);
    return;
  }
  log(`chromium: ${CHROMIUM} missing, installing Debian's chromium with apt-get`);
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const sudo = (cmd, args) => (isRoot ? run(cmd, args) : run('sudo', [cmd, ...args]));
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const attempt = () => sudo('apt-get', ['update']) && sudo('apt-get', ['install', '-y', 'chromium'], { env });
  if (attempt()) return;
  log('apt-get failed, retrying once');
  if (!attempt() || !existsSync(CHROMIUM)) {
    fail(`could not install chromium; install it by hand (apt-get install -y chromium) so that ${CHROMIUM} exists.`);
  }
}

ensureWasmTarget();
ensureWasmBindgen();
ensureNodeModules();
if (WANT_BROWSER) ensureChromium();
log('done');
