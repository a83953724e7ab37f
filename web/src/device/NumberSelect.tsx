// A labelled select of whole numbers (the device fields' channels and dies per channel,
// the compare's device shapes): one component instead of near-identical copies.
import { useId } from 'react';

export function NumberSelect({
  label,
  value,
  options,
  onChange,
  testid,
  hideLabel,
}: {
  label: string;
  value: number;
  options: number[];
  onChange: (v: number) => void;
  testid?: string;
  /** the label is read out but not shown (a row of selects under one heading) */
  hideLabel?: boolean;
}) {
  const id = useId();
  return (
    <>
      <label htmlFor={id} className={hideLabel ? 'visually-hidden' : undefined}>
        {label}
      </label>
      <select id={id} data-testid={testid} value={value} onChange={(e) => onChange(Number(e.target.value))}>
        {options.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </>
  );
}
