// The run's timing model as scenarios carry it (core-wasm/crates/sim/src/timing.rs,
// docs/timing.md): closed (each request starts when the previous ends) or open
// (requests arrive at the trace's times × time_scale, or at `rate` per second).

import type { TimingConfig } from '../sim/scenarioTypes';
export type { TimingConfig };

const UNITS = ['s', 'ms', 'us', 'ns', 'filetime'];

/** The timing of a parsed object, or undefined (throws on a malformed one). */
export function timingFrom(raw: unknown): TimingConfig | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw !== 'object' || Array.isArray(raw)) throw new Error('timing must be an object');
  const r = raw as Record<string, unknown>;
  if (r.model !== 'closed' && r.model !== 'open') throw new Error('timing.model must be "closed" or "open"');
  const t: TimingConfig = { model: r.model };
  const pos = (k: string) => {
    const v = r[k];
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !(v > 0) || !Number.isFinite(v))
      throw new Error(`timing.${k} must be a positive number`);
    return v;
  };
  const scale = pos('time_scale');
  if (scale !== undefined) t.time_scale = scale;
  const rate = pos('rate');
  if (rate !== undefined) t.rate = rate;
  if (r.spacing !== undefined) {
    if (r.spacing !== 'fixed' && r.spacing !== 'poisson')
      throw new Error('timing.spacing must be "fixed" or "poisson"');
    t.spacing = r.spacing;
  }
  if (r.seed !== undefined) {
    if (typeof r.seed !== 'number' || !Number.isInteger(r.seed) || r.seed < 0)
      throw new Error('timing.seed must be a whole number ≥ 0');
    t.seed = r.seed;
  }
  if (r.time_unit !== undefined) {
    if (typeof r.time_unit !== 'string' || !UNITS.includes(r.time_unit))
      throw new Error(`timing.time_unit must be one of ${UNITS.join(', ')}`);
    t.time_unit = r.time_unit as TimingConfig['time_unit'];
  }
  return t;
}

/** The timing model in a few words, for the scenario line and the form ("open model, Poisson 500/s"). */
export function describeTiming(t: TimingConfig | undefined): string {
  if (!t || t.model === 'closed') return 'closed model';
  if (t.rate !== undefined) {
    const rate = `${t.rate.toLocaleString('en-US')}/s`;
    return t.spacing === 'poisson' ? `open model, Poisson ${rate} (seed ${t.seed ?? 1})` : `open model, fixed ${rate}`;
  }
  const scale = t.time_scale !== undefined && t.time_scale !== 1 ? ` × ${t.time_scale}` : '';
  return `open model, trace times${scale}`;
}

/** How requests arrive in the open model: the trace's own times, or a rate, evenly or Poisson. */
export type Arrivals = 'trace' | 'fixed' | 'poisson';

export function arrivalsOf(t: TimingConfig | undefined): Arrivals {
  if (!t || t.rate === undefined) return 'trace';
  return t.spacing === 'poisson' ? 'poisson' : 'fixed';
}

/**
 * The form's choice as a scenario's timing: closed is left out (the default), a rate keeps
 * its spacing and seed, trace times keep the time scale (docs/timing.md).
 */
export function timingOf(model: 'closed' | 'open', arrivals: Arrivals, rate: number, seed: number, scale: number) {
  if (model === 'closed') return undefined;
  if (arrivals === 'trace') return { model, time_scale: scale } satisfies TimingConfig;
  const t: TimingConfig = { model, rate, spacing: arrivals };
  if (arrivals === 'poisson') t.seed = seed;
  return t;
}

/** Why the timing cannot run with this workload, or null. */
export function timingProblem(t: TimingConfig | undefined, hasTimes: boolean): string | null {
  if (!t || t.model === 'closed') return null;
  if (t.rate === undefined && !hasTimes)
    return 'timing: a generated workload has no arrival times — choose a fixed or Poisson rate';
  if (t.rate !== undefined && !(t.rate > 0)) return 'timing: the rate must be a positive number of requests per second';
  if (t.seed !== undefined && !(Number.isInteger(t.seed) && t.seed >= 0))
    return 'timing: the seed must be a whole number ≥ 0';
  if (t.time_scale !== undefined && !(t.time_scale > 0)) return 'timing: the time scale must be a positive number';
  return null;
}
