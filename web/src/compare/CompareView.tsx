// Compare: two to six schemes (or parameter sets) on one workload, each run planned from
// itself alone (the core's plan_runs: scenario::plan::plan) with one workload space: by
// default the smallest own space among the runs, so all replay one request list (issue 38,
// as `ftl sweep`); "each scheme's own space" for the paper defaults. Runs all of them to the
// end in the worker (progress, cancel), then shows a metrics table with the best value
// in each row marked (latency percentiles included), cumulative counts and latency CDFs
// overlaid, and the device views side by side (canvas above 4,096 pages), stepped
// together. A sweep (one parameter over a list of values) sits below (SweepPanel).
import { useCallback, useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import type { SimClient } from '../sim/client';
import type { Thumb } from '../sim/protocol';
import {
  SCHEMES,
  defaultParams,
  describePrecondition,
  describeScenario,
  type Precondition,
  type Scenario,
} from '../scenario/model';
import type { CompareSpec } from '../scenario/share';
import {
  MAX_RUNS,
  MIN_RUNS,
  RUN_COLORS,
  chipBlocks,
  defaultRuns,
  logBlockCounts,
  logBlockSweep,
  runLabel,
  runParams,
  runScenario,
  type Run,
} from './compare';
import { planRuns, runOne, type PlanResult } from './runner';
import { PreconditionField } from './PreconditionField';
import { WorkloadSpaceField } from './WorkloadSpaceField';
import { SameBudgetField } from './SameBudgetField';
import { CompareGrids } from './CompareGrids';
import { CompareResults } from './CompareResults';
import { planSummary } from './planSummary';
import { FRAME_COUNT, SUMMARY_CELLS, SVG_MAX_PAGES, type Result } from './results';
import './compare.css';

// SweepPanel imports planSummary from here (see planSummary.ts).
export { planSummary } from './planSummary';

/**
 * A parameter box wide enough for its placeholder (the core's one-line help: "core default",
 * "default chip pages / 32"), which the fixed 96 px cut to "core defau…"; its title holds it too.
 */
const placeholderWidth = (hint: string | undefined) =>
  `calc(${Math.min(Math.max(hint?.length ?? 0, 8), 36)}ch + 1.5em)`;

export interface CompareViewProps {
  client: SimClient;
  base: Scenario;
  spec: CompareSpec;
  theme: string;
  onSpec: (spec: CompareSpec) => void;
  onClose: () => void;
  /** what sits below (the sweep panel, given by CompareScreen): the base scenario, and whether a run is under way */
  sweep?: (base: Scenario, busy: boolean) => ReactNode;
}

export function CompareView({ client, base: given, spec, theme, onSpec, onClose, sweep }: CompareViewProps) {
  const runs = spec.runs.length >= MIN_RUNS ? spec.runs : defaultRuns(given);
  // Preconditioning chosen here applies to every run (and travels in the link).
  const precondition: Precondition | undefined =
    spec.precondition === null ? undefined : (spec.precondition ?? given.precondition);
  const base: Scenario = { ...given, precondition };
  if (!precondition) delete base.precondition;
  const setRuns = (next: Run[]) => onSpec({ ...spec, runs: next });
  // A link without runs gets the defaults once, on opening (not on every later edit).
  const fillDefaultRuns = useEffectEvent(() => {
    if (spec.runs.length < MIN_RUNS) onSpec({ ...spec, runs });
  });
  useEffect(() => fillDefaultRuns(), []);

  const [results, setResults] = useState<Result[] | null>(null);
  const [planned, setPlanned] = useState<PlanResult | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [step, setStep] = useState(0);
  const [thumbs, setThumbs] = useState<(Thumb | null)[]>([]);
  const [shownGrids, setShownGrids] = useState(0);
  const cancel = useRef(false);
  const sids = useRef<number[]>([]);
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
    setStatus('Planning each run…');
    const scenarios = runs.map((r) => runScenario(base, r));
    let plan: PlanResult;
    try {
      plan = await planRuns(client, base, scenarios, spec.space ?? (spec.ownSpace ? 'own' : 'common'));
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
        out.push({ label, error: `cannot run: ${p.error}`, total: 0 });
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

  const maxTotal = Math.max(0, ...(results ?? []).map((r) => r.total));
  const canRunDefaults = chipBlocks(base);

  return (
    <main className="compare" aria-labelledby="compare-h" data-testid="compare-view" tabIndex={-1}>
      <div className="compare-head">
        <h2 id="compare-h">Compare schemes</h2>
        <p className="muted" data-testid="compare-workload">
          {planned
            ? planSummary(planned, base)
            : `Workload: ${describeScenario(base).split(' · ').slice(2).join(' · ')}. ${
                spec.space !== undefined
                  ? `Every run gets the workload space of ${spec.space.toLocaleString('en-US')} pages.`
                  : spec.ownSpace
                    ? "Each run gets its own scheme's logical space (the paper defaults)."
                    : 'Every run replays one request list, in the smallest logical space among the runs.'
              } Each run's chip is decided from that run alone when you run them.`}
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
                  title={p.hint}
                  style={{ width: placeholderWidth(p.hint) }}
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
        <SameBudgetField runs={runs} onRuns={setRuns} />
        <WorkloadSpaceField
          value={spec.space}
          onChange={(space) => {
            const next: CompareSpec = { ...spec, runs };
            if (space === undefined) delete next.space;
            else next.space = space;
            onSpec(next);
          }}
          testid="compare-space"
          own={!!spec.ownSpace}
          onOwn={(own) => {
            const next: CompareSpec = { ...spec, runs };
            if (own) next.ownSpace = true;
            else delete next.ownSpace;
            onSpec(next);
          }}
        />
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
          <CompareResults
            results={results}
            planned={planned}
            base={base}
            precondition={precondition}
            maxTotal={maxTotal}
          />
          <CompareGrids
            results={results}
            thumbs={thumbs}
            step={step}
            maxTotal={maxTotal}
            frameGap={frameGap}
            shownGrids={shownGrids}
            theme={theme}
            seekAll={seekAll}
            scrubTo={scrubTo}
          />
        </>
      )}

      {sweep?.(base, progress !== null)}
    </main>
  );
}
