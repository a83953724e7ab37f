// Page side of trace upload: stream a File through the worker's TraceParser chunk by
// chunk (each chunk one request, so the tab and the worker stay responsive), with
// progress and cancel. The file itself is sent to the worker once (a Blob is shared,
// not copied) and never leaves the browser.
import type { SimClient } from '../sim/client';
import { keepUpload } from './keptUploads';
import type { FinishResult, TraceOptions, TraceProgress } from './types';

export const CHUNK_BYTES = 4 << 20;
/**
 * The first chunk is small (issue 37, item 6): the parse starts after a short read, while the
 * browser reads the next 4 MB, and the part parsed before V8's optimised code is ready is short.
 */
export const FIRST_CHUNK_BYTES = 256 << 10;

/** Chip presets' page sizes (core-wasm nand/geometry.rs; checked against the core in trace.test.ts). */
export const PRESET_PAGE_BYTES: Record<string, number> = {
  classroom: 512,
  fast2007: 512,
  'rftl-small': 512,
  'rftl-large': 2048,
  fastcheck: 4096,
};

export interface ParseOutcome {
  pid: number;
  result: FinishResult;
  progress: TraceProgress | null;
}

export class Cancelled extends Error {
  constructor() {
    super('cancelled');
    this.name = 'Cancelled';
  }
}

/**
 * Parse `file` in the worker. Resolves with the parser id (keep it to fit and run; drop
 * it with `trace_drop`) and finish()'s result; rejects with `Cancelled` when `signal`
 * fires (the parser is dropped then).
 */
export function parseUpload(
  client: SimClient,
  file: Blob,
  options: TraceOptions,
  onProgress: (fraction: number, p: TraceProgress | null) => void,
  signal?: AbortSignal,
  chunkBytes = CHUNK_BYTES,
): Promise<ParseOutcome> {
  const read = readUpload(client, file, options, onProgress, signal, chunkBytes);
  reading = read.catch(() => undefined);
  return read;
}

/**
 * The parse in progress, if any: `hashUpload` waits for it before each slice. One worker
 * thread parses and hashes, and in wasm the SHA-256 costs about what the parse does
 * (issue 37: each about 190 MB of text per CPU second), so the summary comes first and
 * the digest after it.
 */
let reading: Promise<unknown> = Promise.resolve();

async function readUpload(
  client: SimClient,
  file: Blob,
  options: TraceOptions,
  onProgress: (fraction: number, p: TraceProgress | null) => void,
  signal: AbortSignal | undefined,
  chunkBytes: number,
): Promise<ParseOutcome> {
  const first = Math.min(FIRST_CHUNK_BYTES, chunkBytes);
  // The worker starts reading the first chunk at the open, and each next one during a feed.
  const { pid } = await client.request('trace_open', { file, options, first });
  keepUpload(pid, file, options);
  let progress: TraceProgress | null = null;
  const feed = (offset: number, length: number) => {
    const p = client.request('trace_feed', { pid, offset, length, next: chunkBytes });
    // A feed asked ahead and left unread (cancel, a failure) must not be an unhandled rejection.
    p.catch(() => undefined);
    return p;
  };
  try {
    onProgress(0, null);
    let asked = file.size > 0 && !signal?.aborted ? feed(0, first) : null;
    for (let offset = 0, length = first; asked; offset += length, length = chunkBytes) {
      // Two feeds in flight: the next is asked before this one is answered, so the worker
      // starts it as soon as this one is parsed, not a round trip through the page later
      // (the page may be busy drawing the progress). A parser stopped (failed, done) ignores it.
      const end = offset + length;
      const next = end < file.size && !signal?.aborted ? feed(end, chunkBytes) : null;
      progress = await asked;
      onProgress(Math.min(1, end / file.size), progress);
      if (progress.failed || progress.done || signal?.aborted) break;
      asked = next;
    }
    if (signal?.aborted) throw new Cancelled();
    const result = await client.request('trace_finish', { pid });
    return { pid, result, progress };
  } catch (e) {
    void client.request('trace_drop', { pid }).catch(() => undefined);
    throw e;
  }
}

/**
 * Files up to this size are hashed whole by the platform's SHA-256 (`trace_hash`'s `whole`),
 * which holds the file's bytes once while it hashes; larger ones slice by slice, so a 500 MB
 * upload's tab memory stays under twice the file (issue 37).
 */
export const WHOLE_DIGEST_BYTES = 128 << 20;

/**
 * SHA-256 of `file`, after the parse in progress (`reading`): by the platform's SHA-256 in
 * one request where it has one and the file is small enough, else in the worker's wasm slice
 * by slice (each slice one request, and the file never copied whole).
 */
export async function hashUpload(
  client: SimClient,
  file: Blob,
  chunkBytes = CHUNK_BYTES,
  wholeBytes = WHOLE_DIGEST_BYTES,
): Promise<string> {
  // A parse started in the same turn (the dialog's effects run one after the other, the
  // hash's first) still goes first: in Chromium the first slice alone took 0.3 s of the
  // worker before the parse could start (issue 37).
  await Promise.resolve();
  if (file.size <= wholeBytes) {
    await reading;
    const hex = await client.request('trace_hash', { file, offset: 0, length: file.size, whole: true });
    if (hex !== null) return hex;
  }
  for (let offset = 0; ; offset += chunkBytes) {
    await reading;
    const hex = await client.request('trace_hash', { file, offset, length: chunkBytes });
    if (hex !== null) return hex;
  }
}

export function formatBytes(n: number): string {
  if (n >= 1 << 30) return `${(n / (1 << 30)).toFixed(2)} GB`;
  if (n >= 1 << 20) return `${(n / (1 << 20)).toFixed(1)} MB`;
  if (n >= 1 << 10) return `${(n / (1 << 10)).toFixed(1)} KB`;
  return `${n} B`;
}
