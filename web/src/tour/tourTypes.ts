// The shape of a guided tour (tours.ts lists them; one .tour.json file per tour in tours/,
// read by tourFile.ts). Each stop
// is a moment of a scenario (after `step` requests and `op` flash operations of the next
// one), with narration, blocks to highlight and an optional quiz whose answer is shown at
// the next stop.
import type { Scenario } from '../scenario/model';
import type { Moment } from '../scenario/share';
import type { PredictKind } from './predict';

export interface Highlight {
  /** block role keys (palette.ts: 'log', 'sw-log', 'rw-log', 'data', 'primary', ...) */
  roles?: string[];
  /** blocks owned by these logical blocks */
  owners?: number[];
  /** blocks the revealed operations of the current request touched */
  touched?: boolean;
  /** these physical blocks (pbn), picked on the chip in the editor */
  blocks?: number[];
  /** these physical pages: [pbn, page in the block], picked on the chip in the editor */
  pages?: [number, number][];
}

export interface TourStop {
  title: string;
  at: Moment;
  /** a different scenario from this stop on (the tour's own otherwise) */
  scenario?: Scenario;
  text: string;
  highlight?: Highlight;
  /** asked at this stop; the answer appears at the next stop */
  quiz?: { question: string; answer: string };
  /**
   * "What happens next?" at this stop (Predict.tsx): the questions to ask about the next
   * request; the core answers them (Session.predict_next), so they cannot drift.
   */
  predict?: PredictKind[];
  /** metrics at this moment (dotted paths into metrics()), checked by tours.test.ts */
  expect?: Record<string, number>;
  /** pages in each state at this moment (page_states()), checked by tours.test.ts */
  pages?: Partial<Record<'erased' | 'valid' | 'invalid' | 'retractable' | 'metadata', number>>;
  /**
   * What the text says about single blocks at this moment, checked by tours.test.ts against
   * the core: the role key (palette.ts), the owning LBN, and the pages top to bottom, one
   * letter each (E erased, V valid, I invalid, R retractable, M metadata).
   */
  blocks?: { block: number; role?: string; owner?: number; pages?: string }[];
}

export interface Tour {
  id: string;
  title: string;
  summary: string;
  /** every scheme the tour runs: it is offered only when the core has them all */
  schemes: string[];
  scenario: Scenario;
  stops: TourStop[];
}
