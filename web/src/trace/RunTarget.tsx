// The fit step: the scheme, its parameters and the chip to run the trace on (the shared
// picker), how addresses beyond the scheme's logical space are fitted, and the core's
// preview of that fit.
import { MAX_PAGES } from '../scenario/model';
import { SchemeChipPicker, type SchemeChipValue } from '../scenario/SchemeChipPicker';
import { n } from './text';
import type { FitResult, TraceFit, TraceSummary } from './types';
import { FITS } from './useTraceFit';

/** The dialog's chip always has a size: a field emptied or below 2 reads as 2. */
export interface Target extends SchemeChipValue {
  chip: SchemeChipValue['chip'] & { blocks: number; pages_per_block: number };
}

const size = (v: number | undefined, was: number) => Math.max(2, Math.floor(Number(v ?? was) || 2));

export function RunTarget({
  target,
  onTarget,
  fit,
  onFit,
  fitResult,
  summary,
  chipPages,
}: {
  target: Target;
  onTarget: (t: Target) => void;
  fit: TraceFit;
  onFit: (f: TraceFit) => void;
  /** the core's fit on this target (null while checking) */
  fitResult: FitResult | null;
  /** the trace as read (its own warnings are not repeated) */
  summary: TraceSummary;
  /** pages of the chip the run would use */
  chipPages: number;
}) {
  const fitted = fitResult?.ok ? fitResult.summary : null;
  return (
    <fieldset className="trace-target">
      <legend>Run it on</legend>
      <SchemeChipPicker
        layout="rows"
        testIdPrefix="trace-"
        chipGeometry="preset"
        emptyMeansDefault
        minPagesPerBlock={2}
        value={target}
        onChange={(next) =>
          onTarget({
            ...next,
            chip: {
              ...next.chip,
              blocks: size(next.chip.blocks, target.chip.blocks),
              pages_per_block: size(next.chip.pages_per_block, target.chip.pages_per_block),
            },
          })
        }
      />
      <div className="fit-choices" role="radiogroup" aria-label="Addresses beyond the logical space">
        {FITS.map((f) => (
          <label key={f.id} className="check" title={f.help}>
            <input
              type="radio"
              name="trace-fit"
              value={f.id}
              checked={fit === f.id}
              onChange={() => onFit(f.id)}
              data-testid={`trace-fit-${f.id}`}
            />{' '}
            {f.label}
          </label>
        ))}
      </div>
      <p className="hint">{FITS.find((f) => f.id === fit)?.help}</p>
      <div className="fit-preview" aria-live="polite" data-testid="trace-fit-preview">
        {!fitResult && <p className="muted">Checking the fit…</p>}
        {fitResult && !fitResult.ok && <p className="alert">{fitResult.message}</p>}
        {fitted && (
          <p>
            {fitted.fit_note ?? 'Every address fits as it is.'} — {n(fitted.fit_touched)} of {n(fitted.requests)}{' '}
            requests touched
            {fitted.logical_pages != null ? `; logical space ${n(fitted.logical_pages)} pages` : ''}.
          </p>
        )}
        {fitted?.warnings
          ?.filter((w) => !summary.warnings?.includes(w))
          .map((w, i) => (
            <p key={i} className="hint warn">
              {w}
            </p>
          ))}
        {fitted && chipPages > MAX_PAGES && (
          <p className="alert">
            That chip has {n(chipPages)} pages; the device view draws at most {n(MAX_PAGES)}. Choose fold or compact, or
            a smaller chip.
          </p>
        )}
      </div>
    </fieldset>
  );
}
