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
}

export function Controls(p: ControlsProps) {
  const atStart = p.step === 0 && p.opCursor === 0;
  const atEnd = p.step >= p.total && p.opCount === 0;

  return (
    <div className="controls" role="toolbar" aria-label="Playback">
      <div className="controls-row">
        <button
          type="button"
          onClick={p.onBack}
          disabled={p.disabled || atStart}
          title="Step back one flash operation (←)"
          data-testid="btn-back"
        >
          <span aria-hidden="true">◀︎ </span>Back
        </button>
        <button
          type="button"
          onClick={p.onStepOp}
          disabled={p.disabled || atEnd}
          title="Reveal the next flash operation (→)"
          data-testid="btn-step-op"
        >
          Step op<span aria-hidden="true"> ▶︎</span>
        </button>
        <button
          type="button"
          onClick={p.onStepRequest}
          disabled={p.disabled || atEnd}
          title="Finish the current request, or run the next one"
          data-testid="btn-step-request"
        >
          Step request
        </button>
        <button
          type="button"
          className="primary play"
          onClick={p.onTogglePlay}
          disabled={p.disabled}
          aria-pressed={p.playing}
          title="Play or pause (Space)"
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
      <Timeline
        step={p.step}
        total={p.total}
        opCursor={p.opCursor}
        opCount={p.opCount}
        disabled={p.disabled}
        log={p.log ?? null}
        onSeek={p.onSeek}
        onJump={p.onJump ?? p.onSeek}
      />
    </div>
  );
}
