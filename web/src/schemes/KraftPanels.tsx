// KRAFT / KAST: the log-block strip (associated LBNs up to K, seriality, fill), the
// relative-addressing table of the selected log block worked out as the paper's
// Figure 3, and the mapping-RAM comparison with FAST.
import { useState } from 'react';
import type { Metrics } from '../sim/protocol';
import type { LogBlocks, PlainTable, RelativeTable } from './tables';
import type { AssociativitySeries } from './types';
import * as d3 from 'd3';
import { LabelTerm } from '../ui/glossary/Glossary';

export function LogStrip({
  logs,
  pagesPerBlock,
  selected,
  onSelect,
}: {
  logs: LogBlocks;
  pagesPerBlock: number;
  selected: number | null;
  onSelect: (slot: number) => void;
}) {
  const slots = Math.max(1, Math.min(logs.k, pagesPerBlock));
  return (
    <section className="log-strip" aria-label={`Log blocks, K = ${logs.k}`} data-testid="log-strip">
      <span className="strip-title">
        Log blocks <span className="muted">K = {logs.k}</span>
      </span>
      <ul>
        {logs.logBlocks.map((l) => (
          <li key={l.slot}>
            <button
              type="button"
              className={`log-card${selected === l.slot ? ' selected' : ''}${l.free ? ' free' : ''}`}
              aria-pressed={selected === l.slot}
              data-testid={`log-card-${l.slot}`}
              onClick={() => onSelect(l.slot)}
              title={`Log ${l.slot} (block ${l.pbn}): ${l.free ? 'free' : `LBNs ${l.lbns.join(', ')}, ${l.serial ? 'serial' : 'not serial'}`}, ${l.top}/${pagesPerBlock} pages used`}
            >
              <span className="log-head">
                log {l.slot} <span className="muted">· blk {l.pbn}</span>
              </span>
              <span className="lbn-slots" aria-label={`associated logical blocks: ${l.lbns.join(', ') || 'none'}`}>
                {Array.from({ length: slots }, (_, i) => (
                  <span key={i} className={`lbn-slot${l.lbns[i] === undefined ? ' empty' : ''}`}>
                    {l.lbns[i] ?? '·'}
                  </span>
                ))}
              </span>
              <span className={`serial-badge ${l.free ? 'none' : l.serial ? 'yes' : 'no'}`}>
                {l.free ? 'free' : l.serial ? 'serial' : 'random'}
              </span>
              <span className="fill-bar" aria-hidden="true">
                <span style={{ width: `${(100 * l.top) / pagesPerBlock}%` }} />
              </span>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A column head named by a paper's term (with its glossary tip). */
function TermHead({ label }: { label: string }) {
  return (
    <th scope="col">
      <LabelTerm label={label} />
    </th>
  );
}

export function RelativeAddressing({ table, pagesPerBlock }: { table: RelativeTable | null; pagesPerBlock: number }) {
  const [row, setRow] = useState<number | null>(null);
  if (!table) {
    return (
      <section className="panel relative" aria-labelledby="rel-h">
        <h2 id="rel-h">
          <LabelTerm label="Relative addressing" />
        </h2>
        <p className="muted">Choose a log block that holds pages (in the strip under the chip).</p>
      </section>
    );
  }
  const r = table.rows.find((x) => x.page === row) ?? table.rows.filter((x) => x.lsn !== null).at(-1) ?? null;
  return (
    <section className="panel relative" aria-labelledby="rel-h" data-testid="relative-addressing">
      <h2 id="rel-h">
        <LabelTerm label="Relative addressing" /> · log {table.slot} (block {table.pbn})
      </h2>
      <div className="lbn-array" aria-label="LBN table of this log block">
        <span className="muted">LBN[ ]</span>
        {table.lbns.map((lbn, i) => (
          <span key={i} className={`lbn-cell${r?.ri === i ? ' hit' : ''}`}>
            <small>{i}</small>
            {lbn}
          </span>
        ))}
      </div>
      <table className="rel-table">
        <thead>
          <tr>
            <TermHead label="PSN" />
            <TermHead label="RI" />
            <TermHead label="RLSN" />
            <TermHead label="LSN" />
          </tr>
        </thead>
        <tbody>
          {table.rows.map((x) => (
            <tr
              key={x.page}
              className={r?.page === x.page ? 'hit' : undefined}
              tabIndex={0}
              onClick={() => setRow(x.page)}
              onFocus={() => setRow(x.page)}
              aria-label={`page ${x.page}: ${x.formula}`}
            >
              <td>{x.psn}</td>
              <td>{x.ri ?? '–'}</td>
              <td>{x.rlsn ?? '–'}</td>
              <td>{x.lsn ?? <span className="muted">skipped</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {r && r.lsn !== null && r.ri !== null && (
        <p className="worked" data-testid="worked-lsn">
          PSN {r.psn}: RI = {r.ri} → LBN[{r.ri}] = {r.lbn}; LSN = {r.lbn}·{pagesPerBlock} + {r.rlsn} ={' '}
          <strong>{r.lsn}</strong>
        </p>
      )}
    </section>
  );
}

function get(m: Metrics, path: string): number | undefined {
  let cur: unknown = m;
  for (const k of path.split('.'))
    cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return typeof cur === 'number' ? cur : undefined;
}

/** `asFast`: the name of a scheme whose own RAM is accounted as FAST's (KAST), or null. */
export function RamPanel({
  metrics,
  table,
  asFast,
}: {
  metrics: Metrics;
  table: PlainTable | null;
  asFast: string | null;
}) {
  const fast = get(metrics, 'scheme_metrics.ram.fast_bytes');
  const kraft = get(metrics, 'scheme_metrics.ram.kraft_bytes');
  const affords = get(metrics, 'scheme_metrics.ram.kraft_log_blocks_for_fast_ram');
  const m = get(metrics, 'scheme_metrics.log_blocks');
  if (fast === undefined || kraft === undefined) return null;
  const max = Math.max(fast, kraft, 1);
  return (
    <section className="panel ram-panel" aria-labelledby="ram-h" data-testid="ram-panel">
      <h2 id="ram-h">
        <LabelTerm label="Mapping RAM: FAST vs KRAFT" />
      </h2>
      <div className="ram-bars">
        {[
          { label: 'FAST / KAST', bytes: fast, cls: 'fast' },
          { label: 'KRAFT', bytes: kraft, cls: 'kraft' },
        ].map((b) => (
          <div key={b.label} className="ram-row">
            <span className="ram-label">{b.label}</span>
            <span className="ram-bar">
              <span className={b.cls} style={{ width: `${(100 * b.bytes) / max}%` }} />
            </span>
            <span className="ram-bytes">{b.bytes.toLocaleString('en-US')} B</span>
          </div>
        ))}
      </div>
      <p className="hint">
        Log-block maps for {m} log blocks{asFast ? ` (${asFast} is accounted as FAST)` : ''}. With FAST’s RAM for {m},
        KRAFT affords <strong data-testid="ram-affords">{affords}</strong> log blocks.
      </p>
      {table && (
        <details>
          <summary>Bit widths (paper 2-B)</summary>
          <dl className="bit-widths">
            {table.rows.map((r, i) => (
              <div key={i}>
                <dt>{r[0]}</dt>
                <dd>
                  FAST {r[1]} · KRAFT {r[2]}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </section>
  );
}

/** Associativity of each log block over the run (thin lines) and their mean (thick), with the current step. */
export function AssociativityChart({
  series,
  k,
  step,
  total,
  width = 240,
  height = 58,
}: {
  series: AssociativitySeries;
  k: number;
  step: number;
  total: number;
  width?: number;
  height?: number;
}) {
  const m = { top: 4, right: 4, bottom: 12, left: 22 };
  const x = d3
    .scaleLinear()
    .domain([0, Math.max(1, total)])
    .range([m.left, width - m.right]);
  const top = Math.max(1, k, ...series.slots.flat());
  const y = d3
    .scaleLinear()
    .domain([0, top])
    .range([height - m.bottom, m.top]);
  const slots = series.slots[0]?.length ?? 0;
  const line = (vals: number[]) =>
    d3
      .line<number>()
      .x((_, i) => x(series.steps[i]))
      .y((v) => y(v))
      .curve(d3.curveStepAfter)(vals) ?? '';
  return (
    <svg
      className="assoc-chart"
      width={width}
      height={height}
      role="img"
      aria-label={`Associativity of the log blocks over the run, K = ${k}`}
      data-testid="assoc-chart"
    >
      <line className="assoc-k" x1={m.left} x2={width - m.right} y1={y(k)} y2={y(k)} />
      <text className="assoc-label" x={m.left - 3} y={y(k) + 3} textAnchor="end">
        K
      </text>
      <text className="assoc-label" x={m.left - 3} y={y(0)} textAnchor="end">
        0
      </text>
      {Array.from({ length: slots }, (_, j) => (
        <path key={j} className="assoc-slot" d={line(series.slots.map((s) => s[j] ?? 0))} />
      ))}
      <path className="assoc-mean" d={line(series.mean)} />
      <line className="assoc-now" x1={x(step)} x2={x(step)} y1={m.top} y2={height - m.bottom} />
      <text className="assoc-label" x={(m.left + width - m.right) / 2} y={height - 1} textAnchor="middle">
        associativity over the run (mean thick)
      </text>
    </svg>
  );
}
