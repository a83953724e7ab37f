// Power cuts on a device (issue 40, item 6; core: ssd_step/power.rs, x-api2.md): a cut
// stops every die at the moment shown (a die inside a page request loses it), power back
// on recovers every die from its own chip; Step reveals the dies' recovery operations in
// time order, each die's verdict once its recovery is revealed whole, and the device's
// verdict once every die's is. Step then goes on with the run on every die.
import type { DeviceMoment, DeviceRequest } from '../sim/deviceTypes';

const us = (ns: number) => `${(ns / 1000).toLocaleString('en-US', { maximumFractionDigits: 1 })} µs`;

/** The device's verdict once every die has one: no acknowledged write lost, none wrong. */
export function deviceVerdict(m: DeviceMoment): {
  done: boolean;
  ok: boolean;
  lost: number;
  wrong: number;
  inFlight: number;
} {
  const v = m.recovery.map((r) => r.verdict);
  const done = v.length > 0 && v.every((x) => x !== null);
  const sum = (f: (x: NonNullable<(typeof v)[number]>) => number) => v.reduce((a, x) => a + (x ? f(x) : 0), 0);
  return {
    done,
    ok: done && v.every((x) => x?.ok),
    lost: sum((x) => x.lost),
    wrong: sum((x) => x.wrong),
    inFlight: v.filter((x) => x?.in_flight).length,
  };
}

export function DevicePowerPanel({ m, send }: { m: DeviceMoment; send: (r: DeviceRequest) => void }) {
  const verdict = deviceVerdict(m);
  const cur = m.recovery_current;
  return (
    <section className="device-power" aria-label="Power" data-testid="device-power" data-power={m.power}>
      <b>Power</b>
      {m.power === 'on' ? (
        <>
          <button type="button" onClick={() => send({ kind: 'cut' })} data-testid="device-cut">
            Cut power here
          </button>
          {m.recovered_cuts > 0 && (
            <span className="device-power-state" data-testid="device-after-cut" data-cuts={m.recovered_cuts}>
              The run after {m.recovered_cuts === 1 ? 'a power cut' : `${m.recovered_cuts} power cuts`}: every die goes
              on from its recovered chip; a request lost in flight is never acknowledged. Start returns to the recorded
              run.{' '}
              <span data-testid="device-link-note">
                A link or scenario file made now reopens this moment: it replays the cut and what followed it.
              </span>
            </span>
          )}
        </>
      ) : (
        <span className="device-power-state" data-testid="device-power-state">
          {m.power === 'off'
            ? 'Off: every die stopped at this moment (a die inside a page request lost it).'
            : m.power === 'recovering'
              ? `Recovering every die from its own chip${cur ? `: die ${cur.die}, operation ${cur.op} of ${cur.ops} (${us(cur.start_ns)}–${us(cur.end_ns)})` : ''}.`
              : 'Recovered: each die rebuilt its map from its chip.'}
        </span>
      )}
      {m.power === 'off' && (
        <button
          type="button"
          className="primary"
          onClick={() => send({ kind: 'recover' })}
          data-testid="device-recover"
        >
          Power on (step the recovery)
        </button>
      )}
      {(m.power === 'off' || m.power === 'recovering') && (
        <button type="button" onClick={() => send({ kind: 'recover_whole' })} data-testid="device-recover-whole">
          Recover whole
        </button>
      )}
      {verdict.done && (
        <p
          className={verdict.ok ? 'device-verdict ok' : 'device-verdict bad'}
          role="status"
          data-testid="device-verdict"
          data-ok={verdict.ok}
        >
          {verdict.ok
            ? `Every die recovered: no acknowledged write lost, none read wrong${verdict.inFlight ? ` (${verdict.inFlight} die${verdict.inFlight === 1 ? '' : 's'} lost the request in flight, never acknowledged)` : ''}.`
            : `Recovery failed: ${verdict.lost} acknowledged writes lost, ${verdict.wrong} read wrong.`}{' '}
          Step goes on with the run once the slowest die has recovered; Back returns to the moment before the cut.
        </p>
      )}
    </section>
  );
}

/** One die's recovery line in its card, while recovering or recovered. */
export function DieRecoveryLine({ m, die }: { m: DeviceMoment; die: number }) {
  const r = m.recovery.find((x) => x.die === die);
  if (!r) return null;
  const v = r.verdict;
  return (
    <div className="device-die-recovery" data-testid={`die-recovery-${die}`} data-ops={`${r.op_cursor}/${r.op_count}`}>
      Recovery: {r.op_cursor} of {r.op_count} operations, {us(r.ns)} of {us(r.total_ns)}
      {v && (
        <b className={v.ok ? 'ok' : 'bad'}>
          {' '}
          · {v.ok ? 'ok' : `${v.lost} lost, ${v.wrong} wrong`}
          {v.in_flight
            ? `; in flight: ${v.in_flight}${v.in_flight_survived ? ' (survived)' : ' (lost, not acknowledged)'}`
            : ''}
        </b>
      )}
    </div>
  );
}
