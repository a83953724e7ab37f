// Preconditioning: fill the device before measuring (core-wasm/crates/sim/src/precondition.rs).
import { useId } from 'react';
import type { Precondition } from '../scenario/model';
import { LabelTerm } from '../ui/glossary/Glossary';

export function PreconditionField({
  value,
  onChange,
}: {
  value: Precondition | undefined;
  onChange: (p: Precondition | undefined) => void;
}) {
  const id = useId();
  const on = value !== undefined;
  const p = value ?? { fill: true, random_writes: 0, seed: 1 };
  return (
    <div className="precondition" data-testid="precondition">
      {/* The term is a button, which a <label> may not hold: the checkbox is named by the span. */}
      <span className="precondition-on">
        <input
          type="checkbox"
          checked={on}
          onChange={(e) => onChange(e.target.checked ? p : undefined)}
          aria-labelledby={`${id}-on`}
          data-testid="precondition-on"
        />{' '}
        <span id={`${id}-on`}>
          <LabelTerm label="Precondition before measuring" />
        </span>
      </span>
      {on && (
        <>
          <label>
            <input
              type="checkbox"
              checked={p.fill}
              onChange={(e) =>
                onChange(e.target.checked || p.random_writes > 0 ? { ...p, fill: e.target.checked } : undefined)
              }
            />{' '}
            sequential fill of the logical space
          </label>
          <label htmlFor={`${id}-rw`}>then random writes</label>
          <input
            id={`${id}-rw`}
            type="number"
            min={0}
            max={50_000_000}
            step={1000}
            value={p.random_writes}
            onChange={(e) => {
              const n = Math.max(0, Math.floor(Number(e.target.value) || 0));
              onChange(n > 0 || p.fill ? { ...p, random_writes: n } : undefined);
            }}
            data-testid="precondition-random"
          />
          <span className="muted">
            Metrics count only the measured workload; request 0 is the filled chip (as fio / SNIA steady-state tests).
          </span>
        </>
      )}
    </div>
  );
}
