// The web app's import graph has no cycles, type-only imports included (ESLint's
// import-x/no-cycle skips `import type`, so this test covers what it cannot), no two
// folders of web/src import each other (whatever eslint.config.js's FEATURES order
// says), and every folder has its place in that order.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = dirname(fileURLToPath(import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'pkg' || name === 'testing') return [];
    if (statSync(path).isDirectory()) return sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

function resolveImport(from: string, spec: string): string | null {
  if (!spec.startsWith('.')) return null;
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) {
    try {
      if (statSync(candidate).isFile() && /\.tsx?$/.test(candidate)) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sources(ROOT)) {
    const text = readFileSync(file, 'utf8');
    const specs = [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
    graph.set(
      file,
      specs.map((s) => resolveImport(file, s)).filter((f): f is string => f !== null),
    );
  }
  return graph;
}

function cycles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'open');
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (state.get(g) === 'open') found.push(stack.slice(stack.indexOf(g)).map((x) => relative(ROOT, x)));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  return found;
}

/** The folder of web/src a file is in ('main.tsx' for the root's files). */
const folderOf = (file: string) => relative(ROOT, file).split('/')[0];

/** The import graph between folders, with one file edge as evidence per folder edge. */
function folderGraph(graph: Map<string, string[]>): Map<string, Map<string, string>> {
  const out = new Map<string, Map<string, string>>();
  for (const [from, tos] of graph) {
    for (const to of tos) {
      const [a, b] = [folderOf(from), folderOf(to)];
      if (a === b) continue;
      if (!out.has(a)) out.set(a, new Map());
      if (!out.get(a)!.has(b)) out.get(a)!.set(b, `${relative(ROOT, from)} -> ${relative(ROOT, to)}`);
    }
  }
  return out;
}

/** Folder cycles: every folder cycle found by a depth-first walk, each edge with its evidence. */
function folderCycles(g: Map<string, Map<string, string>>): string[][] {
  const asFiles = new Map([...g].map(([k, v]) => [k, [...v.keys()]]));
  return cycles(new Map([...asFiles].map(([k, v]) => [join(ROOT, k), v.map((x) => join(ROOT, x))]))).map((c) =>
    c.map((f, i) => `${f} -> ${c[(i + 1) % c.length]} (${g.get(f)!.get(c[(i + 1) % c.length])})`),
  );
}

/** A string array constant of eslint.config.js (`const NAME = ['a', 'b'];`). */
function eslintList(name: string): string[] {
  const text = readFileSync(join(ROOT, '../../eslint.config.js'), 'utf8');
  const m = new RegExp(`^const ${name} = \\[([^\\]]*)\\];`, 'm').exec(text);
  if (!m) throw new Error(`eslint.config.js has no const ${name} = [...]`);
  return [...m[1].matchAll(/'([^']+)'/g)].map((x) => x[1]);
}

describe('web/src structure', () => {
  it('has no import cycles, type-only imports included', () => {
    expect(cycles(importGraph())).toEqual([]);
  });

  it('has no two folders that import each other, nor a longer folder cycle', () => {
    expect(folderCycles(folderGraph(importGraph()))).toEqual([]);
  });

  it('finds a folder cycle made of different files (the old tour <-> classroom)', () => {
    const f = (p: string) => join(ROOT, p);
    const graph = new Map([
      [f('tour/TourPanel.tsx'), [f('classroom/Glossary.tsx')]],
      [f('classroom/Glossary.tsx'), []],
      [f('classroom/PrintTour.tsx'), [f('tour/tours.ts')]],
      [f('tour/tours.ts'), []],
    ]);
    expect(cycles(graph)).toEqual([]);
    expect(folderCycles(folderGraph(graph))).toEqual([
      [
        'tour -> classroom (tour/TourPanel.tsx -> classroom/Glossary.tsx)',
        'classroom -> tour (classroom/PrintTour.tsx -> tour/tours.ts)',
      ],
    ]);
  });

  it('places every folder in the layers of eslint.config.js, and every feature imports only features below it', () => {
    const shared = eslintList('SHARED');
    const features = eslintList('FEATURES');
    const folders = readdirSync(ROOT).filter((n) => statSync(join(ROOT, n)).isDirectory());
    expect([...folders].sort()).toEqual([...shared, ...features].sort());
    // The same rule ESLint's generated zones enforce, type-only imports included.
    const upward: string[] = [];
    for (const [a, tos] of folderGraph(importGraph())) {
      for (const [b, at] of tos) {
        if (features.includes(a) && features.includes(b) && features.indexOf(b) < features.indexOf(a)) upward.push(at);
        // ui/ imports no other folder; sim/ only ui/.
        if (shared.includes(a) && !(a === 'sim' && b === 'ui')) upward.push(at);
      }
    }
    expect(upward).toEqual([]);
  });
});
