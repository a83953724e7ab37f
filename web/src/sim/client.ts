// The page-side client of the simulation worker: typed, promise-based, one pending
// promise per request id. The Worker is injected so tests can pass a fake.
import type {
  Command,
  CreateResult,
  Request,
  Response,
  ResultMap,
  RunResult,
  SeriesPoint,
  RunAheadResult,
  RunLog,
  Snapshot,
  StepResult,
  Plan,
  Thumb,
  LatencyHistogram,
} from './protocol';
import type { Scenario } from './scenarioTypes';
import { ChipBase, LEAN_PAGES, PatchBase, snapshotIn } from './patch';

/** The part of the Worker interface the client uses. */
export interface WorkerEventLike {
  data?: unknown;
  message?: string;
  preventDefault?(): void;
}

export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (ev: WorkerEventLike) => void): void;
  terminate(): void;
}

export class SimError extends Error {
  constructor(
    message: string,
    readonly command: string,
  ) {
    super(message);
    this.name = 'SimError';
  }
}

interface Pending {
  command: string;
  sid?: number;
  resolve: (value: unknown) => void;
  reject: (reason: Error) => void;
}

type CommandOf<T extends Command['type']> = Extract<Command, { type: T }>;
type Args<T extends Command['type']> = Omit<CommandOf<T>, 'type'>;

export class SimClient {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private closed: Error | null = null;
  private pages = new PatchBase();
  private chips = new ChipBase();

  constructor(private readonly worker: WorkerLike) {
    worker.addEventListener('message', (ev) => this.onMessage(ev.data as Response));
    worker.addEventListener('error', (ev) => {
      ev.preventDefault?.();
      this.failAll(new Error(`the simulation worker failed: ${ev.message || 'unknown error'}`));
    });
    worker.addEventListener('messageerror', () => {
      this.failAll(new Error('the simulation worker sent a message that could not be read'));
    });
  }

  /** Number of requests still waiting for an answer. */
  get inFlight(): number {
    return this.pending.size;
  }

  request<T extends Command['type']>(type: T, args: Args<T>): Promise<ResultMap[T]> {
    if (this.closed) return Promise.reject(this.closed);
    const id = this.nextId++;
    const message = { ...args, type, id } as Request;
    return new Promise<ResultMap[T]>((resolve, reject) => {
      const sid = (args as { sid?: unknown }).sid;
      this.pending.set(id, {
        command: type,
        sid: typeof sid === 'number' ? sid : undefined,
        resolve: resolve as (v: unknown) => void,
        reject,
      });
      try {
        this.worker.postMessage(message);
      } catch (e) {
        this.pending.delete(id);
        reject(new SimError(`could not send ${type}: ${(e as Error).message}`, type));
      }
    });
  }

  create(scenario: Scenario): Promise<CreateResult> {
    return this.request('create', { scenario });
  }
  dispose(sid: number): Promise<null> {
    return this.request('dispose', { sid }).finally(() => {
      this.pages.forget(sid);
      this.chips.forget(sid);
    });
  }
  snapshot(sid: number): Promise<Snapshot> {
    return this.request('snapshot', { sid });
  }
  stepOp(sid: number): Promise<StepResult> {
    return this.request('step_op', { sid });
  }
  stepRequest(sid: number): Promise<StepResult> {
    return this.request('step_request', { sid });
  }
  backOp(sid: number): Promise<StepResult> {
    return this.request('back_op', { sid });
  }
  seek(sid: number, step: number): Promise<StepResult> {
    return this.request('seek', { sid, step });
  }
  advance(sid: number, unit: 'op' | 'request', count: number): Promise<StepResult> {
    return this.request('advance', { sid, unit, count });
  }

  goto(sid: number, step: number, ops: number): Promise<StepResult> {
    return this.request('goto', { sid, step, ops });
  }
  run(sid: number, count: number): Promise<RunResult> {
    return this.request('run', { sid, count });
  }
  series(sid: number): Promise<SeriesPoint[]> {
    return this.request('series', { sid });
  }
  runLog(sid: number): Promise<RunLog> {
    return this.request('run_log', { sid });
  }
  /** Up to `count` requests; with `ms`, stops once that long has passed (protocol.ts). */
  runAhead(sid: number, count: number, ms?: number): Promise<RunAheadResult> {
    return this.request('run_ahead', ms === undefined ? { sid, count } : { sid, count, ms });
  }
  /** compare / sweep: each run's chip and workload space, planned alone (the core's plan_runs);
   * `space` > 0: that workload space for every run (one request list across runs) */
  plan(runs: unknown[], fit: string, need: number, space = 0): Promise<Plan> {
    return this.request('plan', { runs, fit, need, space });
  }
  /** compare: the grid of a run at `step` (no events, tables or LPNs) */
  thumb(sid: number, step: number, cells?: number): Promise<Thumb> {
    return this.request('thumb', { sid, step, cells });
  }
  /** the latency histogram at the moment shown */
  latency(sid: number): Promise<LatencyHistogram> {
    return this.request('latency', { sid });
  }

  /** Reject everything pending and refuse new requests. */
  close(reason = 'the simulation client was closed'): void {
    this.failAll(new Error(reason));
    this.worker.terminate();
  }

  private onMessage(res: Response): void {
    if (!res || typeof res.id !== 'number') return;
    const p = this.pending.get(res.id);
    if (res.ok) this.rebuildPages(p, res.result);
    if (!p) return; // late answer to something already failed
    this.pending.delete(res.id);
    if (res.ok) p.resolve(res.result);
    else p.reject(new SimError(res.error, p.command));
  }

  /** Huge chips: rebuild page states from a patch, or remember a full array as the next base. */
  private rebuildPages(p: Pending | undefined, result: unknown): void {
    const snap = snapshotIn(result);
    // `create` answers with its new Session's id beside the snapshot.
    const created =
      result && typeof result === 'object' && 'sid' in result && 'snapshot' in result ? result.sid : undefined;
    const sid = typeof created === 'number' ? created : p?.sid;
    if (!snap || typeof snap !== 'object' || sid === undefined) return;
    if (snap.chipDelta) {
      // Snapshots by change (issue 26): the worker sent what the move changed.
      const d = snap.chipDelta;
      delete snap.chipDelta;
      const from = this.chips.current(sid);
      // Nothing changed (Run to end's return to the moment shown): the arrays the page
      // holds, as they are, so nothing drawn from them (4 M pages) is derived again.
      const none = d.pages.length === 0 && d.blocks.length === 0 && Object.keys(d.ownerSets ?? {}).length === 0;
      const next = none ? from : this.chips.apply(sid, d);
      if (!next || !from) return;
      Object.assign(snap, next);
      if (!next.ownerSets) delete snap.ownerSets;
      snap.changed = { blocks: d.blocks, from: from.pageStates };
    } else if (snap.pagePatch) {
      snap.pageStates = this.pages.apply(sid, snap.pagePatch);
      delete snap.pagePatch;
    } else if (snap.pageStates instanceof Uint8Array && snap.pageStates.length > LEAN_PAGES) {
      this.pages.full(sid, snap.pageStates);
      this.chips.full(sid, snap);
    }
  }

  private failAll(err: Error): void {
    this.closed = err;
    for (const [, p] of this.pending) p.reject(new SimError(err.message, p.command));
    this.pending.clear();
  }
}

/** The real thing: a module worker hosting the wasm core. */
export function createSimClient(): SimClient {
  const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'ftlscope-sim' });
  return new SimClient(worker);
}
