import { createHash } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { SimClient, type WorkerLike } from '../sim/client';
import { SessionHost } from '../sim/host';
import type { Request } from '../sim/protocol';
import type { TraceCore } from './types';
import { CHUNK_BYTES, Cancelled, FIRST_CHUNK_BYTES, hashUpload, parseUpload } from './upload';

/** A TraceParser stand-in that counts what it was fed. */
class FakeParser {
  static made: FakeParser[] = [];
  bytes = 0;
  chunks = 0;
  freed = false;
  constructor(readonly options: string) {
    FakeParser.made.push(this);
  }
  feed(b: Uint8Array) {
    this.bytes += b.length;
    this.chunks++;
    return {
      bytes: this.bytes,
      lines: 0,
      records: 0,
      requests: 0,
      bad_lines: 0,
      format: 'pattern',
      failed: false,
    };
  }
  finish() {
    return { ok: true, summary: { requests: this.bytes } };
  }
  fit() {
    return { ok: false, message: 'no' };
  }
  free() {
    this.freed = true;
  }
}

/** A Sha256Stream stand-in: the digest is the number of bytes hashed. */
class FakeSha {
  n = 0;
  update(b: Uint8Array) {
    this.n += b.length;
  }
  hex() {
    return String(this.n);
  }
  free() {}
}

const core = {
  TraceParser: FakeParser,
  Sha256Stream: FakeSha,
  trace_catalog: () => ({ formats: [], generators: [] }),
} as unknown as TraceCore;

function client(onRequest?: (r: Request) => void) {
  const host = new SessionHost(
    async () => {
      throw new Error('no sessions here');
    },
    async () => core,
  );
  const listeners: ((ev: { data?: unknown }) => void)[] = [];
  const worker: WorkerLike = {
    postMessage: (m) => {
      onRequest?.(m as Request);
      void host.handle(m as Request).then((r) => setTimeout(() => listeners.forEach((l) => l({ data: r })), 0));
    },
    addEventListener: (t, l) => {
      if (t === 'message') listeners.push(l);
    },
    terminate: () => undefined,
  };
  return { c: new SimClient(worker), host };
}

describe('parseUpload', () => {
  it('feeds the file chunk by chunk, reports progress and finishes', async () => {
    const { c, host } = client();
    const file = new Blob([new Uint8Array(10_000)]);
    const fractions: number[] = [];
    const out = await parseUpload(c, file, { page_bytes: 512 }, (f) => fractions.push(f), undefined, 3000);
    const p = FakeParser.made.at(-1)!;
    expect(p.chunks).toBe(4);
    expect(p.bytes).toBe(10_000);
    expect(JSON.parse(p.options)).toEqual({ page_bytes: 512 });
    expect(fractions.at(-1)).toBe(1);
    expect(out.result).toEqual({ ok: true, summary: { requests: 10_000 } });
    expect(host.traces.open).toBe(1);
  });

  it('asks for a small first chunk, read from the open on, then whole chunks read ahead', async () => {
    // Issue 37, item 6: the parse starts after a short read, while the next chunk is read.
    const asked: Request[] = [];
    const { c } = client((r) => {
      if (r.type === 'trace_open' || r.type === 'trace_feed') asked.push(r);
    });
    const file = new Blob([new Uint8Array(FIRST_CHUNK_BYTES + 2 * CHUNK_BYTES + 5)]);
    const fractions: number[] = [];
    await parseUpload(c, file, {}, (f) => fractions.push(f));
    const p = FakeParser.made.at(-1)!;
    expect(p.bytes).toBe(file.size);
    expect(asked.map((r) => [r.type, 'offset' in r ? r.offset : null, 'length' in r ? r.length : null])).toEqual([
      ['trace_open', null, null],
      ['trace_feed', 0, FIRST_CHUNK_BYTES],
      ['trace_feed', FIRST_CHUNK_BYTES, CHUNK_BYTES],
      ['trace_feed', FIRST_CHUNK_BYTES + CHUNK_BYTES, CHUNK_BYTES],
      ['trace_feed', FIRST_CHUNK_BYTES + 2 * CHUNK_BYTES, CHUNK_BYTES],
    ]);
    expect(asked[0]).toMatchObject({ first: FIRST_CHUNK_BYTES });
    for (const r of asked.slice(1)) expect(r).toMatchObject({ next: CHUNK_BYTES });
    expect(fractions).toEqual([
      0,
      FIRST_CHUNK_BYTES / file.size,
      (FIRST_CHUNK_BYTES + CHUNK_BYTES) / file.size,
      (FIRST_CHUNK_BYTES + 2 * CHUNK_BYTES) / file.size,
      1,
    ]);
  });

  it('asks for the next chunk before the one in the worker is answered', async () => {
    // Issue 37, item 6: the worker goes on to the next feed without a round trip through the page.
    const events: string[] = [];
    const { c } = client((r) => {
      if (r.type === 'trace_feed') events.push(`ask ${r.offset}`);
    });
    const file = new Blob([new Uint8Array(10_000)]);
    await parseUpload(c, file, {}, (f) => f > 0 && events.push(`answer ${Math.round(f * 10_000)}`), undefined, 3000);
    expect(events).toEqual([
      'ask 0',
      'ask 3000',
      'answer 3000',
      'ask 6000',
      'answer 6000',
      'ask 9000',
      'answer 9000',
      'answer 10000',
    ]);
    expect(FakeParser.made.at(-1)!.bytes).toBe(10_000);
  });

  it('stops feeding on cancel and drops the parser', async () => {
    const ac = new AbortController();
    const seen: string[] = [];
    const { c, host } = client((r) => {
      seen.push(r.type);
      if (r.type === 'trace_feed' && seen.filter((t) => t === 'trace_feed').length === 2) ac.abort();
    });
    const file = new Blob([new Uint8Array(100_000)]);
    await expect(parseUpload(c, file, {}, () => undefined, ac.signal, 1000)).rejects.toBeInstanceOf(Cancelled);
    await new Promise((r) => setTimeout(r, 10));
    expect(seen.filter((t) => t === 'trace_feed').length).toBe(2);
    expect(seen).toContain('trace_drop');
    expect(seen).not.toContain('trace_finish');
    expect(FakeParser.made.at(-1)!.freed).toBe(true);
    expect(host.traces.open).toBe(0);
  });

  it('hashes the file after the parse in progress, not between its chunks', async () => {
    const seen: string[] = [];
    const { c } = client((r) => seen.push(r.type));
    const file = new Blob([new Uint8Array(10_000)]);
    const parse = parseUpload(c, file, {}, () => undefined, undefined, 1000);
    const digest = hashUpload(c, file, 3000);
    await parse;
    // One request, by the platform's SHA-256 (Node's crypto.subtle here), not the core's.
    expect(await digest).toBe(createHash('sha256').update(new Uint8Array(10_000)).digest('hex'));
    const finish = seen.indexOf('trace_finish');
    expect(seen.filter((t) => t === 'trace_feed').length).toBe(10);
    expect(seen.filter((t) => t === 'trace_hash').length).toBe(1);
    expect(seen.findIndex((t) => t === 'trace_hash')).toBeGreaterThan(finish);
  });

  it('hashes slice by slice in the core where the platform has no SHA-256, or the file is large', async () => {
    const file = new Blob([new Uint8Array(10_000)]);
    for (const [subtle, wholeBytes, asked] of [
      [false, 10_000, 5],
      [true, 9_999, 4],
    ] as const) {
      if (!subtle) vi.stubGlobal('crypto', {});
      try {
        const seen: Request[] = [];
        const { c } = client((r) => seen.push(r));
        const parse = parseUpload(c, file, {}, () => undefined, undefined, 1000);
        const digest = hashUpload(c, file, 3000, wholeBytes);
        await parse;
        expect(await digest).toBe('10000');
        const hashes = seen.filter((r) => r.type === 'trace_hash');
        expect(hashes.length).toBe(asked);
        // Without the platform's: the whole file asked first (answered null), then the slices from 0.
        expect(hashes.map((r) => ('whole' in r ? !!r.whole : false))).toEqual(
          [!subtle, false, false, false, false].slice(0, asked),
        );
        expect(hashes.filter((r) => !('whole' in r && r.whole)).map((r) => ('offset' in r ? r.offset : -1))).toEqual([
          0, 3000, 6000, 9000,
        ]);
      } finally {
        vi.unstubAllGlobals();
      }
    }
  });

  it('hashes after a parse started in the same turn, even when the hash was asked first', async () => {
    // The dialog's effects: the file's hash first, then the parse (trace/useTraceRead.ts).
    const seen: string[] = [];
    const { c } = client((r) => seen.push(r.type));
    const file = new Blob([new Uint8Array(10_000)]);
    const digest = hashUpload(c, file, 3000);
    const parse = parseUpload(c, file, {}, () => undefined, undefined, 1000);
    await parse;
    expect(await digest).toBe(createHash('sha256').update(new Uint8Array(10_000)).digest('hex'));
    expect(seen.findIndex((t) => t === 'trace_hash')).toBeGreaterThan(seen.indexOf('trace_finish'));
  });
});
