// The first minute: one paragraph on what this is, and the way in for a newcomer.
import { useEffect, useRef } from 'react';
import { WithGlossary } from '../ui/glossary/Glossary';
import { useOverflows } from '../viz/useOverflows';

/** The control the card points to: the keyboard lands there when the card closes. */
function focusStepOp() {
  document.querySelector<HTMLElement>('[data-testid=btn-step-op]')?.focus();
}

export function Welcome({ onTour, onClose, canTour }: { onTour: () => void; onClose: () => void; canTour: boolean }) {
  const ref = useRef<HTMLElement>(null);
  // A text cut by a short window scrolls visibly (a shade at its foot) and the keyboard reaches it.
  const [textRef, more] = useOverflows<HTMLParagraphElement>(null);
  // Escape from inside the card closes it, as "Explore on my own" does (a glossary term's
  // Escape only hides its tip), and the keyboard goes to Step op (issue 35). Handled
  // first, so presentation's Escape does not leave the presentation too.
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || (e.target as Element | null)?.closest('.term')) return;
      e.preventDefault();
      onClose();
      focusStepOp();
    };
    el.addEventListener('keydown', onKey);
    return () => el.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <section className="welcome" aria-labelledby="welcome-h" data-testid="welcome" ref={ref}>
      <h2 id="welcome-h">Welcome to ftlscope</h2>
      <p ref={textRef} data-more={more || undefined} tabIndex={more ? 0 : undefined}>
        <WithGlossary text="A flash chip cannot overwrite a page in place, and it erases only whole blocks. The flash translation layer (FTL) hides this from the computer: it writes every update somewhere new, keeps a map, and cleans up with garbage collection. Below is a small chip running a short workload: press Step op (→) to watch one flash operation at a time, or take the tour first — it explains every mark on the chip." />
      </p>
      <div className="welcome-buttons">
        <button type="button" className="primary" onClick={onTour} disabled={!canTour} data-testid="welcome-tour">
          Start the 3-minute tour
        </button>
        <button
          type="button"
          onClick={() => {
            onClose();
            focusStepOp();
          }}
          data-testid="welcome-close"
        >
          Explore on my own
        </button>
      </div>
    </section>
  );
}
