// While the worker reads the trace: its progress and Cancel; when it could not: why, the
// first bad lines, and skipping them.
import { lineErrorText, n } from './text';
import type { Phase } from './useTraceRead';

export function ReadStatus({
  phase,
  skipBad,
  onSkipBad,
  onCancel,
}: {
  phase: Phase;
  skipBad: boolean;
  onSkipBad: () => void;
  onCancel: () => void;
}) {
  if (phase.kind === 'reading') {
    return (
      <div className="reading" data-testid="trace-reading">
        <label>
          Reading in the worker…{' '}
          {phase.progress ? `${n(phase.progress.lines)} lines, ${n(phase.progress.requests)} page requests` : ''}
          <progress max={1} value={phase.fraction} data-testid="trace-progress" />
        </label>
        <button type="button" onClick={onCancel} data-testid="trace-cancel">
          Cancel
        </button>
      </div>
    );
  }
  if (phase.kind !== 'failed') return null;
  return (
    <div className="trace-failed" role="alert" data-testid="trace-error">
      <p className="alert">{phase.message}</p>
      {phase.errors.length > 0 && (
        <>
          <ul className="line-errors" data-testid="trace-line-errors">
            {phase.errors.map((e, i) => (
              <li key={i}>{lineErrorText(e)}</li>
            ))}
          </ul>
          <p className="hint">
            {n(phase.badLines)} bad line{phase.badLines === 1 ? '' : 's'} seen.{' '}
            {!skipBad && (
              <button type="button" className="link" onClick={onSkipBad} data-testid="trace-skip-bad-now">
                Skip bad lines and read again
              </button>
            )}
          </p>
        </>
      )}
    </div>
  );
}
