// Messages about the link (or file) the app was opened with: damaged, migrated, or
// naming an uploaded trace that links never carry.
import type { ShareState } from './share';

export interface LinkNoticeState {
  /** the link could not be used: the default scenario is shown */
  error?: string;
  /** the link was read, with something worth saying (e.g. migrated) */
  notice?: string;
  /** the link's workload was an uploaded trace: it must be provided again */
  missingTrace?: { name: string; state: ShareState };
}

export function LinkNotices({
  state,
  onDismiss,
  onKeepRest,
  onUploadAgain,
}: {
  state: LinkNoticeState;
  onDismiss: () => void;
  onKeepRest: (state: ShareState) => void;
  /** keep everything else and open the trace picker (absent: no upload in this build) */
  onUploadAgain?: (state: ShareState) => void;
}) {
  if (state.error) {
    return (
      <div className="error-banner link-banner" role="alert" data-testid="link-error">
        <span>{state.error}</span>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  if (state.missingTrace) {
    const { name, state: s } = state.missingTrace;
    return (
      <div className="notice-banner link-banner" role="alert" data-testid="link-trace-missing">
        <span>
          This link ran the uploaded trace “{name}”. Links never carry traces (size and privacy), so it must be provided
          again. You can keep everything else (scheme, parameters, chip, view) with a generated workload instead.
        </span>
        {onUploadAgain && (
          <button type="button" className="primary" onClick={() => onUploadAgain(s)} data-testid="upload-again">
            Upload “{name}” again…
          </button>
        )}
        <button
          type="button"
          className={onUploadAgain ? undefined : 'primary'}
          onClick={() => onKeepRest(s)}
          data-testid="keep-rest"
        >
          Keep everything else
        </button>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  if (state.notice) {
    return (
      <div className="notice-banner link-banner" role="status" data-testid="link-notice">
        <span>{state.notice}</span>
        <button type="button" onClick={onDismiss}>
          Dismiss
        </button>
      </div>
    );
  }
  return null;
}
