// A small D3 line chart: one line per run, x = requests, y = a cumulative count.
import { useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, curveStepAfter, line, max, min, scaleLinear, scaleLog, select } from 'd3';

export interface ChartSeries {
  label: string;
  color: string;
  points: { x: number; y: number }[];
}

export interface LineChartProps {
  series: ChartSeries[];
  width: number;
  height: number;
  xLabel: string;
  yLabel: string;
  title: string;
  testId?: string;
  /** logarithmic x axis (points at x ≤ 0 are left out) */
  xLog?: boolean;
  /** draw steps (a CDF) instead of straight segments */
  step?: boolean;
  /** mark every point (few points: a sweep) */
  dots?: boolean;
  /** lines under the plot saying what was run (chip, workload, space, fit, preconditioning):
   * they travel with the PNG / SVG export (issue 27) */
  caption?: string[];
}

const CAPTION_ROW = 14;

const BASE = { top: 28, right: 26, bottom: 38, left: 64 };
const LEGEND_ROW = 18;
/** Never colour alone: each series also has its own dash (and equal lines stay visible). */
const DASHES = ['', '8 4', '2 3', '10 3 2 3', '4 4', '1 2'];

export function LineChart({
  series: given,
  width,
  height: plotHeight,
  xLabel,
  yLabel,
  title,
  testId,
  xLog,
  step,
  dots,
  caption = [],
}: LineChartProps) {
  const series = useMemo(
    () => (xLog ? given.map((s) => ({ ...s, points: s.points.filter((p) => p.x > 0) })) : given),
    [given, xLog],
  );
  // The legend sits above the plot, one row per series, so it never covers a line.
  const M = { ...BASE, top: BASE.top + series.length * LEGEND_ROW + 4 };
  const height = plotHeight + series.length * LEGEND_ROW + caption.length * CAPTION_ROW;
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const iw = Math.max(10, width - M.left - M.right);
  const ih = Math.max(10, height - M.top - M.bottom - caption.length * CAPTION_ROW);
  const integerY = useMemo(() => series.every((s) => s.points.every((p) => Number.isInteger(p.y))), [series]);
  const { x, y } = useMemo(() => {
    const xMax = max(series, (s) => max(s.points, (p) => p.x)) ?? 1;
    const yMax = max(series, (s) => max(s.points, (p) => p.y)) ?? 1;
    const xMin = min(series, (s) => min(s.points, (p) => p.x)) ?? 1;
    return {
      x: xLog
        ? scaleLog()
            .domain([Math.max(1e-3, xMin * 0.8), Math.max(xMin * 10, xMax * 1.25)])
            .range([0, iw])
        : scaleLinear()
            .domain([0, xMax || 1])
            .range([0, iw])
            .nice(),
      y: scaleLinear()
        .domain([0, yMax || 1])
        .range([ih, 0])
        .nice(),
    };
  }, [series, iw, ih, xLog]);
  useEffect(() => {
    if (xAxis.current)
      select(xAxis.current).call(axisBottom(x).ticks(Math.max(2, Math.floor(iw / 90)), xLog ? '~s' : undefined));
    // Counts: no fractional ticks when the range is small.
    const yMax = y.domain()[1];
    const yTicks = Math.max(2, Math.min(Math.floor(ih / 40), yMax >= 2 && integerY ? Math.floor(yMax) : Infinity));
    if (yAxis.current) select(yAxis.current).call(axisLeft(y).ticks(yTicks));
  }, [x, y, iw, ih, integerY, xLog]);
  const path = line<{ x: number; y: number }>()
    .x((p) => x(p.x))
    .y((p) => y(p.y));
  if (step) path.curve(curveStepAfter);
  return (
    <svg
      className="line-chart"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`${title}: ${series.map((s) => s.label).join(', ')}`}
      data-testid={testId}
      data-chart={title}
    >
      <text className="chart-title" x={M.left} y={16}>
        {title}
      </text>
      <g transform={`translate(${M.left},${M.top})`}>
        <g ref={xAxis} className="axis" transform={`translate(0,${ih})`} />
        <g ref={yAxis} className="axis" />
        {series.map((s) => (
          <path
            key={s.label}
            d={path(s.points) ?? ''}
            fill="none"
            stroke={s.color}
            strokeWidth={2.5}
            strokeDasharray={DASHES[series.indexOf(s) % DASHES.length] || undefined}
            className="chart-line"
            data-label={s.label}
          />
        ))}
        {dots &&
          series.map((s, i) =>
            s.points.map((p, j) => (
              <circle
                key={`${i}-${j}`}
                cx={x(p.x)}
                cy={y(p.y)}
                r={3.5}
                fill={s.color}
                data-label={s.label}
                data-x={p.x}
                data-y={p.y}
              >
                <title>{`${s.label}: ${p.x} → ${p.y}`}</title>
              </circle>
            )),
          )}
        <text className="axis-label" x={iw / 2} y={ih + 32} textAnchor="middle">
          {xLabel}
        </text>
        <text className="axis-label" transform={`translate(${-50},${ih / 2}) rotate(-90)`} textAnchor="middle">
          {yLabel}
        </text>
      </g>
      {caption.length > 0 && (
        <g className="chart-caption" data-testid={testId ? `${testId}-caption` : undefined}>
          {caption.map((c, i) => (
            <text key={i} x={8} y={height - (caption.length - i) * CAPTION_ROW + 10} fontSize={10}>
              {c}
            </text>
          ))}
        </g>
      )}
      <g className="chart-legend" transform={`translate(${M.left},${BASE.top - 4})`}>
        {series.map((s, i) => (
          <g key={s.label} transform={`translate(0,${i * LEGEND_ROW})`}>
            <line
              x1={0}
              x2={22}
              y1={7}
              y2={7}
              stroke={s.color}
              strokeWidth={2.5}
              strokeDasharray={DASHES[i % DASHES.length] || undefined}
            />
            <text x={28} y={11}>
              {s.label}
            </text>
          </g>
        ))}
      </g>
    </svg>
  );
}
