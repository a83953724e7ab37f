// Playback controls and the scrubber over the workload.
import type { RunLog } from '../sim/protocol';
import { Timeline } from '../viz/Timeline';
import { SPEEDS, type Speed } from './useSimulation';

export interface ControlsProps {
  step: number;
  total: number;
  opCursor: number;
  opCount: number;
  playing: boolean;
  speed: Speed;
  disabled: boolean;
  onStepOp: () => void;
  onStepRequest: () => void;
  onBack: () => void;
  onTogglePlay: () => void;
  onSpeed: (id: string) => void;
  onSeek: (step: number) => void;
  /** jump to just before a marked request */
  onJump?: (step: number) => void;
  log?: RunLog | null;
  /** the power is off (a cut not yet recovered): Step and Play cannot act */
  powerOff?: boolean;
  /** requests interrupted by the power cuts recovered from (the counter names them) */
  cutRequests?: { index: number; survived: boolean }[];
}

const OFF_REASON = 'The power is off: press Recover in the Power panel, or scrub the timeline to leave the cut.';

export function Controls(p: ControlsProps) {
  const atStart = p.step === 0 && p.opCursor === 0;
  const atEnd = p.step >= p.total && p.opCount === 0;
  const off = p.powerOff === true;
  const why = off ? { title: OFF_REASON, 'aria-describedby': 'controls-why' } : null;

  return (
    <div className="controls" role="toolbar" aria-label="Playback">
      <div className="controls-row">
        <button
          type="button"
          onClick={p.onBack}
          disabled={p.disabled || atStart}
          title={off ? 'Back to the moment of the cut, with the power on (←)' : 'Step back one flash operation (←)'}
          data-testid="btn-back"
        >
          <span aria-hidden="true">◀︎ </span>Back
        </button>
        <button
          type="button"
          onClick={p.onStepOp}
          disabled={p.disabled || atEnd || off}
          title="Reveal the next flash operation (→)"
          {...why}
          data-testid="btn-step-op"
        >
          Step op<span aria-hidden="true"> ▶︎</span>
        </button>
        <button
          type="button"
          onClick={p.onStepRequest}
          disabled={p.disabled || atEnd || off}
          title="Finish the current request, or run the next one"
          {...why}
          data-testid="btn-step-request"
        >
          Step request
        </button>
        <button
          type="button"
          className="primary play"
          onClick={p.onTogglePlay}
          disabled={p.disabled || off}
          aria-pressed={p.playing}
          title="Play or pause (Space)"
          {...why}
          data-testid="btn-play"
        >
          {p.playing ? 'Pause' : atEnd ? 'Replay' : 'Play'}
        </button>
        <label className="speed">
          Speed
          <select value={p.speed.id} onChange={(e) => p.onSpeed(e.target.value)} data-testid="speed">
            {SPEEDS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {off && (
        <p className="controls-why" id="controls-why" data-testid="controls-why">
          {OFF_REASON}
        </p>
      )}
      <Timeline
        step={p.step}
        total={p.total}
        opCursor={p.opCursor}
        opCount={p.opCount}
        disabled={p.disabled}
        log={p.log ?? null}
        onSeek={p.onSeek}
        onJump={p.onJump ?? p.onSeek}
        cutRequests={p.cutRequests}
        powerOff={off}
      />
    </div>
  );
}
