/** `?embed=1`: only the chip, the narration and the controls (an <iframe> on a course page). */
export const EMBED = typeof location !== 'undefined' && new URLSearchParams(location.search).get('embed') === '1';

/** In an embed: a link that opens the same state in the full app. */
export function EmbedLink() {
  return (
    <a
      className="embed-open"
      href={location.href
        .replace(/([?&])embed=1&?/, '$1')
        .replace(/[?&]$/, '')
        .replace(/\?#/, '#')}
      target="_blank"
      rel="noopener"
      data-testid="embed-open"
    >
      Open in ftlscope ↗
    </a>
  );
}
