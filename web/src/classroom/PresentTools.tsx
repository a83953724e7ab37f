// Presentation mode's own tools: text size (−/+, also the - and + keys) and the side panel
// (metrics, events), collapsed so the chip gets the room.
import { useEffect } from 'react';

export const PRESENT_SCALES = [1.5, 1.75, 2, 2.25, 2.5, 2.75, 3];
export const DEFAULT_PRESENT_SCALE = 2;

export function PresentTools({
  scale,
  onScale,
  sideOpen,
  onSide,
}: {
  scale: number;
  onScale: (s: number) => void;
  sideOpen: boolean;
  onSide: (open: boolean) => void;
}) {
  const i = PRESENT_SCALES.indexOf(scale);
  const smaller = i > 0 ? PRESENT_SCALES[i - 1] : null;
  const larger = i >= 0 && i < PRESENT_SCALES.length - 1 ? PRESENT_SCALES[i + 1] : null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey || (e.target as HTMLElement | null)?.closest?.('input, textarea, select'))
        return;
      if ((e.key === '+' || e.key === '=') && larger) onScale(larger);
      else if (e.key === '-' && smaller) onScale(smaller);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [smaller, larger, onScale]);
  return (
    <span className="present-tools" role="group" aria-label="Presentation">
      <button
        type="button"
        onClick={() => smaller && onScale(smaller)}
        disabled={!smaller}
        aria-label="Smaller text (−)"
        data-testid="zoom-out"
      >
        A−
      </button>
      <span className="present-scale" data-testid="present-scale">
        {Math.round(scale * 50)}%
      </span>
      <button
        type="button"
        onClick={() => larger && onScale(larger)}
        disabled={!larger}
        aria-label="Larger text (+)"
        data-testid="zoom-in"
      >
        A+
      </button>
      <button
        type="button"
        aria-pressed={sideOpen}
        onClick={() => onSide(!sideOpen)}
        data-testid="side-toggle"
        title="Show the metrics and events beside the chip"
      >
        Metrics
      </button>
    </span>
  );
}
