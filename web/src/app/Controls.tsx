// Playback controls and the scrubber over the workload.
import { useEffect, useState } from 'react';
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
}

export function Controls(p: ControlsProps) {
  const atStart = p.step === 0 && p.opCursor === 0;
  const atEnd = p.step >= p.total && p.opCount === 0;
  // The slider follows the simulation, except while the user drags it.
  const [dragValue, setDragValue] = useState<number | null>(null);
  // Functional update: a key pressed between the render and this effect has already set a
  // newer drag value, which must not be cleared by this (stale) comparison.
  useEffect(() => {
    setDragValue((d) => (d !== null && d === p.step ? null : d));
  }, [p.step]);
  const shown = dragValue ?? p.step;

  return (
    <div className="controls" role="toolbar" aria-label="Playback">
      <div className="controls-row">
        <button type="button" onClick={p.onBack} disabled={p.disabled || atStart} title="Step back one flash operation (←)" data-testid="btn-back">
          <span aria-hidden="true">◀︎ </span>Back
        </button>
        <button type="button" onClick={p.onStepOp} disabled={p.disabled || atEnd} title="Reveal the next flash operation (→)" data-testid="btn-step-op">
          Step op<span aria-hidden="true"> ▶︎</span>
        </button>
        <button type="button" onClick={p.onStepRequest} disabled={p.disabled || atEnd} title="Finish the current request, or run the next one" data-testid="btn-step-request">
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
      <div className="scrub-row">
      <label className="scrubber">
        <span className="visually-hidden">Jump to request</span>
        <input
          type="range"
          min={0}
          max={p.total}
          step={1}
          value={shown}
          disabled={p.disabled || p.total === 0}
          onChange={(e) => {
            const v = Number(e.target.value);
            setDragValue(v);
            p.onSeek(v);
          }}
          aria-valuetext={`request ${shown} of ${p.total}`}
          data-testid="scrubber"
        />
      </label>
        <span className="counter" data-testid="step-counter" data-step={p.step} data-op={p.opCursor} aria-live="off">
          Request <strong>{p.step}</strong> / {p.total}
          {p.opCount > 0 && (
            <>
              {' '}
              · op {p.opCursor}/{p.opCount}
            </>
          )}
        </span>
      </div>
    </div>
  );
}
