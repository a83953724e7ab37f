// Messages above the view: the link's notices (damaged, migrated, missing trace) and the
// core's or worker's error.
import { defaultWorkload } from '../scenario/model';
import { LinkNotices, type LinkNoticeState } from '../scenario/LinkNotices';
import type { ShareState } from '../scenario/share';
import type { Sim } from './useSimulation';

export function Banners({
  sim,
  notices,
  setNotices,
  applyView,
  onReopen,
  startError,
}: {
  sim: Sim;
  notices: LinkNoticeState;
  setNotices: (n: LinkNoticeState) => void;
  applyView: (state: ShareState) => void;
  /** the link's trace is being provided again */
  onReopen: (state: ShareState) => void;
  startError: string | null;
}) {
  const shownError = startError ?? sim.state.error;
  return (
    <>
      <LinkNotices
        state={notices}
        onDismiss={() => setNotices({})}
        onKeepRest={(state) => {
          setNotices({});
          applyView(state);
          void sim.load({ ...state.scenario, workload: defaultWorkload('hotcold') }, 0);
        }}
        onUploadAgain={(state) => {
          // Open the file picker while the click still counts as the user's, then load the
          // link's scheme and chip so the upload runs on them (web/src/trace uses `current`).
          onReopen(state);
          document.querySelector<HTMLInputElement>('[data-testid=trace-input]')?.click();
          setNotices({});
          applyView(state);
          void sim.load({ ...state.scenario, workload: defaultWorkload('hotcold') }, 0);
        }}
      />
      {shownError && (
        <div className="error-banner" role="alert" data-testid="error">
          <span>{shownError}</span>
          {!startError && (
            <button type="button" onClick={sim.dismissError} aria-label="Dismiss error">
              Dismiss
            </button>
          )}
        </div>
      )}
    </>
  );
}
