// Crash test: cut power at many points of this scenario's run, recover each from the chip
// alone and verify it against the reference model (in a worker of its own, with progress
// and cancel). Which schemes can recover is the core's business: it says so per point.
import { useEffect, useId, useRef, useState } from 'react';
import type { Scenario } from '../scenario/model';
import { isUploadWorkload } from '../trace/types';
import { LabelTerm } from '../ui/glossary/Glossary';
import { runSweep, verdict, type SweepHandle, type SweepReport } from './crash';

type Mode = 'all' | 'every' | 'random';

function fmt(v: number, digits = 0): string {
  return v.toLocaleString('en-US', { maximumFractionDigits: digits });
}

export function CrashPanel({ scenario }: { scenario: Scenario }) {
  const ids = { mode: useId(), n: useId(), recut: useId() };
  const [mode, setMode] = useState<Mode>('every');
  const [n, setN] = useState(1);
  const [recut, setRecut] = useState(true);
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<SweepReport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const handle = useRef<SweepHandle | null>(null);
  const upload = isUploadWorkload(scenario.workload);

  // A new scenario: the old results no longer apply; a sweep in flight is stopped.
  useEffect(() => {
    setReport(null);
    setError(null);
    return () => {
      handle.current?.cancel();
      handle.current = null;
      setProgress(null);
    };
  }, [scenario]);

  const running = progress !== null;
  const start = () => {
    setReport(null);
    setError(null);
    setProgress({ done: 0, total: 0 });
    const options =
      mode === 'all'
        ? { all: true, recut }
        : mode === 'every'
          ? { every: Math.max(1, n), recut }
          : { random: Math.max(1, n), seed: 1, recut };
    handle.current = runSweep({ scenario, options }, (m) => {
      if (m.kind === 'progress') setProgress({ done: m.done, total: m.total });
      else {
        handle.current = null;
        setProgress(null);
        if (m.kind === 'done') setReport(m.report);
        else setError(m.message);
      }
    });
  };
  const cancel = () => {
    handle.current?.cancel();
    handle.current = null;
    setProgress(null);
  };
  const v = report ? verdict(report) : null;

  return (
    <details className="panel crash-panel" data-testid="crash-panel">
      <summary>
        {/* No term buttons inside a summary: a click there must open the panel. */}
        <h2>Crash test (power cuts)</h2>
      </summary>
      <p className="hint">
        Cut power at flash operations of this whole run, recover from the chip alone, and check every acknowledged write
        against the reference model.
      </p>
      {upload ? (
        <p className="muted">Not for uploaded traces yet (the sweep rebuilds the run from the scenario).</p>
      ) : (
        <>
          <div className="field-row crash-opts">
            <div className="field">
              <label htmlFor={ids.mode}>Cut points</label>
              <select
                id={ids.mode}
                value={mode}
                onChange={(e) => setMode(e.target.value as Mode)}
                disabled={running}
                data-testid="crash-mode"
              >
                <option value="all">every operation</option>
                <option value="every">every Nth operation</option>
                <option value="random">N random operations</option>
              </select>
            </div>
            {mode !== 'all' && (
              <div className="field narrow">
                <label htmlFor={ids.n}>N</label>
                <input
                  id={ids.n}
                  type="number"
                  min={1}
                  value={n}
                  disabled={running}
                  onChange={(e) => setN(Math.max(1, Math.floor(Number(e.target.value) || 1)))}
                />
              </div>
            )}
          </div>
          {/* The term is a button, which a <label> may not hold: the checkbox is named by the span. */}
          <span className="check">
            <input
              id={ids.recut}
              type="checkbox"
              checked={recut}
              disabled={running}
              aria-labelledby={`${ids.recut}-l`}
              onChange={(e) => setRecut(e.target.checked)}
            />{' '}
            <span id={`${ids.recut}-l`}>
              <LabelTerm label="Also cut once inside each recovery" />
            </span>
          </span>
          <div className="crash-actions">
            {running ? (
              <>
                <progress
                  max={progress.total || 1}
                  value={progress.done}
                  aria-label="Cut points tried"
                  data-testid="crash-progress"
                />
                <span className="muted">
                  {fmt(progress.done)} / {fmt(progress.total)}
                </span>
                <button type="button" onClick={cancel} data-testid="crash-cancel">
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" className="primary" onClick={start} data-testid="crash-run">
                Run crash test
              </button>
            )}
          </div>
        </>
      )}
      {error && (
        <p className="alert" role="alert">
          {error}
        </p>
      )}
      {report && v && (
        <div className="crash-report" data-testid="crash-report">
          <p className={v.ok ? 'recovery-verdict ok' : 'recovery-verdict bad'} data-testid="crash-verdict">
            {v.ok ? '✔ ' : '✘ '}
            {v.text}
          </p>
          <dl className="summary-list">
            <div>
              <dt>Cut points tried</dt>
              <dd>
                {fmt(report.points_tried)} of {fmt(report.run_ops)} ops
                {report.recut_points ? `, ${fmt(report.recut_points)} cut again in recovery` : ''}
              </dd>
            </div>
            <div>
              <dt>Acknowledged writes lost</dt>
              <dd>{fmt(report.acked_writes_lost)}</dd>
            </div>
            <div>
              <dt>Wrong data / torn pages mapped</dt>
              <dd>
                {fmt(report.wrong_reads)} / {fmt(report.torn_mapped)}
              </dd>
            </div>
            <div>
              <dt>Recovery pages read</dt>
              <dd>
                mean {fmt(report.recovery_pages_read.mean, 1)}, max {fmt(report.recovery_pages_read.max)}
              </dd>
            </div>
            <div>
              <dt>Recovery time</dt>
              <dd>
                mean {fmt(report.recovery_us.mean)} µs, max {fmt(report.recovery_us.max)} µs
              </dd>
            </div>
          </dl>
          {report.first_failures.length > 0 && (
            <ul className="line-errors">
              {report.first_failures.map((f, i) => (
                <li key={i}>{f}</li>
              ))}
            </ul>
          )}
        </div>
      )}
    </details>
  );
}
