#!/usr/bin/env node
// Trace parsing throughput, native (`ftl trace`, `ftl run`) and in the .wasm the app
// ships (the worker's TraceParser, driven from Node in 4 MB chunks as upload.ts does).
// Makes ~24 MB files in a temp directory from the shared MQSim trace (repeated, each
// copy shifted in time) in every text format, gzip and zstd copies, and oracleGeneral.
//   node scripts/bench-traces.mjs [MB] [--skip-run]
// Prints a Markdown table (docs/performance.md, "Trace parsing").
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FTL = join(ROOT, 'core-wasm', 'target', 'release', 'ftl');
const SHARED = join(ROOT, '..', 'shared', 'traces', 'mqsim-tpcc-small.trace');
const MB = Number(process.argv[2] ?? 24);
const skipRun = process.argv.includes('--skip-run');
const DIR = join(tmpdir(), 'ftlscope-trace-bench');
mkdirSync(DIR, { recursive: true });
if (!existsSync(FTL)) throw new Error(`build the CLI first: cargo build --release -p ftlscope-cli (in core-wasm/)`);

// Records of the shared trace: [time_ns, device, lba, sectors, write]
const base = readFileSync(existsSync(SHARED) ? SHARED : join(ROOT, 'traces', 'camera.disksim'), 'utf8')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => {
    const [t, d, lba, n, op] = l.trim().split(/\s+/);
    return [Number(t), Number(d), Number(lba), Number(n), op === '0'];
  });
const span = base[base.length - 1][0] + 1;

function make(name, fmt) {
  const path = join(DIR, name);
  if (existsSync(path) && statSync(path).size >= MB * 1e6 * 0.9) return path;
  const parts = [];
  let bytes = 0;
  if (fmt === 'csv') parts.push('version,time,op,size,lbn\n');
  for (let rep = 0; bytes < MB * 1e6; rep++) {
    const lines = base.map(([t, d, lba, n, w], i) => {
      const time = t + rep * span;
      switch (fmt) {
        case 'disksim':
          return `${time} ${d} ${lba} ${n} ${w ? 0 : 1}\n`;
        case 'csv': // CloudPhysics as libCacheSim ships it: SCSI opcode in hex, size bytes, lbn sectors
          return `1,${Math.floor(time / 1000)},${w ? '2a' : '28'},${n * 512},${lba}\n`;
        case 'msr':
          return `${128166372000000000 + time / 100},hm,${d},${w ? 'Write' : 'Read'},${lba * 512},${n * 512},100\n`;
        case 'alibaba':
          return `${d},${w ? 'W' : 'R'},${lba * 512},${n * 512},${Math.floor(time / 1000)}\n`;
        case 'fiu':
          return `${time} ${1000 + d} postgres ${lba} ${n} ${w ? 'W' : 'R'} 8 ${d} ${((i * 2654435761) >>> 0).toString(16).padStart(32, '0')}\n`;
      }
    });
    const s = lines.join('');
    parts.push(s);
    bytes += s.length;
  }
  writeFileSync(path, parts.join(''));
  return path;
}

function makeOracle() {
  const path = join(DIR, 'bench.oracleGeneral');
  if (existsSync(path)) return path;
  const n = Math.ceil((MB * 1e6) / 24);
  const buf = Buffer.alloc(n * 24);
  for (let i = 0; i < n; i++) {
    const [t, , lba, sectors] = base[i % base.length];
    buf.writeUInt32LE(Math.floor(t / 1e9) + Math.floor(i / base.length) * 1000, i * 24);
    buf.writeBigUInt64LE(BigInt(Math.floor(lba / 8)), i * 24 + 4);
    buf.writeUInt32LE(sectors * 512, i * 24 + 12);
    buf.writeBigInt64LE(-1n, i * 24 + 16);
  }
  writeFileSync(path, buf);
  return path;
}

const files = [
  ['DiskSim', make('bench.disksim', 'disksim')],
  ['CSV (CloudPhysics, hex ops)', make('bench.csv', 'csv')],
  ['MSR', make('bench.msr.csv', 'msr')],
  ['Alibaba', make('bench.alibaba.csv', 'alibaba')],
  ['FIU', make('bench.fiu', 'fiu')],
  ['oracleGeneral', makeOracle()],
];
const dz = join(DIR, 'bench.disksim');
if (!existsSync(dz + '.gz')) execFileSync('gzip', ['-k', '-f', '-6', dz]);
if (!existsSync(dz + '.zst') && spawnSync('zstd', ['-q', '-f', '-3', dz, '-o', dz + '.zst']).status !== 0)
  console.warn('no zstd CLI: skipped .zst');
files.push(['DiskSim .gz', dz + '.gz']);
if (existsSync(dz + '.zst')) files.push(['DiskSim .zst', dz + '.zst']);

// fast2007 (512-byte pages, as the app's default chip) with 14,000 blocks,
// compacted: many page requests per record, the heaviest case.
const CHIP = ['--scheme', 'page', '--chip', 'fast2007', '--blocks', '14000', '--fit', 'compact'];

function native(path, withRun) {
  const t0 = performance.now();
  const r = spawnSync(FTL, ['trace', '--trace', path, ...CHIP], { encoding: 'utf8', maxBuffer: 1 << 28 });
  const total = (performance.now() - t0) / 1000;
  if (r.status !== 0) throw new Error(`ftl trace ${path}: ${r.stderr}`);
  const m = r.stderr.match(
    /in ([\d.]+) s wall, ([\d.]+) s CPU \((\d+) MB\/s of text per CPU second\); summary and fit ([\d.]+) s wall, ([\d.]+) s CPU/,
  );
  const s = JSON.parse(r.stdout);
  let run = null;
  if (!skipRun && withRun) {
    const t1 = performance.now();
    const q = spawnSync(FTL, ['run', '--trace', path, ...CHIP, '--json'], { encoding: 'utf8', maxBuffer: 1 << 28 });
    run = (performance.now() - t1) / 1000;
    if (q.status !== 0) throw new Error(`ftl run ${path}: ${q.stderr}`);
  }
  return {
    parse: Number(m[1]),
    cpu: Number(m[2]),
    mbs: Number(m[3]),
    fitCpu: Number(m[5]),
    total,
    run,
    requests: s.requests,
    records: s.records,
  };
}

const PKG = join(ROOT, 'web', 'src', 'sim', 'pkg');
const { initSync, TraceParser } = await import(join(PKG, 'ftlscope_wasm.js'));
initSync({ module: readFileSync(join(PKG, 'ftlscope_wasm_bg.wasm')) });

function wasm(path) {
  const bytes = readFileSync(path);
  const t0 = performance.now();
  const p = new TraceParser(JSON.stringify({ page_bytes: 512, pages_per_block: 32 }));
  const CH = 4 << 20;
  for (let i = 0; i < bytes.length; i += CH) p.feed(bytes.subarray(i, i + CH));
  const t1 = performance.now();
  const r = p.finish();
  const t2 = performance.now();
  if (!r.ok) throw new Error(`${path}: ${r.error.message}`);
  const text = r.summary.bytes;
  p.free();
  return { feed: (t1 - t0) / 1000, finish: (t2 - t1) / 1000, mbs: text / 1e6 / ((t2 - t0) / 1000), text };
}

console.log(
  `| format | file MB | text MB | records | page requests (512 B) | native parse: wall s, CPU s (MB/s of text per CPU s) | summary + fit CPU s | \`ftl trace\` wall s | \`ftl run\` wall s | wasm feed + summary s (MB/s of text) |`,
);
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const [name, path] of files) {
  const n = native(path, name === 'DiskSim' || name.startsWith('CSV'));
  const w = wasm(path);
  const size = statSync(path).size / 1e6;
  console.log(
    `| ${name} | ${size.toFixed(1)} | ${(w.text / 1e6).toFixed(1)} | ${n.records.toLocaleString('en-US')} | ${n.requests.toLocaleString('en-US')} | ${n.parse.toFixed(3)}, ${n.cpu.toFixed(2)} (${n.mbs}) | ${n.fitCpu.toFixed(2)} | ${n.total.toFixed(2)} | ${n.run == null ? '—' : n.run.toFixed(2)} | ${w.feed.toFixed(2)} + ${w.finish.toFixed(2)} (${w.mbs.toFixed(0)}) |`,
  );
}
