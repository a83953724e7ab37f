// The choose-file step's parse options: the format (or detection), the device of a
// multi-device trace, and whether bad lines are skipped.
import { useId } from 'react';
import { n } from './text';
import type { TraceCatalog, TraceFormat, TraceSummary } from './types';
import type { TraceRead } from './useTraceRead';

export function ReadOptions({
  read,
  catalog,
  summary,
}: {
  read: TraceRead;
  catalog: TraceCatalog | null;
  /** the trace as last read (its detected format) */
  summary: TraceSummary | null;
}) {
  const ids = { format: useId(), device: useId() };
  const { format, device, skipBad } = read.options;
  const { devices } = read;
  return (
    <div className="trace-options">
      <div className="field">
        <label htmlFor={ids.format}>Format</label>
        <select
          id={ids.format}
          value={format}
          data-testid="trace-format"
          onChange={(e) => read.setFormat(e.target.value as TraceFormat | '')}
        >
          <option value="">Detect automatically{summary && !format ? ` (${summary.format})` : ''}</option>
          {(catalog?.formats ?? []).map((f) => (
            <option key={f.name} value={f.name} title={f.description}>
              {f.name}
            </option>
          ))}
        </select>
      </div>
      {(devices.length > 1 || device) && (
        <div className="field">
          <label htmlFor={ids.device}>Device</label>
          <select
            id={ids.device}
            value={device}
            data-testid="trace-device"
            onChange={(e) => read.setDevice(e.target.value)}
          >
            <option value="">All {devices.length} devices (one address space)</option>
            {devices.map(([d, count]) => (
              <option key={d} value={d}>
                {d} ({n(count)} records)
              </option>
            ))}
          </select>
        </div>
      )}
      <label className="check">
        <input
          type="checkbox"
          checked={skipBad}
          data-testid="trace-skip-bad"
          onChange={(e) => read.setSkipBad(e.target.checked)}
        />{' '}
        Skip bad lines
      </label>
    </div>
  );
}
