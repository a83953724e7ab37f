// Every run's chip at the same request: stepping and scrubbing all runs together, and one
// device view per run (a canvas for big chips, drawn from the kept summaries).
import type { Thumb } from '../sim/protocol';
import { useSize } from '../ui/useSize';
import { CanvasGrid } from '../viz/CanvasGrid';
import { chipState } from '../viz/chipState';
import { DeviceGrid } from '../viz/DeviceGrid';
import { RUN_COLORS, metricAt } from './compare';
import { SUMMARY_CELLS, SVG_MAX_PAGES, type Result } from './results';

export function CompareGrids({
  results,
  thumbs,
  step,
  maxTotal,
  frameGap,
  shownGrids,
  theme,
  seekAll,
  scrubTo,
}: {
  results: Result[];
  thumbs: (Thumb | null)[];
  step: number;
  maxTotal: number;
  /** requests between kept summaries (big chips), 0 without */
  frameGap: number;
  /** how many grids are mounted so far (one per frame) */
  shownGrids: number;
  theme: string;
  seekAll: (target: number) => Promise<void>;
  scrubTo: (target: number) => void;
}) {
  const [gridsRef, { width: gridsWidth }] = useSize<HTMLDivElement>();
  return (
    <>
      <div className="compare-step" role="toolbar" aria-label="Step every run together">
        <button type="button" onClick={() => void seekAll(step - 1)} disabled={step <= 0}>
          ◀︎ Back
        </button>
        <button
          type="button"
          onClick={() => void seekAll(step + 1)}
          disabled={step >= maxTotal}
          data-testid="compare-step"
        >
          Step request ▶︎
        </button>
        <label className="scrubber">
          <span className="visually-hidden">Request shown in every run</span>
          <input
            type="range"
            min={0}
            max={maxTotal}
            step={frameGap || 1}
            value={step}
            onChange={(e) => scrubTo(Number(e.target.value))}
            data-testid="compare-scrubber"
          />
        </label>
        <span className="counter" data-testid="compare-counter">
          Request <strong>{step}</strong> / {maxTotal}
        </span>
      </div>
      {frameGap > 0 && (
        <p className="muted" data-testid="compare-summary-note">
          Large chips: each block is drawn as {SUMMARY_CELLS} cells holding its pages’ states in proportion (valid,
          invalid, erased); the scrubber moves every run at once in steps of {frameGap.toLocaleString('en-US')} requests
          (states kept during the run); Back and Step go to any request.
        </p>
      )}
      <div
        className="compare-grids"
        ref={gridsRef}
        style={{ gridTemplateColumns: `repeat(${Math.min(results.length, 3)}, minmax(0, 1fr))` }}
      >
        {results.map((r, i) => {
          const cols = Math.min(results.length, 3);
          const w = Math.floor((gridsWidth - (cols - 1) * 12) / cols) - 14;
          const th = thumbs[i];
          const blocks = r.info?.chip.blocks ?? 0;
          const ppb = r.info?.chip.pages_per_block ?? 0;
          const big = blocks * ppb > SVG_MAX_PAGES;
          return (
            <figure
              key={i}
              className="compare-grid"
              data-run={i}
              data-testid={`compare-grid-${i}`}
              data-step={th?.step ?? ''}
            >
              <figcaption>
                <span className="swatch" style={{ background: RUN_COLORS[i] }} aria-hidden="true" /> {r.label}
                {th && (
                  <span className="muted">
                    {' '}
                    · {String(metricAt(th.metrics, 'erases') ?? '—')} erases at request{' '}
                    {th.step.toLocaleString('en-US')}
                  </span>
                )}
              </figcaption>
              {th && blocks && ppb && w > 40 && i < shownGrids ? (
                big || th.cells ? (
                  <div className="compare-canvas" style={{ position: 'relative', width: w, height: 200 }}>
                    <CanvasGrid
                      blocks={blocks}
                      pagesPerBlock={th.cells ?? ppb}
                      {...chipState(th)}
                      width={w}
                      height={200}
                      theme={theme}
                    />
                  </div>
                ) : (
                  <DeviceGrid
                    blocks={blocks}
                    pagesPerBlock={ppb}
                    {...chipState(th)}
                    lastEvent={null}
                    transitionMs={0}
                    width={w}
                    height={200}
                    theme={theme}
                  />
                )
              ) : (
                <p className="muted">{r.error ? 'Could not run.' : 'Drawing…'}</p>
              )}
            </figure>
          );
        })}
      </div>
    </>
  );
}
