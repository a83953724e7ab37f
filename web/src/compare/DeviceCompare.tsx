// Device shapes side by side (issue 40, item 5): one scheme on 1 die against 8 (or any
// shapes of up to 8 channels x 4 dies), on one request list, each run to the end by the
// core's device_run in the device worker. Read/write p99, the share of requests delayed by
// GC, per-die utilisation, each with the `ftl run` command that prints the same figures.
import { useEffect, useId, useRef, useState } from 'react';
import { SCHEMES, type Scenario } from '../scenario/model';
import { DeviceClient, type DevicesSpec, type ShapeSpec } from '../sim/deviceTypes';
import { NumberSelect } from '../device/NumberSelect';
import { LabelTerm } from '../ui/glossary/Glossary';
import {
  DEFAULT_SHAPES,
  MAX_SHAPES,
  SHAPE_CHANNELS,
  SHAPE_DIES,
  cliCommand,
  runShapes,
  shapeLabel,
  utilisation,
  type DeviceRun,
  type ShapeResult,
} from '../device/deviceRun';
import { keptUpload } from '../trace/keptUploads';
import { isUploadWorkload } from '../sim/traceTypes';
import { MetricRow } from './MetricRow';

const ms = (us: number) => `${(us / 1000).toLocaleString('en-US', { maximumFractionDigits: us < 10_000 ? 3 : 1 })} ms`;
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/** The table's rows: label, value of a run, and whether lower is better. */
const ROWS: { label: string; value: (r: DeviceRun) => number; show: (v: number) => string }[] = [
  { label: 'Read p99', value: (r) => r.device.read.p99_us, show: ms },
  { label: 'Write p99', value: (r) => r.device.write.p99_us, show: ms },
  { label: 'Read mean', value: (r) => r.device.read.mean_us, show: ms },
  { label: 'Write mean', value: (r) => r.device.write.mean_us, show: ms },
  { label: 'Reads delayed by GC', value: (r) => r.device.read.delayed_by_gc_share, show: pct },
  { label: 'Writes delayed by GC', value: (r) => r.device.write.delayed_by_gc_share, show: pct },
  { label: 'Makespan', value: (r) => r.device.makespan_us, show: ms },
];

export function DeviceCompare({
  base,
  spec,
  onSpec,
  disabled,
}: {
  base: Scenario;
  spec: DevicesSpec | undefined;
  onSpec: (d: DevicesSpec) => void;
  disabled: boolean;
}) {
  const given = spec ?? { scheme: base.scheme, shapes: DEFAULT_SHAPES };
  const ids = { scheme: useId(), rate: useId() };
  const [results, setResults] = useState<ShapeResult[] | null>(null);
  const [status, setStatus] = useState('');
  const [busy, setBusy] = useState(false);
  const client = useRef<DeviceClient | null>(null);
  useEffect(() => () => client.current?.close(), []);
  const set = (d: Partial<DevicesSpec>) => onSpec({ ...given, ...d });
  const setShape = (i: number, s: ShapeSpec) => set({ shapes: given.shapes.map((x, j) => (j === i ? s : x)) });

  const run = async () => {
    client.current ??= new DeviceClient();
    const c = client.current;
    setBusy(true);
    setResults(null);
    setStatus('Running…');
    const stripeReply = await c.request({ kind: 'stripe', scheme: given.scheme });
    const stripe = stripeReply.kind === 'stripe' ? stripeReply.stripe : 'page';
    const out = await runShapes(
      async (scenario, space) => {
        const trace = upload ? { pid: upload.pid, file: upload.file, options: upload.options } : undefined;
        const r = await c.request({ kind: 'run', scenario, space, trace });
        if (r.kind === 'error') throw new Error(r.message);
        if (r.kind !== 'run') throw new Error('unexpected reply');
        return JSON.parse(r.json) as DeviceRun;
      },
      base,
      given,
      stripe,
      (n) => setStatus(`Running… ${n} of ${given.shapes.length} shapes done`),
    );
    setResults(out);
    setBusy(false);
    const ok = out.filter((r) => 'run' in r);
    const first = ok[0] && 'run' in ok[0] ? ok[0].run : null;
    setStatus(
      first
        ? `Done: ${ok.length} of ${out.length} shapes, ${first.requests.toLocaleString('en-US')} page requests each${traceName ? ` from the uploaded trace ${traceName}` : ''}, one request list over ${first.workload_pages?.toLocaleString('en-US')} logical pages, ${stripe} striping.`
        : 'No shape could run.',
    );
  };

  const runs = results?.map((r) => ('run' in r ? r.run : null)) ?? [];
  // An uploaded trace runs from its file, kept on the page (trace/keptUploads.ts); a link's trace
  // whose file was not given again cannot run.
  const w = base.workload as unknown;
  const upload = isUploadWorkload(w) ? keptUpload(w.upload) : null;
  const traceName = isUploadWorkload(w) ? w.name : undefined;
  const noFile = base.workload.kind === 'trace' && !upload && !('text' in base.workload && base.workload.text);
  return (
    <section className="device-compare" aria-labelledby="device-compare-h" data-testid="device-compare">
      <h3 id="device-compare-h">Device shapes: one scheme on 1 die against 8</h3>
      <p className="muted">
        Each die runs the scheme over its share of the logical space (docs/ssd.md); every shape replays one request
        list, in the smallest device&apos;s space. Queues only form when requests arrive faster than a die serves them:
        give an arrival rate (open model) to see them.
      </p>
      <fieldset className="device-compare-form" disabled={disabled || busy}>
        <legend className="visually-hidden">Device shapes</legend>
        <label htmlFor={ids.scheme}>Scheme</label>
        <select
          id={ids.scheme}
          value={given.scheme}
          onChange={(e) => set({ scheme: e.target.value })}
          data-testid="device-compare-scheme"
        >
          {SCHEMES.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
        <label htmlFor={ids.rate}>Arrivals (requests/s, Poisson)</label>
        <input
          id={ids.rate}
          type="number"
          min={1}
          step={100}
          placeholder="the scenario's timing"
          value={given.rate ?? ''}
          onChange={(e) => {
            const v = Number(e.target.value);
            const next = { ...given };
            if (e.target.value === '' || !(v > 0)) delete next.rate;
            else next.rate = v;
            onSpec(next);
          }}
          data-testid="device-compare-rate"
        />
        {given.shapes.map((s, i) => (
          <span className="device-compare-shape" role="group" aria-label={`Shape ${i + 1}`} key={i}>
            <b aria-hidden="true">Shape {i + 1}:</b>
            <NumberSelect
              label={`Channels of shape ${i + 1}`}
              hideLabel
              value={s.channels}
              options={SHAPE_CHANNELS}
              onChange={(v) => setShape(i, { ...s, channels: v })}
              testid={`device-compare-channels-${i}`}
            />
            <span aria-hidden="true">channels ×</span>
            <NumberSelect
              label={`Dies per channel of shape ${i + 1}`}
              hideLabel
              value={s.diesPerChannel}
              options={SHAPE_DIES}
              onChange={(v) => setShape(i, { ...s, diesPerChannel: v })}
              testid={`device-compare-dies-${i}`}
            />
            <span aria-hidden="true">dies</span>
            <button
              type="button"
              onClick={() => set({ shapes: given.shapes.filter((_, j) => j !== i) })}
              disabled={given.shapes.length <= 1}
              aria-label={`Remove shape ${i + 1}`}
            >
              Remove
            </button>
          </span>
        ))}
        <button
          type="button"
          onClick={() => set({ shapes: [...given.shapes, { channels: 4, diesPerChannel: 1 }] })}
          disabled={given.shapes.length >= MAX_SHAPES}
        >
          Add shape
        </button>
        <button
          type="button"
          className="primary"
          onClick={() => void run()}
          disabled={noFile}
          data-testid="device-compare-run"
        >
          Run the shapes
        </button>
      </fieldset>
      {noFile && (
        <p className="form-errors" data-testid="device-compare-nofile">
          The scenario&apos;s trace file is not open on this page: upload it again (Trace) to run the shapes on it.
        </p>
      )}
      {traceName && upload && (
        <p className="muted" data-testid="device-compare-trace">
          Workload: the uploaded trace {traceName}, read again from the file in the device worker (it never leaves the
          browser).
        </p>
      )}
      <p role="status" className="muted" data-testid="device-compare-status">
        {status}
      </p>
      {results && (
        <table className="compare-table" data-testid="device-compare-table">
          <caption>
            Device shapes compared: <span className="best-key">★ best</span> (lowest) in each row, none when every shape
            has the same value.
          </caption>
          <thead>
            <tr>
              <th scope="col">Metric</th>
              {results.map((r, i) => (
                <th scope="col" key={i}>
                  {shapeLabel(r.shape)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {ROWS.map((row) => (
              <MetricRow
                key={row.label}
                row={row.label}
                label={row.label}
                values={runs.map((r) => (r ? row.value(r) : undefined))}
                failed={runs.map((r) => r === null)}
                format={row.show}
              />
            ))}
            <tr data-row="Per-die utilisation">
              <th scope="row">
                <LabelTerm label="Per-die utilisation" />
              </th>
              {results.map((r, i) => (
                <td key={i} data-testid={`device-compare-util-${i}`}>
                  {'error' in r ? <span className="form-errors">{r.error}</span> : <UtilBars run={r.run} />}
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      )}
      {runs.some(Boolean) && (
        <details className="device-compare-cli">
          <summary>The same figures from the CLI</summary>
          <ul>
            {runs.map(
              (r, i) =>
                r && (
                  <li key={i}>
                    <code>{cliCommand(r, traceName)}</code>
                  </li>
                ),
            )}
          </ul>
        </details>
      )}
    </section>
  );
}

function UtilBars({ run }: { run: DeviceRun }) {
  const u = utilisation(run.device);
  return (
    <div className="device-compare-util">
      <span>
        mean {pct(u.mean)}
        {run.device.per_die.length > 1 ? `, ${pct(u.min)}–${pct(u.max)}` : ''}
      </span>
      <span className="device-compare-bars" aria-hidden="true">
        {run.device.per_die.map((d) => (
          <span
            key={d.die}
            title={`die ${d.die}: ${pct(d.utilisation)}`}
            style={{ height: `${Math.max(2, d.utilisation * 100)}%` }}
          />
        ))}
      </span>
    </div>
  );
}
