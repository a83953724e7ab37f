// The trace as read: its records, requests, read share, footprint and what was skipped or
// ignored, beside a plot of its addresses; then the core's warnings and first skipped lines.
import { AddressPlot } from './AddressPlot';
import { lineErrorText, n, pct } from './text';
import type { TraceSummary } from './types';

const IGNORED_LABELS: Record<string, string> = {
  other_device: 'records of other devices',
  other_action: 'blkparse lines of other actions',
  not_read_write: 'neither read nor write (discard, flush)',
  zero_size: 'zero-size records',
  blkparse_statistics: 'blkparse statistics lines',
  comments: 'comment lines',
  beyond_limit: 'records beyond the request limit',
};

export function SummaryView({ summary }: { summary: TraceSummary }) {
  return (
    <>
      <div className="summary-cols">
        <dl className="summary-list">
          <div>
            <dt>Format</dt>
            <dd data-testid="trace-format-detected">
              {summary.format} {summary.format_detected ? '(detected)' : '(chosen)'}
            </dd>
          </div>
          <div>
            <dt>Records</dt>
            <dd>
              {n(summary.records)} ({n(summary.record_writes)} writes, {n(summary.record_reads)} reads)
            </dd>
          </div>
          <div>
            <dt>Page requests</dt>
            <dd data-testid="trace-requests">{n(summary.requests)}</dd>
          </div>
          <div>
            <dt>Read / write</dt>
            <dd>
              {pct(summary.read_share)} reads · {n(summary.writes)} writes
            </dd>
          </div>
          <div>
            <dt>Footprint</dt>
            <dd>
              {n(summary.footprint_blocks)} logical blocks (pages {n(summary.min_page)}–{n(summary.max_page)})
            </dd>
          </div>
          {summary.skipped_lines > 0 && (
            <div>
              <dt>Skipped lines</dt>
              <dd data-testid="trace-skipped">{n(summary.skipped_lines)}</dd>
            </div>
          )}
          {Object.entries(summary.ignored ?? {})
            .filter(([, v]) => v > 0)
            .map(([k, v]) => (
              <div key={k}>
                <dt>Ignored</dt>
                <dd>
                  {n(v)} {IGNORED_LABELS[k] ?? k}
                </dd>
              </div>
            ))}
        </dl>
        <AddressPlot sample={summary.sample ?? []} requests={summary.requests} />
      </div>
      {summary.warnings?.length > 0 && (
        <ul className="trace-warnings" data-testid="trace-warnings">
          {summary.warnings.map((w, i) => (
            <li key={i}>{w}</li>
          ))}
        </ul>
      )}
      {summary.errors?.length > 0 && (
        <details className="skipped-errors">
          <summary>First skipped lines</summary>
          <ul className="line-errors">
            {summary.errors.map((e, i) => (
              <li key={i}>{lineErrorText(e)}</li>
            ))}
          </ul>
        </details>
      )}
    </>
  );
}
