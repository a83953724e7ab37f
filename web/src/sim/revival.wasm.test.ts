/// <reference types="node" />
// A trap in the real wasm core (issue 29): the worker host re-instantiates the module
// and rebuilds the other open Sessions at the request they had reached, so they keep
// working; the Session that trapped is dropped with a message. Also: trace_hash (the
// upload's SHA-256 slice by slice in the core). The trap is raised by a
// stand-in method (the core no longer traps on any input we know of); the reset, the
// rebuilt Sessions and the stale objects are the real module's.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Session, __wbg_reset_state, catalog, check_pattern, initSync } from './pkg/ftlscope_wasm.js';
import { SessionHost } from './host';
import { responseTimeSchemes } from './runAhead';
import type { SchemeData } from './schemeTypes';
import type { CreateResult, SessionConstructor, StepResult } from './protocol';

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('./pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const scenario = (seed: number) => ({
  scheme: 'page',
  chip: { preset: 'classroom' },
  workload: { kind: 'uniform', n: 500, seed },
});

/** The real Session, except that a workload of seed 13 traps on step_op. */
class Trapping extends Session {
  private readonly traps: boolean;
  constructor(json: string) {
    super(json);
    this.traps = (JSON.parse(json) as { workload: { seed: number } }).workload.seed === 13;
  }
  step_op(): boolean {
    if (this.traps) throw new WebAssembly.RuntimeError('unreachable');
    return super.step_op();
  }
}

describe('SessionHost after a trap in the wasm core', () => {
  it('re-instantiates the module and rebuilds the other sessions where they were', async () => {
    let resets = 0;
    const reset = () => {
      resets++;
      __wbg_reset_state();
    };
    const host = new SessionHost(async () => Trapping as unknown as SessionConstructor, undefined, undefined, reset);
    const create = async (id: number, seed: number) => {
      const r = await host.handle({ id, type: 'create', scenario: scenario(seed) });
      if (!r.ok) throw new Error(r.error);
      return (r.result as CreateResult).sid;
    };
    const a = await create(1, 1);
    const bad = await create(2, 13);
    const ran = await host.handle({ id: 3, type: 'run', sid: a, count: 120 });
    expect(ran.ok).toBe(true);
    const before = await host.handle({ id: 4, type: 'snapshot', sid: a });
    if (!before.ok) throw new Error(before.error);

    const res = await host.handle({ id: 5, type: 'step_op', sid: bad });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error).toMatch(/crashed \(unreachable\).*restarted \(1 other open run rebuilt/);
    expect(resets).toBe(1);

    // The other session answers from the new instance, at the same request, same chip.
    const after = await host.handle({ id: 6, type: 'snapshot', sid: a });
    if (!after.ok) throw new Error(after.error);
    const [s0, s1] = [before.result as StepResult['snapshot'], after.result as StepResult['snapshot']];
    expect(s1.step).toBe(120);
    expect(Array.from(s1.pageStates)).toEqual(Array.from(s0.pageStates));
    expect(s1.metrics).toEqual(s0.metrics);
    const stepped = await host.handle({ id: 7, type: 'step_request', sid: a });
    expect(stepped.ok).toBe(true);
    // The one that trapped is gone; new sessions work.
    const gone = await host.handle({ id: 8, type: 'snapshot', sid: bad });
    expect(!gone.ok && gone.error).toMatch(/no session/);
    const c = await create(9, 2);
    expect((await host.handle({ id: 10, type: 'run', sid: c, count: 500 })).ok).toBe(true);
  });

  it('rebuilds a Session with the per-request timeline only where the worker recorded one', async () => {
    // The worker's rule (worker.ts): only schemes whose panels show response times record it.
    const shows = responseTimeSchemes(catalog() as { schemes: { id: string; panels?: string[] }[] });
    expect(shows.has('nftl')).toBe(true);
    expect(shows.has('page')).toBe(false);
    const host = new SessionHost(
      async () => Trapping as unknown as SessionConstructor,
      undefined,
      undefined,
      () => __wbg_reset_state(),
      (scheme) => shows.has(scheme),
    );
    let id = 100;
    const create = async (scheme: string, seed: number) => {
      const chip = { preset: 'classroom', blocks: 64, pages_per_block: 8 };
      const r = await host.handle({ id: id++, type: 'create', scenario: { ...scenario(seed), scheme, chip } });
      if (!r.ok) throw new Error(r.error);
      return (r.result as CreateResult).sid;
    };
    const timeline = async (sid: number) => {
      const r = await host.handle({ id: id++, type: 'scheme_data', sid, bins: 50, upto: 500 });
      if (!r.ok) throw new Error(r.error);
      return (r.result as SchemeData).timeline;
    };
    const page = await create('page', 1);
    const nftl = await create('nftl', 2);
    const bad = await create('page', 13);
    for (const sid of [page, nftl])
      expect((await host.handle({ id: id++, type: 'run', sid, count: 120 })).ok).toBe(true);
    const before = { page: await timeline(page), nftl: await timeline(nftl) };
    expect(before.page?.n).toBe(0);
    expect(before.nftl?.n).toBe(120);

    const res = await host.handle({ id: id++, type: 'step_op', sid: bad });
    expect(!res.ok && res.error).toMatch(/restarted \(2 other open runs rebuilt/);
    // Rebuilt at request 120: page mapping records no timeline (its runs keep the closed
    // loop), NFTL's is the same as before the trap.
    expect(await timeline(page)).toEqual(before.page);
    expect(await timeline(nftl)).toEqual(before.nftl);
  });

  it('deep nesting is no trap: 20,000 nested groups parse, every call after works', () => {
    const deep = `${'('.repeat(20000)}w0${')x1'.repeat(20000)}`;
    for (let i = 0; i < 4; i++) expect(check_pattern(deep)).toEqual({ ok: true, requests: 1 });
    const s = new Session(JSON.stringify({ ...scenario(1), workload: { kind: 'pattern', text: deep } }));
    expect(s.total()).toBe(1);
    expect(check_pattern('('.repeat(100001)).message).toMatch(/nested more than 100000 deep/);
  });

  it('an object of the old instance is refused, not read from the new memory', () => {
    const s = new Session(JSON.stringify(scenario(1)));
    __wbg_reset_state();
    expect(() => s.step()).toThrow(/stale object/);
    expect(new Session(JSON.stringify(scenario(1))).total()).toBe(500);
  });
});

describe('trace_hash', () => {
  it('hashes a file slice by slice to the SHA-256 of the whole', async () => {
    const { createHash } = await import('node:crypto');
    const { Sha256Stream, TraceParser, trace_catalog, trace_preview } = await import('./pkg/ftlscope_wasm.js');
    const host = new SessionHost(
      async () => Session as unknown as SessionConstructor,
      async () => ({ TraceParser, Session, Sha256Stream, trace_catalog, trace_preview }),
    );
    const bytes = new Uint8Array(10_000_019).map((_, i) => (i * 7919) % 251);
    const file = new Blob([bytes]);
    let hex: unknown = null;
    let requests = 0;
    for (let offset = 0; hex === null; offset += 1 << 20, requests++) {
      const r = await host.handle({ id: requests, type: 'trace_hash', file, offset, length: 1 << 20 });
      if (!r.ok) throw new Error(r.error);
      hex = r.result;
    }
    expect(requests).toBe(10);
    expect(hex).toBe(createHash('sha256').update(bytes).digest('hex'));
  });
});
