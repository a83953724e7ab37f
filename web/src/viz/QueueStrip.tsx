// The request queue above the chip in the open timing model (docs/timing.md): the
// request the chip is serving (boxed) and those that arrived and wait behind it, each with
// how long it has waited (a bar on a D3 scale shared by the strip). A request leaves the
// box when it completes: at a request boundary the core's last served request is shown as
// done. Why the request served waited ("read of lpn 8 waits 1.6 ms behind the full merge
// that the write of lpn 4 triggered", the core's queue note) is the narration's line, at
// the request's first operation and at its end: the strip keeps three rows of fixed height
// so the chip below never moves (issue 35).
import { scaleLinear } from 'd3';
import type { QueueItem, QueueView } from '../sim/protocol';
import { fmtUs } from '../schemes/ResponseTimeline';
import { LabelTerm } from '../ui/glossary/Glossary';

function label(q: QueueItem): string {
  const op = q.op === 'r' ? 'read' : q.op === 'w' ? 'write' : 'state';
  const pages = q.pages > 1 ? ` (+${q.pages - 1} pages)` : '';
  return q.lpn === null ? op : `${op} lpn ${q.lpn}${pages}`;
}

/** `step`: requests completed at the moment shown; a served request with a lower index is done. */
export function QueueStrip({ queue, step }: { queue: QueueView | undefined; step: number }) {
  if (!queue || queue.model !== 'open') return null;
  const done = queue.serving && queue.serving.index < step ? queue.serving : null;
  const serving = done ? null : queue.serving;
  const longest = Math.max(1, serving?.waited_us ?? 0, ...queue.waiting.map((w) => w.waited_us));
  const bar = scaleLinear().domain([0, longest]).range([0, 100]).clamp(true);
  const item = (q: QueueItem, isServing: boolean) => (
    <li
      key={q.index}
      className={`queue-item queue-${q.op}${isServing ? ' queue-serving' : ''}`}
      data-testid={isServing ? 'queue-serving' : 'queue-waiting'}
      title={`request ${q.index + 1}: ${label(q)}, arrived at ${fmtUs(q.arrival_us)}, ${isServing ? 'waited' : 'waiting'} ${fmtUs(q.waited_us)}`}
    >
      <span className="queue-label">{label(q)}</span>
      <span className="queue-wait" aria-hidden="true">
        <span style={{ width: `${bar(q.waited_us)}%` }} />
      </span>
      <span className="queue-time">{fmtUs(q.waited_us)}</span>
    </li>
  );
  return (
    <section className="queue-strip" data-testid="queue-strip" aria-labelledby="queue-h">
      <h2 id="queue-h" className="queue-title">
        <LabelTerm label="Request queue" />{' '}
        <span className="muted">
          (<LabelTerm label="open model" />)
        </span>
      </h2>
      <span className="queue-now" title="The chip's clock (the first request arrives at 0)">
        t = {fmtUs(queue.now_us)}
      </span>
      {done && (
        <span
          className="queue-done"
          data-testid="queue-done"
          title={`request ${done.index + 1} completed at ${fmtUs(queue.now_us)}`}
        >
          ✓ {label(done)} done · waited {fmtUs(done.waited_us)}
        </span>
      )}
      <div className="queue-rows">
        <ol
          className="queue-list"
          aria-label="Served and waiting requests"
          title={`${(serving ? 1 : 0) + queue.waiting.length + queue.more} requests served or waiting (each box's tip has its times)`}
        >
          {serving && item(serving, true)}
          {queue.waiting.map((w) => item(w, false))}
          {queue.more > 0 && <li className="queue-more">+{queue.more.toLocaleString('en-US')} more</li>}
          {!serving && queue.waiting.length === 0 && <li className="queue-empty">queue empty</li>}
        </ol>
        <p className="queue-legend" data-testid="queue-legend">
          <span className="queue-legend-long">
            <span className="queue-key queue-key-serving" aria-hidden="true" /> being served ·{' '}
            <span className="queue-key" aria-hidden="true" /> waiting, in arrival order · bar and time:{' '}
            <LabelTerm label="waited" /> so far (<span className="queue-key-r">read</span>,{' '}
            <span className="queue-key-w">write</span>)
          </span>
          {/* a short window's key, beside the requests (viz.css) */}
          <span className="queue-legend-short">
            <span className="queue-key queue-key-serving" aria-hidden="true" /> served ·{' '}
            <span className="queue-key" aria-hidden="true" /> waiting · <LabelTerm label="waited" /> (
            <span className="queue-key-r">read</span>, <span className="queue-key-w">write</span>)
          </span>
        </p>
      </div>
    </section>
  );
}
