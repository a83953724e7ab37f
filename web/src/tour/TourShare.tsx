// Share the running tour: "Share tour" opens a box (above the page, so the tour panel keeps
// its height for the stop) to save it as a `.tour.json` file, copy a link carrying it, or
// copy embed code for a course page (tourShare.ts); a tour too long for a link says so and
// points to the file.
import { useState } from 'react';
import { download } from '../ui/download';
import { tourEmbedCode, tourFileName, tourFileText, tourLink } from './tourShare';
import type { Tour } from './tourTypes';

export function TourShare({ tour }: { tour: Tour }) {
  const [open, setOpen] = useState(false);
  const [status, setStatus] = useState<{ text: string; url?: string; what?: string } | null>(null);
  const copy = (what: 'link' | 'embed code', value: string) => {
    const copied = { text: `Tour ${what} copied to the clipboard.`, url: value, what };
    const manual = { text: `Copy the ${what} below (the clipboard is not available here).`, url: value, what };
    if (!navigator.clipboard) return setStatus(manual);
    navigator.clipboard.writeText(value).then(
      () => setStatus(copied),
      () => setStatus(manual),
    );
  };
  const copyLink = () => {
    const link = tourLink(tour, location.href);
    if ('error' in link) return setStatus({ text: link.error });
    copy('link', link.url);
  };
  const copyEmbed = () => {
    const embed = tourEmbedCode(tour, location.href);
    if ('error' in embed) return setStatus({ text: embed.error });
    copy('embed code', embed.code);
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
          <button
            type="button"
            data-testid="tour-copy-embed"
            title="An <iframe> for a course page that plays this tour (small tours only)"
            onClick={copyEmbed}
          >
            Copy embed code
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
              aria-label={status.what === 'embed code' ? 'Embed code' : 'Tour link'}
              data-testid={status.what === 'embed code' ? 'tour-embed' : 'tour-link'}
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
        </div>
      )}
    </>
  );
}
