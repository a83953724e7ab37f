// The response-time tail: 1 − F (the share of requests slower than x) on a log axis,
// so the tail that a linear 0–100 % CDF flattens against its top is spread out: ticks
// at 10 %, 1 %, 0.1 %... read as "p90, p99, p99.9" (docs/timing.md). D3 scales and
// axes, marks by React; exported with the other charts (svg[data-chart]).
import { memo, useEffect, useMemo, useRef } from 'react';
import { axisBottom, axisLeft, curveStepAfter, format, line, max, min, scaleLog, select } from 'd3';

export interface TailSeries {
  name: string;
  color: string;
  /** [response µs, count] pairs */
  hist: [number, number][];
}

/**
 * [x, 1 − F(x)] after each distinct value, ending at the slowest request with the
 * share of one request (1/N: a log axis cannot show 0). Values ≤ 0 are left out.
 */
export function tailPoints(hist: [number, number][]): [number, number][] {
  const sorted = hist.filter((d) => d[0] > 0 && d[1] > 0).sort((a, b) => a[0] - b[0]);
  const n = sorted.reduce((s, d) => s + d[1], 0);
  if (n === 0) return [];
  const pts: [number, number][] = [[sorted[0][0], 1]];
  let below = 0;
  for (const [v, c] of sorted) {
    below += c;
    pts.push([v, Math.max(1, n - below) / n]);
  }
  return pts;
}

/** "p90", "p99", "p99.9" for 1 − F = 0.1, 0.01, 0.001; "all" at 1. */
export function ninesLabel(share: number): string {
  if (share >= 1) return 'all';
  const p = 100 * (1 - share);
  return `p${format('.10~f')(Number(p.toPrecision(8)))}`;
}

const M = { top: 8, right: 12, bottom: 38, left: 54 };

/** Memoised, as XYChart: redrawn only when its props change. */
export const TailChart = memo(function TailChart(p: {
  id: string;
  title: string;
  series: TailSeries[];
  width: number;
  height: number;
}) {
  const xRef = useRef<SVGGElement>(null);
  const yRef = useRef<SVGGElement>(null);
  const innerW = Math.max(10, p.width - M.left - M.right);
  const innerH = Math.max(10, p.height - M.top - M.bottom);
  const lines = useMemo(
    () => p.series.map((s) => ({ ...s, points: tailPoints(s.hist) })).filter((s) => s.points.length > 0),
    [p.series],
  );
  const all = lines.flatMap((s) => s.points);
  const { x, y } = useMemo(() => {
    const x0 = Math.max(1e-3, (min(all, (d) => d[0]) ?? 1) * 0.8);
    const x1 = Math.max(x0 * 10, (max(all, (d) => d[0]) ?? 10) * 1.25);
    const lo = min(all, (d) => d[1]) ?? 0.01;
    // Down to the next power of ten below the smallest share (at least 1 %).
    const y0 = Math.min(0.01, 10 ** Math.floor(Math.log10(lo) - 1e-9));
    return { x: scaleLog().domain([x0, x1]).range([0, innerW]), y: scaleLog().domain([y0, 1]).range([innerH, 0]) };
  }, [all, innerW, innerH]);
  useEffect(() => {
    if (!xRef.current || !yRef.current) return;
    select(xRef.current).call(axisBottom(x).ticks(Math.max(2, Math.floor(innerW / 70)), '~s'));
    const nines: number[] = [];
    for (let v = 1; v >= y.domain()[0] * 0.999; v /= 10) nines.push(v);
    select(yRef.current).call(
      axisLeft(y)
        .tickValues(nines)
        .tickFormat((d) => ninesLabel(Number(d))),
    );
  }, [x, y, innerW]);
  const titleId = `${p.id}-title`;
  return (
    <figure className="chart" data-testid={`chart-${p.id}`} data-points={all.length}>
      <figcaption id={titleId}>{p.title}</figcaption>
      <svg width={p.width} height={p.height} role="img" aria-labelledby={titleId} data-chart={p.title}>
        <g transform={`translate(${M.left},${M.top})`}>
          {lines.map((s) => {
            const gen = line<[number, number]>()
              .x((d) => x(d[0]))
              .y((d) => y(d[1]))
              .curve(curveStepAfter);
            const last = s.points[s.points.length - 1];
            return (
              <g key={s.name}>
                <path className="chart-line" d={gen(s.points) ?? ''} style={{ stroke: s.color }} />
                <circle cx={x(last[0])} cy={y(last[1])} r={3} style={{ fill: s.color }}>
                  <title>{`${s.name}: slowest ${last[0]} µs`}</title>
                </circle>
              </g>
            );
          })}
          {lines.length === 0 && (
            <text className="chart-empty" x={innerW / 2} y={innerH / 2} textAnchor="middle">
              No requests yet
            </text>
          )}
          <g ref={xRef} className="axis" transform={`translate(0,${innerH})`} />
          <g ref={yRef} className="axis" />
          <text className="axis-label" x={innerW / 2} y={innerH + 32} textAnchor="middle">
            response time (µs, log scale)
          </text>
          <text className="axis-label" transform={`translate(${-44},${innerH / 2}) rotate(-90)`} textAnchor="middle">
            share slower (1 − F)
          </text>
        </g>
      </svg>
      <div className="chart-keys">
        {lines.map((s) => (
          <span key={s.name} className="chart-key">
            <span className="timeline-swatch" style={{ background: s.color }} aria-hidden="true" />
            {s.name}
          </span>
        ))}
      </div>
    </figure>
  );
});
