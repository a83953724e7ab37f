/// <reference lib="webworker" />
// A worker of its own for the device view (own wasm instance, one DeviceSession): the
// simulation worker keeps its one-chip session. Each request is answered with the moment
// and every die's chip arrays (deviceTypes.ts).
import init, {
  DeviceSession,
  TraceParser,
  device_run,
  device_run_trace,
  device_stripe_for,
} from './pkg/ftlscope_wasm.js';
import type { DeviceReadProgress, DeviceReply, DeviceRequest, DieArrays, UploadedTrace } from './deviceTypes';
import { coreScenario } from './traceTypes';
import type { TraceError } from './generated/TraceError';

declare const self: DedicatedWorkerGlobalScope;

let session: DeviceSession | null = null;

function reply(s: DeviceSession, moved: boolean): DeviceReply {
  const dies: DieArrays[] = [];
  for (let d = 0; d < s.dies(); d++) {
    dies.push({
      pageStates: s.page_states(d),
      pageLpns: s.page_lpns(d),
      blockRoles: s.block_roles(d),
      eraseCounts: s.block_erase_counts(d),
      owners: s.block_owners(d),
    });
  }
  return { kind: 'moment', moment: s.moment(), dies, moved };
}

/** Bytes read from an uploaded file per chunk (as the simulation worker's upload). */
const CHUNK = 4 << 20;

/** The upload last read here (the shapes of one comparison share it), by parser id and options. */
let trace: { key: string; parser: TraceParser } | null = null;

/** Why a file could not be read, with its first bad lines' numbers (as the upload dialog lists them). */
function readError(e: TraceError): string {
  const lines = e.errors
    .slice(0, 3)
    .map((l) => `line ${l.line}${l.column ? `, column ${l.column}` : ''}: ${l.message}`);
  const more = e.bad_lines > lines.length ? `; ${e.bad_lines} bad lines in all` : '';
  return `the uploaded trace could not be read: ${e.message}${lines.length ? ` (${lines.join('; ')}${more})` : ''}`;
}

/** Set while a reader is held after its first chunk (`UploadedTrace.hold`, e2e only): lets it go on. */
let release: (() => void) | null = null;

/** The uploaded file read through this worker's own TraceParser (streamed, never whole in memory), with progress. */
async function parsedTrace(t: UploadedTrace): Promise<TraceParser> {
  const key = `${t.pid}:${JSON.stringify(t.options)}`;
  if (trace?.key === key) return trace.parser;
  trace?.parser.free();
  trace = null;
  const parser = new TraceParser(JSON.stringify(t.options));
  try {
    for (let offset = 0; offset < t.file.size; offset += CHUNK) {
      const p = parser.feed(new Uint8Array(await t.file.slice(offset, offset + CHUNK).arrayBuffer()));
      const bytes = Math.min(t.file.size, offset + CHUNK);
      self.postMessage({ kind: 'progress', bytes, size: t.file.size, lines: p.lines } satisfies DeviceReadProgress);
      if (t.hold && offset === 0) await new Promise<void>((go) => (release = go));
      if (p.failed || p.done) break;
    }
    const f = parser.finish();
    if (!f.ok) throw new Error(readError(f.error));
  } catch (e) {
    parser.free();
    throw e;
  }
  trace = { key, parser };
  return parser;
}

async function handle(r: DeviceRequest): Promise<DeviceReply> {
  if (r.kind === 'run' && r.trace) {
    const parser = await parsedTrace(r.trace);
    return { kind: 'run', json: device_run_trace(JSON.stringify(coreScenario(r.scenario)), r.space, parser) };
  }
  if (r.kind === 'open' && r.trace) return open(r, await parsedTrace(r.trace));
  return handleNow(r);
}

/** The device session of `r` (the one before it freed), on the uploaded trace `parser` read when given. */
function open(r: Extract<DeviceRequest, { kind: 'open' }>, parser: TraceParser | null): DeviceReply {
  session?.free();
  session = null;
  const { channels, diesPerChannel, stripe } = r.shape;
  session = parser
    ? DeviceSession.from_trace(JSON.stringify(coreScenario(r.scenario)), channels, diesPerChannel, stripe, parser)
    : new DeviceSession(JSON.stringify(r.scenario), channels, diesPerChannel, stripe);
  return reply(session, false);
}

function handleNow(r: DeviceRequest): DeviceReply {
  if (r.kind === 'open') return open(r, null);
  if (r.kind === 'run') return { kind: 'run', json: device_run(JSON.stringify(r.scenario), r.space) };
  if (r.kind === 'stripe')
    return { kind: 'stripe', stripe: device_stripe_for(r.scheme) === 'block' ? 'block' : 'page' };
  if (!session) return { kind: 'error', message: 'no device is open' };
  if (r.kind === 'step') return reply(session, session.step_op());
  if (r.kind === 'back') return reply(session, session.back_op());
  if (r.kind === 'cut') {
    session.power_cut();
    return reply(session, true);
  }
  if (r.kind === 'recover') {
    session.recover();
    return reply(session, true);
  }
  if (r.kind === 'recover_whole') {
    session.recover_whole();
    return reply(session, true);
  }
  if (r.kind === 'replay') {
    for (const m of r.moves) {
      if (m === 'cut') session.power_cut();
      else if (m === 'recover') session.recover();
      else if (m === 'recover_whole') session.recover_whole();
      else for (let i = 0; i < Math.abs(m); i++) void (m > 0 ? session.step_op() : session.back_op());
    }
    return reply(session, true);
  }
  session.goto(r.cursor);
  return reply(session, true);
}

let ready: Promise<unknown> | null = null;
let inOrder: Promise<void> = Promise.resolve();

self.addEventListener('message', (ev: MessageEvent<DeviceRequest | { kind: 'release' }>) => {
  if (ev.data.kind === 'release') {
    // Not queued: the request before it is the held one.
    release?.();
    release = null;
    return;
  }
  const r = ev.data;
  ready ??= init();
  const module = ready;
  // Requests are answered in order: each waits for the module and for the one before it
  // (reading an uploaded file is asynchronous).
  inOrder = inOrder.then(() =>
    module.then(
      async () => {
        let out: DeviceReply;
        try {
          out = await handle(r);
        } catch (e) {
          out = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
        }
        self.postMessage(out);
      },
      (e: unknown) => self.postMessage({ kind: 'error', message: String(e) } satisfies DeviceReply),
    ),
  );
});
