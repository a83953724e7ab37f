// LTFTL: frozen states with freeze / unfreeze / revert buttons and the sectors a revert
// would change; the intent log (log section) and the one-page log buffer in RAM; the
// space shares of the paper's Figure 8.
import { useEffect, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { Metrics, Snapshot } from '../sim/protocol';
import type { Scenario } from '../scenario/model';
import {
  TIME_SHIFT_MAX_REQUESTS,
  frozenStates,
  insertionPoint,
  logEntries,
  requestText,
  revertDiff,
  withInserted,
  type LogEntryRow,
  type TimeShiftRequest,
} from './timeShift';
import { LabelTerm } from '../ui/glossary/Glossary';

export interface LtftlPanelsProps {
  client: SimClient | null;
  sid: number;
  scenario: Scenario;
  snapshot: Snapshot;
  /** load a scenario (the same workload with the request inserted) */
  onLoad: (s: Scenario) => Promise<boolean>;
  /** then seek to a step of it */
  onSeek: (step: number) => void;
}

const SHARES: { key: string; label: string; cls: string }[] = [
  { key: 'valid', label: 'valid', cls: 'sh-valid' },
  { key: 'invalid', label: 'invalid', cls: 'sh-invalid' },
  { key: 'retractable', label: 'retractable', cls: 'sh-retractable' },
  { key: 'log', label: 'log', cls: 'sh-log' },
  { key: 'map', label: 'map', cls: 'sh-map' },
  { key: 'metadata', label: 'metadata', cls: 'sh-meta' },
  { key: 'free', label: 'free', cls: 'sh-free' },
];

function shares(m: Metrics): Record<string, number> | null {
  const sm = (m as { scheme_metrics?: { space_shares?: Record<string, number> } }).scheme_metrics;
  return sm?.space_shares ?? null;
}

function LogList({ rows, label }: { rows: LogEntryRow[]; label: string }) {
  if (rows.length === 0) return <p className="muted">{label}: empty</p>;
  return (
    <ol className="log-list" aria-label={label}>
      {rows.map((r) => (
        <li
          key={r.n}
          title={`entry ${r.n}: ${r.kind} sector ${r.sector}, old page ${r.old}, new page ${r.next}, global time ${r.time}`}
        >
          <span className="muted">#{r.n}</span> {r.kind === 'write' ? '' : `${r.kind} `}s{r.sector}: {r.old} → {r.next}{' '}
          <span className="muted">t{r.time}</span>
        </li>
      ))}
    </ol>
  );
}

export function LtftlPanels({ client, sid, scenario, snapshot, onLoad, onSeek }: LtftlPanelsProps) {
  const panels = snapshot.view.panels;
  const states = frozenStates(panels) ?? [];
  const diff = revertDiff(panels);
  const buffer = logEntries(panels, 'log_buffer') ?? [];
  const log = logEntries(panels, 'intent_log') ?? [];
  const sh = shares(snapshot.metrics);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const pendingSeek = useRef<{ from: number; step: number } | null>(null);

  // After the re-run loads (a new session id), land just after the inserted request.
  useEffect(() => {
    const p = pendingSeek.current;
    if (p && p.from !== sid) {
      pendingSeek.current = null;
      onSeek(p.step);
    }
  }, [sid, onSeek]);

  const tooLong = snapshot.total > TIME_SHIFT_MAX_REQUESTS;
  const issue = async (r: TimeShiftRequest) => {
    if (!client || busy) return;
    setBusy(true);
    setMessage(null);
    try {
      const at = insertionPoint(snapshot.step, snapshot.opCount);
      const before = await client.request('workload_pattern', { sid, from: 0, to: at });
      const after = await client.request('workload_pattern', { sid, from: at, to: snapshot.total });
      pendingSeek.current = { from: sid, step: at + 1 };
      const ok = await onLoad(withInserted(scenario, before, r, after));
      if (!ok) pendingSeek.current = null;
      else setMessage(`“${requestText(r)}” inserted as request ${at + 1}; the workload is now an inline pattern.`);
    } catch (e) {
      pendingSeek.current = null;
      setMessage(`Could not ${requestText(r)}: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <section className="panel time-shift" aria-labelledby="ts-h" data-testid="time-shift">
        <h2 id="ts-h">
          <LabelTerm label="Time shift" />
        </h2>
        <button
          type="button"
          className="primary"
          disabled={busy || tooLong || !client}
          onClick={() => void issue({ kind: 'freeze' })}
          data-testid="ts-freeze"
        >
          Freeze now
        </button>
        {tooLong && (
          <p className="hint">
            Time-shift buttons work on workloads up to {TIME_SHIFT_MAX_REQUESTS.toLocaleString('en-US')} requests.
          </p>
        )}
        {message && (
          <p className="hint" role="status">
            {message}
          </p>
        )}
        {states.length === 0 ? (
          <p className="muted">
            No frozen state. Freeze keeps the current state revertible: pages overwritten later turn retractable.
          </p>
        ) : (
          <ul className="state-list">
            {states.map((s) => {
              const d = diff.get(s.id) ?? [];
              return (
                <li key={s.id} data-testid={`state-${s.id}`}>
                  <div className="state-head">
                    <strong>State {s.id}</strong> <span className="muted">epoch {s.epoch}</span>
                    <span className="pinned">
                      {s.pinned} page{s.pinned === 1 ? '' : 's'} pinned
                    </span>
                  </div>
                  <div className="state-actions">
                    <button
                      type="button"
                      disabled={busy || tooLong}
                      onClick={() => void issue({ kind: 'revert', state: s.id })}
                      data-testid={`ts-revert-${s.id}`}
                    >
                      Revert
                    </button>
                    <button
                      type="button"
                      disabled={busy || tooLong}
                      onClick={() => void issue({ kind: 'unfreeze', state: s.id })}
                      data-testid={`ts-unfreeze-${s.id}`}
                    >
                      Unfreeze
                    </button>
                  </div>
                  <p className="diff" data-testid={`diff-${s.id}`}>
                    {d.length === 0
                      ? 'A revert changes no sector.'
                      : `A revert changes ${d.length} sector${d.length === 1 ? '' : 's'}: `}
                    {d.slice(0, 10).map((x, i) => (
                      <span key={x.sector} className="diff-item">
                        {i > 0 ? ', ' : ''}s{x.sector} {x.now}→{x.after === '-' ? 'unwritten' : x.after}
                      </span>
                    ))}
                    {d.length > 10 && ` … and ${d.length - 10} more`}
                  </p>
                </li>
              );
            })}
          </ul>
        )}
      </section>
      <section className="panel intent-log" aria-labelledby="il-h" data-testid="intent-log">
        <h2 id="il-h">
          <LabelTerm label="Intent log ⟨sector, old → new page, time⟩" />
        </h2>
        <div className="ram-box">
          <span className="ram-tag">RAM · log buffer ({buffer.length})</span>
          <LogList rows={buffer} label="Log buffer" />
        </div>
        <div className="flash-box">
          <span className="ram-tag">
            Flash · log section (last {Math.min(log.length, 12)} of {log.length})
          </span>
          <LogList rows={log.slice(-12)} label="Log section" />
        </div>
      </section>
      {sh && (
        <section className="panel" aria-labelledby="sp-h">
          <h2 id="sp-h">Space (Figure 8)</h2>
          <div
            className="share-bar"
            role="img"
            aria-label={SHARES.map((x) => `${x.label} ${Math.round((sh[x.key] ?? 0) * 100)}%`).join(', ')}
          >
            {SHARES.map((x) => (
              <span
                key={x.key}
                className={x.cls}
                style={{ width: `${(sh[x.key] ?? 0) * 100}%` }}
                title={`${x.label} ${((sh[x.key] ?? 0) * 100).toFixed(1)}%`}
              />
            ))}
          </div>
          <ul className="share-legend">
            {SHARES.filter((x) => (sh[x.key] ?? 0) > 0).map((x) => (
              <li key={x.key}>
                <span className={`sw ${x.cls}`} /> {x.label} {((sh[x.key] ?? 0) * 100).toFixed(1)}%
              </li>
            ))}
          </ul>
        </section>
      )}
    </>
  );
}
