// Crash sweeps (issue 7) in a worker of their own (crashWorker.ts): what goes in and out
// (the core's crash::sweep through the thin wasm function crash_sweep, docs/session-api.md).

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

/** A new crash-sweep worker (its own wasm instance: the simulation worker stays free). */
export function createCrashWorker(): Worker {
  return new Worker(new URL('./crashWorker.ts', import.meta.url), { type: 'module', name: 'ftlscope-crash' });
}
