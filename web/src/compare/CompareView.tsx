// Compare: two to six schemes (or parameter sets) on the same workload and chip. Runs
// all of them to the end in the worker (progress, cancel), then shows a metrics table
// with the best value in each row marked, cumulative erases overlaid, and the device
// views side by side, stepped together.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { Metrics, SeriesPoint, Snapshot } from '../sim/protocol';
import { SCHEMES, defaultParams, describeScenario, type Scenario } from '../scenario/model';
import type { CompareSpec } from '../scenario/share';
import { DeviceGrid } from '../viz/DeviceGrid';
import { download, fileStem, metricsCsv, pageBackground, svgToPng, svgToString } from '../export/export';
import { LineChart } from './LineChart';
import {
  MAX_RUNS,
  METRIC_ROWS,
  MIN_RUNS,
  RUN_COLORS,
  bestOf,
  defaultRuns,
  logBlockSweep,
  metricAt,
  runLabel,
  runParams,
  runScenario,
  type Run,
} from './compare';

interface Result {
  label: string;
  sid?: number;
  error?: string;
  total: number;
  metrics?: Metrics;
  series?: SeriesPoint[];
  snapshot?: Snapshot;
  blocks?: number;
  ppb?: number;
}

type ChartKey = 'erases' | 'page_programs' | 'elapsed_us' | 'wa';
const CHARTS: { key: ChartKey; title: string; y: string; value: (p: SeriesPoint) => number }[] = [
  { key: 'erases', title: 'Cumulative block erases', y: 'erases', value: (p) => p.erases },
  { key: 'page_programs', title: 'Cumulative page programs', y: 'programs', value: (p) => p.page_programs },
  { key: 'elapsed_us', title: 'Cumulative flash time (ms)', y: 'ms', value: (p) => p.elapsed_us / 1000 },
  { key: 'wa', title: 'Write amplification so far', y: 'programs ÷ host writes', value: (p) => (p.host_writes > 0 ? p.page_programs / p.host_writes : 0) },
];

export interface CompareViewProps {
  client: SimClient;
  base: Scenario;
  spec: CompareSpec;
  theme: string;
  onSpec: (spec: CompareSpec) => void;
  onClose: () => void;
}

/** Width of an element that may mount later (a callback ref). */
function useWidth<T extends HTMLElement>() {
  const [w, setW] = useState(0);
  const ro = useRef<ResizeObserver | null>(null);
  const ref = useCallback((el: T | null) => {
    ro.current?.disconnect();
    ro.current = null;
    if (!el) return;
    const update = () => setW(Math.floor(el.getBoundingClientRect().width));
    ro.current = new ResizeObserver(update);
    ro.current.observe(el);
    update();
  }, []);
  useEffect(() => () => ro.current?.disconnect(), []);
  return [ref, w] as const;
}

export function CompareView({ client, base, spec, theme, onSpec, onClose }: CompareViewProps) {
  const runs = spec.runs.length >= MIN_RUNS ? spec.runs : defaultRuns(base);
  const setRuns = (next: Run[]) => onSpec({ runs: next });
  useEffect(() => {
    if (spec.runs.length < MIN_RUNS) onSpec({ runs });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const [results, setResults] = useState<Result[] | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [step, setStep] = useState(0);
  const [chartKey, setChartKey] = useState<ChartKey>('erases');
  const cancel = useRef(false);
  const sids = useRef<number[]>([]);
  const [chartRef, chartWidth] = useWidth<HTMLDivElement>();
  const [gridsRef, gridsWidth] = useWidth<HTMLDivElement>();
  const ids = useId();

  const disposeAll = useCallback(() => {
    for (const sid of sids.current) void client.dispose(sid).catch(() => undefined);
    sids.current = [];
  }, [client]);
  useEffect(() => () => disposeAll(), [disposeAll]);

  const runAll = async () => {
    cancel.current = false;
    disposeAll();
    setResults(null);
    setProgress(0);
    setStatus('Running…');
    const out: Result[] = [];
    for (const [i, run] of runs.entries()) {
      const label = runLabel(run);
      try {
        const created = await client.create(runScenario(base, run));
        sids.current.push(created.sid);
        const total = created.info.total_requests;
        const chunk = Math.max(500, Math.ceil(total / 40));
        let done = 0;
        let metrics: Metrics = created.snapshot.metrics;
        while (done < total) {
          if (cancel.current) break;
          const r = await client.run(created.sid, chunk);
          done = r.step;
          metrics = r.metrics;
          setProgress((i + done / Math.max(1, total)) / runs.length);
          if (r.step >= r.total) break;
        }
        if (cancel.current) break;
        const series = await client.series(created.sid);
        out.push({ label, sid: created.sid, total, metrics, series, blocks: created.info.chip.blocks, ppb: created.info.chip.pages_per_block });
      } catch (e) {
        out.push({ label, error: (e as Error).message, total: 0 });
      }
    }
    if (cancel.current) {
      disposeAll();
      setProgress(null);
      setStatus('Cancelled.');
      return;
    }
    const end = Math.max(0, ...out.map((r) => r.total));
    // Device views at the end of the run, all at the same step.
    for (const r of out) if (r.sid !== undefined) r.snapshot = (await client.seek(r.sid, end)).snapshot;
    setStep(end);
    setResults(out);
    setProgress(null);
    setStatus(`Done: ${out.length} runs of ${end.toLocaleString('en-US')} requests.`);
  };

  // Synchronised stepping: every device view goes to the same request.
  const seekAll = async (target: number) => {
    if (!results) return;
    const max = Math.max(0, ...results.map((r) => r.total));
    const t = Math.max(0, Math.min(max, target));
    setStep(t);
    const next = await Promise.all(results.map(async (r) => (r.sid === undefined ? r : { ...r, snapshot: (await client.seek(r.sid, t)).snapshot })));
    setResults(next);
  };

  const ok = results?.filter((r) => r.metrics) ?? [];
  const maxTotal = Math.max(0, ...(results ?? []).map((r) => r.total));
  const stem = fileStem('ftlscope-compare', base.chip.preset, base.workload.kind);
  const chartSvg = () => document.querySelector<SVGSVGElement>('[data-testid=compare-chart]');

  return (
    <main className="compare" aria-labelledby="compare-h" data-testid="compare-view">
      <div className="compare-head">
        <h2 id="compare-h">Compare schemes</h2>
        <p className="muted">
          Same workload and chip for every run: {describeScenario(base).split(' · ').slice(1).join(' · ')}
        </p>
        <button type="button" onClick={onClose} data-testid="compare-close">
          Back to the single view
        </button>
      </div>

      <fieldset className="compare-runs" disabled={progress !== null}>
        <legend>Runs ({runs.length} of at most {MAX_RUNS})</legend>
        {runs.map((run, i) => (
          <div className="compare-run" key={i} data-testid={`compare-run-${i}`}>
            <span className="swatch" style={{ background: RUN_COLORS[i] }} aria-hidden="true" />
            <label>
              <span className="visually-hidden">Scheme of run {i + 1}</span>
              <select
                value={run.scheme}
                onChange={(e) => setRuns(runs.map((r, j) => (j === i ? { scheme: e.target.value, params: defaultParams(e.target.value) } : r)))}
                data-testid={`compare-scheme-${i}`}
              >
                {SCHEMES.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.label}
                  </option>
                ))}
              </select>
            </label>
            {runParams(run.scheme).map((p) => (
              <label key={p.key} className="compare-param">
                {p.label}
                <input
                  type="number"
                  id={`${ids}-${i}-${p.key}`}
                  value={run.params[p.key] ?? ''}
                  min={p.min}
                  max={p.max}
                  step={p.step}
                  placeholder={p.hint}
                  onChange={(e) => {
                    const v = e.target.value === '' ? undefined : Number(e.target.value);
                    setRuns(runs.map((r, j) => (j === i ? { ...r, params: { ...r.params, [p.key]: v } } : r)));
                  }}
                />
              </label>
            ))}
            <button type="button" onClick={() => setRuns(runs.filter((_, j) => j !== i))} disabled={runs.length <= MIN_RUNS} aria-label={`Remove run ${i + 1}`}>
              Remove
            </button>
          </div>
        ))}
        <div className="compare-actions">
          <button type="button" onClick={() => setRuns([...runs, { ...runs[runs.length - 1], params: { ...runs[runs.length - 1].params } }])} disabled={runs.length >= MAX_RUNS}>
            Add run
          </button>
          {runParams(runs[0].scheme).some((p) => p.key === 'log_blocks') && (
            <button type="button" onClick={() => setRuns(logBlockSweep(runs[0].scheme, runs[0].params))} data-testid="compare-sweep">
              {runs[0].scheme.toUpperCase()} with 4, 8, 16 log blocks
            </button>
          )}
        </div>
      </fieldset>

      <div className="compare-go">
        {progress === null ? (
          <button type="button" className="primary" onClick={() => void runAll()} data-testid="compare-run">
            Run all to the end
          </button>
        ) : (
          <button type="button" onClick={() => (cancel.current = true)} data-testid="compare-cancel">
            Cancel
          </button>
        )}
        {progress !== null && <progress max={1} value={progress} aria-label="Compare progress" data-testid="compare-progress" />}
        <span role="status" className="muted" data-testid="compare-status">
          {status}
        </span>
      </div>

      {results && (
        <>
          <div className={results.length > 3 ? 'compare-top stacked' : 'compare-top'}>
          <div className="compare-results">
            <table className="compare-table" data-testid="compare-table">
              <caption>
                After {maxTotal.toLocaleString('en-US')} requests. <span className="best-key">★ best</span> (lowest) in each row.
              </caption>
              <thead>
                <tr>
                  <th scope="col">Metric</th>
                  {results.map((r, i) => (
                    <th scope="col" key={i}>
                      <span className="swatch" style={{ background: RUN_COLORS[i] }} aria-hidden="true" /> {r.label}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {METRIC_ROWS.map((row) => {
                  const values = results.map((r) => metricAt(r.metrics, row.path));
                  const best = bestOf(values);
                  return (
                    <tr key={row.key} data-testid={`compare-row-${row.key}`}>
                      <th scope="row">{row.label}</th>
                      {values.map((v, i) => (
                        <td key={i} className={best.has(i) ? 'best' : undefined} data-best={best.has(i) || undefined}>
                          {results[i].error || v === undefined ? '—' : row.format(v)}
                          {best.has(i) && <span aria-label="best"> ★</span>}
                        </td>
                      ))}
                    </tr>
                  );
                })}
              </tbody>
            </table>
            {results.some((r) => r.error) && (
              <div role="alert" data-testid="compare-errors">
                <ul className="form-errors">
                  {results.flatMap((r, i) => (r.error ? [<li key={i}>{`${r.label}: ${r.error}`}</li>] : []))}
                </ul>
              </div>
            )}
            <div className="compare-exports">
              <button type="button" data-testid="compare-csv" onClick={() => download(`${stem}.csv`, metricsCsv(ok.map((r) => ({ name: r.label, metrics: r.metrics }))), 'text/csv')}>
                Table (CSV)
              </button>
              <button
                type="button"
                data-testid="compare-json"
                onClick={() => download(`${stem}.json`, JSON.stringify({ base, runs: ok.map((r) => ({ label: r.label, metrics: r.metrics })) }, null, 2) + '\n', 'application/json')}
              >
                Table (JSON)
              </button>
              <button
                type="button"
                data-testid="compare-chart-svg"
                onClick={() => {
                  const svg = chartSvg();
                  if (svg) download(`${stem}-${chartKey}.svg`, svgToString(svg, pageBackground()), 'image/svg+xml');
                }}
              >
                Chart (SVG)
              </button>
              <button
                type="button"
                data-testid="compare-chart-png"
                onClick={async () => {
                  const svg = chartSvg();
                  if (svg) download(`${stem}-${chartKey}.png`, await svgToPng(svg, pageBackground()));
                }}
              >
                Chart (PNG)
              </button>
            </div>
          </div>

          <div className="compare-chart" ref={chartRef}>
            <label className="chart-pick">
              Chart
              <select value={chartKey} onChange={(e) => setChartKey(e.target.value as ChartKey)} data-testid="compare-chart-pick">
                {CHARTS.map((c) => (
                  <option key={c.key} value={c.key}>
                    {c.title}
                  </option>
                ))}
              </select>
            </label>
            {chartWidth > 0 &&
              (() => {
                const chart = CHARTS.find((c) => c.key === chartKey) ?? CHARTS[0];
                return (
                  <LineChart
                    testId="compare-chart"
                    title={chart.title}
                    xLabel="requests"
                    yLabel={chart.y}
                    width={chartWidth}
                    height={260}
                    series={results.flatMap((r, i) =>
                      r.series ? [{ label: r.label, color: RUN_COLORS[i], points: r.series.map((p) => ({ x: p.step, y: chart.value(p) })) }] : [],
                    )}
                  />
                );
              })()}
          </div>
          </div>

          <div className="compare-step" role="toolbar" aria-label="Step every run together">
            <button type="button" onClick={() => void seekAll(step - 1)} disabled={step <= 0}>
              ◀︎ Back
            </button>
            <button type="button" onClick={() => void seekAll(step + 1)} disabled={step >= maxTotal} data-testid="compare-step">
              Step request ▶︎
            </button>
            <label className="scrubber">
              <span className="visually-hidden">Request shown in every run</span>
              <input type="range" min={0} max={maxTotal} value={step} onChange={(e) => void seekAll(Number(e.target.value))} data-testid="compare-scrubber" />
            </label>
            <span className="counter" data-testid="compare-counter">
              Request <strong>{step}</strong> / {maxTotal}
            </span>
          </div>
          <div className="compare-grids" ref={gridsRef} style={{ gridTemplateColumns: `repeat(${Math.min(results.length, 3)}, minmax(0, 1fr))` }}>
            {results.map((r, i) => {
              const cols = Math.min(results.length, 3);
              const w = Math.floor((gridsWidth - (cols - 1) * 12) / cols) - 14;
              return (
                <figure key={i} className="compare-grid" data-run={i} data-testid={`compare-grid-${i}`}>
                  <figcaption>
                    <span className="swatch" style={{ background: RUN_COLORS[i] }} aria-hidden="true" /> {r.label}
                    {r.snapshot && <span className="muted"> · {String(metricAt(r.snapshot.metrics, 'erases') ?? '—')} erases</span>}
                  </figcaption>
                  {r.snapshot && r.blocks && r.ppb && w > 40 ? (
                    <DeviceGrid
                      blocks={r.blocks}
                      pagesPerBlock={r.ppb}
                      pageStates={r.snapshot.pageStates}
                      pageLpns={r.snapshot.pageLpns}
                      blockRoles={r.snapshot.blockRoles}
                      eraseCounts={r.snapshot.eraseCounts}
                      owners={r.snapshot.owners}
                      lastEvent={null}
                      transitionMs={0}
                      width={w}
                      height={200}
                      theme={theme}
                    />
                  ) : (
                    <p className="muted">{r.error ? 'Could not run.' : ''}</p>
                  )}
                </figure>
              );
            })}
          </div>
        </>
      )}
    </main>
  );
}
