/// <reference lib="webworker" />
// The simulation worker: hosts wasm Sessions so the page never blocks.
import init, {
  Session,
  Sha256Stream,
  TraceParser,
  __wbg_reset_state,
  catalog,
  plan_runs,
  trace_catalog,
  trace_preview,
} from './pkg/ftlscope_wasm.js';
import { SessionHost, errorMessage, snapshotTransferables } from './host';
import { responseTimeSchemes } from './runAhead';
import { snapshotIn } from './patch';
import type { Request, Response, SessionConstructor } from './protocol';
import type { TraceCore } from './traceTypes';

declare const self: DedicatedWorkerGlobalScope;

let ready: Promise<SessionConstructor> | null = null;

function loadCore(): Promise<SessionConstructor> {
  if (!ready)
    ready = init().then(
      (): SessionConstructor => Session,
      (e: unknown) => {
        throw new Error(`could not load the simulator (WebAssembly): ${errorMessage(e)}`);
      },
    );
  return ready;
}

/** Schemes whose panels show each request's response time (read once, after init). */
let responseTimes: Set<string> | null = null;
const showsResponseTimes = (scheme: string) => (responseTimes ??= responseTimeSchemes(catalog())).has(scheme);

const host = new SessionHost(
  loadCore,
  () => loadCore().then((): TraceCore => ({ TraceParser, Session, Sha256Stream, trace_catalog, trace_preview })),
  () => loadCore().then(() => plan_runs),
  // After a trap: a fresh instance of the same module (scripts/build-wasm.mjs builds the
  // bindings with --experimental-reset-state-function).
  __wbg_reset_state,
  showsResponseTimes,
);

function transferablesOf(res: Response): Transferable[] {
  if (!res.ok || res.result === null || typeof res.result !== 'object') return [];
  const r = res.result;
  if ('markers' in r) {
    const m = r.markers;
    if (m instanceof Uint32Array && m.byteOffset === 0 && m.buffer instanceof ArrayBuffer) return [m.buffer];
  }
  const snap = snapshotIn(r);
  if (!snap) return [];
  const t = snapshotTransferables(snap);
  if (snap.pagePatch) t.push(snap.pagePatch.idx.buffer as ArrayBuffer, snap.pagePatch.val.buffer as ArrayBuffer);
  const d = snap.chipDelta;
  if (d)
    for (const a of [d.pages, d.states, d.lpns, d.blocks, d.roles, d.owners, d.eraseCounts])
      t.push(a.buffer as ArrayBuffer);
  return t;
}

// Requests are answered strictly in order: one command at a time.
let queue: Promise<void> = Promise.resolve();
/** Requests received and not yet answered. */
let waiting = 0;
/** Idle work, posted to ourselves behind any request already received (host.ts `idle`). */
const idle = new MessageChannel();
let idleFor: { req: Request; res: Response } | null = null;
/** The last move whose idle work has parts left: they go on after a request that moves nothing. */
let preparing: { req: Request; res: Response } | null = null;
idle.port1.onmessage = () => {
  const next = idleFor;
  idleFor = null;
  if (next && waiting === 0)
    queue = queue.then(async () => {
      // A part at a time (host.ts `idle`): the next goes behind any request that came meanwhile.
      const own = await host.idle(next.req, next.res);
      const of = own === null ? preparing : next;
      const more = own ?? (of !== null && (await host.idle(of.req, of.res)) === true);
      preparing = more ? of : null;
      if (more && waiting === 0) {
        idleFor = of;
        idle.port2.postMessage(null);
      }
    });
};

self.addEventListener('message', (ev: MessageEvent<Request>) => {
  const req = ev.data;
  waiting++;
  queue = queue.then(async () => {
    const res = await host.handle(req);
    waiting--;
    self.postMessage(res, transferablesOf(res));
    // Idle work (the next Back's state) once the answer is out, unless a request waits:
    // a message to ourselves, so a request that arrived meanwhile goes first.
    if (waiting === 0) {
      idleFor = { req, res };
      idle.port2.postMessage(null);
    }
  });
});
