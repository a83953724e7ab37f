import { describe, expect, it } from 'vitest';
import { hasScheme, validateScenario } from '../scenario/model';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import { roleStyle } from '../viz/palette';
import { TOURS, availableTours, chipScenario, stopDevice, stopScenario, tourById } from './tours';

const core = loadNodeCore();

function get(m: unknown, path: string): unknown {
  let cur = m;
  for (const k of path.split('.'))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

/** A stop's `expect`: every path of `m` (the metrics, or a device's moment) is a number within 0.5 of the tour's. */
function expectNumbers(m: unknown, want: Record<string, number> | undefined, where: string) {
  for (const [path, w] of Object.entries(want ?? {})) {
    const got = get(m, path);
    expect(typeof got, `${where} ${path}`).toBe('number');
    expect(Math.abs((got as number) - w), `${where} ${path}: ${String(got)} vs ${w}`).toBeLessThan(0.5);
  }
}

describe('guided tours', () => {
  it('are all offered with this core, and have unique ids', () => {
    expect(new Set(TOURS.map((t) => t.id)).size).toBe(TOURS.length);
    expect(availableTours(hasScheme).map((t) => t.id)).toEqual(TOURS.map((t) => t.id));
    expect(availableTours((id) => id !== 'ofast').map((t) => t.id)).not.toContain('ofast-lazy');
    expect(tourById('bast-thrashing')?.title).toBe('Why BAST thrashes');
  });

  for (const tour of TOURS) {
    it(`${tour.id}: every stop is valid and states the core's true numbers`, () => {
      expect(tour.stops.length).toBeGreaterThan(2);
      for (const [i, stop] of tour.stops.entries()) {
        const scenario = stopScenario(tour, i);
        expect(tour.schemes).toContain(scenario.scheme);
        expect(validateScenario(scenario)).toEqual([]);
        const device = stopDevice(tour, i);
        if (device) {
          // A device stop (issue 40): its expect reads the device's moment at operation at.op.
          const d = new core.DeviceSession(
            JSON.stringify(chipScenario(scenario)),
            device.channels,
            device.diesPerChannel,
            device.stripe,
          );
          try {
            expect(stop.at.op, `${tour.id} stop ${i} within the device's operations`).toBeLessThanOrEqual(d.total());
            d.goto(stop.at.op);
            const m: unknown = d.moment();
            expect(Object.keys(stop.expect ?? {}).length, `${tour.id} stop ${i} checks something`).toBeGreaterThan(0);
            expectNumbers(m, stop.expect, `${tour.id} stop ${i}`);
          } finally {
            d.free();
          }
          continue;
        }
        const s = new core.Session(JSON.stringify(scenario));
        try {
          expect(stop.at.step).toBeLessThanOrEqual(s.total());
          s.goto(stop.at.step, stop.at.op);
          expect(s.step(), `${tour.id} stop ${i}`).toBe(stop.at.step);
          if (stop.at.op > 0) expect(s.op_cursor()).toBe(stop.at.op);
          if (stop.predict) {
            // a prediction is asked between requests, and the core can answer it
            expect(stop.at.op, `${tour.id} stop ${i} predict`).toBe(0);
            expect(s.predict_next().kind).toMatch(/^(none|gc|switch|partial|full)$/);
          }
          const metrics = JSON.parse(s.metrics());
          const names = ['erased', 'valid', 'invalid', 'retractable', 'metadata'];
          const counts: Record<string, number> = {};
          s.page_states().forEach((st) => (counts[names[st]] = (counts[names[st]] ?? 0) + 1));
          for (const [state, want] of Object.entries(stop.pages ?? {})) {
            expect(counts[state] ?? 0, `${tour.id} stop ${i} ${state} pages`).toBe(want);
          }
          const roles = s.block_roles();
          const owners = s.block_owners();
          const states = s.page_states();
          const ppb = roles.length ? states.length / roles.length : 0;
          for (const b of stop.blocks ?? []) {
            const where = `${tour.id} stop ${i} block ${b.block}`;
            if (b.role !== undefined) expect(roleStyle(roles[b.block]).key, `${where} role`).toBe(b.role);
            if (b.owner !== undefined) expect(owners[b.block], `${where} owner`).toBe(b.owner);
            if (b.pages !== undefined) {
              const got = Array.from(
                states.subarray(b.block * ppb, (b.block + 1) * ppb),
                (x) => 'EVIRM'[x] ?? '?',
              ).join('');
              expect(got, `${where} pages`).toBe(b.pages);
            }
          }
          expectNumbers(metrics, stop.expect, `${tour.id} stop ${i}`);
        } finally {
          s.free();
        }
      }
    });
  }
});
