#!/usr/bin/env node
// Structure check of the Rust crates (issue 30), Node built-ins only:
//  1. no module cycles: the `crate::` / `super::` / `self::` paths of every file in
//     core-wasm/crates/*/src (in `use` items and in code) give the edges between modules
//     (one module per file; inline `mod tests { .. }` count as their file). A module's
//     references to its own submodules (declaring, re-exporting them) are the module
//     tree, not a dependency, and are not counted.
//  2. no cycle between sibling folders (issue 36): collapse every module to its
//     ancestor just below the point where two modules' paths part (`trace::load ->
//     scenario` is the edge `trace -> scenario`; `ftl::fast::merge -> ftl::nand` would
//     be `ftl::fast -> ftl::nand`); the graph of siblings has no cycle. Module cycles
//     (1) are file-level: `trace::load -> scenario -> trace::gen` is no module cycle
//     but two folders that import each other, which this finds.
//  3. no src file over MAX_LINES lines.
// Known exceptions are listed below, each with its reason, so they stay visible: the
// check prints them on every run and fails on anything else. An exception that no
// longer applies is reported so it can be removed.
//
//   node scripts/check-rust-structure.mjs              check (exit 1 on a new violation)
//   node scripts/check-rust-structure.mjs --self-test  check the checker on in-memory crates
//   node scripts/check-rust-structure.mjs --graph      also print every module's edges

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 800;

/** Module cycles known and accepted for now: crate, the modules of the cycle, why. */
const KNOWN_CYCLES = [];

/** Files allowed over MAX_LINES for now (path under core-wasm/crates), with the reason. */
const LONG_FILES = {};

// ---------------------------------------------------------------------------------
// Rust source scanning

/** The source with comments, string and char literals blanked (newlines kept). */
export function stripRust(src) {
  let out = '';
  let i = 0;
  const n = src.length;
  const blank = (s) => s.replace(/[^\n]/g, ' ');
  while (i < n) {
    const c = src[i];
    const d = src[i + 1];
    if (c === '/' && d === '/') {
      const e = src.indexOf('\n', i);
      const end = e < 0 ? n : e;
      out += blank(src.slice(i, end));
      i = end;
    } else if (c === '/' && d === '*') {
      let depth = 1;
      let j = i + 2;
      while (j < n && depth > 0) {
        if (src[j] === '/' && src[j + 1] === '*') {
          depth++;
          j += 2;
        } else if (src[j] === '*' && src[j + 1] === '/') {
          depth--;
          j += 2;
        } else j++;
      }
      out += blank(src.slice(i, j));
      i = j;
    } else if (
      (c === 'r' || (c === 'b' && d === 'r')) &&
      /^b?r#*"/.test(src.slice(i, i + 260)) &&
      !/\w/.test(src[i - 1] ?? '')
    ) {
      const m = /^b?r(#*)"/.exec(src.slice(i));
      const close = '"' + m[1];
      const e = src.indexOf(close, i + m[0].length);
      const end = e < 0 ? n : e + close.length;
      out += blank(src.slice(i, end));
      i = end;
    } else if (c === '"') {
      let j = i + 1;
      while (j < n && src[j] !== '"') j += src[j] === '\\' ? 2 : 1;
      out += blank(src.slice(i, j + 1));
      i = j + 1;
    } else if (c === "'") {
      // A char literal ('a', '\n', '\u{1F600}', '"') or a lifetime ('a).
      const m = /^'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'])'/.exec(src.slice(i, i + 12));
      if (m) {
        out += blank(m[0]);
        i += m[0].length;
      } else {
        out += c;
        i++;
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** Expands a `use` tree (`a::{b, c::{d, e}}`) into its paths, as segment arrays. */
export function expandUseTree(tree) {
  tree = tree.replace(/\s+/g, '');
  const paths = [];
  const walk = (prefix, t) => {
    // Split t at top-level commas.
    const parts = [];
    let depth = 0;
    let start = 0;
    for (let k = 0; k < t.length; k++) {
      if (t[k] === '{') depth++;
      else if (t[k] === '}') depth--;
      else if (t[k] === ',' && depth === 0) {
        parts.push(t.slice(start, k));
        start = k + 1;
      }
    }
    parts.push(t.slice(start));
    for (const p of parts.filter(Boolean)) {
      const b = p.indexOf('{');
      if (b >= 0) {
        const head = p.slice(0, b).replace(/::$/, '');
        walk([...prefix, ...head.split('::').filter(Boolean)], p.slice(b + 1, p.lastIndexOf('}')));
      } else {
        const segs = p
          .replace(/as\w+$/, '')
          .split('::')
          .filter(Boolean);
        paths.push([...prefix, ...segs.filter((s) => s !== 'self' || prefix.length === 0)]);
      }
    }
  };
  walk([], tree);
  return paths;
}

/**
 * The module paths a file refers to: [{ path: [segments], line, inline }], where
 * `inline` is the depth of inline modules (`mod tests { }`) the reference sits in.
 */
export function references(src) {
  const code = stripRust(src);
  const lineAt = (k) => code.slice(0, k).split('\n').length;
  // Inline module spans: `mod name {` .. its matching brace.
  const spans = [];
  const modRe = /\bmod\s+[A-Za-z_]\w*\s*\{/g;
  for (let m; (m = modRe.exec(code));) {
    let depth = 0;
    let k = m.index + m[0].length - 1;
    for (; k < code.length; k++) {
      if (code[k] === '{') depth++;
      else if (code[k] === '}' && --depth === 0) break;
    }
    spans.push([m.index, k]);
  }
  const inlineDepth = (k) => spans.filter(([a, b]) => a < k && k < b).length;
  const refs = [];
  const useRe = /\buse\s+([^;]+);/g;
  const useSpans = [];
  for (let m; (m = useRe.exec(code));) {
    useSpans.push([m.index, m.index + m[0].length]);
    for (const path of expandUseTree(m[1])) {
      if (['crate', 'super', 'self'].includes(path[0])) {
        refs.push({ path, line: lineAt(m.index), inline: inlineDepth(m.index) });
      }
    }
  }
  const pathRe = /\b(?:crate|super|self)(?:\s*::\s*[A-Za-z_]\w*)+/g;
  for (let m; (m = pathRe.exec(code));) {
    if (useSpans.some(([a, b]) => a <= m.index && m.index < b)) continue;
    if (/[\w:]\s*$/.test(code.slice(Math.max(0, m.index - 3), m.index)) && code.slice(m.index - 2, m.index) === '::')
      continue;
    refs.push({ path: m[0].split('::').map((s) => s.trim()), line: lineAt(m.index), inline: inlineDepth(m.index) });
  }
  return refs;
}

// ---------------------------------------------------------------------------------
// Module graph

/** `files`: { 'lib.rs': source, 'a/mod.rs': ..., 'a/b.rs': ... } of one crate's src. */
export function moduleGraph(files) {
  const modOf = (f) => {
    const p = f.replace(/\.rs$/, '').split('/');
    if (p.length === 1 && (p[0] === 'lib' || p[0] === 'main')) return [];
    if (p[p.length - 1] === 'mod') p.pop();
    return p;
  };
  const known = new Set(Object.keys(files).map((f) => modOf(f).join('::')));
  const edges = new Map(); // from -> Map(to -> first evidence)
  for (const [file, src] of Object.entries(files)) {
    const from = modOf(file);
    const fromKey = from.join('::');
    if (!edges.has(fromKey)) edges.set(fromKey, new Map());
    for (const r of references(src)) {
      // Scope of the reference: the file's module, then its inline modules.
      let scope = [...from, ...Array(r.inline).fill('#inline')];
      const segs = [...r.path];
      if (segs[0] === 'crate') {
        scope = [];
        segs.shift();
      } else {
        while (segs[0] === 'super' || segs[0] === 'self') {
          if (segs.shift() === 'super') scope = scope.slice(0, -1);
        }
      }
      scope = scope.filter((s) => s !== '#inline');
      const abs = [...scope, ...segs];
      let to = [];
      for (let k = abs.length; k >= 0; k--) {
        if (known.has(abs.slice(0, k).join('::'))) {
          to = abs.slice(0, k);
          break;
        }
      }
      const toKey = to.join('::');
      const isDescendant = to.length >= from.length && from.every((s, k) => to[k] === s);
      if (isDescendant) continue; // self, or the module's own submodules
      if (!edges.get(fromKey).has(toKey)) edges.get(fromKey).set(toKey, `${file}:${r.line}`);
    }
  }
  return { modules: [...known].sort(), edges };
}

/** Strongly connected components of more than one module (Tarjan). */
export function cycles(graph) {
  const index = new Map();
  const low = new Map();
  const onStack = new Set();
  const stack = [];
  const out = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of (graph.edges.get(v) ?? new Map()).keys()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const comp = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of graph.modules) if (!index.has(v)) visit(v);
  return out;
}

/**
 * The graph between sibling modules: every edge `a -> b` of `graph` becomes an edge
 * between the two children of their longest common ancestor that hold `a` and `b`
 * (an edge from a module to its own ancestor, or to the crate root, is the module tree
 * and gives none). Its cycles are folders (or a folder and a file) that import each
 * other.
 */
export function siblingGraph(graph) {
  const edges = new Map();
  const modules = new Set();
  for (const [from, tos] of graph.edges) {
    const a = from ? from.split('::') : [];
    for (const [to, at] of tos) {
      const b = to ? to.split('::') : [];
      let k = 0;
      while (k < a.length && k < b.length && a[k] === b[k]) k++;
      if (k >= a.length || k >= b.length) continue; // one holds the other
      const x = a.slice(0, k + 1).join('::');
      const y = b.slice(0, k + 1).join('::');
      modules.add(x).add(y);
      if (!edges.has(x)) edges.set(x, new Map());
      if (!edges.get(x).has(y)) edges.get(x).set(y, `${from} -> ${to} (${at})`);
    }
  }
  return { modules: [...modules].sort(), edges };
}

/** The edges inside one cycle, with where each comes from (for the message). */
function cycleEdges(graph, comp) {
  const set = new Set(comp);
  const lines = [];
  for (const v of comp) {
    for (const [w, at] of graph.edges.get(v) ?? []) if (set.has(w)) lines.push(`${v} -> ${w} (${at})`);
  }
  return lines;
}

// ---------------------------------------------------------------------------------
// The check

function rustFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) out.push(...rustFiles(p));
    else if (name.endsWith('.rs')) out.push(p);
  }
  return out;
}

function check({ graphOut = false } = {}) {
  const root = fileURLToPath(new URL('../core-wasm/crates/', import.meta.url));
  const problems = [];
  const notes = [];
  const seenCycles = new Set();
  const seenLong = new Set();
  for (const crate of readdirSync(root).sort()) {
    const src = join(root, crate, 'src');
    let files;
    try {
      files = rustFiles(src);
    } catch {
      continue;
    }
    const sources = {};
    for (const f of files) {
      const rel = relative(src, f).split(sep).join('/');
      const text = readFileSync(f, 'utf8');
      sources[rel] = text;
      const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
      const key = `${crate}/src/${rel}`;
      if (lines > MAX_LINES) {
        if (LONG_FILES[key]) {
          seenLong.add(key);
          notes.push(`known long file: ${key} (${lines} lines): ${LONG_FILES[key]}`);
        } else problems.push(`core-wasm/crates/${key} has ${lines} lines (at most ${MAX_LINES}): split it`);
      }
    }
    const graph = moduleGraph(sources);
    if (graphOut) {
      for (const [v, es] of graph.edges)
        console.log(`${crate}: ${v || '(root)'} -> ${[...es.keys()].map((k) => k || '(root)').join(', ')}`);
    }
    for (const comp of cycles(graph)) {
      const known = KNOWN_CYCLES.find(
        (k) => k.crate === crate && k.modules.length === comp.length && k.modules.every((m) => comp.includes(m)),
      );
      if (known) {
        seenCycles.add(known);
        notes.push(`known cycle in ${crate}: {${comp.join(', ')}}: ${known.reason}`);
      } else {
        problems.push(
          `module cycle in crate ${crate}: {${comp.join(', ')}}\n    ${cycleEdges(graph, comp).join('\n    ')}`,
        );
      }
    }
    // No exceptions: a folder pair that imports both ways moves what both need below them.
    const siblings = siblingGraph(graph);
    for (const comp of cycles(siblings)) {
      problems.push(
        `folder cycle in crate ${crate}: {${comp.join(', ')}} import each other (move what both need below them)\n    ${cycleEdges(siblings, comp).join('\n    ')}`,
      );
    }
  }
  problems.push(...checkTraceFormats());
  for (const k of KNOWN_CYCLES.filter((k) => !seenCycles.has(k))) {
    notes.push(`stale exception: the cycle {${k.modules.join(', ')}} is gone: remove it from KNOWN_CYCLES`);
  }
  for (const f of Object.keys(LONG_FILES).filter((f) => !seenLong.has(f))) {
    notes.push(`stale exception: ${f} is at most ${MAX_LINES} lines (or gone): remove it from LONG_FILES`);
  }
  for (const n of notes) console.log(`check-rust-structure: ${n}`);
  for (const p of problems) console.error(`check-rust-structure: ${p}`);
  if (problems.length === 0)
    console.log('check-rust-structure: no new module cycles, no folder cycles, no new file over 800 lines');
  return problems.length === 0;
}

/**
 * The trace-format registry and its docs agree: every format file (a `const ENTRY` in
 * sim/src/trace/parse/) is in `REGISTRY` and named in docs/architecture.md, and the paths
 * the "How to add a trace format" section names exist.
 */
function checkTraceFormats() {
  const repo = fileURLToPath(new URL('../', import.meta.url));
  const dir = join(repo, 'core-wasm/crates/sim/src/trace/parse');
  const problems = [];
  let registry;
  let doc;
  try {
    registry = readFileSync(join(dir, 'mod.rs'), 'utf8');
    doc = readFileSync(join(repo, 'docs/architecture.md'), 'utf8');
  } catch (e) {
    return [`trace formats: ${e.message}`];
  }
  for (const f of readdirSync(dir).filter((f) => f.endsWith('.rs'))) {
    if (!/\bconst ENTRY: Entry\b/.test(readFileSync(join(dir, f), 'utf8'))) continue;
    const name = f.replace(/\.rs$/, '');
    if (!new RegExp(`\\b${name}::ENTRY\\b`).test(registry)) {
      problems.push(`trace format ${f} declares an ENTRY that REGISTRY (trace/parse/mod.rs) does not list`);
    }
    if (!doc.includes(`\`${f}\``)) problems.push(`docs/architecture.md does not name the trace format file \`${f}\``);
  }
  const section = doc.split(/^## How to add a trace format$/m)[1]?.split(/^## /m)[0];
  if (!section) problems.push('docs/architecture.md has no "## How to add a trace format" section');
  for (const [, path] of (section ?? '').matchAll(/`(core-wasm\/[^`<>]+)`/g)) {
    try {
      statSync(join(repo, path));
    } catch {
      problems.push(`docs/architecture.md, "How to add a trace format", names ${path}, which does not exist`);
    }
  }
  return problems;
}

// ---------------------------------------------------------------------------------
// Self-test: the checker finds a cycle it should, and none where there is none.

function selfTest() {
  const failures = [];
  const expect = (what, ok) => {
    if (!ok) failures.push(what);
  };
  // a -> b (use), b -> a (a path in code): a cycle. c only in comments / strings: no edge.
  const cyclic = {
    'lib.rs': 'pub mod a;\npub mod b;\npub mod c;\n',
    'a.rs': 'use crate::{b::Thing, nand};\n// use crate::c::X;\nfn f() { let s = "crate::c::Y"; }\n',
    'b.rs': "fn g<'a>(x: &'a str) -> char { let _ = super::a::h(); '\"' }\n/* crate::c */\n",
    'c.rs': 'pub struct X;\n',
  };
  const g = moduleGraph(cyclic);
  const cs = cycles(g);
  expect('finds the cycle {a, b}', cs.length === 1 && cs[0].join(',') === 'a,b');
  expect('ignores paths in comments and strings', !g.edges.get('a').has('c') && !g.edges.get('b').has('c'));
  // A parent using its children, children using the parent, an inline test module: no cycle.
  const tree = {
    'lib.rs': 'pub mod t;\n',
    't/mod.rs': 'pub mod p;\npub mod q;\npub use self::p::Format;\npub struct Req;\n',
    't/p.rs':
      'use super::Req;\nuse super::q::parse;\n#[cfg(test)]\nmod tests {\n    use super::*;\n    use super::super::Req;\n}\n',
    't/q.rs': 'use crate::t::Req;\npub fn parse() {}\n',
  };
  const g2 = moduleGraph(tree);
  expect('no cycle through the module tree or inline tests', cycles(g2).length === 0);
  expect('edge from a child to its parent', g2.edges.get('t::p').has('t'));
  expect('edge to a sibling', g2.edges.get('t::p').has('t::q'));
  expect(
    'use trees expand',
    JSON.stringify(expandUseTree('a::{b, c::{d, e as f}}')) === '[["a","b"],["a","c","d"],["a","c","e"]]',
  );
  // A three-module cycle through `super::` paths and `pub use`.
  const three = {
    'lib.rs': 'mod x;\n',
    'x/mod.rs': 'mod a; mod b; mod c;\n',
    'x/a.rs': 'pub use super::b::B;\n',
    'x/b.rs': 'fn f() -> super::c::C { todo!() }\n',
    'x/c.rs': 'use crate::x::a::B as _;\n',
  };
  expect(
    'finds a three-module cycle',
    cycles(moduleGraph(three)).some((c) => c.join(',') === 'x::a,x::b,x::c'),
  );
  // Two folders importing each other with no module cycle (the core's old trace::load ->
  // scenario -> trace::gen): a folder cycle; the same edges from a child to its parent
  // and to the root are not.
  const folders = {
    'lib.rs': 'pub mod scenario;\npub mod trace;\npub struct Root;\n',
    'scenario.rs': 'use crate::trace::gen::Workload;\nuse crate::Root;\n',
    'trace/mod.rs': 'pub mod gen;\npub mod load;\n',
    'trace/gen.rs': 'pub enum Workload {}\nuse super::X;\n',
    'trace/load.rs': 'use crate::scenario::Scenario;\nuse super::gen::Workload;\nuse crate::trace::X;\n',
  };
  const gf = moduleGraph(folders);
  expect('no module cycle in the folder case', cycles(gf).length === 0);
  const fc = cycles(siblingGraph(gf));
  expect('finds the folder cycle {scenario, trace}', fc.length === 1 && fc[0].join(',') === 'scenario,trace');
  expect(
    'no folder cycle once trace stops importing scenario',
    (() => {
      const fixed = { ...folders, 'trace/load.rs': 'use super::gen::Workload;\n' };
      return cycles(siblingGraph(moduleGraph(fixed))).length === 0;
    })(),
  );
  expect(
    'a cycle inside a folder is between its children',
    (() => {
      const inner = { ...folders, 'trace/gen.rs': 'use super::load::L;\n', 'trace/load.rs': 'use super::gen::G;\n' };
      return cycles(siblingGraph(moduleGraph(inner))).some((c) => c.join(',') === 'trace::gen,trace::load');
    })(),
  );
  if (failures.length) {
    for (const f of failures) console.error(`check-rust-structure self-test FAILED: ${f}`);
    return false;
  }
  return true;
}

const args = process.argv.slice(2);
if (args.includes('--self-test')) {
  const ok = selfTest();
  console.log(ok ? 'check-rust-structure self-test: ok' : 'check-rust-structure self-test: failed');
  process.exit(ok ? 0 : 1);
}
// The self-test runs on every check too: a checker that cannot see a cycle passes nothing.
if (!selfTest()) process.exit(1);
process.exit(check({ graphOut: args.includes('--graph') }) ? 0 : 1);
