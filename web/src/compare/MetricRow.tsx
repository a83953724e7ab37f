// One metric of a comparison table, a cell a run: the lowest value marked best (★, `best`),
// a run that failed shown as "—". The scheme comparison (CompareResults.tsx) and the device
// shapes (DeviceCompare.tsx) draw their rows with it, so both mark "best" alike (bestOf:
// the lowest, ties all marked, nothing when every run has the same value; docs/compare.md).
import type { ReactNode } from 'react';
import { bestOf } from './compare';

export function MetricRow({
  label,
  values,
  format,
  failed,
  testid,
  row,
}: {
  label: ReactNode;
  /** one value a run (undefined: none) */
  values: (number | undefined)[];
  format: (v: number) => string;
  /** runs that failed: never best, shown as "—" */
  failed?: boolean[];
  testid?: string;
  /** the row's name for tests (data-row) */
  row?: string;
}) {
  const best = bestOf(values.map((v, i) => (failed?.[i] ? undefined : v)));
  return (
    <tr data-testid={testid} data-row={row}>
      <th scope="row">{label}</th>
      {values.map((v, i) => (
        <td
          key={i}
          className={best.has(i) ? 'best' : undefined}
          data-best={best.has(i) || undefined}
          data-value={v ?? ''}
        >
          {failed?.[i] || v === undefined ? '—' : format(v)}
          {best.has(i) && <span aria-label="best"> ★</span>}
        </td>
      ))}
    </tr>
  );
}
