// Address over time: the summary's sample of [request index, page] as a small D3 plot.
import { useEffect, useRef } from 'react';
import * as d3 from 'd3';

export interface AddressPlotProps {
  sample: [number, number][];
  requests: number;
  width?: number;
  height?: number;
}

/**
 * One SVG path of a dot (a full-circle arc, d3-path) at each point. The sample has up to
 * 1,000 points: one element instead of 1,000 circles, so the summary shown after an upload
 * costs the page one node to create and lay out (issue 37, item 6), drawn the same.
 */
export function dotsPath(points: Iterable<[number, number]>, r: number): string {
  const path = d3.pathRound(2);
  for (const [x, y] of points) {
    path.moveTo(x + r, y);
    path.arc(x, y, r, 0, 2 * Math.PI);
  }
  return path.toString();
}

export function AddressPlot({ sample, requests, width = 380, height = 150 }: AddressPlotProps) {
  const xAxis = useRef<SVGGElement>(null);
  const yAxis = useRef<SVGGElement>(null);
  const m = { top: 8, right: 10, bottom: 28, left: 58 };
  const x = d3
    .scaleLinear()
    .domain([0, Math.max(1, requests - 1)])
    .range([m.left, width - m.right]);
  const pages = sample.map((p) => p[1]);
  const lo = pages.length ? d3.min(pages)! : 0;
  const hi = pages.length ? d3.max(pages)! : 1;
  const y = d3
    .scaleLinear()
    .domain([lo, hi === lo ? lo + 1 : hi])
    .nice()
    .range([height - m.bottom, m.top]);

  useEffect(() => {
    if (xAxis.current) d3.select(xAxis.current).call(d3.axisBottom(x).ticks(5).tickFormat(d3.format('~s')));
    if (yAxis.current) d3.select(yAxis.current).call(d3.axisLeft(y).ticks(4).tickFormat(d3.format('~s')));
  });

  return (
    <svg
      className="address-plot"
      width={width}
      height={height}
      role="img"
      aria-label={`Address over time: ${sample.length} sampled requests, pages ${lo} to ${hi}`}
      data-testid="address-plot"
    >
      <g ref={xAxis} transform={`translate(0,${height - m.bottom})`} className="axis" />
      <g ref={yAxis} transform={`translate(${m.left},0)`} className="axis" />
      <text className="axis-label" x={(m.left + width - m.right) / 2} y={height - 2} textAnchor="middle">
        request
      </text>
      <text
        className="axis-label"
        transform={`translate(12,${(height - m.bottom + m.top) / 2}) rotate(-90)`}
        textAnchor="middle"
      >
        page
      </text>
      {sample.length > 0 && (
        <path
          className="points"
          data-points={sample.length}
          d={dotsPath(
            sample.map(([i, p]) => [x(i), y(p)]),
            1.6,
          )}
        />
      )}
    </svg>
  );
}
