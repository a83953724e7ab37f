// Checks the wasm TraceParser + Session.from_trace the way the browser worker uses them.
// Build first (from core-wasm/):
//   cargo build --release --target wasm32-unknown-unknown -p ftlscope-wasm
//   wasm-bindgen --target nodejs --out-dir /tmp/wasmpkg target/wasm32-unknown-unknown/release/ftlscope_wasm.wasm
// then: node crates/wasm/tests/trace_parser.cjs /tmp/wasmpkg [trace file]
const fs = require('fs');
const path = require('path');
const pkg = require(path.resolve(process.argv[2] || '/tmp/wasmpkg', 'ftlscope_wasm.js'));
const file = process.argv[3] || path.resolve(__dirname, '../../../../../shared/traces/mqsim-tpcc-small.trace');
let failed = 0, passed = 0;
const check = (name, ok, extra) => { if (ok) passed++; else { failed++; console.log('FAIL', name, extra ?? ''); } };

const scenario = (fit) => JSON.stringify({
  scheme: 'page', chip: { preset: 'fastcheck', blocks: 10000 },
  workload: { kind: 'trace', fit },
});

if (!fs.existsSync(file)) {
  console.log(`SKIPPED: ${file} not found`);
} else {
  const bytes = fs.readFileSync(file);
  const p = new pkg.TraceParser(JSON.stringify({ page_bytes: 4096, pages_per_block: 128 }));
  let progress;
  for (let i = 0; i < bytes.length; i += 64 * 1024) progress = JSON.parse(p.feed(bytes.subarray(i, i + 64 * 1024)));
  check('progress counts bytes', progress.bytes === bytes.length, progress);
  const done = JSON.parse(p.finish());
  check('finish ok', done.ok, done.error);
  const s = done.summary;
  check('6999 records', s.records === 6999 && s.record_writes === 2618 && s.record_reads === 4381, s);
  check('sample <= 1000 points', s.sample.length > 0 && s.sample.length <= 1000);
  const none = JSON.parse(p.fit(scenario('none')));
  check('fit none refuses with a message', !none.ok && /choose fit fold, compact or scale/.test(none.message), none);
  const fit = JSON.parse(p.fit(scenario('compact')));
  check('fit compact preview', fit.ok && fit.summary.fit_touched > 0, fit);
  const sess = pkg.Session.from_trace(scenario('compact'), p);
  check('session total = page requests', sess.total() === s.requests, [sess.total(), s.requests]);
  sess.run(sess.total());
  const m = JSON.parse(sess.metrics());
  check('ran with no wrong reads', m.requests === s.requests && m.wrong_reads === 0, m);
}

// Errors come back as data, with line and column.
const bad = new pkg.TraceParser('{}');
bad.feed(new TextEncoder().encode('0,1,512,w,0\n0,2,512,x,0\n'));
const r = JSON.parse(bad.finish());
check('bad line reported', !r.ok && r.error.errors[0].line === 2 && r.error.errors[0].column === 9, r);
const empty = new pkg.TraceParser('{}');
check('empty file', JSON.parse(empty.finish()).error.message === 'the file is empty');
let threw = false;
try { new pkg.TraceParser('{"nope": 1}'); } catch (e) { threw = /invalid trace options/.test(e.message); }
check('bad options throw a readable error', threw);
const cat = JSON.parse(pkg.trace_catalog());
check('catalog', cat.formats.length === 6 && cat.generators.some((g) => g.kind === 'postmark'), cat);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
