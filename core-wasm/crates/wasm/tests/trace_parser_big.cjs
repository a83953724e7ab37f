// Throughput of the wasm TraceParser on a big file, fed in 4 MB chunks as the worker would:
// node crates/wasm/tests/trace_parser_big.cjs /tmp/wasmpkg /tmp/big.trace (build: see trace_parser.cjs).
const fs = require('fs');
const pkg = require(require('path').resolve(process.argv[2] || '/tmp/wasmpkg', 'ftlscope_wasm.js'));
const fd = fs.openSync(process.argv[3] || '/tmp/big.trace', 'r');
const buf = Buffer.alloc(4 << 20);
const t0 = Date.now();
const p = new pkg.TraceParser(JSON.stringify({ page_bytes: 4096, pages_per_block: 128 }));
let n, prog;
while ((n = fs.readSync(fd, buf, 0, buf.length)) > 0) prog = JSON.parse(p.feed(buf.subarray(0, n)));
const t1 = Date.now();
const done = JSON.parse(p.finish());
const t2 = Date.now();
console.log('feed', (t1 - t0) / 1000, 's; finish', (t2 - t1) / 1000, 's; bytes', prog.bytes, 'requests', done.summary.requests, 'mem', process.memoryUsage().rss >> 20, 'MB');
