// Keyboard focus across Run to end (issue 35): the button that was clicked disappears while
// the run goes on, and its Cancel disappears when it ends; focus dropped to the body would
// leave a keyboard user nowhere. While running, focus goes to Cancel; after, back to Run to
// end (a cancelled run) or, the run complete and the button gone, to the coverage line that
// now says "(the whole run)". Focus moves only if it was on the control that went away.
import { useLayoutEffect, useRef } from 'react';

export function useRunFocus(running: boolean, complete: boolean) {
  const cancel = useRef<HTMLButtonElement>(null);
  const run = useRef<HTMLButtonElement>(null);
  const coverage = useRef<HTMLSpanElement>(null);
  // a short run can start and end between two renders: the button then goes at once
  const state = `${running}:${complete}`;
  const was = useRef(state);
  useLayoutEffect(() => {
    if (was.current === state) return;
    was.current = state;
    // the control that had focus was just removed: the document's focus is the body
    const lost = !document.activeElement || document.activeElement === document.body;
    if (!lost) return;
    if (running) cancel.current?.focus();
    else (run.current ?? coverage.current)?.focus();
  }, [running, state]);
  return { cancel, run, coverage };
}
