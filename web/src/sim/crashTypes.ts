// Crash sweeps (issue 7) in a worker of their own (crashWorker.ts): what goes in and out
// (the core's crash::sweep through the thin wasm function crash_sweep, docs/session-api.md).

export interface SweepOptions {
  all?: boolean;
  every?: number;
  random?: number;
  seed?: number;
  recut?: boolean;
}

// The report and its summaries are the core's (generated from crash::SweepReport).
export type { SweepReport } from './generated/SweepReport';
export type { SweepSummary as Summary } from './generated/SweepSummary';
import type { SweepReport } from './generated/SweepReport';

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
