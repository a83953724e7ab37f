// A comparison's results: the metrics table (best marked), its exports, and one chart
// of every run over time.
import { useState } from 'react';
import { describePrecondition, describeScenario, type Precondition, type Scenario } from '../scenario/model';
import { resolvedConfig } from '../export/config';
import { download, fileStem } from '../ui/download';
import { metricsCsv, pageBackground, svgToPng, svgToString } from '../export/export';
import { useSize } from '../ui/useSize';
import { METRIC_ROWS, RUN_COLORS, cdfPoints, latencyStats, metricAt, resolvedParamsText } from './compare';
import { MetricRow } from './MetricRow';
import { LineChart } from './LineChart';
import { planSummary } from './planSummary';
import { CHARTS, type ChartKey, type Result } from './results';
import type { PlanResult } from './runner';

export function CompareResults({
  results,
  planned,
  base,
  precondition,
  maxTotal,
}: {
  results: Result[];
  planned: PlanResult | null;
  base: Scenario;
  precondition: Precondition | undefined;
  maxTotal: number;
}) {
  const [chartKey, setChartKey] = useState<ChartKey>('erases');
  const [chartRef, { width: chartWidth }] = useSize<HTMLDivElement>();
  const ok = results.filter((r) => r.metrics);
  const stem = fileStem('ftlscope-compare', base.chip.preset, base.workload.kind);
  const chartSvg = () => document.querySelector<SVGSVGElement>('[data-testid=compare-chart]');
  const tableRows = results.map((r) => ({
    ...(r.metrics ?? {}),
    lat: r.latency ? { write: latencyStats(r.latency.write), read: latencyStats(r.latency.read) } : undefined,
  }));
  const config = (r: Result) =>
    resolvedConfig({ scenario: r.scenario ?? base, info: r.info, plan: planned?.plan, trace: planned?.trace });
  return (
    <div className={results.length > 3 ? 'compare-top stacked' : 'compare-top'}>
      <div className="compare-results">
        <table className="compare-table" data-testid="compare-table">
          <caption>
            After {maxTotal.toLocaleString('en-US')} requests
            {precondition ? ' (measured after preconditioning)' : ''}. <span className="best-key">★ best</span> (lowest)
            in each row.
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
            {METRIC_ROWS.map((row) => (
              <MetricRow
                key={row.key}
                testid={`compare-row-${row.key}`}
                label={row.label}
                values={tableRows.map((t) => metricAt(t, row.path))}
                failed={results.map((r) => Boolean(r.error))}
                format={row.format}
              />
            ))}
            <tr data-testid="compare-row-logical">
              <th scope="row">Own logical space (pages)</th>
              {results.map((r, i) => (
                <td key={i}>{r.info ? r.info.logical_pages.toLocaleString('en-US') : '—'}</td>
              ))}
            </tr>
            <tr data-testid="compare-row-workload-space">
              <th scope="row">Workload space (pages)</th>
              {results.map((r, i) => (
                <td key={i}>{r.info?.workload_space?.toLocaleString('en-US') ?? '—'}</td>
              ))}
            </tr>
            <tr data-testid="compare-row-hash">
              <th scope="row">Request list (hash)</th>
              {results.map((r, i) => (
                <td key={i}>
                  <code>{r.info?.request_hash ?? '—'}</code>
                </td>
              ))}
            </tr>
            <tr data-testid="compare-row-params">
              <th scope="row">Parameters (defaults resolved)</th>
              {results.map((r, i) => (
                <td key={i}>{resolvedParamsText(r.info?.params_resolved, r.scenario?.params ?? {})}</td>
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
                caption={[
                  ...(planned ? planSummary(planned, base).split(' · ') : []),
                  describeScenario(base).split(' · ').slice(2).join(' · '),
                  describePrecondition(precondition),
                ]}
              />
            );
          })()}
      </div>
    </div>
  );
}
