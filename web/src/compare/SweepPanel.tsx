// A sweep in the app: one parameter over a list of values, for several schemes; each point
// planned from itself alone (the core's plan_runs), so a point equals the same run alone and
// the same sweep in another order; erases, write amplification, mean, p99, p99.9 and worst
// write latency plotted against the parameter (FAST Figure 10 in one click).
import { useMemo, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import { describePrecondition, describeScenario, schemeSpec, type Scenario } from '../scenario/model';
import { COMPARE_DEFAULTS } from '../scenario/presets';
import { download, fileStem } from '../ui/download';
import { pageBackground, svgToPng, svgToString } from '../export/export';
import { resolvedConfig } from '../export/config';
import { LineChart } from './LineChart';
import { RUN_COLORS, latencyStats, metricAt } from './compare';
import { planRuns, runOne, type PlanResult } from './runner';
import {
  SWEEP_METRICS,
  sweepParams,
  parseValues,
  sweepCsv,
  sweepParam,
  sweepPoints,
  sweepSchemes,
  rowValue,
  type SweepRow,
} from './sweep';
import { planSummary } from './CompareView';
import { WorkloadSpaceField } from './WorkloadSpaceField';

export function SweepPanel({
  client,
  base,
  disabled,
}: {
  client: SimClient;
  base: Scenario;
  disabled: boolean;
  theme: string;
}) {
  const [param, setParam] = useState('log_blocks');
  const [space, setSpace] = useState<number | undefined>(undefined);
  const [valuesText, setValuesText] = useState(sweepParam('log_blocks').defaults);
  const available = useMemo(() => sweepSchemes(param), [param]);
  const [schemes, setSchemes] = useState<string[]>(COMPARE_DEFAULTS.sweepSchemes);
  const chosen = schemes.filter((s) => available.includes(s));
  const parsed = parseValues(valuesText);
  const [rows, setRows] = useState<SweepRow[] | null>(null);
  const [plan, setPlan] = useState<PlanResult | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [status, setStatus] = useState('');
  const [metric, setMetric] = useState(SWEEP_METRICS[0].key);
  const cancel = useRef(false);
  const [width, setWidth] = useState(0);
  const ro = useRef<ResizeObserver | null>(null);
  const chartBox = (el: HTMLDivElement | null) => {
    ro.current?.disconnect();
    if (!el) return;
    ro.current = new ResizeObserver(() => setWidth(Math.floor(el.getBoundingClientRect().width)));
    ro.current.observe(el);
    setWidth(Math.floor(el.getBoundingClientRect().width));
  };

  const run = async () => {
    if ('error' in parsed || chosen.length === 0) return;
    cancel.current = false;
    setRows(null);
    setPlan(null);
    setProgress(0);
    setStatus('Planning each point alone…');
    const points = sweepPoints(base, chosen, param, parsed.values);
    let p: PlanResult;
    try {
      p = await planRuns(
        client,
        base,
        points.map((x) => x.scenario),
        space ?? 0,
      );
    } catch (e) {
      setProgress(null);
      setStatus(`Cannot sweep: ${(e as Error).message}`);
      return;
    }
    setPlan(p);
    const out: SweepRow[] = [];
    for (const [i, pt] of points.entries()) {
      if (cancel.current) break;
      const planned = p.planned[i];
      const pr = p.plan.runs[i];
      const row: SweepRow = {
        scheme: pt.scheme,
        value: pt.value,
        blocks: pr?.blocks,
        pages_per_block: pr?.pages_per_block,
        logical_pages: pr?.logical_pages ?? undefined,
        workload_pages: pr?.workload_pages ?? undefined,
      };
      if ('error' in planned) {
        row.error = planned.error;
      } else {
        setStatus(
          `Running ${schemeSpec(pt.scheme)?.label ?? pt.scheme} with ${sweepParam(param).label.toLowerCase()} ${pt.value}…`,
        );
        try {
          const o = await runOne(client, planned.scenario, {
            keep: false,
            cancelled: () => cancel.current,
            progress: (done, total) => setProgress((i + done / Math.max(1, total)) / points.length),
          });
          row.metrics = o.metrics;
          row.request_hash = o.info?.request_hash;
          if (o.latency) row.lat = { write: latencyStats(o.latency.write), read: latencyStats(o.latency.read) };
        } catch (e) {
          row.error = (e as Error).message;
        }
      }
      out.push(row);
      setRows([...out]);
    }
    setProgress(null);
    setStatus(
      cancel.current ? 'Cancelled.' : `Done: ${out.filter((r) => r.metrics).length} of ${points.length} points.`,
    );
  };

  const m = SWEEP_METRICS.find((x) => x.key === metric) ?? SWEEP_METRICS[0];
  const label = sweepParam(param).label;
  const series = chosen.map((scheme, i) => ({
    label: schemeSpec(scheme)?.label ?? scheme,
    color: RUN_COLORS[i % RUN_COLORS.length],
    points: (rows ?? [])
      .filter((r) => r.scheme === scheme && r.metrics)
      .map((r) => ({ x: r.value, y: rowValue(r, m.path) ?? 0 })),
  }));
  const stem = fileStem('ftlscope-sweep', param, base.chip.preset, base.workload.kind);
  const context = () => ({
    chip_preset: base.chip.preset,
    workload: JSON.stringify(resolvedConfig({ scenario: base }).workload),
    workload_space_given: plan?.plan.space ?? '',
    precondition: describePrecondition(base.precondition),
    plan: plan?.plan.note ?? '',
  });
  const svg = () => document.querySelector<SVGSVGElement>('[data-testid=sweep-chart]');

  return (
    <section className="sweep" aria-labelledby="sweep-h" data-testid="sweep">
      <h3 id="sweep-h">Sweep a parameter</h3>
      <fieldset disabled={disabled || progress !== null} className="sweep-form">
        <label>
          Parameter{' '}
          <select
            value={param}
            onChange={(e) => {
              setParam(e.target.value);
              setValuesText(sweepParam(e.target.value).defaults);
            }}
            data-testid="sweep-param"
          >
            {sweepParams().map((p) => (
              <option key={p.key} value={p.key}>
                {p.label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Values{' '}
          <input
            value={valuesText}
            onChange={(e) => setValuesText(e.target.value)}
            aria-invalid={'error' in parsed}
            data-testid="sweep-values"
            size={18}
          />
        </label>
        <span className="sweep-schemes" role="group" aria-label="Schemes">
          {available.map((id) => (
            <label key={id}>
              <input
                type="checkbox"
                checked={chosen.includes(id)}
                onChange={(e) => setSchemes(e.target.checked ? [...schemes, id] : schemes.filter((s) => s !== id))}
                data-testid={`sweep-scheme-${id}`}
              />{' '}
              {schemeSpec(id)?.label ?? id}
            </label>
          ))}
        </span>
        <WorkloadSpaceField value={space} onChange={setSpace} testid="sweep-space" />
        {progress === null ? (
          <button
            type="button"
            className="primary"
            onClick={() => void run()}
            disabled={'error' in parsed || chosen.length === 0}
            data-testid="sweep-run"
          >
            Run sweep
          </button>
        ) : (
          <button type="button" onClick={() => (cancel.current = true)} data-testid="sweep-cancel">
            Cancel
          </button>
        )}
        {'error' in parsed && <span className="form-errors">{parsed.error}</span>}
      </fieldset>
      {progress !== null && <progress max={1} value={progress} aria-label="Sweep progress" />}
      <p role="status" className="muted" data-testid="sweep-status">
        {status}
      </p>
      {plan && (
        <p className="muted" data-testid="sweep-plan">
          {planSummary(plan, base)} · {describePrecondition(base.precondition)}
        </p>
      )}
      {rows && (
        <div className="sweep-results">
          <div className="sweep-chart" ref={chartBox}>
            <label className="chart-pick">
              Plot{' '}
              <select value={metric} onChange={(e) => setMetric(e.target.value)} data-testid="sweep-metric">
                {SWEEP_METRICS.map((x) => (
                  <option key={x.key} value={x.key}>
                    {x.title}
                  </option>
                ))}
              </select>
            </label>
            {width > 0 && (
              <LineChart
                testId="sweep-chart"
                title={`${m.title} against ${label.toLowerCase()}`}
                xLabel={label.toLowerCase()}
                yLabel={m.y}
                width={Math.min(width, 760)}
                height={260}
                series={series}
                dots
                caption={
                  plan
                    ? [
                        ...planSummary(plan, base).split(' · '),
                        describeScenario(base).split(' · ').slice(2).join(' · '),
                        describePrecondition(base.precondition),
                      ]
                    : []
                }
              />
            )}
          </div>
          <table className="compare-table" data-testid="sweep-table">
            <thead>
              <tr>
                <th scope="col">Scheme</th>
                <th scope="col">{label}</th>
                <th scope="col">Chip</th>
                <th scope="col">Own logical space</th>
                <th scope="col">Workload space</th>
                <th scope="col">Request list</th>
                {SWEEP_METRICS.map((x) => (
                  <th scope="col" key={x.key}>
                    {x.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((r, i) => (
                <tr
                  key={i}
                  data-testid="sweep-row"
                  data-scheme={r.scheme}
                  data-value={r.value}
                  data-erases={metricAt(r.metrics, 'erases') ?? ''}
                >
                  <th scope="row">{schemeSpec(r.scheme)?.label ?? r.scheme}</th>
                  <td>{r.value}</td>
                  <td>{r.blocks ? `${r.blocks.toLocaleString('en-US')} × ${r.pages_per_block}` : '—'}</td>
                  <td>{r.logical_pages?.toLocaleString('en-US') ?? '—'}</td>
                  <td>{r.workload_pages?.toLocaleString('en-US') ?? '—'}</td>
                  <td>
                    <code title="FNV-1a 64 hash of the request list">{r.request_hash?.slice(0, 8) ?? '—'}</code>
                  </td>
                  {r.error ? (
                    <td colSpan={SWEEP_METRICS.length} className="form-errors">
                      cannot run: {r.error}
                    </td>
                  ) : (
                    SWEEP_METRICS.map((x) => {
                      const v = rowValue(r, x.path);
                      return (
                        <td key={x.key}>
                          {v === undefined ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: 2 })}
                        </td>
                      );
                    })
                  )}
                </tr>
              ))}
            </tbody>
          </table>
          <div className="compare-exports">
            <button
              type="button"
              data-testid="sweep-csv"
              onClick={() => download(`${stem}.csv`, sweepCsv(param, rows, context()), 'text/csv')}
            >
              Sweep (CSV)
            </button>
            <button
              type="button"
              data-testid="sweep-json"
              onClick={() =>
                download(
                  `${stem}.json`,
                  JSON.stringify({ parameter: param, ...context(), plan: plan?.plan, rows }, null, 2) + '\n',
                  'application/json',
                )
              }
            >
              Sweep (JSON)
            </button>
            <button
              type="button"
              data-testid="sweep-svg"
              onClick={() => {
                const el = svg();
                if (el) download(`${stem}-${metric}.svg`, svgToString(el, pageBackground()), 'image/svg+xml');
              }}
            >
              Plot (SVG)
            </button>
            <button
              type="button"
              onClick={async () => {
                const el = svg();
                if (el) download(`${stem}-${metric}.png`, await svgToPng(el, pageBackground()));
              }}
            >
              Plot (PNG)
            </button>
          </div>
        </div>
      )}
    </section>
  );
}
