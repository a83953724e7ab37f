// Guided tours: plain data, one file per tour in tours/ (tourTypes.ts has their shape).
// The numbers in the text are the core's own: `expect` lists metrics at that moment, and
// tours.test.ts runs every stop through the real wasm core and checks them (counts from
// docs/schemes/*.md).
import type { Scenario } from '../scenario/model';
import type { Tour } from './tourTypes';
import { introFtl, INTRO_TOUR_ID } from './tours/intro-ftl';
import { bastThrashing } from './tours/bast-thrashing';
import { fastAssociativity } from './tours/fast-associativity';
import { fastMerges } from './tours/fast-merges';
import { ofastLazy } from './tours/ofast-lazy';
import { rftlBounded } from './tours/rftl-bounded';
import { kraftK } from './tours/kraft-k';
import { ltftlTimeShift } from './tours/ltftl-time-shift';
import { fastcheckPowerCut } from './tours/fastcheck-power-cut';

export type { Highlight, Tour, TourStop } from './tourTypes';
export { INTRO_TOUR_ID };

/** Every tour, in the order the tour menu offers them. */
export const TOURS: Tour[] = [
  introFtl,
  bastThrashing,
  fastAssociativity,
  fastMerges,
  ofastLazy,
  rftlBounded,
  kraftK,
  ltftlTimeShift,
  fastcheckPowerCut,
];

export function tourById(id: string): Tour | undefined {
  return TOURS.find((t) => t.id === id);
}

/** Tours whose every scheme the core has. */
export function availableTours(hasScheme: (id: string) => boolean): Tour[] {
  return TOURS.filter((t) => t.schemes.every(hasScheme));
}

/** The scenario a stop runs: the last one named at or before it, else the tour's. */
export function stopScenario(tour: Tour, index: number): Scenario {
  for (let i = Math.min(index, tour.stops.length - 1); i >= 0; i--) {
    const s = tour.stops[i].scenario;
    if (s) return s;
  }
  return tour.scenario;
}
