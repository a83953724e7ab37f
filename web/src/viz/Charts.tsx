// The charts view: cumulative erases and write amplification over the run, response
// times (histogram and CDF), wear (erase counts across blocks) and valid pages per block.
import { useMemo } from 'react';
import type { RunLog, Snapshot } from '../sim/protocol';
import { OKABE_ITO } from './palette';
import type { RunAhead } from './useRunLog';
import { useSize } from '../ui/useSize';
import { XYChart, type XYSeries } from './XYChart';
import { TailChart, type TailSeries } from './TailChart';
import { useRunFocus } from './useRunFocus';

/** Sorted [value, count] pairs → cumulative percentage points (a CDF). */
export function cdf(hist: [number, number][]): [number, number][] {
  const sorted = [...hist].sort((a, b) => a[0] - b[0]);
  const total = sorted.reduce((s, [, c]) => s + c, 0);
  if (total === 0) return [];
  let acc = 0;
  const pts: [number, number][] = [[sorted[0][0], 0]];
  for (const [v, c] of sorted) {
    acc += c;
    pts.push([v, (acc / total) * 100]);
  }
  // carry the 100 % level on to the right so a single value still draws a visible step
  pts.push([sorted[sorted.length - 1][0] * 1.2, 100]);
  return pts;
}

/** How many items have each value (values 0..n), as [value, count] pairs. */
export function countValues(values: ArrayLike<number>): [number, number][] {
  const m = new Map<number, number>();
  for (let i = 0; i < values.length; i++) m.set(values[i], (m.get(values[i]) ?? 0) + 1);
  return [...m.entries()].sort((a, b) => a[0] - b[0]);
}

/** Valid pages in each block. */
export function validPerBlock(states: Uint8Array, ppb: number): Uint32Array {
  const out = new Uint32Array(Math.floor(states.length / ppb));
  for (let b = 0, i = 0; b < out.length; b++) {
    let n = 0;
    for (let p = 0; p < ppb; p++, i++) if (states[i] === 1) n++;
    out[b] = n;
  }
  return out;
}

export interface ChartsProps {
  snap: Snapshot;
  ppb: number;
  log: RunLog | null;
  ahead: RunAhead;
  onRunToEnd: () => void;
  onCancel: () => void;
  /** the request whose response times the histogram and CDF show, and whether that is the moment shown */
  latencyAt?: number | null;
  latencyCurrent?: boolean;
  /** the response-time histogram at the moment shown (useRunLog), not the run log's */
  latency?: RunLog['latency'];
}

export function Charts({
  snap,
  ppb,
  log,
  ahead,
  onRunToEnd,
  onCancel,
  latencyAt,
  latencyCurrent,
  latency: current,
}: ChartsProps) {
  const [ref, size] = useSize<HTMLDivElement>();
  const cols = size.width > 900 ? 3 : 2;
  const w = Math.max(200, Math.floor(size.width / cols) - 12);
  const h = Math.max(150, Math.min(240, Math.floor((size.height - 10) / Math.ceil(6 / cols)) - 40));

  const over = useMemo(() => {
    const s = log?.series ?? [];
    const erases: XYSeries = {
      name: 'Erases',
      kind: 'line',
      color: OKABE_ITO.vermillion,
      points: s.map((d) => [d.step, d.erases]),
    };
    const wa: XYSeries = {
      name: 'Write amplification',
      kind: 'line',
      color: OKABE_ITO.blue,
      points: s.filter((d) => d.host_writes > 0).map((d) => [d.step, d.page_programs / d.host_writes]),
    };
    // Arrays made once per log: the charts are memoised and redraw only when these change.
    return { erases: [erases], wa: [wa] };
  }, [log]);

  const latency = useMemo(() => {
    const l = current ?? log?.latency ?? { read: [], write: [] };
    // Host requests by the run's timing model when the core gives them (docs/timing.md):
    // the histogram and the tail chart count the same response times as Metrics.
    const r = l.requests;
    const hist: XYSeries[] = [
      { name: 'Writes', kind: 'bar', color: OKABE_ITO.vermillion, points: r?.write ?? l.write },
      { name: 'Reads', kind: 'bar', color: OKABE_ITO.blue, points: r?.read ?? l.read },
    ].filter((s) => s.points.length > 0) as XYSeries[];
    const tail: TailSeries[] = [
      { name: 'Writes', color: OKABE_ITO.vermillion, hist: r?.write ?? l.write },
      { name: 'Reads', color: OKABE_ITO.blue, hist: r?.read ?? l.read },
    ];
    const model = r ? `host requests, ${r.model} model` : 'page requests';
    return { hist, tail, model };
  }, [log, current]);

  const wear = useMemo<XYSeries[]>(
    () => [{ name: 'Blocks', kind: 'bar', color: OKABE_ITO.orange, points: countValues(snap.eraseCounts) }],
    [snap.eraseCounts],
  );
  const valid = useMemo<XYSeries[]>(
    () => [
      {
        name: 'Blocks',
        kind: 'bar',
        color: OKABE_ITO.bluishGreen,
        points: countValues(validPerBlock(snap.pageStates, ppb)),
      },
    ],
    [snap.pageStates, ppb],
  );

  const upto = log?.logUpto ?? 0;
  const complete = upto >= snap.total;
  const focus = useRunFocus(ahead.running, complete);
  return (
    <div className="charts-view" data-testid="charts">
      <div className="charts-bar">
        <span className="muted" data-testid="charts-coverage" ref={focus.coverage} tabIndex={-1}>
          Run-wide charts cover requests 0–{upto.toLocaleString('en-US')} of {snap.total.toLocaleString('en-US')}
          {complete ? ' (the whole run)' : ''}. Response times, wear and valid pages are at request{' '}
          {snap.step.toLocaleString('en-US')}.
        </span>
        {ahead.running ? (
          <>
            <progress max={ahead.total} value={ahead.done} aria-label="Running to the end" data-testid="run-progress" />
            <span className="muted" data-testid="run-progress-text">
              Running: request {ahead.done.toLocaleString('en-US')} of {ahead.total.toLocaleString('en-US')}
            </span>
            <button type="button" onClick={onCancel} data-testid="run-cancel" ref={focus.cancel}>
              Cancel
            </button>
          </>
        ) : (
          !complete && (
            <button
              type="button"
              onClick={onRunToEnd}
              ref={focus.run}
              data-testid="run-to-end"
              title="Run the rest of the workload in the background, then come back here"
            >
              Run to end
            </button>
          )
        )}
      </div>
      <div
        className="charts-grid"
        ref={ref}
        data-latency-at={latencyAt ?? undefined}
        data-latency-current={latencyCurrent ? 'true' : 'false'}
      >
        {size.width > 0 && (
          <>
            <XYChart
              id="erases"
              title="Cumulative block erases"
              xLabel="requests"
              yLabel="erases (count)"
              series={over.erases}
              width={w}
              height={h}
              rule={snap.step}
            />
            <XYChart
              id="wa"
              title="Write amplification over time"
              xLabel="requests"
              yLabel="WA (programs ÷ writes)"
              series={over.wa}
              width={w}
              height={h}
              rule={snap.step}
            />
            <XYChart
              id="latency-hist"
              title="Response-time histogram"
              xLabel={`response time, ${latency.model} (µs, log scale)`}
              yLabel="requests (count)"
              series={latency.hist}
              width={w}
              height={h}
              xLog
              empty="No requests yet"
            />
            <TailChart
              id="latency-tail"
              title={`Response-time tail (${latency.model})`}
              series={latency.tail}
              width={w}
              height={h}
            />
            <XYChart
              id="wear"
              title="Erase-count distribution (wear)"
              xLabel="erase count (erases per block)"
              yLabel="blocks (count)"
              series={wear}
              width={w}
              height={h}
            />
            <XYChart
              id="valid"
              title="Valid pages per block"
              xLabel="valid pages in the block (pages)"
              yLabel="blocks (count)"
              series={valid}
              width={w}
              height={h}
            />
          </>
        )}
      </div>
    </div>
  );
}
