// The flash operations (and FTL notes) of the current request, in order, grouped under
// the narration note that explains them (a merge, a GC step, ...). Each entry is a
// button: it jumps to that moment (the state right after that operation).
import type { SimEvent } from '../sim/protocol';
import { groupEvents } from './effects';
import { FLASH_OP_KINDS, causeLabel, eventKindLabel } from './palette';

function where(e: SimEvent): string {
  if (e.pbn == null) return '';
  return e.page == null ? `block ${e.pbn}` : `block ${e.pbn} · page ${e.page}`;
}

export interface EventListProps {
  events: SimEvent[];
  step: number;
  opCount: number;
  opCursor?: number;
  /** jump to the state after `ops` flash operations of the request that follows `step` requests */
  onJump?: (step: number, ops: number) => void;
}

/** Where to jump for event i: [requests done before this request, flash ops up to and including it]. */
export function jumpTarget(events: SimEvent[], i: number, step: number, opCount: number): [number, number] {
  const base = opCount > 0 ? step : Math.max(0, step - 1);
  let ops = 0;
  for (let j = 0; j <= i; j++) if (FLASH_OP_KINDS.has(events[j].kind)) ops++;
  // A note: the moment its first operation happens.
  if (!FLASH_OP_KINDS.has(events[i].kind)) ops += 1;
  const total = events.filter((e) => FLASH_OP_KINDS.has(e.kind)).length;
  return [base, Math.min(Math.max(ops, 0), Math.max(total, 0))];
}

export function EventList({ events, step, opCount, onJump }: EventListProps) {
  const heading =
    opCount > 0 ? 'This request: operations so far' : step > 0 ? 'Last request: operations' : 'Operations';
  const groups = groupEvents(events);
  const item = (e: SimEvent, i: number) => {
    const cls = `event event-${FLASH_OP_KINDS.has(e.kind) ? e.kind : 'note'}${i === events.length - 1 ? ' last' : ''}`;
    const body = (
      <>
        <span className="event-kind">{eventKindLabel(e.kind)}</span>
        {e.pbn != null && <span className="event-where">{where(e)}</span>}
        {e.lpn != null && <span className="event-lpn">LPN {e.lpn}</span>}
        {e.cause && <span className="event-cause">{causeLabel(e.cause)}</span>}
        {e.text && !FLASH_OP_KINDS.has(e.kind) && <span className="event-text">{e.text}</span>}
      </>
    );
    return (
      <li key={i} className={cls}>
        {onJump ? (
          <button
            type="button"
            className="event-jump"
            data-testid={`event-${i}`}
            onClick={() => {
              const [s, ops] = jumpTarget(events, i, step, opCount);
              onJump(s, ops);
            }}
            title="Jump to this moment"
          >
            {body}
          </button>
        ) : (
          body
        )}
      </li>
    );
  };
  return (
    <section className="panel events" aria-labelledby="events-h">
      <h2 id="events-h">{heading}</h2>
      {events.length === 0 ? (
        <p className="muted">No operations yet.</p>
      ) : (
        <ol className="event-list" data-testid="event-list">
          {groups.map((g, gi) =>
            g.note ? (
              <li key={`g${gi}`} className="event-group" data-testid="event-group">
                <ol className="event-group-items">
                  {item(g.note, events.indexOf(g.note))}
                  {g.items.map((i) => item(events[i], i))}
                </ol>
              </li>
            ) : (
              g.items.map((i) => item(events[i], i))
            ),
          )}
        </ol>
      )}
    </section>
  );
}
