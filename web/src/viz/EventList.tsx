// The flash operations (and FTL notes) of the current request, in order.
import type { SimEvent } from '../sim/protocol';
import { FLASH_OP_KINDS, eventKindLabel } from './palette';

function where(e: SimEvent): string {
  if (e.pbn == null) return '';
  return e.page == null ? `block ${e.pbn}` : `block ${e.pbn} · page ${e.page}`;
}

export function EventList({ events, step, opCount }: { events: SimEvent[]; step: number; opCount: number }) {
  const heading = opCount > 0 ? 'This request: operations so far' : step > 0 ? 'Last request: operations' : 'Operations';
  return (
    <section className="panel events" aria-labelledby="events-h">
      <h2 id="events-h">{heading}</h2>
      {events.length === 0 ? (
        <p className="muted">No operations yet.</p>
      ) : (
        <ol className="event-list" data-testid="event-list">
          {events.map((e, i) => (
            <li key={i} className={`event event-${FLASH_OP_KINDS.has(e.kind) ? e.kind : 'note'}${i === events.length - 1 ? ' last' : ''}`}>
              <span className="event-kind">{eventKindLabel(e.kind)}</span>
              {e.pbn != null && <span className="event-where">{where(e)}</span>}
              {e.lpn != null && <span className="event-lpn">LPN {e.lpn}</span>}
              {e.cause && <span className="event-cause">{e.cause}</span>}
              {e.text && !FLASH_OP_KINDS.has(e.kind) && <span className="event-text">{e.text}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
