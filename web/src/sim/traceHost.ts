// Worker side of trace upload: holds each uploaded file (a Blob, never copied to the
// page again) and its wasm TraceParser; the page drives the chunk loop, so every chunk
// is one request and cancel is simply "stop asking, then trace_drop".
import type { Session, Sha256Stream, TraceParser } from './pkg/ftlscope_wasm';
import type { TraceCommand, TraceCore, TraceResultMap } from './traceTypes';
import { coreScenario, isUploadWorkload } from './traceTypes';

interface Upload {
  file: Blob;
  parser: TraceParser;
  finished: boolean;
  /** The next chunk, being read while this one is parsed (`trace_feed`). */
  ahead: { offset: number; length: number; bytes: Promise<ArrayBuffer> } | null;
}

/** Bytes `offset..offset + length` of `file` (clamped by Blob.slice). */
function readSlice(file: Blob, offset: number, length: number): Promise<ArrayBuffer> {
  return file.slice(offset, offset + length).arrayBuffer();
}

/** A chunk's length as asked, clamped to 0..MAX_CHUNK. */
function chunkLength(n: number): number {
  return Math.max(0, Math.min(MAX_CHUNK, Math.floor(n)));
}

/** Starts reading `offset..offset + length` of `file` for a trace_feed to come (null past the end). */
function readAhead(file: Blob, offset: number, length: number): Upload['ahead'] {
  if (offset >= file.size || length <= 0) return null;
  const bytes = readSlice(file, offset, length);
  // A read the next request never collects must not be an unhandled rejection.
  bytes.catch(() => undefined);
  return { offset, length, bytes };
}

/**
 * SHA-256 of `file` by the platform (`crypto.subtle`: the browser's own SHA-256, with the CPU's
 * SHA instructions where it has them, run off the worker's thread), in lower-case hex; null
 * where there is none (`crypto.subtle` exists only in secure contexts). The file is read
 * whole: the page asks this only of files up to `WHOLE_DIGEST_BYTES` (trace/upload.ts). In
 * wasm the SHA-256 has no such instructions: 64 MB cost the worker about as much CPU as the
 * parse, after the summary (issue 37, item 6).
 */
async function wholeDigest(file: Blob): Promise<string | null> {
  const subtle = globalThis.crypto?.subtle;
  if (!subtle) return null;
  const digest = new Uint8Array(await subtle.digest('SHA-256', await file.arrayBuffer()));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Bytes read for a preview (decompressed further if the file is compressed). */
export const PREVIEW_BYTES = 64 << 10;

/** Largest chunk the page may ask for in one trace_feed. */
export const MAX_CHUNK = 16 << 20;

export class TraceHost {
  private uploads = new Map<number, Upload>();
  /** SHA-256 in progress per file (`trace_hash`). */
  private hashes = new WeakMap<Blob, Sha256Stream>();
  private nextPid = 1;

  constructor(private readonly getCore: () => Promise<TraceCore>) {}

  /** The core was re-instantiated: every parser is gone with its memory. */
  reset(): void {
    this.uploads.clear();
    this.hashes = new WeakMap();
  }

  get open(): number {
    return this.uploads.size;
  }

  private upload(pid: number): Upload {
    const u = this.uploads.get(pid);
    if (!u) throw new Error(`no uploaded trace ${pid} (it was closed); upload the file again`);
    return u;
  }

  async handle<T extends TraceCommand['type']>(cmd: Extract<TraceCommand, { type: T }>): Promise<TraceResultMap[T]>;
  async handle(cmd: TraceCommand): Promise<unknown> {
    switch (cmd.type) {
      case 'trace_open': {
        // The first chunk's read starts now, not when its trace_feed arrives (issue 37, item 6).
        const ahead = readAhead(cmd.file, 0, chunkLength(cmd.first ?? 0));
        const core = await this.getCore();
        const parser = new core.TraceParser(JSON.stringify(cmd.options ?? {}));
        const pid = this.nextPid++;
        this.uploads.set(pid, { file: cmd.file, parser, finished: false, ahead });
        return { pid, size: cmd.file.size };
      }
      case 'trace_feed': {
        const u = this.upload(cmd.pid);
        const length = chunkLength(cmd.length);
        // The page asks for the chunks in order: read the next one while this one is parsed,
        // so the browser's file read overlaps the parse instead of preceding it (issue 37,
        // item 6). An out-of-order request just reads its own chunk.
        const a = u.ahead;
        u.ahead = null;
        const bytes =
          a && a.offset === cmd.offset && a.length === length ? a.bytes : readSlice(u.file, cmd.offset, length);
        const chunk = new Uint8Array(await bytes);
        if (length > 0) u.ahead = readAhead(u.file, cmd.offset + length, chunkLength(cmd.next ?? length));
        return u.parser.feed(chunk);
      }
      case 'trace_finish': {
        const u = this.upload(cmd.pid);
        u.finished = true;
        return u.parser.finish();
      }
      case 'trace_fit':
        return this.upload(cmd.pid).parser.fit(JSON.stringify(coreScenario(cmd.scenario)));
      case 'trace_drop': {
        this.uploads.get(cmd.pid)?.parser.free();
        this.uploads.delete(cmd.pid);
        return null;
      }
      case 'trace_catalog':
        return (await this.getCore()).trace_catalog();
      case 'trace_hash': {
        if (cmd.whole) return wholeDigest(cmd.file);
        // One slice per request (the page drives the loop, so hashing interleaves with
        // parsing) into the core's SHA-256: never the whole file in memory.
        const core = await this.getCore();
        let h = this.hashes.get(cmd.file);
        if (cmd.offset === 0 || !h) {
          h?.free();
          h = new core.Sha256Stream();
          this.hashes.set(cmd.file, h);
        }
        const end = cmd.offset + Math.max(1, Math.min(MAX_CHUNK, Math.floor(cmd.length)));
        h.update(new Uint8Array(await readSlice(cmd.file, cmd.offset, end - cmd.offset)));
        if (end < cmd.file.size) return null;
        this.hashes.delete(cmd.file);
        const hex = h.hex();
        h.free();
        return hex;
      }
      case 'trace_preview': {
        const core = await this.getCore();
        const whole = cmd.file.size <= PREVIEW_BYTES;
        const head = new Uint8Array(await cmd.file.slice(0, PREVIEW_BYTES).arrayBuffer());
        return core.trace_preview(head, Math.max(1, Math.min(50, cmd.rows)), whole);
      }
    }
  }

  /** A Session for a scenario whose workload is an upload (`isUploadWorkload`). */
  async session(scenario: unknown): Promise<Session> {
    const w = (scenario as { workload?: unknown }).workload;
    if (!isUploadWorkload(w)) throw new Error('not an uploaded trace scenario');
    const u = this.upload(w.upload);
    if (!u.finished) throw new Error('the trace is still being read');
    const core = await this.getCore();
    return core.Session.from_trace(JSON.stringify(coreScenario(scenario)), u.parser);
  }
}

export const TRACE_COMMANDS = new Set<string>([
  'trace_open',
  'trace_feed',
  'trace_finish',
  'trace_fit',
  'trace_drop',
  'trace_catalog',
  'trace_preview',
  'trace_hash',
]);
