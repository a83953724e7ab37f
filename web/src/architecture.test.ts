// docs/architecture.md checked where a test can check it (issue 36, item 7): every path it
// names exists, its folder listings of web/src and of the simulator crate are complete
// (every folder and module listed, nothing listed that is gone), the web layer order it
// states is eslint.config.js's, and every panel kind of the core's registry is documented.
// (The trace formats it names are checked by scripts/check-rust-structure.mjs.)
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = readFileSync(join(REPO, 'docs/architecture.md'), 'utf8');
const SIM = 'core-wasm/crates/sim/src';

/** The fenced code blocks of the doc. */
const blocks = [...DOC.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((m) => m[1]);

/** The tree listing whose first line is `head` (e.g. `web/src/`). */
function listing(head: string): string {
  const b = blocks.find((x) => x.split('\n')[0].trim() === head);
  if (!b) throw new Error(`docs/architecture.md has no listing that starts with ${head}`);
  return b;
}

/** The names a tree listing gives at one indentation: the first word of each such line. */
function entries(block: string, indent: number): string[] {
  return block
    .split('\n')
    .filter((l) => l.length > indent && l.slice(0, indent).trim() === '' && /\S/.test(l[indent]))
    .map((l) => l.slice(indent).split(/\s+/)[0]);
}

/** Variants of `pub enum name { ... }` in a Rust source (doc comments and attributes skipped). */
export function enumVariants(src: string, name: string): string[] {
  const m = new RegExp(`pub enum ${name}\\b[^{]*\\{`).exec(src);
  if (!m) return [];
  let depth = 1;
  let k = m.index + m[0].length;
  let body = '';
  for (; k < src.length && depth > 0; k++) {
    if (src[k] === '{' || src[k] === '(') depth++;
    else if (src[k] === '}' || src[k] === ')') depth--;
    if (depth === 1) body += src[k];
    else if (depth === 2 && (src[k] === '{' || src[k] === '(')) body += ' ';
  }
  return body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => !l.startsWith('//') && !l.startsWith('#'))
    .map((l) => /^([A-Z]\w*)/.exec(l)?.[1])
    .filter((v): v is string => v !== undefined);
}

const snake = (v: string) => v.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

function allFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    if (n === 'target' || n === 'node_modules' || n === 'pkg') return [];
    const p = join(dir, n);
    return statSync(p).isDirectory() ? allFiles(p) : [p];
  });
}

function rustFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? rustFiles(p) : n.endsWith('.rs') ? [p] : [];
  });
}

describe('docs/architecture.md', () => {
  it('lists every folder of web/src, and only those', () => {
    const listed = entries(listing('web/src/'), 2).map((e) => e.replace(/\/$/, ''));
    const actual = readdirSync(join(REPO, 'web/src')).filter((n) => statSync(join(REPO, 'web/src', n)).isDirectory());
    expect(listed.filter((e) => !e.includes('.')).sort()).toEqual(actual.sort());
    for (const f of listed.filter((e) => e.includes('.'))) expect(existsSync(join(REPO, 'web/src', f)), f).toBe(true);
  });

  it('lists every module of the simulator crate, and only those', () => {
    const listed = entries(listing('core-wasm/'), 4)
      .filter((e) => e.startsWith('src/'))
      .map((e) => e.slice('src/'.length).replace(/\/$/, ''));
    // lib.rs declares the modules; a module is a file (x.rs), a folder (x/mod.rs), or both.
    const lib = readFileSync(join(REPO, SIM, 'lib.rs'), 'utf8');
    const modules = [...lib.matchAll(/^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;/gm)].map((m) => m[1]);
    const named = new Set(listed.map((e) => e.replace(/\.rs$/, '')));
    expect(modules.filter((m) => !named.has(m))).toEqual([]);
    for (const e of listed) expect(existsSync(join(REPO, SIM, e)), `${SIM}/${e}`).toBe(true);
  });

  it('names only paths that exist', () => {
    // Paths in backticks or listings: repo-relative, or relative to the folders the doc
    // speaks from (web/src, the crates, the simulator's src, its ftl/ and trace/).
    const bases = [
      '',
      'web/src/',
      'web/',
      'core-wasm/',
      'core-wasm/crates/',
      'core-wasm/crates/sim/',
      `${SIM}/`,
      `${SIM}/ftl/`,
      `${SIM}/trace/`,
      `${SIM}/trace/parse/`,
      'core-wasm/crates/cli/src/',
      'core-wasm/crates/wasm/src/',
    ];
    const paths = new Set<string>();
    for (const m of DOC.matchAll(/`([^`\s]+)`/g)) {
      const p = m[1].replace(/[.,:;)]+$/, '');
      // a path: has a slash or a source extension, no placeholders or Rust paths
      if (!/\/|\.(rs|ts|tsx|mjs|js|md|json|css)$/.test(p) || /[<>*{}()|=]|::|^https?:/.test(p)) continue;
      if (/^-|^\.\.?\/|^(import-x|react-hooks|@typescript-eslint)\//.test(p)) continue;
      paths.add(p);
    }
    // A bare file name (`merge.rs` after `fast/`) is named inside a folder the text gives:
    // it must exist somewhere in the sources.
    const names = new Set(
      ['web/src', 'core-wasm/crates', 'scripts', 'e2e', 'docs']
        .flatMap((d) => allFiles(join(REPO, d)))
        .map((f) => basename(f)),
    );
    const missing = [...paths].filter((p) =>
      p.includes('/') ? !bases.some((b) => existsSync(join(REPO, b, p))) : !names.has(p),
    );
    expect(missing).toEqual([]);
  });

  it('states the web layer order of eslint.config.js', () => {
    const eslint = readFileSync(join(REPO, 'eslint.config.js'), 'utf8');
    const features = [.../^const FEATURES = \[([^\]]*)\];/m.exec(eslint)![1].matchAll(/'([^']+)'/g)].map((m) => m[1]);
    const stated = /Feature order, top to bottom: ([^.]+)\./.exec(DOC);
    expect(stated, 'a line "Feature order, top to bottom: `app`, ..."').not.toBeNull();
    expect([...stated![1].matchAll(/`(\w+)\/?`/g)].map((m) => m[1])).toEqual(features);
  });

  it('documents every panel kind of the registry', () => {
    const sources = rustFiles(join(REPO, SIM, 'ftl')).map((f) => readFileSync(f, 'utf8'));
    // The catalog's panel kinds (PanelKind, snake_case on the wire) and, where the scheme
    // panels cross as typed data, the kinds of that data (PanelData).
    const kinds = sources.flatMap((s) => enumVariants(s, 'PanelKind'));
    const data = sources.flatMap((s) => enumVariants(s, 'PanelData'));
    expect(kinds.length).toBeGreaterThan(3);
    // Named as on the wire (snake_case) or as in Rust, in backticks.
    const undocumented = [...kinds, ...data].filter((k) => ![k, snake(k)].some((n) => DOC.includes(`\`${n}\``)));
    expect(undocumented).toEqual([]);
  });

  it('reads enum variants the way the checks above need', () => {
    const src = `
      /// Kinds.
      #[derive(Serialize)]
      pub enum PanelKind {
          /// one
          ResponseTimes,
          #[serde(rename = "x")]
          GcQueue { max_steps: u32, jobs: Vec<GcJob> },
          MappingRam(MappingRam),
      }
      pub enum Other { Nope }`;
    expect(enumVariants(src, 'PanelKind')).toEqual(['ResponseTimes', 'GcQueue', 'MappingRam']);
    expect(snake('KraftRamAsFast')).toBe('kraft_ram_as_fast');
  });
});
