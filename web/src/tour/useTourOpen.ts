// Opening a teacher's tour file: from the file picker or dropped anywhere on the page.
// A dropped `.tour.json` is taken here, before the page's trace drop (trace/useFileDrop.ts):
// this listener is on the capture phase and marks the event handled (preventDefault), which
// the trace drop then leaves alone.
import { useEffect, useRef, useState } from 'react';
import { LIMITS } from './tourFile';
import { openTourText, problemsMessage } from './tourShare';
import { addOwnTour } from './tours';

export function isTourFile(f: File): boolean {
  return /\.tour\.json$/i.test(f.name);
}

/** Open a tour file: on success the tour is added and `onStart(id)` runs; else an error. */
export function useTourOpen(onStart: (id: string) => void) {
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(onStart);
  latest.current = onStart;

  const open = useRef(async (f: File) => {
    if (f.size > LIMITS.fileChars * 4) {
      setError(`“${f.name}” could not be opened: the file is too large (${f.size} bytes)`);
      return;
    }
    const opened = openTourText(await f.text());
    if (!opened.tour) {
      setError(problemsMessage(`“${f.name}”`, opened.problems));
      return;
    }
    setError(null);
    addOwnTour(opened.tour);
    latest.current(opened.tour.id);
  }).current;

  useEffect(() => {
    const drop = (e: DragEvent) => {
      const f = e.dataTransfer?.files?.[0];
      if (!f || !isTourFile(f)) return;
      e.preventDefault();
      void open(f);
    };
    window.addEventListener('drop', drop, true);
    return () => window.removeEventListener('drop', drop, true);
  }, [open]);

  return { open, error, dismiss: () => setError(null) };
}
