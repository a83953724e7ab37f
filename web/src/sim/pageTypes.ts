// Worker commands for what the page used to ask a Session of its own (issue 36: no
// Session on the page): the prediction panel's answer and a printed tour stop's chip.

import type { Prediction } from './generated/Prediction';

/** The core's classification of the next request (Session.predict_next; generated type). */
export type { Prediction };

/** A scenario's moment, drawn on its own (a printed tour stop); `S` is protocol.ts's Snapshot (which imports this file). */
export interface StopSnapshot<S> {
  blocks: number;
  pagesPerBlock: number;
  snapshot: S;
}

export type PageCommand =
  /** the core's prediction for the request after `step` completed requests of `scenario` */
  | { type: 'predict'; scenario: unknown; step: number }
  /** `scenario` after `step` requests and `op` flash operations of the next one */
  | { type: 'stop_snapshot'; scenario: unknown; step: number; op: number };

export interface PageResultMap<S> {
  predict: Prediction;
  stop_snapshot: StopSnapshot<S>;
}

export const PAGE_COMMANDS: ReadonlySet<string> = new Set<PageCommand['type']>(['predict', 'stop_snapshot']);
