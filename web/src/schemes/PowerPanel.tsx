// Power cut at the current flash operation, in the session itself (docs/session-api.md,
// "Power cut and recovery"): RAM panels go dark while the chip view stays, as the chip keeps
// what was programmed. "Recover" runs the scheme's recovery on the chip; its flash operations
// and phase notes are then revealed like a request's (→ / Play, or "Finish recovery"), and the
// verdict against the reference model closes it.
import { useEffect, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { Snapshot } from '../sim/protocol';
import type { CrashOutcome } from './types';
import { LabelTerm } from '../ui/glossary/Glossary';

interface Props {
  client: SimClient | null;
  sid: number;
  snapshot: Snapshot;
  /** cut power / recover / finish revealing the recovery, through the app's command queue */
  onCut: () => Promise<unknown>;
  onRecover: () => Promise<unknown>;
  onFinish: () => Promise<unknown>;
}

export function PowerPanel({ client, sid, snapshot, onCut, onRecover, onFinish }: Props) {
  const [verdict, setVerdict] = useState<CrashOutcome | null>(null);
  const [error, setError] = useState<string | null>(null);
  const cutAt = useRef<{ step: number; op: number; inRecovery: boolean } | null>(null);
  const awaitingVerdict = useRef(false);
  const off = !snapshot.powered;
  const recovering = snapshot.recovering;

  useEffect(() => {
    document.documentElement.classList.toggle('power-off', off);
    return () => document.documentElement.classList.remove('power-off');
  }, [off]);

  // The verdict is read once the last recovery operation has been revealed; it belongs to
  // the moment right after that recovery (the requests completed then).
  const [verdictAt, setVerdictAt] = useState(-1);
  useEffect(() => {
    if (!client || off || recovering || !awaitingVerdict.current) return;
    awaitingVerdict.current = false;
    const at = snapshot.step;
    client
      .request('verdict', { sid })
      .then((v) => {
        setVerdict(v);
        setVerdictAt(at);
      })
      .catch((e: unknown) => setError((e as Error).message));
  }, [client, sid, off, recovering, snapshot.step]);

  // One verdict, shown only while the recovery it describes is on screen complete: the
  // moment right after it. Back into the recovery hides it, Step to its end shows it
  // again; Back to the power cut undoes the recovery, and its verdict goes (issue 35).
  const verdictShown = verdict !== null && !recovering && snapshot.opCount === 0 && snapshot.step === verdictAt;
  useEffect(() => {
    if (off) setVerdict(null);
  }, [off]);
  // A new session forgets everything.
  useEffect(() => {
    setVerdict(null);
    setError(null);
  }, [sid]);

  const run = (fn: () => Promise<unknown>) => {
    setError(null);
    fn().catch((e: unknown) => setError((e as Error).message));
  };
  const cut = () => {
    cutAt.current = { step: snapshot.step, op: snapshot.opCursor, inRecovery: snapshot.recovering };
    setVerdict(null);
    run(onCut);
  };
  const recover = () => {
    awaitingVerdict.current = true;
    run(onRecover);
  };

  const atEnd = snapshot.step >= snapshot.total && snapshot.opCount === 0;
  const req = snapshot.step + 1;
  const at = cutAt.current;

  return (
    <section className={`panel power-panel${off ? ' is-off' : ''}`} aria-labelledby="pw-h" data-testid="power-panel">
      <h2 id="pw-h">
        <LabelTerm label="Power" />
      </h2>
      {!off && !recovering && (
        <>
          <button
            type="button"
            className="power-button"
            disabled={atEnd || !client}
            onClick={cut}
            data-testid="power-cut"
          >
            Cut power here
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
      {off && (
        <div role="status" data-testid="power-off">
          <p className="power-msg">
            Power lost
            {at
              ? at.inRecovery
                ? ` again, during the recovery, after its operation ${at.op}`
                : at.op > 0
                  ? ` during request ${at.step + 1}, after operation ${at.op}`
                  : ` before request ${at.step + 1}`
              : ''}
            . RAM is gone (the mapping tables are dark); the chip keeps every page programmed so far.
          </p>
          <button type="button" className="primary" onClick={recover} data-testid="power-recover">
            Recover
          </button>
        </div>
      )}
      {recovering && (
        <div role="status" data-testid="power-recovering">
          <p className="power-msg">
            Recovering from the chip alone, after the cut in request {req}: operation {snapshot.opCursor} of{' '}
            {snapshot.opCount}. Step (→) or Play to watch each phase; the narration names it.
          </p>
          <button type="button" onClick={() => run(onFinish)} data-testid="power-finish">
            Finish recovery
          </button>{' '}
          <button
            type="button"
            className="power-button"
            onClick={cut}
            data-testid="power-cut-recovery"
            title="Power fails again after the recovery operations shown; recovering again starts from that chip"
          >
            Cut power again here
          </button>
        </div>
      )}
      {/* Always in the page, so screen readers announce the verdict when it appears. One
          verdict, shown only with the recovery it describes complete on screen: Back into the
          recovery (or to the cut) hides it, Step to its end shows it again (issue 35). */}
      <div aria-live="polite" data-testid="power-live">
        {verdict && verdictShown && <VerdictView v={verdict} last={atEnd} onClose={() => setVerdict(null)} />}
      </div>
      {error && (
        <p className="alert" role="alert" data-testid="power-error">
          {error}
        </p>
      )}
    </section>
  );
}

function count(n: number, what: string) {
  return `${n.toLocaleString('en-US')} ${what}${n === 1 ? '' : 's'}`;
}

function VerdictView({ v, last, onClose }: { v: CrashOutcome; last: boolean; onClose: () => void }) {
  return (
    <div data-testid="power-verdict">
      <p className={v.ok ? 'recovery-verdict ok' : 'recovery-verdict bad'}>
        {v.ok
          ? '✔ Recovered: no acknowledged write lost, no wrong data, no torn page mapped.'
          : `✘ ${count(v.lost, 'acknowledged write')} lost, ${v.wrong} wrong, ${count(v.torn_mapped, 'torn page')} mapped.`}
      </p>
      <p className="hint">
        Recovery took {count(v.recovery_ops, 'flash operation')}.
        {v.in_flight_survived === undefined
          ? ''
          : v.in_flight_survived
            ? ' The interrupted write survived whole.'
            : ' The interrupted request is lost, as it was never acknowledged.'}{' '}
        {/* the cut request may have been the workload's last: then no request follows */}
        {last ? 'That was the workload’s last request.' : 'The run goes on with the next request.'}
      </p>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </div>
  );
}
