// One small D3 chart: scales and axes from D3, marks rendered by React. Lines, steps or
// bars; both axes labelled with units.
import { memo, useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, curveStepAfter, format, line, max, min, scaleLinear, scaleLog, select } from 'd3';

export interface XYSeries {
  name: string;
  kind: 'line' | 'step' | 'bar';
  color: string;
  points: [number, number][];
}

export interface XYChartProps {
  id: string;
  title: string;
  xLabel: string;
  yLabel: string;
  series: XYSeries[];
  width: number;
  height: number;
  xLog?: boolean;
  /** y axis upper bound (e.g. 100 for percentages) */
  yMax?: number;
  empty?: string;
  /** a vertical rule at this x (the current step) */
  rule?: number;
}

const M = { top: 8, right: 12, bottom: 38, left: 54 };

/**
 * Memoised: Run to end's progress re-renders the charts view a few times a second, and a
 * chart whose props did not change is not drawn again.
 */
export const XYChart = memo(function XYChart(p: XYChartProps) {
  const xAxisRef = useRef<SVGGElement>(null);
  const yAxisRef = useRef<SVGGElement>(null);
  const innerW = Math.max(10, p.width - M.left - M.right);
  const innerH = Math.max(10, p.height - M.top - M.bottom);
  // A log axis cannot show 0 (or less): such points are left out.
  const series = useMemo(
    () =>
      p.xLog
        ? p.series.map((s) => ({ ...s, points: s.points.filter((d) => d[0] > 0 && Number.isFinite(d[1])) }))
        : p.series,
    [p.series, p.xLog],
  );
  const all = useMemo(() => series.flatMap((s) => s.points), [series]);
  const dropped = p.series.reduce((n, s) => n + s.points.length, 0) - all.length;
  const hasData = all.length > 0;

  const { x, y, barW } = useMemo(() => {
    const xs = all.map((d) => d[0]);
    const ys = all.map((d) => d[1]);
    let x0 = min(xs) ?? 0;
    let x1 = max(xs) ?? 1;
    const anyBar = series.some((s) => s.kind === 'bar');
    let barW = 4;
    if (p.xLog) {
      x0 = Math.max(1e-3, x0 * 0.8);
      x1 = Math.max(x0 * 10, x1 * 1.25);
    } else if (anyBar) {
      x0 -= 0.5;
      x1 += 0.5;
    }
    if (x1 <= x0) x1 = x0 + 1;
    const x = p.xLog
      ? scaleLog().domain([x0, x1]).range([0, innerW])
      : scaleLinear().domain([x0, x1]).range([0, innerW]);
    const y = scaleLinear()
      .domain([0, p.yMax ?? ((max(ys) ?? 0) > 0 ? (max(ys) ?? 1) * 1.08 : 1)])
      .range([innerH, 0])
      .nice();
    if (anyBar) {
      const distinct = new Set(xs).size;
      barW = p.xLog ? 6 : Math.max(1.5, Math.min(40, (innerW / Math.max(1, x1 - x0)) * 0.85));
      if (distinct > innerW / 2) barW = 1.5;
    }
    return { x, y, barW };
  }, [all, series, innerW, innerH, p.xLog, p.yMax]);

  useEffect(() => {
    if (!xAxisRef.current || !yAxisRef.current) return;
    const fmt = (big: number) => format(big >= 1e4 ? '~s' : ',~f');
    const xa = axisBottom(x).ticks(Math.max(2, Math.floor(innerW / 70)), fmt(x.domain()[1]));
    select(xAxisRef.current).call(xa);
    select(yAxisRef.current).call(axisLeft(y).ticks(Math.max(2, Math.floor(innerH / 30)), fmt(y.domain()[1])));
  }, [x, y, innerW, innerH, p.xLog]);

  const titleId = `${p.id}-title`;
  return (
    <figure className="chart" data-testid={`chart-${p.id}`} data-points={all.length}>
      <figcaption id={titleId}>{p.title}</figcaption>
      <svg width={p.width} height={p.height} role="img" aria-labelledby={titleId} data-chart={p.title}>
        <g transform={`translate(${M.left},${M.top})`}>
          {hasData &&
            series.map((s) => {
              if (s.kind === 'bar') {
                return (
                  <g key={s.name} className="chart-bars" style={{ fill: s.color }}>
                    {s.points.map(([vx, vy], i) => (
                      <rect key={i} x={x(vx) - barW / 2} y={y(vy)} width={barW} height={Math.max(0, innerH - y(vy))}>
                        <title>{`${vx}: ${vy}`}</title>
                      </rect>
                    ))}
                  </g>
                );
              }
              const gen = line<[number, number]>()
                .x((d) => x(d[0]))
                .y((d) => y(d[1]));
              if (s.kind === 'step') gen.curve(curveStepAfter);
              return <path key={s.name} className="chart-line" d={gen(s.points) ?? ''} style={{ stroke: s.color }} />;
            })}
          {p.rule !== undefined && hasData && x(p.rule) >= 0 && x(p.rule) <= innerW && (
            <line className="chart-rule" x1={x(p.rule)} x2={x(p.rule)} y1={0} y2={innerH} />
          )}
          {!hasData && (
            <text className="chart-empty" x={innerW / 2} y={innerH / 2} textAnchor="middle">
              {p.empty ?? 'No data yet'}
            </text>
          )}
          <g ref={xAxisRef} className="axis" transform={`translate(0,${innerH})`} />
          <g ref={yAxisRef} className="axis" />
          <text className="axis-label" x={innerW / 2} y={innerH + 32} textAnchor="middle">
            {p.xLabel}
          </text>
          <text className="axis-label" transform={`translate(${-42},${innerH / 2}) rotate(-90)`} textAnchor="middle">
            {p.yLabel}
          </text>
        </g>
      </svg>
      {p.xLog && dropped > 0 && (
        <p className="chart-note">Responses of 0 µs (e.g. reads of unwritten pages) cannot be drawn on a log axis.</p>
      )}
      {p.series.length > 1 && (
        <div className="chart-keys">
          {p.series.map((s) => (
            <span key={s.name} className="chart-key">
              <span className="timeline-swatch" style={{ background: s.color }} aria-hidden="true" />
              {s.name}
            </span>
          ))}
        </div>
      )}
    </figure>
  );
});
