// The page-side client of the simulation worker: typed, promise-based, one pending
// promise per request id. The Worker is injected so tests can pass a fake.
import type {
  Command,
  CreateResult,
  Request,
  Response,
  ResultMap,
  RunAheadResult,
  RunLog,
  Snapshot,
  StepResult,
} from './protocol';
import type { Scenario } from '../scenario/model';

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
  resolve: (value: unknown) => void;
  reject: (reason: Error) => void;
}

type CommandOf<T extends Command['type']> = Extract<Command, { type: T }>;
type Args<T extends Command['type']> = Omit<CommandOf<T>, 'type'>;

export class SimClient {
  private nextId = 1;
  private pending = new Map<number, Pending>();
  private closed: Error | null = null;

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
    const message = { ...args, type, id } as unknown as Request;
    return new Promise<ResultMap[T]>((resolve, reject) => {
      this.pending.set(id, { command: type, resolve: resolve as (v: unknown) => void, reject });
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
    return this.request('dispose', { sid });
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
  runLog(sid: number): Promise<RunLog> {
    return this.request('run_log', { sid });
  }
  runAhead(sid: number, count: number): Promise<RunAheadResult> {
    return this.request('run_ahead', { sid, count });
  }

  /** Reject everything pending and refuse new requests. */
  close(reason = 'the simulation client was closed'): void {
    this.failAll(new Error(reason));
    this.worker.terminate();
  }

  private onMessage(res: Response): void {
    if (!res || typeof res.id !== 'number') return;
    const p = this.pending.get(res.id);
    if (!p) return; // late answer to something already failed
    this.pending.delete(res.id);
    if (res.ok) p.resolve(res.result);
    else p.reject(new SimError(res.error, p.command));
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
  return new SimClient(worker as unknown as WorkerLike);
}
