// Compare: two to six schemes (or parameter sets) on one workload and one chip, decided
// once for all runs (the core's plan_runs: trace::fit::plan). Runs all of them to the
// end in the worker (progress, cancel), then shows a metrics table with the best value
// in each row marked (latency percentiles included), cumulative counts and latency CDFs
// overlaid, and the device views side by side (canvas above 4,096 pages), stepped
// together. A sweep (one parameter over a list of values) sits below (SweepPanel).
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { LatencyHistogram, Metrics, SeriesPoint, SessionInfo, Thumb } from '../sim/protocol';
import {
  SCHEMES,
  defaultParams,
  describePrecondition,
  describeScenario,
  type Precondition,
  type Scenario,
} from '../scenario/model';
import type { CompareSpec } from '../scenario/share';
import { DeviceGrid } from '../viz/DeviceGrid';
import { CanvasGrid } from '../viz/CanvasGrid';
import { download, fileStem, metricsCsv, pageBackground, svgToPng, svgToString } from '../export/export';
import { LineChart } from './LineChart';
import {
  MAX_RUNS,
  METRIC_ROWS,
  MIN_RUNS,
  RUN_COLORS,
  bestOf,
  cdfPoints,
  chipBlocks,
  defaultRuns,
  latencyStats,
  logBlockCounts,
  logBlockSweep,
  metricAt,
  runLabel,
  runParams,
  runScenario,
  type Run,
} from './compare';
import { planRuns, runOne, type PlanResult } from './runner';
import { SweepPanel } from './SweepPanel';
import { PreconditionField } from './PreconditionField';
import { resolvedConfig } from '../export/config';
import './compare.css';

/** Above this many pages a run's grid is a canvas (as in the single view). */
const SVG_MAX_PAGES = 4096;
/**
 * Big chips: each block drawn as this many cells summarising its pages (a 300-pixel
 * thumbnail cannot show 128 pages a block anyway), and the summaries kept at this many
 * evenly spaced requests, so the scrubber moves every run at once without replaying.
 */
const SUMMARY_CELLS = 8;
const FRAME_COUNT = 20;

interface Result {
  label: string;
  sid?: number;
  error?: string;
  total: number;
  metrics?: Metrics;
  series?: SeriesPoint[];
  latency?: LatencyHistogram;
  info?: SessionInfo;
  scenario?: Scenario;
  frames?: Thumb[];
}

type ChartKey = 'erases' | 'page_programs' | 'elapsed_us' | 'wa' | 'cdf_write' | 'cdf_read';
const CHARTS: { key: ChartKey; title: string; y: string; value?: (p: SeriesPoint) => number }[] = [
  { key: 'erases', title: 'Cumulative block erases', y: 'erases', value: (p) => p.erases },
  { key: 'page_programs', title: 'Cumulative page programs', y: 'programs', value: (p) => p.page_programs },
  { key: 'elapsed_us', title: 'Cumulative flash time (ms)', y: 'ms', value: (p) => p.elapsed_us / 1000 },
  {
    key: 'wa',
    title: 'Write amplification so far',
    y: 'programs ÷ host writes',
    value: (p) => (p.host_writes > 0 ? p.page_programs / p.host_writes : 0),
  },
  { key: 'cdf_write', title: 'Write response-time CDF', y: 'writes (% ≤ time)' },
  { key: 'cdf_read', title: 'Read response-time CDF', y: 'reads (% ≤ time)' },
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

/** "one chip for every run: 16,384 blocks × 128 pages · workload ... in N logical pages ..." */
export function planSummary(p: PlanResult, base: Scenario): string {
  const first = p.plan.runs.find((r) => !r.error);
  const chip = first ? `${first.blocks.toLocaleString('en-US')} blocks × ${first.pages_per_block} pages` : '—';
  const parts = [
    p.plan.one_chip ? `One chip for every run: ${base.chip.preset} ${chip}` : 'Chips differ only in pages per block',
    `logical space of the workload ${p.plan.logical_pages.toLocaleString('en-US')} pages (the smallest space of the runs)`,
  ];
  if (p.trace) {
    const fp = (p.trace as { fitted_footprint_pages?: number }).fitted_footprint_pages;
    parts.push(
      `footprint ${fp?.toLocaleString('en-US') ?? '?'} distinct pages in ${p.trace.fitted_footprint_blocks?.toLocaleString('en-US') ?? '?'} logical blocks`,
    );
    if (p.trace.fit_note) parts.push(p.trace.fit_note);
  }
  return parts.join(' · ');
}

export function CompareView({ client, base: given, spec, theme, onSpec, onClose }: CompareViewProps) {
  const runs = spec.runs.length >= MIN_RUNS ? spec.runs : defaultRuns(given);
  // Preconditioning chosen here applies to every run (and travels in the link).
  const precondition: Precondition | undefined =
    spec.precondition === null ? undefined : (spec.precondition ?? given.precondition);
  const base: Scenario = { ...given, precondition };
  if (!precondition) delete base.precondition;
  const setRuns = (next: Run[]) => onSpec({ ...spec, runs: next });
  useEffect(() => {
    if (spec.runs.length < MIN_RUNS) onSpec({ ...spec, runs });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const [results, setResults] = useState<Result[] | null>(null);
  const [planned, setPlanned] = useState<PlanResult | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [step, setStep] = useState(0);
  const [thumbs, setThumbs] = useState<(Thumb | null)[]>([]);
  const [shownGrids, setShownGrids] = useState(0);
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
    setPlanned(null);
    setThumbs([]);
    setShownGrids(0);
    setProgress(0);
    setStatus('Deciding one chip and one workload for every run…');
    const scenarios = runs.map((r) => runScenario(base, r));
    let plan: PlanResult;
    try {
      plan = await planRuns(client, base, scenarios);
    } catch (e) {
      setProgress(null);
      setStatus(`Cannot compare: ${(e as Error).message}`);
      return;
    }
    setPlanned(plan);
    setStatus('Running…');
    const firstRun = plan.plan.runs.find((r) => !r.error);
    const big = !!firstRun && firstRun.blocks * firstRun.pages_per_block > SVG_MAX_PAGES;
    const out: Result[] = [];
    for (const [i, run] of runs.entries()) {
      const label = runLabel(run);
      const p = plan.planned[i];
      if ('error' in p) {
        out.push({ label, error: `cannot hold the comparison's workload: ${p.error}`, total: 0 });
        continue;
      }
      try {
        const o = await runOne(client, p.scenario, {
          keep: true,
          cancelled: () => cancel.current,
          progress: (done, total) => setProgress((i + done / Math.max(1, total)) / runs.length),
          frames: big ? { count: FRAME_COUNT, cells: SUMMARY_CELLS } : undefined,
        });
        if (o.sid !== undefined) sids.current.push(o.sid);
        out.push({
          label,
          sid: o.sid,
          total: o.total,
          metrics: o.metrics,
          series: o.series,
          latency: o.latency,
          info: o.info,
          scenario: p.scenario,
          frames: o.frames,
        });
      } catch (e) {
        out.push({ label, error: (e as Error).message, total: 0 });
      }
      if (cancel.current) break;
    }
    if (cancel.current) {
      disposeAll();
      setProgress(null);
      setStatus('Cancelled.');
      return;
    }
    const end = Math.max(0, ...out.map((r) => r.total));
    setStep(end);
    setResults(out);
    setThumbs(
      out.map((r) =>
        r.frames?.length && r.frames[r.frames.length - 1].step === end ? r.frames[r.frames.length - 1] : null,
      ),
    );
    setProgress(null);
    setStatus(
      `Done: ${out.filter((r) => !r.error).length} of ${out.length} runs, ${end.toLocaleString('en-US')} requests each.`,
    );
    // Device views at the end, each drawn when it arrives (no long task for six big chips).
    if (!big) void seekAll(end, out);
  };

  /** Big chips: the kept summary at the request nearest `target` for every run, at once. */
  const frameGap = results?.find((r) => r.frames?.length)?.frames?.[1]?.step ?? 0;
  const scrubTo = (target: number) => {
    if (!results) return;
    const framed = results.some((r) => r.frames?.length);
    if (!framed) return void seekAll(target);
    let best = 0;
    for (const r of results) {
      const f = r.frames;
      if (!f?.length) continue;
      let k = 0;
      for (let j = 1; j < f.length; j++) if (Math.abs(f[j].step - target) < Math.abs(f[k].step - target)) k = j;
      best = f[k].step;
      break;
    }
    setStep(best);
    setThumbs(results.map((r) => r.frames?.find((f) => f.step === best) ?? null));
  };

  // Synchronised stepping: every device view goes to the same request. While the worker
  // is busy, only the latest target is kept (dragging the scrubber never queues up).
  const seeking = useRef<{ busy: boolean; next: number | null }>({ busy: false, next: null });
  const seekAll = async (target: number, rs: Result[] | null = results) => {
    if (!rs) return;
    const max = Math.max(0, ...rs.map((r) => r.total));
    const t = Math.max(0, Math.min(max, target));
    setStep(t);
    const s = seeking.current;
    if (s.busy) {
      s.next = t;
      return;
    }
    s.busy = true;
    try {
      let want: number | null = t;
      while (want !== null) {
        const at = want;
        s.next = null;
        await Promise.all(
          rs.map(async (r, i) => {
            if (r.sid === undefined) return;
            const th = await client.thumb(r.sid, at, r.frames ? SUMMARY_CELLS : undefined).catch(() => null);
            if (th) setThumbs((prev) => prev.map((x, j) => (j === i ? th : x)));
          }),
        );
        want = s.next;
      }
    } finally {
      s.busy = false;
    }
  };

  // Mount the grids one per frame: six canvases of two million pages each in one commit
  // would make one long task.
  useEffect(() => {
    if (!results || shownGrids >= results.length) return;
    const id = requestAnimationFrame(() => setShownGrids((n) => n + 1));
    return () => cancelAnimationFrame(id);
  }, [results, shownGrids]);

  const ok = results?.filter((r) => r.metrics) ?? [];
  const maxTotal = Math.max(0, ...(results ?? []).map((r) => r.total));
  const stem = fileStem('ftlscope-compare', base.chip.preset, base.workload.kind);
  const chartSvg = () => document.querySelector<SVGSVGElement>('[data-testid=compare-chart]');
  const tableRows = (results ?? []).map((r) => ({
    ...(r.metrics ?? {}),
    lat: r.latency ? { write: latencyStats(r.latency.write), read: latencyStats(r.latency.read) } : undefined,
  }));
  const config = (r: Result) =>
    resolvedConfig({ scenario: r.scenario ?? base, info: r.info, plan: planned?.plan, trace: planned?.trace });
  const canRunDefaults = chipBlocks(base);

  return (
    <main className="compare" aria-labelledby="compare-h" data-testid="compare-view">
      <div className="compare-head">
        <h2 id="compare-h">Compare schemes</h2>
        <p className="muted" data-testid="compare-workload">
          {planned
            ? planSummary(planned, base)
            : `Workload: ${describeScenario(base).split(' · ').slice(2).join(' · ')}. One chip and one workload space are decided for all runs when you run them.`}
          {' · '}
          {describePrecondition(precondition)}
        </p>
        <button type="button" onClick={onClose} data-testid="compare-close">
          Back to the single view
        </button>
      </div>

      <fieldset className="compare-runs" disabled={progress !== null}>
        <legend>
          Runs ({runs.length} of at most {MAX_RUNS})
        </legend>
        {runs.map((run, i) => (
          <div className="compare-run" key={i} data-testid={`compare-run-${i}`}>
            <span className="swatch" style={{ background: RUN_COLORS[i] }} aria-hidden="true" />
            <label>
              <span className="visually-hidden">Scheme of run {i + 1}</span>
              <select
                value={run.scheme}
                onChange={(e) =>
                  setRuns(
                    runs.map((r, j) =>
                      j === i ? { scheme: e.target.value, params: defaultParams(e.target.value) } : r,
                    ),
                  )
                }
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
            <button
              type="button"
              onClick={() => setRuns(runs.filter((_, j) => j !== i))}
              disabled={runs.length <= MIN_RUNS}
              aria-label={`Remove run ${i + 1}`}
            >
              Remove
            </button>
          </div>
        ))}
        <div className="compare-actions">
          <button
            type="button"
            onClick={() =>
              setRuns([...runs, { ...runs[runs.length - 1], params: { ...runs[runs.length - 1].params } }])
            }
            disabled={runs.length >= MAX_RUNS}
          >
            Add run
          </button>
          {runParams(runs[0].scheme).some((p) => p.key === 'log_blocks') && (
            <button
              type="button"
              onClick={() => setRuns(logBlockSweep(runs[0].scheme, runs[0].params, logBlockCounts(canRunDefaults)))}
              data-testid="compare-sweep"
            >
              {runs[0].scheme.toUpperCase()} with {logBlockCounts(canRunDefaults).join(', ')} log blocks
            </button>
          )}
        </div>
        <PreconditionField value={precondition} onChange={(p) => onSpec({ ...spec, runs, precondition: p ?? null })} />
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
        {progress !== null && (
          <progress max={1} value={progress} aria-label="Compare progress" data-testid="compare-progress" />
        )}
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
                  After {maxTotal.toLocaleString('en-US')} requests
                  {precondition ? ' (measured after preconditioning)' : ''}. <span className="best-key">★ best</span>{' '}
                  (lowest) in each row.
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
                    const values = tableRows.map((t) => metricAt(t, row.path));
                    const best = bestOf(values.map((v, i) => (results[i].error ? undefined : v)));
                    return (
                      <tr key={row.key} data-testid={`compare-row-${row.key}`}>
                        <th scope="row">{row.label}</th>
                        {values.map((v, i) => (
                          <td
                            key={i}
                            className={best.has(i) ? 'best' : undefined}
                            data-best={best.has(i) || undefined}
                            data-value={v ?? ''}
                          >
                            {results[i].error || v === undefined ? '—' : row.format(v)}
                            {best.has(i) && <span aria-label="best"> ★</span>}
                          </td>
                        ))}
                      </tr>
                    );
                  })}
                  <tr data-testid="compare-row-logical">
                    <th scope="row">Own logical space (pages)</th>
                    {results.map((r, i) => (
                      <td key={i}>{r.info ? r.info.logical_pages.toLocaleString('en-US') : '—'}</td>
                    ))}
                  </tr>
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
                <button
                  type="button"
                  data-testid="compare-csv"
                  onClick={() =>
                    download(
                      `${stem}.csv`,
                      metricsCsv(
                        ok.map((r) => ({
                          name: r.label,
                          metrics: {
                            configuration: config(r),
                            ...r.metrics,
                            latency_percentiles_us: tableRows[results.indexOf(r)].lat,
                          },
                        })),
                      ),
                      'text/csv',
                    )
                  }
                >
                  Table (CSV)
                </button>
                <button
                  type="button"
                  data-testid="compare-json"
                  onClick={() =>
                    download(
                      `${stem}.json`,
                      JSON.stringify(
                        {
                          plan: planned?.plan,
                          workload: planned ? planSummary(planned, base) : undefined,
                          runs: results.map((r, i) => ({
                            label: r.label,
                            configuration: config(r),
                            error: r.error,
                            metrics: r.metrics,
                            latency_percentiles_us: tableRows[i].lat,
                          })),
                        },
                        null,
                        2,
                      ) + '\n',
                      'application/json',
                    )
                  }
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
                <select
                  value={chartKey}
                  onChange={(e) => setChartKey(e.target.value as ChartKey)}
                  data-testid="compare-chart-pick"
                >
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
                  const cdf = chart.key === 'cdf_write' || chart.key === 'cdf_read';
                  const series = results.flatMap((r, i) => {
                    if (cdf) {
                      const h = r.latency?.[chart.key === 'cdf_write' ? 'write' : 'read'] ?? [];
                      return h.length
                        ? [{ label: r.label, color: RUN_COLORS[i], points: cdfPoints(h).map(([x, y]) => ({ x, y })) }]
                        : [];
                    }
                    const value = chart.value!;
                    return r.series
                      ? [
                          {
                            label: r.label,
                            color: RUN_COLORS[i],
                            points: r.series.map((p) => ({ x: p.step, y: value(p) })),
                          },
                        ]
                      : [];
                  });
                  return (
                    <LineChart
                      testId="compare-chart"
                      title={chart.title}
                      xLabel={cdf ? 'response time (µs, log scale)' : 'requests'}
                      yLabel={chart.y}
                      width={chartWidth}
                      height={260}
                      series={series}
                      xLog={cdf}
                      step={cdf}
                    />
                  );
                })()}
            </div>
          </div>

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
              invalid, erased); the scrubber moves every run at once in steps of {frameGap.toLocaleString('en-US')}{' '}
              requests (states kept during the run); Back and Step go to any request.
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
                          pageStates={th.pageStates}
                          pageLpns={th.pageLpns}
                          blockRoles={th.blockRoles}
                          eraseCounts={th.eraseCounts}
                          owners={th.owners}
                          width={w}
                          height={200}
                          theme={theme}
                        />
                      </div>
                    ) : (
                      <DeviceGrid
                        blocks={blocks}
                        pagesPerBlock={ppb}
                        pageStates={th.pageStates}
                        pageLpns={th.pageLpns}
                        blockRoles={th.blockRoles}
                        eraseCounts={th.eraseCounts}
                        owners={th.owners}
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
      )}

      <SweepPanel client={client} base={base} disabled={progress !== null} theme={theme} />
    </main>
  );
}
