#!/usr/bin/env node
// Two builds of the app's .wasm, old and new, alternated in one Chromium (issue 37's wasm /
// native cells: a change to a scheme's wasm loop shows here whether it moved its cell):
//   node scripts/bench-wasm-ab.mjs --old DIR --new DIR [--schemes rftl,gftl] [--rounds N]
//        [--n REQUESTS] [--ftl PATH] [--port N] [--paths full,player]
// DIR: a wasm-bindgen pkg (as web/src/sim/pkg). Each round runs, per scheme and path, the old
// and the new wasm (which goes first alternates round by round) on the loop's scenario
// (bench-wasm-rounds.mjs `loopScenario`), then with --ftl one native `ftl bench --runs 1`
// sample of the same path. Per run: the worker thread's CPU seconds (the figure to read on a
// loaded host: it leaves out the time the worker waited for a core) and its wall seconds;
// flash operations must be equal between old and new (the same simulation), or it fails.
// Prints per scheme and path: medians of old and new, new / old per round, and with --ftl
// the native run's CPU (`cpu_s`) and wall seconds over the same rounds and native / wasm of
// the medians (by wall: the cell's measure, to be read on an idle host).
import { loadavg } from 'node:os';
import { openWasmBench } from './bench-browser-lib.mjs';
import { loopSample, loopScenario, median, range } from './bench-wasm-rounds.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const [oldPkg, newPkg] = [opt('--old'), opt('--new')];
if (!oldPkg || !newPkg) {
  console.error('usage: node scripts/bench-wasm-ab.mjs --old DIR --new DIR [--schemes S,..] [--rounds N] [--ftl PATH]');
  process.exit(2);
}
const schemes = opt('--schemes', 'rftl').split(',');
const rounds = Number(opt('--rounds', 6));
const n = Number(opt('--n', 1_000_000));
const ftl = opt('--ftl', null);
const paths = opt('--paths', 'full,player').split(',');
const l0 = loadavg()[0];
const wasmBench = await openWasmBench({
  pkgs: { old: oldPkg, new: newPkg },
  port: Number(opt('--port', process.env.PW_PORT ?? 4202)),
});
const acc = {};
try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 ? ['new', 'old'] : ['old', 'new'];
    for (const scheme of schemes) {
      const json = loopScenario(scheme, n);
      for (const path of paths) {
        const a = (acc[`${scheme} ${path}`] ??= { old: [], new: [], oldWall: [], newWall: [], nat: [], natWall: [] });
        const ops = {};
        for (const key of order) {
          const r = await wasmBench.runOnce(key, json, path === 'full');
          a[key].push(r.workerCpu);
          a[`${key}Wall`].push(r.secs);
          ops[key] = r.ops;
        }
        if (ops.old !== ops.new) throw new Error(`${scheme} ${path}: flash ops differ, old ${ops.old}, new ${ops.new}`);
        if (ftl) {
          const s = loopSample(ftl, json, path === 'player');
          a.nat.push(s.nat.cpu_s);
          a.natWall.push(s.nat.median_s);
        }
        process.stderr.write(
          `round ${round} ${scheme} ${path}: worker CPU old ${a.old.at(-1)?.toFixed(3)} new ${a.new.at(-1)?.toFixed(3)} s${ftl ? `, native ${a.nat.at(-1)?.toFixed(3)} s` : ''} (flash ops ${ops.new}, load ${loadavg()[0].toFixed(1)})\n`,
        );
      }
    }
  }
} finally {
  await wasmBench.close();
}
const f3 = (x) => x.toFixed(3);
console.log(`[ab] ${rounds} rounds, load ${l0.toFixed(1)}-${loadavg()[0].toFixed(1)}; seconds, median (range)`);
for (const [cell, a] of Object.entries(acc)) {
  const per = a.new.map((x, i) => x / a.old[i]);
  const lower = per.filter((x) => x < 1).length;
  const nat = a.nat.length
    ? `; native cpu_s ${f3(median(a.nat))} (${range(a.nat)}), wall ${f3(median(a.natWall))}; native / wasm by CPU old ${f3(median(a.nat) / median(a.old))} new ${f3(median(a.nat) / median(a.new))}, by wall old ${f3(median(a.natWall) / median(a.oldWall))} new ${f3(median(a.natWall) / median(a.newWall))}`
    : '';
  console.log(
    `${cell.padEnd(16)} worker CPU old ${f3(median(a.old))} (${range(a.old)}) new ${f3(median(a.new))} (${range(a.new)}); new / old per round ${range(per)}, median ${median(per).toFixed(2)}, lower in ${lower} of ${per.length}; wall old ${f3(median(a.oldWall))} new ${f3(median(a.newWall))}${nat}`,
  );
}
