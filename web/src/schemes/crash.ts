// Crash sweeps (issue 7) in a worker: the core's crash::sweep through the thin wasm
// function crash_sweep (docs/session-api.md): cut power at chosen flash operations of the
// run, recover from the chip alone, verify against the reference model.

import {
  createCrashWorker,
  type CrashMessage,
  type CrashRequest,
  type SweepOptions,
  type SweepReport,
  type Summary,
} from '../sim/crashTypes';

export type { CrashMessage, CrashRequest, SweepOptions, SweepReport, Summary };

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
  makeWorker: () => Worker = createCrashWorker,
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
