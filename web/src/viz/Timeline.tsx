// The scrubber over the whole run, with markers (merge, GC, metadata, wrong read, time
// shift, power cut) binned into the pixels available; the part of the run not yet
// logged is shaded with an offer to run to the end.
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { RunLog } from '../sim/protocol';
import { MARKER_KINDS, adjacentMarker, binMarkers, markerKind } from './markers';
import { useSize } from '../ui/useSize';

export interface TimelineProps {
  step: number;
  total: number;
  opCursor: number;
  opCount: number;
  disabled: boolean;
  log: RunLog | null;
  onSeek: (step: number) => void;
  /** jump to a marker's request: the state just before it runs */
  onJump: (step: number) => void;
  /** requests interrupted by the power cuts recovered from (Snapshot.cutRequests) */
  cutRequests?: { index: number; survived: boolean }[];
  /** the power is off: the counter names the request the cut is in (or before) */
  powerOff?: boolean;
}

const INSET = 8; // the native range thumb's half width: markers line up with the thumb

export function Timeline(p: TimelineProps) {
  // The value asked for and not yet shown. Kept in a ref as well, so key presses that
  // arrive faster than the answers build on each other instead of on a stale step
  // (every press counts), and an answer to an older seek never resets a newer one.
  const [dragValue, setDragValue] = useState<number | null>(null);
  const pending = useRef<number | null>(null);
  useEffect(() => {
    if (pending.current !== null && pending.current === p.step) {
      pending.current = null;
      setDragValue(null);
    }
  }, [p.step]);
  const shown = dragValue ?? p.step;
  // Recovery counts the interrupted request as done: say what became of it.
  // One request number everywhere (issue 35): the request in play, counted from 1 — the
  // one being revealed, cut or recovered from (the power panel and narration say the
  // same); between requests, the last one done. data-step stays the requests completed.
  const inPlay = p.opCount > 0 || p.powerOff === true;
  const cut = p.cutRequests?.length ? p.cutRequests[p.cutRequests.length - 1] : null;
  const ask = (v: number) => {
    const c = Math.max(0, Math.min(p.total, v));
    pending.current = c;
    setDragValue(c);
    p.onSeek(c);
  };
  const onScrubKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const from = pending.current ?? p.step;
    const page = Math.max(1, Math.round(p.total / 10));
    const delta: Record<string, number> = {
      ArrowRight: 1,
      ArrowUp: 1,
      ArrowLeft: -1,
      ArrowDown: -1,
      PageUp: page,
      PageDown: -page,
    };
    let to: number | null = null;
    if (e.key in delta) to = from + delta[e.key];
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = p.total;
    if (to === null) return;
    // Handled here (not by the native slider, nor by the global ←/→ op stepping).
    e.preventDefault();
    ask(to);
  };
  const [ref, size] = useSize<HTMLDivElement>();
  const track = Math.max(1, size.width - 2 * INSET);
  const bins = useMemo(
    () => (p.log ? binMarkers(p.log.markers, Math.max(1, p.total), Math.max(1, Math.floor(track / 3))) : []),
    [p.log, p.total, track],
  );
  const maxCount = bins.reduce((m, b) => Math.max(m, b.count), 1);
  const x = (i: number) => INSET + (p.total > 0 ? (i / p.total) * track : 0);
  const upto = p.log?.logUpto ?? 0;
  const present = new Set<number>();
  for (const b of bins) for (const k of MARKER_KINDS) if (b.bits & k.bit) present.add(k.bit);
  const markers = p.log?.markers ?? [];
  const prev = adjacentMarker(markers, p.step, -1);
  const next = adjacentMarker(markers, p.step, 1);

  return (
    <div className="timeline" data-testid="timeline">
      <div className="timeline-track" ref={ref}>
        <label className="scrubber">
          <span className="visually-hidden">Jump to request</span>
          <input
            type="range"
            min={0}
            max={p.total}
            step={1}
            value={shown}
            disabled={p.disabled || p.total === 0}
            onChange={(e) => ask(Number(e.target.value))}
            onKeyDown={onScrubKey}
            aria-valuetext={`request ${shown} of ${p.total}`}
            data-testid="scrubber"
          />
        </label>
        <svg
          className="timeline-markers"
          width={size.width}
          height={18}
          aria-hidden="true"
          data-testid="timeline-markers"
          data-bins={bins.length}
        >
          {upto < p.total && p.total > 0 && (
            <rect className="timeline-unlogged" x={x(upto)} y={0} width={Math.max(0, x(p.total) - x(upto))} height={18}>
              <title>Not run yet: markers and charts cover requests 0–{upto}</title>
            </rect>
          )}
          {bins.map((b) => {
            const kind = markerKind(b.bits);
            const h = 5 + 13 * (Math.log1p(b.count) / Math.log1p(maxCount));
            return (
              <rect
                key={b.bin}
                className="timeline-marker"
                x={x(b.index) - 1}
                y={18 - h}
                width={2.5}
                height={h}
                style={{ fill: kind?.color ?? '#999' }}
                onClick={() => p.onJump(b.index)}
              >
                <title>{`${b.count} marker${b.count > 1 ? 's' : ''} from request ${b.index + 1}: ${MARKER_KINDS.filter(
                  (k) => b.bits & k.bit,
                )
                  .map((k) => k.label)
                  .join(', ')}`}</title>
              </rect>
            );
          })}
        </svg>
      </div>
      <div className="timeline-row">
        <button
          type="button"
          className="small"
          disabled={p.disabled || prev === null}
          onClick={() => prev !== null && p.onJump(prev)}
          data-testid="marker-prev"
          title="Jump to just before the previous marked request"
        >
          <span aria-hidden="true">◀︎ </span>Previous marker
        </button>
        <button
          type="button"
          className="small"
          disabled={p.disabled || next === null}
          onClick={() => next !== null && p.onJump(next)}
          data-testid="marker-next"
          title="Jump to just before the next marked request"
        >
          Next marker<span aria-hidden="true"> ▶︎</span>
        </button>
        <span className="timeline-legend">
          {MARKER_KINDS.filter((k) => present.has(k.bit)).map((k) => (
            <span key={k.key} className="timeline-key">
              <span className="timeline-swatch" style={{ background: k.color }} aria-hidden="true" />
              {k.label}
            </span>
          ))}
        </span>
        <span
          className="counter"
          data-testid="step-counter"
          data-step={p.step}
          data-op={p.opCursor}
          data-ops={p.opCount}
          aria-live="off"
        >
          Request <strong>{inPlay ? p.step + 1 : p.step}</strong> / {p.total}
          {p.opCount > 0 && (
            <>
              {' '}
              · op {p.opCursor}/{p.opCount}
            </>
          )}
          {cut && (
            <span className="counter-cut" data-testid="counter-cut" data-request={cut.index + 1}>
              {' '}
              · request {cut.index + 1} {cut.survived ? 'survived the cut' : 'lost in the cut'}
            </span>
          )}
        </span>
      </div>
    </div>
  );
}
