// The workload space of a comparison or sweep (issues 27, 38). Compare: empty = one request
// list, in the smallest own space among the runs (the default, as `ftl sweep`), or each run's
// own space with "each scheme's own space" (the paper defaults; a run then equals the same run
// alone); a number = that space for every run that holds it (the others fail alone, named).
// Sweep panel (no `own` props): empty = each run's own space.
import { useId } from 'react';

export function WorkloadSpaceField({
  value,
  onChange,
  testid,
  own,
  onOwn,
}: {
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  testid: string;
  /** compare: each scheme's own space instead of the common one (undefined: no switch) */
  own?: boolean;
  onOwn?: (own: boolean) => void;
}) {
  const id = useId();
  const common = own === false;
  return (
    <div className="workload-space">
      <label htmlFor={id}>Workload space (logical pages)</label>{' '}
      <input
        id={id}
        type="number"
        min={1}
        step={1}
        value={value ?? ''}
        placeholder={common ? 'smallest of the runs' : "each run's own"}
        onChange={(e) => {
          const n = Math.floor(Number(e.target.value));
          onChange(e.target.value === '' || !(n >= 1) ? undefined : n);
        }}
        data-testid={testid}
      />{' '}
      {onOwn && (
        <label className="own-space">
          <input
            type="checkbox"
            checked={!!own}
            disabled={value !== undefined}
            onChange={(e) => onOwn(e.target.checked)}
            data-testid={`${testid}-own`}
          />{' '}
          Each scheme's own space (the paper defaults)
        </label>
      )}{' '}
      <span className="muted">
        {onOwn
          ? own
            ? 'each run fills its own logical space, as it would alone: request lists may differ'
            : 'empty: one request list for every run, in the smallest own space among them; a number: that space'
          : "empty: each run's own space (as the run alone); a number: one request list for every run that holds it"}
      </span>
    </div>
  );
}
