// Crash sweeps (issue 7) in a worker: the core's crash::sweep through the thin wasm
// function crash_sweep (docs/session-api.md): cut power at chosen flash operations of the
// run, recover from the chip alone, verify against the reference model.

export interface SweepOptions {
  all?: boolean;
  every?: number;
  random?: number;
  seed?: number;
  recut?: boolean;
}

export interface Summary {
  min: number;
  mean: number;
  p99: number;
  max: number;
}

export interface SweepReport {
  scheme: string;
  run_ops: number;
  points_tried: number;
  recovered_correctly: number;
  acked_writes_lost: number;
  wrong_reads: number;
  torn_mapped: number;
  errors: number;
  recut_points: number;
  recovery_pages_read: Summary;
  recovery_us: Summary;
  first_failures: string[];
}

export interface CrashRequest {
  scenario: unknown;
  options: SweepOptions;
}

export type CrashMessage =
  | { kind: 'progress'; done: number; total: number }
  | { kind: 'done'; report: SweepReport }
  | { kind: 'error'; message: string };

export function verdict(r: SweepReport): { ok: boolean; text: string } {
  if (r.points_tried === 0) return { ok: false, text: 'No cut point was tried (the run has no flash operations).' };
  const bad = r.points_tried - r.recovered_correctly;
  if (bad === 0)
    return { ok: true, text: `All ${r.points_tried.toLocaleString('en-US')} power cuts recovered correctly.` };
  return {
    ok: false,
    text: `${bad.toLocaleString('en-US')} of ${r.points_tried.toLocaleString('en-US')} power cuts did not recover correctly.`,
  };
}

export interface SweepHandle {
  cancel(): void;
}

/** Run a sweep in a new worker; `cancel` terminates it at once. */
export function runSweep(
  req: CrashRequest,
  on: (m: CrashMessage) => void,
  makeWorker: () => Worker = defaultWorker,
): SweepHandle {
  const w = makeWorker();
  let finished = false;
  w.addEventListener('message', (ev: MessageEvent<CrashMessage>) => {
    on(ev.data);
    if (ev.data.kind !== 'progress') {
      finished = true;
      w.terminate();
    }
  });
  w.addEventListener('error', (ev) => {
    ev.preventDefault();
    if (!finished) on({ kind: 'error', message: `the crash-test worker failed: ${ev.message || 'unknown error'}` });
    finished = true;
    w.terminate();
  });
  w.postMessage(req);
  return {
    cancel() {
      finished = true;
      w.terminate();
    },
  };
}

function defaultWorker(): Worker {
  return new Worker(new URL('./crashWorker.ts', import.meta.url), { type: 'module', name: 'ftlscope-crash' });
}
