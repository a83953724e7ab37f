// Share the running tour: "Share tour" opens a box (above the page, so the tour panel keeps
// its height for the stop) to save it as a `.tour.json` file or copy a link carrying it
// (tourShare.ts); a tour too long for a link says so and points to the file.
import { useState } from 'react';
import { download } from '../ui/download';
import { tourFileName, tourFileText, tourLink } from './tourShare';
import type { Tour } from './tourTypes';

export function TourShare({ tour }: { tour: Tour }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<{ text: string; url?: string } | null>(null);
  const copyLink = () => {
    const link = tourLink(tour, location.href);
    if ('error' in link) return setStatus({ text: link.error });
    const copied = { text: 'Tour link copied to the clipboard.', url: link.url };
    const manual = { text: 'Copy the link below (the clipboard is not available here).', url: link.url };
    if (!navigator.clipboard) return setStatus(manual);
    navigator.clipboard.writeText(link.url).then(
      () => setStatus(copied),
      () => setStatus(manual),
    );
  };
  return (
    <>
      <button
        type="button"
        className="tour-share edit-only"
        aria-expanded={open}
        data-testid="tour-share"
        title="Save this tour as a file, or copy a link that carries it"
        onClick={() => {
          setOpen((o) => !o);
          setStatus(null);
        }}
      >
        Share tour
      </button>
      {open && (
        <div className="tour-toast" role="group" aria-label="Share this tour" data-testid="tour-share-box">
          <button
            type="button"
            data-testid="tour-save"
            title="Save this tour as a .tour.json file (open it again from Tours ▾)"
            onClick={() => {
              download(tourFileName(tour), tourFileText(tour), 'application/json');
              setStatus({ text: `Saved ${tourFileName(tour)}: open it again from Tours ▾, or drop it on the page.` });
            }}
          >
            Save tour file
          </button>
          <button
            type="button"
            data-testid="tour-copy-link"
            title="A link that carries this whole tour (small tours only)"
            onClick={copyLink}
          >
            Copy tour link
          </button>
          <button type="button" onClick={() => setOpen(false)}>
            Close
          </button>
          <p role="status" data-testid="tour-share-status">
            {status?.text ?? 'Everything stays in this page: the file and the link carry the whole tour.'}
          </p>
          {status?.url && (
            <input
              readOnly
              value={status.url}
              aria-label="Tour link"
              data-testid="tour-link"
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
        </div>
      )}
    </>
  );
}
