// The RFTL paper's Figure 8: one bar per request (binned to the pixel when there are
// more requests than pixels: each bar is then the longest request of its bin), split into
// the request's own time and the GC work scheduled with it, against the bound L(p).
import { useEffect, useRef } from 'react';
import * as d3 from 'd3';
import type { TimelineBins } from './types';

export interface Bound {
  label: string;
  us: number;
}

export interface ResponseTimelineProps {
  bins: TimelineBins;
  bounds: Bound[];
  total: number;
  width: number;
  height?: number;
}

export function fmtUs(v: number): string {
  if (v >= 10000) return `${(v / 1000).toLocaleString('en-US', { maximumFractionDigits: 2 })} ms`;
  return `${v.toLocaleString('en-US', { maximumFractionDigits: 1 })} µs`;
}

export function ResponseTimeline({ bins, bounds, total, width, height = 118 }: ResponseTimelineProps) {
  const yAxis = useRef<SVGGElement>(null);
  const xAxis = useRef<SVGGElement>(null);
  const m = { top: 6, right: 8, bottom: 18, left: 52 };
  const span = Math.max(total, bins.n, 1);
  const x = d3
    .scaleLinear()
    .domain([0, span])
    .range([m.left, Math.max(m.left + 10, width - m.right)]);
  const top = Math.max(bins.maxTotal, ...bounds.map((b) => b.us), 1) * 1.08;
  const y = d3
    .scaleLinear()
    .domain([0, top])
    .range([height - m.bottom, m.top]);
  const bw = Math.max(0.6, x(bins.binSize) - x(0) - (bins.binSize === 1 && x(1) - x(0) > 3 ? 1 : 0));

  useEffect(() => {
    const inMs = top >= 5000;
    const tick = (v: number) =>
      inMs
        ? `${(v / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} ms`
        : `${v.toLocaleString('en-US')} µs`;
    if (yAxis.current)
      d3.select(yAxis.current).call(
        d3
          .axisLeft(y)
          .ticks(4)
          .tickFormat((v) => tick(Number(v))),
      );
    if (xAxis.current) d3.select(xAxis.current).call(d3.axisBottom(x).ticks(6).tickFormat(d3.format('~s')));
  });

  const over = bounds.length ? bins.total.filter((t) => t > bounds[0].us + 1e-6).length : 0;
  return (
    <svg
      className="response-timeline"
      width={width}
      height={height}
      role="img"
      aria-label={`Response time per request, ${bins.n} requests: longest ${fmtUs(bins.maxTotal)}${bounds.length ? `, bound ${bounds[0].label} ${fmtUs(bounds[0].us)}` : ''}`}
      data-testid="response-timeline"
      data-requests={bins.n}
      data-max-us={bins.maxTotal}
      data-chart="Response time per request"
    >
      <g ref={yAxis} className="axis" transform={`translate(${m.left},0)`} />
      <g ref={xAxis} className="axis" transform={`translate(0,${height - m.bottom})`} />
      <g className="bars">
        {bins.total.map((t, i) => {
          const g = bins.gc[i];
          const x0 = x(i * bins.binSize);
          return (
            <g key={i}>
              <rect className="bar-request" x={x0} width={bw} y={y(t - g)} height={Math.max(0, y(0) - y(t - g))} />
              {g > 0 && <rect className="bar-gc" x={x0} width={bw} y={y(t)} height={Math.max(0, y(t - g) - y(t))} />}
            </g>
          );
        })}
      </g>
      {bounds.map((b, i) => (
        <g key={b.label} className={`bound bound-${i}`}>
          <line x1={m.left} x2={width - m.right} y1={y(b.us)} y2={y(b.us)} />
          <text x={width - m.right - 2} y={y(b.us) - 3} textAnchor="end">
            {b.label} = {fmtUs(b.us)}
          </text>
        </g>
      ))}
      {over > 0 && (
        <text className="over-note" x={m.left + 4} y={m.top + 10}>
          {over} bar{over === 1 ? '' : 's'} above {bounds[0].label}
        </text>
      )}
    </svg>
  );
}
