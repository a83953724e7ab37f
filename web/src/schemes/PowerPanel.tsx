// Power cut at the current flash operation: RAM panels go dark (the chip view stays, as the
// chip keeps what was programmed), "Recover" rebuilds the scheme from the chip alone on a
// copy and verifies it against the reference model. Any step afterwards powers back on.
import { useEffect, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { Snapshot } from '../sim/protocol';
import type { CrashHere } from './types';

type Power = { kind: 'on' } | { kind: 'off'; at: { step: number; op: number } } | { kind: 'recovering' } | { kind: 'recovered'; r: CrashHere } | { kind: 'error'; message: string };

export function PowerPanel({ client, sid, snapshot }: { client: SimClient | null; sid: number; snapshot: Snapshot }) {
  const [power, setPower] = useState<Power>({ kind: 'on' });
  const where = `${sid}:${snapshot.step}:${snapshot.opCursor}`;
  // Stepping, seeking or a new scenario powers the chip back on.
  useEffect(() => setPower({ kind: 'on' }), [where]);
  const dark = power.kind === 'off' || power.kind === 'recovering';
  useEffect(() => {
    document.documentElement.classList.toggle('power-off', dark);
    return () => document.documentElement.classList.remove('power-off');
  }, [dark]);

  const atEnd = snapshot.step >= snapshot.total;
  const req = snapshot.step + 1;
  const recover = async () => {
    if (!client) return;
    setPower({ kind: 'recovering' });
    try {
      setPower({ kind: 'recovered', r: await client.request('crash_here', { sid }) });
    } catch (e) {
      setPower({ kind: 'error', message: (e as Error).message });
    }
  };

  return (
    <section className={`panel power-panel${dark ? ' is-off' : ''}`} aria-labelledby="pw-h" data-testid="power-panel">
      <h2 id="pw-h">Power</h2>
      {power.kind === 'on' && (
        <>
          <button
            type="button"
            className="power-button"
            disabled={atEnd || !client}
            onClick={() => setPower({ kind: 'off', at: { step: snapshot.step, op: snapshot.opCursor } })}
            data-testid="power-cut"
          >
            ⏻ Cut power here
          </button>
          <p className="hint">
            {atEnd
              ? 'The workload is finished: step back to cut power inside it.'
              : snapshot.opCount > 0
                ? `After operation ${snapshot.opCursor} of request ${req}: that request is not acknowledged.`
                : `Before request ${req}.`}
          </p>
        </>
      )}
      {(power.kind === 'off' || power.kind === 'recovering') && (
        <div role="status" data-testid="power-off">
          <p className="power-msg">
            Power lost{power.kind === 'off' ? (power.at.op > 0 ? ` during request ${power.at.step + 1}, after operation ${power.at.op}` : ` before request ${power.at.step + 1}`) : ''}. RAM is gone
            (the mapping tables and metrics are dark); the chip keeps every page programmed so far.
          </p>
          <button type="button" className="primary" disabled={power.kind === 'recovering'} onClick={() => void recover()} data-testid="power-recover">
            {power.kind === 'recovering' ? 'Recovering…' : 'Recover'}
          </button>
        </div>
      )}
      {power.kind === 'recovered' && <Verdict r={power.r} onClose={() => setPower({ kind: 'on' })} />}
      {power.kind === 'error' && (
        <p className="alert" role="alert">
          {power.message}
        </p>
      )}
    </section>
  );
}

function Verdict({ r, onClose }: { r: CrashHere; onClose: () => void }) {
  const o = r.outcome;
  const ok = !o.error && o.lost === 0 && o.wrong === 0 && o.torn_mapped === 0;
  return (
    <div data-testid="power-verdict">
      <p className={ok ? 'verdict ok' : 'verdict bad'}>
        {ok ? '✔ Recovered: no acknowledged write lost, no wrong data, no torn page mapped.' : o.error ? `✘ ${o.error}` : `✘ ${o.lost} acknowledged write(s) lost, ${o.wrong} wrong, ${o.torn_mapped} torn page(s) mapped.`}
      </p>
      {!o.error && (
        <p className="hint">
          Recovery read {o.recovery_pages_read.toLocaleString('en-US')} pages in {o.recovery_ops.toLocaleString('en-US')} flash operations ({(o.recovery_ns / 1000).toLocaleString('en-US')} µs), then ran the next requests on the recovered scheme. The
          simulation goes on from before the cut.
        </p>
      )}
      <button type="button" onClick={onClose}>
        Power on
      </button>
    </div>
  );
}
