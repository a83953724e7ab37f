// The scenario form's timing model (docs/timing.md): closed — each request starts when the
// previous one ends, none waits — or open — requests arrive at the trace's own times or at
// a rate (evenly spaced or Poisson) and queue for the chip. Absent in a scenario = closed.
import { useId } from 'react';
import { arrivalsOf, timingOf, timingProblem, type Arrivals, type TimingConfig } from '../scenario/timing';
import { NumberField } from './NumberField';
import { LabelTerm } from '../ui/glossary/Glossary';

/** The rate the form offers first: 500 requests/s, 2 ms apart — a merge on the classroom chip takes longer. */
const DEFAULT_RATE = 500;

export function TimingField({
  value,
  hasTimes,
  onChange,
}: {
  value: TimingConfig | undefined;
  /** the workload has arrival times of its own (an uploaded trace) */
  hasTimes: boolean;
  onChange: (t: TimingConfig | undefined) => void;
}) {
  const ids = { name: useId(), arrivals: useId(), help: useId() };
  const model = value?.model ?? 'closed';
  const arrivals: Arrivals = value ? arrivalsOf(value) : hasTimes ? 'trace' : 'poisson';
  const rate = value?.rate ?? DEFAULT_RATE;
  const seed = value?.seed ?? 1;
  const scale = value?.time_scale ?? 1;
  const set = (p: { model?: 'closed' | 'open'; arrivals?: Arrivals; rate?: number; seed?: number; scale?: number }) =>
    onChange(timingOf(p.model ?? model, p.arrivals ?? arrivals, p.rate ?? rate, p.seed ?? seed, p.scale ?? scale));
  const problem = timingProblem(value, hasTimes);
  return (
    <fieldset className="timing-field" data-testid="timing-field" aria-describedby={ids.help}>
      <legend>Timing</legend>
      <div className="radio-row" role="radiogroup" aria-label="Timing model">
        {(['closed', 'open'] as const).map((m) => (
          <label key={m}>
            <input
              type="radio"
              name={ids.name}
              value={m}
              checked={model === m}
              onChange={() => set({ model: m })}
              data-testid={`timing-${m}`}
            />
            {m === 'closed' ? 'Closed' : 'Open'}
          </label>
        ))}
      </div>
      <p id={ids.help} className="hint" data-testid="timing-help">
        <LabelTerm
          label={
            model === 'closed'
              ? 'Closed model: each request starts when the previous one ends, so no request waits.'
              : 'Open model: requests arrive at their own times and wait in a queue while the chip serves earlier ones.'
          }
        />
      </p>
      {model === 'open' && (
        <>
          <div className="field">
            <label htmlFor={ids.arrivals}>Arrivals</label>
            <select
              id={ids.arrivals}
              value={arrivals}
              data-testid="timing-arrivals"
              onChange={(e) => set({ arrivals: e.target.value as Arrivals })}
            >
              <option value="trace" disabled={!hasTimes}>
                Trace times{hasTimes ? '' : ' (traces only)'}
              </option>
              <option value="fixed">Fixed rate</option>
              <option value="poisson">Poisson rate</option>
            </select>
          </div>
          {arrivals === 'trace' ? (
            <NumberField
              label="Time scale (× the trace's gaps)"
              value={scale}
              min={0.001}
              onChange={(v) => set({ scale: v })}
              testId="timing-scale"
            />
          ) : (
            <div className="field-row">
              <NumberField
                label="Rate (requests/s)"
                value={rate}
                min={1}
                onChange={(v) => set({ rate: v })}
                testId="timing-rate"
              />
              {arrivals === 'poisson' && (
                <NumberField
                  label="Seed"
                  value={seed}
                  min={0}
                  step={1}
                  onChange={(v) => set({ seed: v })}
                  testId="timing-seed"
                />
              )}
            </div>
          )}
        </>
      )}
      {problem && (
        <p className="hint warn" data-testid="timing-problem">
          {problem}
        </p>
      )}
    </fieldset>
  );
}
