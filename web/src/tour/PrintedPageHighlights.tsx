// Picked pages (highlight.pages) on the printed tour's chips: each printed stop marks its own
// pages (the blocks come through highlightedBlocks as on screen). Re-applied after every
// render of the print view, as its chips are drawn one by one.
import { useEffect } from 'react';
import { highlightedPages } from './TourPanel';
import type { Tour } from './tourTypes';

export function PrintedPageHighlights({ tour }: { tour: Tour }) {
  useEffect(() => {
    document.querySelectorAll<HTMLElement>('[data-testid=print-stop]').forEach((article, i) => {
      const pages = highlightedPages(tour.stops[i]?.highlight);
      article.querySelectorAll<SVGGElement>('g.block g.page-cell').forEach((el) => {
        const b = el.closest<SVGGElement>('g.block')?.dataset.block;
        el.classList.toggle('tour-hi-page', pages.has(`${b}:${el.dataset.page}`));
      });
    });
  });
  return null;
}
