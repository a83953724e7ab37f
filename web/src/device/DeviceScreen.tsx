// The device view (issue 40, item 4): an SSD of channels x dies stepped one flash
// operation at a time in time order across the dies (core: ssd_step.rs). The dies side by
// side, each its chip grid (SVG, or the canvas for big chips), the die of the operation
// shown highlighted, each die's queue and utilisation. One die never comes here: the app's
// own view is that device.
import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import {
  DeviceClient,
  type DeviceMoment,
  type DeviceReadProgress,
  type DeviceShape,
  type DieArrays,
  type DieMoment,
  type DeviceReply,
  type DeviceRequest,
} from '../sim/deviceTypes';
import { CanvasGrid } from '../viz/CanvasGrid';
import { DeviceGrid } from '../viz/DeviceGrid';
import { SVG_MAX_PAGES } from '../viz/ChipView';
import { useSize } from '../ui/useSize';
import { isUploadWorkload } from '../sim/traceTypes';
import { keptUpload } from '../trace/keptUploads';
import { DevicePowerPanel, DieRecoveryLine } from './DevicePowerPanel';
import { DeviceTraceRead } from './DeviceTraceRead';
import { follow, type DevicePath } from './devicePath';
import { DeviceSender } from './deviceSend';
import { keepUnchanged } from './dieArrays';
import './device.css';

export interface DeviceScreenProps {
  /** the scenario each die runs its share of (the app's scenario) */
  scenario: unknown;
  shape: DeviceShape;
  theme: string;
  onClose: () => void;
  /** where the device is, after each move (the link follows it): the recorded run's operation, and the moves
   * since a power cut (devicePath.ts) */
  onCursor?: (cursor: number, moves?: DeviceShape['moves']) => void;
}

interface Shown {
  moment: DeviceMoment;
  dies: DieArrays[];
}

export function shapeLabel(s: DeviceShape): string {
  const dies = s.channels * s.diesPerChannel;
  return `${s.channels} channel${s.channels === 1 ? '' : 's'} × ${s.diesPerChannel} die${
    s.diesPerChannel === 1 ? '' : 's'
  } (${dies} dies), ${s.stripe} striping`;
}

export function DeviceScreen({ scenario, shape, theme, onClose, onCursor }: DeviceScreenProps) {
  const [client, setClient] = useState<DeviceClient | null>(null);
  const [sender, setSender] = useState<DeviceSender | null>(null);
  // Moves clicked while one is in flight, waiting their turn (deviceSend.ts): shown, never dropped.
  const [queued, setQueued] = useState(0);
  const [shown, setShown] = useState<Shown | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [reading, setReading] = useState<DeviceReadProgress | null>(null);
  const cursorOut = useRef(onCursor);
  useEffect(() => {
    cursorOut.current = onCursor;
  }, [onCursor]);
  // The device reopens only when its shape changes, not when the link's cursor follows it;
  // the cursor and moves given when it opens (a link, a scenario file) are where it opens.
  const { channels, diesPerChannel, stripe } = shape;
  const openAt = useRef<DevicePath>({ cursor: 0, moves: [] });
  openAt.current = { cursor: shape.cursor ?? 0, moves: shape.moves ?? [] };
  const path = useRef<DevicePath>(openAt.current);

  // `req` moved the device (null: it opened at `path`): the path follows, and the link.
  const apply = useCallback((r: DeviceReply, req: DeviceRequest | null) => {
    if (r.kind === 'error') {
      if (r.message !== 'closed') setError(r.message);
      return;
    }
    if (r.kind !== 'moment') return;
    setError(null);
    // A die whose chip did not change keeps the arrays shown, and with them its drawn grid (dieArrays.ts).
    setShown((was) => ({ moment: r.moment, dies: keepUnchanged(was?.dies, r.dies) }));
    // Opened: the path it opened at, unless that is the recorded run (a goto's rule).
    path.current = follow(path.current, req ?? { kind: 'goto', cursor: path.current.cursor }, r.moment);
    cursorOut.current?.(path.current.cursor, path.current.moves.length ? path.current.moves : undefined);
  }, []);

  // An uploaded trace runs from its file, kept on the page (trace/keptUploads.ts): the
  // device worker reads it again. A link's trace whose file was not given again cannot run.
  const w = (scenario as { workload?: unknown } | null)?.workload;
  const traceName = isUploadWorkload(w) ? w.name : null;
  const upload = isUploadWorkload(w) ? keptUpload(w.upload) : null;

  useEffect(() => {
    setShown(null);
    setReading(null);
    if (traceName !== null && !upload) {
      setClient(null);
      setSender(null);
      setError(
        `The uploaded trace ${traceName} is not open on this page: upload it again (Trace) to run it on the device.`,
      );
      return;
    }
    const c = new DeviceClient();
    const s = new DeviceSender(c, apply, setQueued);
    setClient(c);
    setSender(s);
    setQueued(0);
    setError(null);
    c.onProgress = setReading;
    const at = openAt.current;
    path.current = at;
    const hold = testHold(c);
    const trace = upload ? { pid: upload.pid, file: upload.file, options: upload.options, hold } : undefined;
    void c
      .request({ kind: 'open', scenario, shape: { channels, diesPerChannel, stripe }, trace })
      .then((r) => (r.kind === 'moment' && at.cursor > 0 ? c.request({ kind: 'goto', cursor: at.cursor }) : r))
      .then((r) => (r.kind === 'moment' && at.moves.length ? c.request({ kind: 'replay', moves: at.moves }) : r))
      .then((r) => apply(r, null))
      .finally(() => setReading(null));
    return () => {
      s.close();
      c.close();
    };
  }, [scenario, traceName, upload, channels, diesPerChannel, stripe, apply]);

  // One request at a time, in order: a click while a move is in flight is queued behind it,
  // never dropped (issue 37, session 24); only a held key's repeat is (`repeat`).
  const send = useCallback((r: DeviceRequest, repeat = false) => void sender?.send(r, repeat), [sender]);

  // A cursor given from outside (a tour's next device stop on the same device) is gone to;
  // a step's own cursor, reported through onCursor, is already the one shown.
  const want = shape.cursor ?? 0;
  const shownRef = useRef(shown);
  shownRef.current = shown;
  const wantMoves = shape.moves?.length ?? 0;
  useEffect(() => {
    const m = shownRef.current?.moment;
    if (m && m.power === 'on' && !wantMoves && m.cursor !== want) send({ kind: 'goto', cursor: want });
  }, [want, wantMoves, send]);

  const onKey = (e: KeyboardEvent) => {
    const off = shown?.moment.power === 'off';
    if (e.key === 'ArrowRight') {
      if (!off) send({ kind: 'step' }, e.repeat);
    } else if (e.key === 'ArrowLeft') send({ kind: 'back' }, e.repeat);
    else if (e.key === 'Home') send({ kind: 'goto', cursor: 0 }, e.repeat);
    else return;
    e.preventDefault();
  };

  const m = shown?.moment;
  const cur = m?.current ?? null;
  const cols = Math.min(shape.channels * shape.diesPerChannel, 4);
  return (
    <main
      className="device-screen"
      aria-labelledby="device-h"
      data-testid="device-view"
      data-cursor={m?.cursor}
      data-total={m?.total}
      data-current-die={cur?.die}
      data-current-request={cur?.request}
      data-current-op={cur ? `${cur.op}/${cur.ops}` : undefined}
      data-current-start={cur?.start_ns}
      data-ready={shown ? 'true' : undefined}
      data-queued={queued || undefined}
      aria-busy={queued > 0 || undefined}
      tabIndex={-1}
      onKeyDown={onKey}
    >
      <div className="device-head">
        <h2 id="device-h">Device of {shapeLabel(shape)}</h2>
        <div className="device-controls" role="group" aria-label="Device stepping">
          <button
            type="button"
            onClick={() => send({ kind: 'goto', cursor: 0 })}
            disabled={!m || (m.cursor === 0 && m.power === 'on')}
          >
            Start
          </button>
          <button
            type="button"
            onClick={() => send({ kind: 'back' })}
            disabled={!m || (m.cursor === 0 && m.power === 'on')}
            data-testid="device-back"
          >
            ← Back op
          </button>
          <button
            type="button"
            className="primary"
            onClick={() => send({ kind: 'step' })}
            disabled={!m || m.power === 'off' || (m.power === 'on' && m.cursor >= m.total)}
            data-testid="device-step"
          >
            Step op →
          </button>
          <button type="button" onClick={onClose} data-testid="device-close">
            Close device view
          </button>
          {queued > 0 && (
            <span className="device-queued" role="status" data-testid="device-queued">
              {queued} more {queued === 1 ? 'move' : 'moves'} queued
            </span>
          )}
        </div>
      </div>
      {error && (
        <p className="device-error" role="alert" data-testid="device-error">
          {error}
        </p>
      )}
      {traceName !== null && upload && !shown && !error && (
        <DeviceTraceRead
          name={traceName}
          progress={reading}
          onCancel={() => {
            // Cancel stops the worker (the file is read no further) and leaves the device view.
            client?.close();
            onClose();
          }}
        />
      )}
      {m && <DevicePowerPanel m={m} send={send} />}
      {m && (
        <p className="device-status" aria-live="polite" data-testid="device-status">
          {m.power === 'on' ? 'Operation' : 'Power cut after operation'} <b>{m.cursor}</b> of {m.total}
          {m.power === 'on' && m.recovered_cuts > 0
            ? ` (the run after ${m.recovered_cuts === 1 ? 'a power cut' : `${m.recovered_cuts} power cuts`})`
            : ''}
          {cur ? (
            <>
              {' '}
              on <b>die {cur.die}</b>: page request {cur.request + 1} (host request {cur.host + 1}),{' '}
              {cur.ops === 0 ? 'no flash operation' : `operation ${cur.op} of ${cur.ops}`}, at{' '}
              {(cur.start_ns / 1000).toFixed(1)} µs
            </>
          ) : (
            ' (before the first)'
          )}
          . Host requests done: {m.hosts_done} of {m.hosts}; device time{' '}
          <span data-testid="device-now">{(m.now_ns / 1000).toFixed(1)} µs</span> (the latest end so far).
          {m.next && m.power === 'on' && (
            <>
              {' '}
              Next: die {m.next.die} at {(m.next.start_ns / 1000).toFixed(1)} µs.
            </>
          )}
        </p>
      )}
      <div className="device-dies" style={{ gridTemplateColumns: `repeat(${cols}, minmax(0, 1fr))` }}>
        {m &&
          shown.dies.map((arrays, d) => (
            <DieCard
              key={d}
              die={m.dies[d]}
              arrays={arrays}
              current={
                m.power === 'recovering' || m.power === 'recovered' ? m.recovery_current?.die === d : cur?.die === d
              }
              theme={theme}
              recovery={<DieRecoveryLine m={m} die={d} />}
            />
          ))}
      </div>
      <p className="device-note">
        Each die is a chip of its own running the scheme over its share of the logical space (stripe unit:{' '}
        {m ? `${m.stripe_unit_pages} page${m.stripe_unit_pages === 1 ? '' : 's'}` : shape.stripe}); its queue is first
        in, first out; operations are shown in the order they start (docs/ssd.md). Keys: → step, ← back.
        {traceName !== null && upload && (
          <span data-testid="device-trace">
            {' '}
            Workload: the uploaded trace <b>{traceName}</b>, striped over the dies, read again from the file in the
            device worker (it never leaves the browser).
          </span>
        )}
      </p>
    </main>
  );
}

/**
 * e2e only (docs/ssd.md, "Tests"): a page whose script set `__ftlscopeHoldDeviceRead` before
 * the app loaded holds the device worker's reader after its first chunk, so a test can click
 * Cancel while the file is still being read; `__ftlscopeReleaseDeviceRead()` lets it go on.
 * Nothing in the app, a link or a file sets it.
 */
function testHold(c: DeviceClient): boolean | undefined {
  const w = window as unknown as { __ftlscopeHoldDeviceRead?: boolean; __ftlscopeReleaseDeviceRead?: () => void };
  if (w.__ftlscopeHoldDeviceRead !== true) return undefined;
  w.__ftlscopeReleaseDeviceRead = () => c.release();
  return true;
}

function DieCard({
  die,
  arrays,
  current,
  theme,
  recovery,
}: {
  die: DieMoment;
  arrays: DieArrays;
  current: boolean;
  theme: string;
  recovery?: ReactNode;
}) {
  const [ref, { width, height }] = useSize<HTMLDivElement>();
  const blocks = arrays.blockRoles.length;
  const ppb = blocks > 0 ? arrays.pageStates.length / blocks : 0;
  const large = blocks * ppb > SVG_MAX_PAGES;
  const pct = Math.round(die.utilisation * 100);
  // The grid drawn again only when this die's arrays (kept by identity while unchanged:
  // dieArrays.ts), its size or the theme change; not for another die's step.
  const chip = useMemo(() => {
    if (width <= 0 || height <= 0) return null;
    const grid = { ...arrays, blocks, pagesPerBlock: ppb, width, height, theme };
    return large ? <CanvasGrid {...grid} /> : <DeviceGrid {...grid} transitionMs={0} />;
  }, [arrays, blocks, ppb, large, width, height, theme]);
  return (
    <section
      className={`device-die${current ? ' current' : ''}`}
      data-die={die.die}
      data-current={current || undefined}
      data-step={die.step}
      data-op={die.op_cursor}
      aria-label={`Die ${die.die}, channel ${die.channel}${current ? ', the operation shown' : ''}`}
    >
      <header>
        <b>Die {die.die}</b> <span className="device-ch">channel {die.channel}</span>
        <span className="device-req">
          {die.step} of {die.requests} page requests{die.op_count > 0 ? `, op ${die.op_cursor}/${die.op_count}` : ''}
        </span>
      </header>
      <div className="device-chip" ref={ref}>
        {chip}
      </div>
      <div className="device-util" title="Busy share of the time so far">
        <span>Utilisation {pct} %</span>
        <span className="device-bar" aria-hidden="true">
          <span style={{ width: `${Math.min(100, pct)}%` }} />
        </span>
      </div>
      {recovery}
      <ol className="device-queue" aria-label={`Die ${die.die} queue`} data-testid={`die-queue-${die.die}`}>
        {die.queue.length === 0 && <li className="empty">queue empty</li>}
        {die.queue.map((q) => (
          <li
            key={q.request}
            className={q.running ? 'running' : undefined}
            title={`page request ${q.request + 1} (host request ${q.host + 1})${q.running ? ', running' : ', waiting'}`}
          >
            {q.read ? 'R' : 'W'} {q.lpn}
          </li>
        ))}
        {die.queue_more > 0 && <li className="more">+{die.queue_more}</li>}
      </ol>
    </section>
  );
}
