// Share the running tour: save it as a `.tour.json` file, or copy a link carrying it
// (tourShare.ts); a tour too long for a link says so and points to the file.
import { useState } from 'react';
import { download } from '../ui/download';
import { tourFileName, tourFileText, tourLink } from './tourShare';
import type { Tour } from './tourTypes';

export function TourShare({ tour }: { tour: Tour }) {
  const [status, setStatus] = useState<{ text: string; url?: string } | null>(null);
  return (
    <>
      <button
        type="button"
        data-testid="tour-save"
        title="Save this tour as a .tour.json file (open it again from Tours ▾)"
        onClick={() => {
          download(tourFileName(tour), tourFileText(tour), 'application/json');
          setStatus({ text: `Saved ${tourFileName(tour)}.` });
        }}
      >
        Save tour file
      </button>
      <button
        type="button"
        data-testid="tour-copy-link"
        title="A link that carries this whole tour (small tours only)"
        onClick={() => {
          const link = tourLink(tour, location.href);
          if ('error' in link) return setStatus({ text: link.error });
          const copied = { text: 'Tour link copied to the clipboard.', url: link.url };
          const manual = { text: 'Copy the link below (the clipboard is not available here).', url: link.url };
          if (!navigator.clipboard) return setStatus(manual);
          navigator.clipboard.writeText(link.url).then(
            () => setStatus(copied),
            () => setStatus(manual),
          );
        }}
      >
        Copy tour link
      </button>
      {status && (
        // above the page (the tour panel keeps its height for the stop): until dismissed
        <div className="tour-toast" role="status" data-testid="tour-share-status">
          <p>{status.text}</p>
          {status.url && (
            <input
              readOnly
              value={status.url}
              aria-label="Tour link"
              data-testid="tour-link"
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
          <button type="button" onClick={() => setStatus(null)}>
            Dismiss
          </button>
        </div>
      )}
    </>
  );
}
