// The workload space of a comparison or sweep (issue 27): empty = each run's own logical
// space (a run then equals the same run alone); a number = that space for every run, so
// every run that can hold it replays one request list (the others fail alone, named).
import { useId } from 'react';

export function WorkloadSpaceField({
  value,
  onChange,
  testid,
}: {
  value: number | undefined;
  onChange: (v: number | undefined) => void;
  testid: string;
}) {
  const id = useId();
  return (
    <div className="workload-space">
      <label htmlFor={id}>Workload space (logical pages)</label>{' '}
      <input
        id={id}
        type="number"
        min={1}
        step={1}
        value={value ?? ''}
        placeholder="each run's own"
        onChange={(e) => {
          const n = Math.floor(Number(e.target.value));
          onChange(e.target.value === '' || !(n >= 1) ? undefined : n);
        }}
        data-testid={testid}
      />{' '}
      <span className="muted">
        empty: each run's own space (as the run alone); a number: one request list for every run that holds it
      </span>
    </div>
  );
}
