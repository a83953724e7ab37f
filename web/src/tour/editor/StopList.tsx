// The draft's stops in order: select one (the chip goes to its moment), move it up or down
// (buttons, so the keyboard can reorder too) or delete it.
import type { TourStop } from '../tourTypes';

/** Where a stop is: request and operation on a chip ("r12+3"), the device's operation on a
 * device of several dies ("op 9 (8 dies)"; at.op is the device's cursor there). */
export function stopPlace(at: TourStop['at'], dies = 1): string {
  if (dies > 1) return `op ${at.op ?? 0} (${dies} dies)`;
  return `r${at.step}${at.op ? `+${at.op}` : ''}`;
}

export function StopList({
  stops,
  selected,
  onSelect,
  onMove,
  onDelete,
  dies,
}: {
  stops: TourStop[];
  /** dies of each stop's device (1 or absent: a chip) */
  dies?: number[];
  selected: number;
  onSelect: (i: number) => void;
  onMove: (i: number, by: -1 | 1) => void;
  onDelete: (i: number) => void;
}) {
  if (stops.length === 0)
    return (
      <p className="muted ted-empty" data-testid="ted-empty">
        No stops yet. Step the chip to a moment (→, Step request, or the timeline) and press <em>Add stop here</em>.
      </p>
    );
  return (
    <ol className="ted-stops" data-testid="ted-stops" aria-label="Stops">
      {stops.map((s, i) => (
        <li key={i} className={i === selected ? 'current' : undefined} data-testid="ted-stop-item">
          <button
            type="button"
            className="ted-stop-go"
            aria-current={i === selected ? 'true' : undefined}
            onClick={() => onSelect(i)}
            title="Edit this stop (the chip goes to its moment)"
          >
            {i + 1}. {s.title || '(no title)'}{' '}
            <span className="muted" data-testid="ted-stop-place">
              {stopPlace(s.at, dies?.[i])}
            </span>
          </button>
          <span className="ted-stop-tools">
            <button
              type="button"
              aria-label={`Move stop ${i + 1} up`}
              disabled={i === 0}
              onClick={() => onMove(i, -1)}
              data-testid="ted-up"
            >
              ↑
            </button>
            <button
              type="button"
              aria-label={`Move stop ${i + 1} down`}
              disabled={i === stops.length - 1}
              onClick={() => onMove(i, 1)}
              data-testid="ted-down"
            >
              ↓
            </button>
            <button
              type="button"
              aria-label={`Delete stop ${i + 1}`}
              onClick={() => onDelete(i)}
              data-testid="ted-delete"
            >
              ✕
            </button>
          </span>
        </li>
      ))}
    </ol>
  );
}
