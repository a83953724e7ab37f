// The run's timing model as scenarios carry it (core-wasm/crates/sim/src/timing.rs,
// docs/timing.md): closed (each request starts when the previous ends) or open
// (requests arrive at the trace's times × time_scale, or at `rate` per second).

export interface TimingConfig {
  model: 'closed' | 'open';
  time_scale?: number;
  rate?: number;
  spacing?: 'fixed' | 'poisson';
  seed?: number;
  time_unit?: 's' | 'ms' | 'us' | 'ns' | 'filetime';
}

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
