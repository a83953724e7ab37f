// The first minute: one paragraph on what this is, and the way in for a newcomer.
import { WithGlossary } from '../ui/glossary/Glossary';

export function Welcome({ onTour, onClose, canTour }: { onTour: () => void; onClose: () => void; canTour: boolean }) {
  return (
    <section className="welcome" aria-labelledby="welcome-h" data-testid="welcome">
      <h2 id="welcome-h">Welcome to ftlscope</h2>
      <p>
        <WithGlossary text="A flash chip cannot overwrite a page in place, and it erases only whole blocks. The flash translation layer (FTL) hides this from the computer: it writes every update somewhere new, keeps a map, and cleans up with garbage collection. Below is a small chip running a short workload: press Step op (→) to watch one flash operation at a time, or take the tour first — it explains every mark on the chip." />
      </p>
      <div className="welcome-buttons">
        <button type="button" className="primary" onClick={onTour} disabled={!canTour} data-testid="welcome-tour">
          Start the 3-minute tour
        </button>
        <button type="button" onClick={onClose} data-testid="welcome-close">
          Explore on my own
        </button>
      </div>
    </section>
  );
}
