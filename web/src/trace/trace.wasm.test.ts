/// <reference types="node" />
// The real wasm core (web/src/sim/pkg, built by scripts/build-wasm.mjs) under Node:
// the TraceParser as the worker drives it, Session.from_trace, and the worker host's
// trace and scheme-data commands end to end. (Was core-wasm/crates/wasm/tests/trace_parser.cjs.)
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Session,
  Sha256Stream,
  TraceParser,
  initSync,
  trace_catalog,
  trace_preview,
} from '../sim/pkg/ftlscope_wasm.js';
import { SessionHost } from '../sim/host';
import type { CreateResult, SessionConstructor } from '../sim/protocol';
import type { FinishResult, FitResult, TraceCore, TraceProgress } from './types';
import { PRESET_PAGE_BYTES } from './upload';
import type { SchemeData } from '../schemes/types';

const SHARED_TRACE = fileURLToPath(new URL('../../../../shared/traces/mqsim-tpcc-small.trace', import.meta.url));
const haveShared = existsSync(SHARED_TRACE);
if (!haveShared) console.warn(`SKIPPED the shared-trace checks: ${SHARED_TRACE} not found`);

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('../sim/pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const scenario = (fit: string) =>
  JSON.stringify({ scheme: 'page', chip: { preset: 'fastcheck', blocks: 10000 }, workload: { kind: 'trace', fit } });

function core(): TraceCore {
  return { TraceParser, Session, Sha256Stream, trace_catalog, trace_preview };
}

describe.skipIf(!haveShared)(
  `the shared MQSim trace${haveShared ? '' : ' (SKIPPED: ../shared/traces/mqsim-tpcc-small.trace not found)'}`,
  () => {
    it('parses in chunks, fits and runs with no wrong reads', () => {
      const bytes = readFileSync(SHARED_TRACE);
      const p = new TraceParser(JSON.stringify({ page_bytes: 4096, pages_per_block: 128 }));
      let progress: TraceProgress | null = null;
      for (let i = 0; i < bytes.length; i += 64 * 1024) progress = p.feed(bytes.subarray(i, i + 64 * 1024));
      expect(progress?.bytes).toBe(bytes.length);
      const done = p.finish() as FinishResult;
      expect(done.ok).toBe(true);
      if (!done.ok) return;
      const s = done.summary;
      expect([s.records, s.record_writes, s.record_reads]).toEqual([6999, 2618, 4381]);
      expect(s.sample.length).toBeGreaterThan(0);
      expect(s.sample.length).toBeLessThanOrEqual(1000);
      expect(s.devices.length).toBe(16);
      const none = p.fit(scenario('none'));
      expect(none.ok).toBe(false);
      if (!none.ok) expect(none.message).toMatch(/choose a fit: fold, compact or scale/);
      const fit = p.fit(scenario('compact'));
      expect(fit.ok && fit.summary.fit_touched > 0).toBe(true);
      const sess = Session.from_trace(scenario('compact'), p);
      expect(sess.total()).toBe(s.requests);
      sess.run(sess.total());
      const m = JSON.parse(sess.metrics());
      expect(m.requests).toBe(s.requests);
      expect(m.wrong_reads).toBe(0);
      sess.free();
      p.free();
    });

    it('runs through the worker host: open a Blob, feed chunks, finish, fit, create, step', async () => {
      const host = new SessionHost(
        async () => Session as unknown as SessionConstructor,
        async () => core(),
      );
      let id = 1;
      const call = async <T>(cmd: Record<string, unknown>): Promise<T> => {
        const res = await host.handle({ ...cmd, id: id++ } as never);
        if (!res.ok) throw new Error(res.error);
        return res.result as T;
      };
      const blob = new Blob([readFileSync(SHARED_TRACE)]);
      const { pid, size } = await call<{ pid: number; size: number }>({
        type: 'trace_open',
        file: blob,
        options: { page_bytes: 4096, device: '3' },
      });
      expect(size).toBe(blob.size);
      for (let off = 0; off < size; off += 50_000)
        await call<TraceProgress>({ type: 'trace_feed', pid, offset: off, length: 50_000 });
      const done = await call<FinishResult>({ type: 'trace_finish', pid });
      expect(done.ok).toBe(true);
      if (!done.ok) return;
      expect(done.summary.ignored.other_device).toBeGreaterThan(0);
      const sc = {
        scheme: 'page',
        params: {},
        chip: { preset: 'fastcheck', blocks: 64, pages_per_block: 128 },
        workload: { kind: 'trace', fit: 'fold', device: '3', name: 'tpcc', upload: pid },
      };
      const fit = await call<FitResult>({ type: 'trace_fit', pid, scenario: sc });
      expect(fit).toMatchObject({ ok: true });
      const created = await call<CreateResult>({ type: 'create', scenario: sc });
      expect(created.info.total_requests).toBe(done.summary.requests);
      await call({ type: 'advance', sid: created.sid, unit: 'request', count: 50 });
      const data = await call<SchemeData>({ type: 'scheme_data', sid: created.sid, bins: 10, upto: 50 });
      expect(data.timeline?.n).toBe(50);
      await call({ type: 'trace_drop', pid });
      expect(host.traces.open).toBe(0);
    });
  },
);

describe('TraceParser errors and the worker host (real core)', () => {
  it('reports bad lines with line and column, the empty file, bad options, the catalog', () => {
    const bad = new TraceParser('{}');
    bad.feed(new TextEncoder().encode('0,1,512,w,0\n0,2,512,x,0\n'));
    const r = bad.finish() as FinishResult;
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.errors[0]).toMatchObject({ line: 2, column: 9 });
    const empty = new TraceParser('{}');
    expect((empty.finish() as { error: { message: string } }).error.message).toBe('the file is empty');
    expect(() => new TraceParser('{"nope": 1}')).toThrow(/invalid trace options/);
    const cat = trace_catalog();
    expect(cat.formats.map((f: { name: string }) => f.name)).toEqual([
      'umass',
      'msr',
      'blkparse',
      'disksim',
      'csv',
      'pattern',
      'alibaba',
      'fiu',
      'oracle_general',
      'vscsi2',
      'vscsi',
      'addresses',
    ]);
    expect(cat.generators.some((g: { kind: string }) => g.kind === 'postmark')).toBe(true);
  });

  it('previews, maps columns and op values, and reads gzip (issue 17)', async () => {
    const text = 'stamp;kind;blk\n1;1;8\n2;0;8\n';
    const pv = trace_preview(new TextEncoder().encode(text), 5, true);
    expect(pv).toMatchObject({ format: 'csv', delimiter: ';', header: ['stamp', 'kind', 'blk'], guessed: [] });
    expect(pv.rows).toEqual([
      ['1', '1', '8'],
      ['2', '0', '8'],
    ]);
    const unmapped = new TraceParser('{}');
    unmapped.feed(new TextEncoder().encode(text));
    const e = unmapped.finish() as FinishResult;
    expect(!e.ok && e.error.message).toMatch(/^CSV header not understood.*1 stamp, 2 kind, 3 blk/);
    const mapping = {
      op: { column: 'kind' },
      address: { column: '3', unit: 'pages' },
      time: { column: 'stamp' },
      write_ops: ['1'],
      read_ops: ['0'],
    };
    const p = new TraceParser(JSON.stringify({ page_bytes: 4096, mapping }));
    p.feed(new TextEncoder().encode(text));
    const ok = p.finish() as FinishResult;
    expect(ok.ok && [ok.summary.writes, ok.summary.reads, ok.summary.min_page]).toEqual([1, 1, 8]);
    expect(ok.ok && ok.columns).toEqual([
      ['address', 'blk (pages)'],
      ['op', 'kind'],
      ['time', 'stamp'],
    ]);
    // gzip through CompressionStream (the browser's own), read by the core.
    const gz = new Uint8Array(
      await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer(),
    );
    const g = new TraceParser(JSON.stringify({ page_bytes: 4096, mapping }));
    for (let i = 0; i < gz.length; i += 5) g.feed(gz.subarray(i, i + 5));
    const gr = g.finish() as FinishResult;
    expect(gr.ok && gr.compression).toBe('gzip');
    expect(gr.ok && gr.summary.requests).toBe(2);
  });

  it('knows every chip preset’s page size', () => {
    for (const [preset, bytes] of Object.entries(PRESET_PAGE_BYTES)) {
      const s = new Session(
        JSON.stringify({ scheme: 'page', chip: { preset, blocks: 8 }, workload: { kind: 'sequential', n: 1 } }),
      );
      expect(s.info().chip.page_bytes, preset).toBe(bytes);
      s.free();
    }
  });

  it('RFTL timeline through the host: the worst response time is the bound L(p) = 2,325 µs', async () => {
    const host = new SessionHost(
      async () => Session as unknown as SessionConstructor,
      async () => core(),
    );
    const sc = {
      scheme: 'rftl',
      params: {},
      chip: { preset: 'rftl-large', blocks: 12 },
      workload: { kind: 'uniform', n: 1500, seed: 1, read_ratio: 0.2 },
    };
    const c = await host.handle({ id: 1, type: 'create', scenario: sc });
    expect(c.ok).toBe(true);
    const sid = (c as { result: CreateResult }).result.sid;
    await host.handle({ id: 2, type: 'advance', sid, unit: 'request', count: 1500 });
    const d = await host.handle({ id: 3, type: 'scheme_data', sid, bins: 100, upto: 1500 });
    const data = (d as { result: SchemeData }).result;
    expect(data.timeline?.n).toBe(1500);
    expect(data.timeline?.maxTotal).toBe(2325);
    expect(data.timeline?.maxGc).toBeGreaterThan(0);
    expect(data.histogram?.read.every(([us]) => us <= 50)).toBe(true);
    // Seeking back shows the timeline only up to the step asked for.
    const back = await host.handle({ id: 4, type: 'scheme_data', sid, bins: 100, upto: 10 });
    expect((back as { result: SchemeData }).result.timeline?.n).toBe(10);
  });

  it('an upload that was dropped cannot be run, with a readable message', async () => {
    const host = new SessionHost(
      async () => Session as unknown as SessionConstructor,
      async () => core(),
    );
    const res = await host.handle({
      id: 1,
      type: 'create',
      scenario: {
        scheme: 'page',
        chip: { preset: 'classroom' },
        workload: { kind: 'trace', fit: 'fold', name: 'x', upload: 42 },
      },
    });
    expect(res.ok).toBe(false);
    if (!res.ok) expect(res.error).toMatch(/upload the file again/);
  });
});

describe('the file digest (trace_hash) by the platform and by the core', () => {
  /** The digest of `file` through the worker host: whole by the platform's SHA-256, and slice by slice in wasm. */
  async function digests(file: Blob, slice: number) {
    const host = new SessionHost(
      async () => Session as unknown as SessionConstructor,
      async () => core(),
    );
    let id = 0;
    const hash = async (offset: number, length: number, whole?: boolean) => {
      const r = await host.handle({ id: id++, type: 'trace_hash', file, offset, length, whole });
      if (!r.ok) throw new Error(r.error);
      return r.result as string | null;
    };
    const platform = await hash(0, file.size, true);
    let wasm: string | null = null;
    for (let offset = 0; wasm === null; offset += slice) wasm = await hash(offset, slice);
    return { platform, wasm };
  }

  it('is the same hex both ways, for sizes around SHA-256 blocks and over several slices', async () => {
    const { createHash } = await import('node:crypto');
    let x = 99;
    for (const size of [0, 1, 15, 55, 56, 63, 64, 65, 119, 4096, 65_537, 3_000_001]) {
      // Bytes of every value, so each hex digit and a leading 0 of a byte occur.
      const bytes = new Uint8Array(size).map(() => (x = (x * 1103515245 + 12345) >>> 0) >>> 24);
      const { platform, wasm } = await digests(new Blob([bytes]), 1 << 20);
      expect(platform, `${size} bytes`).toBe(wasm);
      expect(wasm, `${size} bytes`).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('answers null without hashing where the platform has no SHA-256 (no crypto.subtle)', async () => {
    vi.stubGlobal('crypto', {});
    try {
      const bytes = new Uint8Array(70_000).map((_, i) => i % 253);
      const { platform, wasm } = await digests(new Blob([bytes]), 1 << 14);
      expect(platform).toBeNull();
      // The slices after it start from nothing hashed.
      const { createHash } = await import('node:crypto');
      expect(wasm).toBe(createHash('sha256').update(bytes).digest('hex'));
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
