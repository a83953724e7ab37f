/// <reference types="node" />
// Issue 34: inputs that trapped the real wasm core ("unreachable") or ran unbounded are
// refused with one line, and the module keeps working after each: crash_sweep with
// random 2^64 − 1 or 10^8 cut points (the CLI's cap, ftl_sim::limits), a TraceParser
// `limit` of 2^64 − 1, and a Session of the largest chip the core allows (64 M pages,
// over the Session's 1 GB memory budget), twice.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Session, TraceParser, crash_sweep, initSync } from './pkg/ftlscope_wasm.js';

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('./pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const small = JSON.stringify({
  scheme: 'page',
  chip: { preset: 'classroom' },
  workload: { kind: 'uniform', n: 50, seed: 1 },
});

/** The module still works: a Session runs its workload. */
function stillWorks() {
  const s = new Session(small);
  expect(s.run(1000)).toBe(50);
  s.free();
}

/** `f` throws an Error (not a WebAssembly.RuntimeError) with one line matching `want`. */
function refused(f: () => unknown, want: RegExp) {
  let err: unknown;
  try {
    f();
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(Error);
  expect(err).not.toBeInstanceOf(WebAssembly.RuntimeError);
  const m = (err as Error).message;
  expect(m).toMatch(want);
  expect(m).not.toContain('\n');
  stillWorks();
}

describe('the wasm core is bounded on every input', () => {
  it('crash_sweep has the CLI’s caps', () => {
    const none = () => undefined;
    // JSON numbers past 2^53 are written out: JS would round them.
    refused(() => crash_sweep(small, '{"random": 18446744073709551615}', none), /at most 10000000 cut points/);
    refused(() => crash_sweep(small, '{"random": 100000000}', none), /at most 10000000 cut points/);
    refused(() => crash_sweep(small, '{"every": 4294967296}', none), /at most 4294967295/);
    refused(() => crash_sweep(small, '{"every": 0}', none), /at least 1/);
    const r = crash_sweep(small, '{"random": 5, "seed": 2}', none);
    expect(r.points_tried).toBeGreaterThan(0);
  });

  it('a TraceParser limit past the request cap is refused', () => {
    const p = new TraceParser('{"page_bytes": 4096, "limit": 18446744073709551615}');
    p.feed(new TextEncoder().encode('0,0,4503599627370496,w,0.0\n'));
    const out = p.finish() as { ok: boolean; error: { message: string } };
    expect(out.ok).toBe(false);
    expect(out.error.message).toMatch(/at most 20000000 page requests/);
    stillWorks();
  });

  it('a Session of the largest chip is refused in one line naming the limit, twice', () => {
    const largest = JSON.stringify({
      scheme: 'ltftl',
      chip: { preset: 'classroom', blocks: 65536, pages_per_block: 1024 },
      workload: { kind: 'uniform', n: 10, seed: 1 },
    });
    for (let i = 0; i < 2; i++) refused(() => new Session(largest), /over the limit of 1024 MB/);
  });
});
