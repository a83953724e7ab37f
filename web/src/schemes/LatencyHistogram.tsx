// Response-time histogram from latency_histogram() (exact buckets), binned by D3: host
// requests' response times by the run's timing model when the core gives them (so it agrees
// with Metrics, the tail chart and the narration), else per page service times; the
// caption says which (docs/timing.md).
import { useEffect, useRef } from 'react';
import * as d3 from 'd3';
import type { LatencyHistogram as Hist } from './types';
import { fmtUs } from './ResponseTimeline';
import { LabelTerm } from '../ui/glossary/Glossary';

export interface HistBin {
  x0: number;
  x1: number;
  read: number;
  write: number;
}

/** Group exact [µs, count] buckets into at most `bins` ranges, reads and writes apart. */
export function histBins(h: Hist, bins: number): HistBin[] {
  const all = [...h.read, ...h.write];
  if (all.length === 0) return [];
  const lo = d3.min(all, (d) => d[0]) ?? 0;
  const hi = d3.max(all, (d) => d[0]) ?? 0;
  const distinct = new Set(all.map((d) => d[0])).size;
  if (distinct <= bins) {
    // Few distinct values (RFTL: 25, 50, 300, 325, ...): one bar per value.
    const vals = [...new Set(all.map((d) => d[0]))].sort((a, b) => a - b);
    return vals.map((v) => ({
      x0: v,
      x1: v,
      read: h.read.filter((d) => d[0] === v).reduce((s, d) => s + d[1], 0),
      write: h.write.filter((d) => d[0] === v).reduce((s, d) => s + d[1], 0),
    }));
  }
  const width = (hi - lo) / bins || 1;
  const out: HistBin[] = Array.from({ length: bins }, (_, i) => ({
    x0: lo + i * width,
    x1: lo + (i + 1) * width,
    read: 0,
    write: 0,
  }));
  const put = (d: [number, number], key: 'read' | 'write') => {
    const i = Math.min(bins - 1, Math.floor((d[0] - lo) / width));
    out[i][key] += d[1];
  };
  h.read.forEach((d) => put(d, 'read'));
  h.write.forEach((d) => put(d, 'write'));
  return out.filter((b) => b.read + b.write > 0);
}

/** What the histogram counts: host requests by the model, or pages (service time). */
export function histWhat(hist: Hist): { data: Hist; caption: string } {
  const r = hist.requests;
  if (r)
    return {
      data: { read: r.read, write: r.write },
      caption: `Response time of host requests, ${r.model} model${r.model === 'closed' ? ' (= service time)' : ' (wait + service)'}`,
    };
  return { data: hist, caption: 'Service time per page' };
}

export function LatencyHistogram({ hist, width, height = 130 }: { hist: Hist; width: number; height?: number }) {
  const yAxis = useRef<SVGGElement>(null);
  const what = histWhat(hist);
  const bins = histBins(what.data, 16);
  const m = { top: 6, right: 4, bottom: 34, left: 40 };
  const x = d3
    .scaleBand<number>()
    .domain(bins.map((_, i) => i))
    .range([m.left, width - m.right])
    .padding(0.15);
  const max = d3.max(bins, (b) => Math.max(b.read, b.write)) ?? 1;
  const y = d3
    .scaleLinear()
    .domain([0, max])
    .nice()
    .range([height - m.bottom, m.top]);
  useEffect(() => {
    if (yAxis.current) d3.select(yAxis.current).call(d3.axisLeft(y).ticks(3, 's'));
  });
  if (bins.length === 0) return <p className="muted">No requests yet.</p>;
  const caption = (
    <p className="muted hist-caption" data-testid="latency-histogram-caption">
      <LabelTerm label={what.caption} />
    </p>
  );
  const half = x.bandwidth() / 2;
  const every = Math.ceil(bins.length / 4);
  return (
    <>
      {caption}
      <svg
        className="latency-histogram"
        width={width}
        height={height}
        role="img"
        aria-label={`Histogram: ${what.caption}, reads and writes`}
        data-testid="latency-histogram"
        data-chart="Response-time histogram"
      >
        <g ref={yAxis} className="axis" transform={`translate(${m.left},0)`} />
        {bins.map((b, i) => (
          <g key={i}>
            <title>{`${b.x0 === b.x1 ? fmtUs(b.x0) : `${fmtUs(b.x0)}–${fmtUs(b.x1)}`}: ${b.read} reads, ${b.write} writes`}</title>
            <rect className="hist-read" x={x(i)} width={half} y={y(b.read)} height={y(0) - y(b.read)} />
            <rect
              className="hist-write"
              x={(x(i) ?? 0) + half}
              width={half}
              y={y(b.write)}
              height={y(0) - y(b.write)}
            />
            {i % every === 0 && (
              <text className="tick-label" x={(x(i) ?? 0) + half} y={height - m.bottom + 12} textAnchor="middle">
                {fmtUs(b.x0)}
              </text>
            )}
          </g>
        ))}
        <line className="baseline" x1={m.left} x2={width - m.right} y1={y(0)} y2={y(0)} />
        <g className="hist-legend" transform={`translate(${m.left},${height - 8})`}>
          <rect className="hist-read" width={9} height={9} y={-8} />
          <text x={12}>reads</text>
          <rect className="hist-write" x={56} width={9} height={9} y={-8} />
          <text x={68}>writes</text>
        </g>
      </svg>
    </>
  );
}
