// What a tour file needs the core for: each scenario the core can run (its scheme, chip and
// parameters: scenario/model.ts validateScenario) and every stop inside its workload (the
// core's pattern parser counts a pattern's requests). Built-in tours are checked against
// the running core by tours.test.ts; a file a teacher opens is checked here.
import { checkPattern } from '../scenario/core';
import { coreLoaded } from '../scenario/core';
import { validateScenario, type Scenario } from '../scenario/model';
import { peekPageCore } from '../sim/pageCore';
import { chipSpec } from '../sim/scenarioTypes';
import type { TourProblem } from './tourFile';
import { stopScenario } from './tours';
import type { Tour } from './tourTypes';

/** Requests in a scenario's workload, or undefined when only the Session can tell. */
export function workloadRequests(s: Scenario): number | undefined {
  const w = s.workload;
  if (w.kind === 'pattern') return checkPattern(w.text)?.requests ?? undefined;
  if (w.kind === 'trace') return undefined;
  return w.n;
}

/** A scenario's chip: blocks and pages a block (the preset's unless the scenario sets them). */
export function chipSize(s: Scenario): { blocks: number; ppb: number } | undefined {
  const spec = chipSpec(s.chip.preset);
  const blocks = s.chip.blocks ?? spec?.blocks;
  const ppb = s.chip.pages_per_block ?? spec?.pages_per_block;
  return blocks === undefined || ppb === undefined ? undefined : { blocks, ppb };
}

/** Problems only the core can see; empty when the core is not loaded yet. */
export function tourCoreProblems(tour: Tour): TourProblem[] {
  if (!coreLoaded()) return [];
  const out: TourProblem[] = [];
  const scenarios: [string, Scenario][] = [['scenario', tour.scenario]];
  tour.stops.forEach((s, i) => s.scenario && scenarios.push([`stops[${i}].scenario`, s.scenario]));
  for (const [path, s] of scenarios) {
    for (const message of validateScenario(s)) out.push({ path, message });
    // A scheme that maps logical blocks keeps each one whole on a die (the core's
    // device_stripe_for; the device fields say the same: device/DeviceFields.tsx).
    const d = s.device;
    if (d && d.channels * d.dies_per_channel > 1 && d.stripe === 'page')
      if (peekPageCore()?.device_stripe_for(s.scheme) === 'block')
        out.push({
          path: `${path}.device.stripe`,
          message: `${s.scheme} maps logical blocks: each must stay whole on one die, so it needs "block" striping`,
        });
  }
  if (out.length) return out;
  tour.stops.forEach((stop, i) => {
    // Picked blocks and pages must be on the stop's chip.
    const chip = chipSize(stopScenario(tour, i));
    const h = stop.highlight;
    if (chip && h) {
      h.blocks?.forEach((b, j) => {
        if (b >= chip.blocks)
          out.push({
            path: `stops[${i}].highlight.blocks[${j}]`,
            message: `no block ${b}: the chip has ${chip.blocks}`,
          });
      });
      h.pages?.forEach(([b, p], j) => {
        if (b >= chip.blocks || p >= chip.ppb)
          out.push({
            path: `stops[${i}].highlight.pages[${j}]`,
            message: `no page ${p} of block ${b}: the chip has ${chip.blocks} blocks of ${chip.ppb} pages`,
          });
      });
    }
    const total = workloadRequests(stopScenario(tour, i));
    if (total !== undefined && stop.at.step > total)
      out.push({
        path: `stops[${i}].at.step`,
        message: `request ${stop.at.step} is beyond the workload (${total} requests)`,
      });
    else if (total !== undefined && stop.at.step === total && stop.at.op > 0)
      out.push({
        path: `stops[${i}].at.op`,
        message: 'the workload has ended: no request follows to take operations of',
      });
  });
  return out;
}
