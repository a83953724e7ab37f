// Picking highlights on the chip: while picking, a click on a block (or a page) of the chip
// view is the editor's, not the chip's (capture phase, so the chip's own click does not run).
// Only the SVG device view has per-block elements (g.block[data-block], g.page-cell[data-page]);
// on the canvas of a large chip the editor's number fields pick instead.
import { useEffect, useRef } from 'react';

const GRID = '.chip-area [data-testid=device-grid]';

export function useChipPick(enabled: boolean, onPick: (block: number, page: number | null) => void) {
  const latest = useRef(onPick);
  latest.current = onPick;
  useEffect(() => {
    if (!enabled) return;
    const onClick = (e: MouseEvent) => {
      const t = e.target as Element | null;
      if (!t?.closest?.(GRID)) return;
      const blk = t.closest('g.block[data-block]');
      if (!blk) return;
      const pg = t.closest('g.page-cell[data-page]');
      e.preventDefault();
      e.stopPropagation();
      latest.current(Number(blk.getAttribute('data-block')), pg ? Number(pg.getAttribute('data-page')) : null);
    };
    document.addEventListener('click', onClick, true);
    document.body.classList.add('tour-picking');
    return () => {
      document.removeEventListener('click', onClick, true);
      document.body.classList.remove('tour-picking');
    };
  }, [enabled]);
}
