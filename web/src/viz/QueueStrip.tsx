// The request queue above the chip in the open timing model (docs/timing.md): the
// request the chip is serving and those that arrived and wait behind it, each with how
// long it has waited (a bar on a D3 scale shared by the strip), and the narration's
// sentence when the request served had to wait ("read of lpn 8 waits 1.6 ms behind
// the full merge that the write of lpn 4 triggered").
import { scaleLinear } from 'd3';
import type { QueueItem, QueueView } from '../sim/protocol';
import { fmtUs } from '../schemes/ResponseTimeline';

function label(q: QueueItem): string {
  const op = q.op === 'r' ? 'read' : q.op === 'w' ? 'write' : 'state';
  const pages = q.pages > 1 ? ` (+${q.pages - 1} pages)` : '';
  return q.lpn === null ? op : `${op} lpn ${q.lpn}${pages}`;
}

export function QueueStrip({ queue }: { queue: QueueView | undefined }) {
  if (!queue || queue.model !== 'open') return null;
  const longest = Math.max(1, queue.serving?.waited_us ?? 0, ...queue.waiting.map((w) => w.waited_us));
  const bar = scaleLinear().domain([0, longest]).range([0, 100]).clamp(true);
  const item = (q: QueueItem, serving: boolean) => (
    <li
      key={q.index}
      className={`queue-item queue-${q.op}${serving ? ' queue-serving' : ''}`}
      data-testid={serving ? 'queue-serving' : 'queue-waiting'}
      title={`request ${q.index + 1}: ${label(q)}, arrived at ${fmtUs(q.arrival_us)}, ${serving ? 'waited' : 'waiting'} ${fmtUs(q.waited_us)}`}
    >
      <span className="queue-label">{label(q)}</span>
      <span className="queue-wait" aria-hidden="true">
        <span style={{ width: `${bar(q.waited_us)}%` }} />
      </span>
      <span className="queue-time">{fmtUs(q.waited_us)}</span>
    </li>
  );
  return (
    <section className="queue-strip" data-testid="queue-strip" aria-label="Request queue">
      <span className="queue-now" title="The chip's clock (the first request arrives at 0)">
        t = {fmtUs(queue.now_us)}
      </span>
      <ol className="queue-list">
        {queue.serving && item(queue.serving, true)}
        {queue.waiting.map((w) => item(w, false))}
        {queue.more > 0 && <li className="queue-more">+{queue.more.toLocaleString('en-US')} more</li>}
        {!queue.serving && queue.waiting.length === 0 && <li className="queue-empty">queue empty</li>}
      </ol>
      {queue.note && (
        <p className="queue-note" data-testid="queue-note">
          {queue.note}
        </p>
      )}
    </section>
  );
}
