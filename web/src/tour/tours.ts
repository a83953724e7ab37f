// Guided tours: plain data, one `.tour.json` file per tour in tours/ (tourFile.ts reads and
// checks them, as it does a teacher's own; docs/tours.md describes the format).
// The numbers in the text are the core's own: `expect` lists metrics at that moment, and
// tours.test.ts runs every stop through the real wasm core and checks them (counts from
// docs/schemes/*.md).
import type { Scenario } from '../scenario/model';
import type { DeviceShape } from '../sim/deviceTypes';
import type { Tour } from './tourTypes';
import { describeProblems, tourFromObject, tourToFile } from './tourFile';
import introFtl from './tours/intro-ftl.tour.json';
import bastThrashing from './tours/bast-thrashing.tour.json';
import fastAssociativity from './tours/fast-associativity.tour.json';
import fastMerges from './tours/fast-merges.tour.json';
import ofastLazy from './tours/ofast-lazy.tour.json';
import rftlBounded from './tours/rftl-bounded.tour.json';
import kraftK from './tours/kraft-k.tour.json';
import ltftlTimeShift from './tours/ltftl-time-shift.tour.json';
import fastcheckPowerCut from './tours/fastcheck-power-cut.tour.json';
import dftl from './tours/dftl.tour.json';
import ssdStriping from './tours/ssd-striping.tour.json';

export type { Highlight, Tour, TourStop } from './tourTypes';
/** The first tour: for students who have never seen an FTL (page mapping, greedy GC). */
export const INTRO_TOUR_ID = 'intro-ftl';

/** A built-in tour file, read through the same checks as a file a teacher opens. */
function builtin(raw: unknown): Tour {
  const { tour, problems } = tourFromObject(raw);
  if (!tour) throw new Error(`a built-in tour is broken: ${describeProblems(problems).join('; ')}`);
  return tour;
}

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
  dftl,
  ssdStriping,
].map(builtin);

/**
 * Tours opened in this tab (a file, a link): found by id before the built-in ones. Kept in
 * sessionStorage so a reload (whose address names the tour by id) finds them again; read
 * back through the same checks.
 */
const OWN = new Map<string, Tour>();
const OWN_KEY = 'ftlscope-own-tours';
try {
  const saved: unknown = JSON.parse(globalThis.sessionStorage?.getItem(OWN_KEY) ?? '[]');
  if (Array.isArray(saved))
    for (const raw of saved) {
      const { tour } = tourFromObject(raw);
      if (tour) OWN.set(tour.id, tour);
    }
} catch {
  // no storage, or not ours: the tab starts with no own tours
}

/** Make a checked tour (tourFile.ts, tourCheck.ts) startable by its id in this tab. */
export function addOwnTour(tour: Tour): void {
  OWN.set(tour.id, tour);
  try {
    globalThis.sessionStorage?.setItem(OWN_KEY, JSON.stringify([...OWN.values()].map(tourToFile)));
  } catch {
    // storage full or blocked: the tour lasts until the page is reloaded
  }
}

/** A tour opened, linked or written in this tab (not a built-in one). */
export function isOwnTour(id: string): boolean {
  return OWN.has(id);
}

export function tourById(id: string): Tour | undefined {
  return OWN.get(id) ?? TOURS.find((t) => t.id === id);
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

/**
 * The device a scenario runs on when it has several dies (issue 40: the device view, its
 * shape as the app carries it), else null (the one-chip view).
 */
export function scenarioDevice(s: Scenario): DeviceShape | null {
  const d = s.device;
  if (!d || d.channels * d.dies_per_channel < 2) return null;
  return { channels: d.channels, diesPerChannel: d.dies_per_channel, stripe: d.stripe };
}

/** The scenario the one-chip Session runs (the device view takes the shape apart). */
export function chipScenario(s: Scenario): Scenario {
  if (!s.device) return s;
  const { device: _d, ...rest } = s;
  return rest;
}

/** A stop on a device of several dies: its shape, `at.op` as the device's cursor. */
export function stopDevice(tour: Tour, index: number): DeviceShape | null {
  const shape = scenarioDevice(stopScenario(tour, index));
  return shape && { ...shape, cursor: tour.stops[index].at.op };
}

/** `s` on the device `d` (several dies), or on one chip (`d` null or one die). */
export function withDevice(s: Scenario, d: DeviceShape | null): Scenario {
  const chip = chipScenario(s);
  if (!d || d.channels * d.diesPerChannel < 2) return chip;
  return { ...chip, device: { channels: d.channels, dies_per_channel: d.diesPerChannel, stripe: d.stripe } };
}

/** The same scenario on the same device (the order of the fields aside for the device). */
export function sameScenario(a: Scenario, b: Scenario): boolean {
  const [da, db] = [scenarioDevice(a), scenarioDevice(b)];
  const key = (d: DeviceShape | null) => (d ? `${d.channels}x${d.diesPerChannel}/${d.stripe}` : '1');
  return key(da) === key(db) && JSON.stringify(chipScenario(a)) === JSON.stringify(chipScenario(b));
}
