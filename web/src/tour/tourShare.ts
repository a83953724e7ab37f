// Sharing a tour without a server: a `.tour.json` file (saved and opened in the page) or a
// link whose hash carries the tour compressed as scenario links are (lz-string,
// scenario/share.ts). Both are read back through the same checks (tourFile.ts, tourCheck.ts).
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import { fileStem } from '../ui/download';
import { tourCoreProblems } from './tourCheck';
import { describeProblems, tourFromJson, tourToFile, type TourProblem } from './tourFile';
import type { Tour } from './tourTypes';

/** `#tourfile=<lz-string>`: a whole tour in the address. */
export const TOUR_LINK_KEY = 'tourfile';
/**
 * The longest link offered: mail programs, chat tools and learning platforms cut or refuse
 * longer ones (a few thousand characters is what they reliably carry); longer tours go as files.
 */
export const MAX_TOUR_LINK = 8_000;

export function tourFileText(tour: Tour): string {
  return JSON.stringify(tourToFile(tour), null, 2) + '\n';
}

export function tourFileName(tour: Tour): string {
  return `${fileStem(tour.id)}.tour.json`;
}

/** A link to the tour, or why there is none (too long: the file is the way). */
export function tourLink(tour: Tour, base: string): { url: string } | { error: string } {
  const url = `${base.split('#')[0]}#${TOUR_LINK_KEY}=${compressToEncodedURIComponent(JSON.stringify(tourToFile(tour)))}`;
  if (url.length > MAX_TOUR_LINK)
    return {
      error: `This tour is too long for a link (${url.length.toLocaleString('en-US')} characters; links carry at most ${MAX_TOUR_LINK.toLocaleString('en-US')}). Save it as a file (Save tour file) and share the file instead.`,
    };
  return { url };
}

/**
 * An <iframe> for a course page that plays this tour: the app with `?embed=1` (only the chip,
 * the narration and the tour: web/src/app/embed.tsx) and the tour carried in the address as
 * the tour link carries it. A tour too long for a link has no embed code: the message points
 * to the file, which students open from Tours ▾.
 */
export function tourEmbedCode(tour: Tour, href: string): { code: string } | { error: string } {
  const u = new URL(href);
  u.search = '?embed=1';
  u.hash = '';
  const link = tourLink(tour, u.href);
  if ('error' in link)
    return {
      error: `This tour is too long to embed (its address would be over ${MAX_TOUR_LINK.toLocaleString('en-US')} characters). Save it as a file (Save tour file), put the file on the course page, and have students open it from Tours ▾ → Open tour file… on ftlscope.`,
    };
  const esc = (x: string) => x.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return {
    code: `<iframe src="${esc(link.url)}" width="960" height="600" title="${esc(`ftlscope tour “${tour.title}”`)}" style="border: 1px solid #ccc; max-width: 100%" loading="lazy"></iframe>`,
  };
}

export type OpenedTour = { tour: Tour; problems?: undefined } | { tour?: undefined; problems: TourProblem[] };

/** A tour file's text, fully checked (shape, bounds, and what the core can run). */
export function openTourText(text: string): OpenedTour {
  const { tour, problems } = tourFromJson(text);
  if (!tour) return { problems };
  const core = tourCoreProblems(tour);
  return core.length ? { problems: core } : { tour };
}

/** The tour a hash carries (`#tourfile=...`), or null when the hash is something else. */
export function tourFromHash(hash: string): OpenedTour | null {
  const m = new RegExp(`^#?${TOUR_LINK_KEY}=(.*)$`).exec(hash);
  if (!m) return null;
  if (m[1].length > MAX_TOUR_LINK) return { problems: [{ path: '', message: 'this tour link is too long' }] };
  const text = decompressFromEncodedURIComponent(m[1]);
  if (!text)
    return {
      problems: [{ path: '', message: 'this tour link is damaged (it could not be decompressed): was it cut short?' }],
    };
  return openTourText(text);
}

/** The problems as one message for a notice. */
export function problemsMessage(what: string, problems: TourProblem[]): string {
  return `${what} could not be opened: ${describeProblems(problems).join('; ')}`;
}
