// KRAFT / KAST: the log-block strip (associated LBNs up to K, seriality, fill), the
// relative-addressing table of the selected log block worked out as the paper's
// Figure 3, and the mapping-RAM comparison with FAST.
import { useState } from 'react';
import type { Metrics, ViewTable } from '../sim/protocol';
import type { LogBlocks, RelativeTable } from './tables';

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
              <span className={`serial-badge ${l.free ? 'none' : l.serial ? 'yes' : 'no'}`}>{l.free ? 'free' : l.serial ? 'serial' : 'random'}</span>
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

export function RelativeAddressing({ table, pagesPerBlock }: { table: RelativeTable | null; pagesPerBlock: number }) {
  const [row, setRow] = useState<number | null>(null);
  if (!table) {
    return (
      <section className="panel relative" aria-labelledby="rel-h">
        <h2 id="rel-h">Relative addressing</h2>
        <p className="muted">Choose a log block that holds pages (in the strip under the chip).</p>
      </section>
    );
  }
  const r = table.rows.find((x) => x.page === row) ?? table.rows.filter((x) => x.lsn !== null).at(-1) ?? null;
  return (
    <section className="panel relative" aria-labelledby="rel-h" data-testid="relative-addressing">
      <h2 id="rel-h">
        Relative addressing · log {table.slot} (block {table.pbn})
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
            <th scope="col">PSN</th>
            <th scope="col">RI</th>
            <th scope="col">RLSN</th>
            <th scope="col">LSN</th>
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
          PSN {r.psn}: RI = {r.ri} → LBN[{r.ri}] = {r.lbn}; LSN = {r.lbn}·{pagesPerBlock} + {r.rlsn} = <strong>{r.lsn}</strong>
        </p>
      )}
    </section>
  );
}

function get(m: Metrics, path: string): number | undefined {
  let cur: unknown = m;
  for (const k of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return typeof cur === 'number' ? cur : undefined;
}

export function RamPanel({ metrics, table, scheme }: { metrics: Metrics; table: ViewTable | null; scheme: string }) {
  const fast = get(metrics, 'scheme_metrics.ram.fast_bytes');
  const kraft = get(metrics, 'scheme_metrics.ram.kraft_bytes');
  const affords = get(metrics, 'scheme_metrics.ram.kraft_log_blocks_for_fast_ram');
  const m = get(metrics, 'scheme_metrics.log_blocks');
  if (fast === undefined || kraft === undefined) return null;
  const max = Math.max(fast, kraft, 1);
  return (
    <section className="panel ram-panel" aria-labelledby="ram-h" data-testid="ram-panel">
      <h2 id="ram-h">Mapping RAM: FAST vs KRAFT</h2>
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
        Log-block maps for {m} log blocks{scheme === 'kast' ? ' (KAST is accounted as FAST)' : ''}. With FAST’s RAM for {m}, KRAFT affords{' '}
        <strong data-testid="ram-affords">{affords}</strong> log blocks.
      </p>
      {table && (
        <details>
          <summary>Bit widths (paper 2-B)</summary>
          <dl className="bit-widths">
            {table.rows.map((r, i) => (
              <div key={i}>
                <dt>{String(r[0])}</dt>
                <dd>
                  FAST {String(r[1])} · KRAFT {String(r[2])}
                </dd>
              </div>
            ))}
          </dl>
        </details>
      )}
    </section>
  );
}
