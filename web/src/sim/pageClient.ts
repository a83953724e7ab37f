// The page's side of the page commands (pageTypes.ts): features that have no client of
// their own (the prediction panel, the printed tour) ask the app's simulation worker
// through these; app/useStartup.ts registers the client it starts.
import type { SimClient } from './client';
import type { Snapshot } from './protocol';
import type { Prediction, StopSnapshot } from './pageTypes';

export type { Prediction };

let current: SimClient | null = null;

/** The app's worker client (null when it is closed). */
export function setAppClient(c: SimClient | null): void {
  current = c;
}

function client(): SimClient {
  if (!current) throw new Error('the simulator is not started');
  return current;
}

/** The core's prediction for the request after `step` completed requests of `scenario`. */
export async function predictNext(scenario: unknown, step: number): Promise<Prediction> {
  return client().request('predict', { scenario, step });
}

/** `scenario` after `step` requests and `op` flash operations of the next one. */
export async function stopSnapshot(scenario: unknown, step: number, op: number): Promise<StopSnapshot<Snapshot>> {
  return client().request('stop_snapshot', { scenario, step, op });
}
