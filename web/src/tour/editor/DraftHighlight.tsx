// The edited stop's highlight on the chip, as the tour will show it (mounted only while the
// editor is showing, so it never fights the tour panel's own highlight).
import type { Snapshot } from '../../sim/protocol';
import { highlightedBlocks, highlightedPages, useBlockHighlight } from '../TourPanel';
import type { Highlight } from '../tourTypes';

export function DraftHighlight({ highlight, snapshot }: { highlight?: Highlight; snapshot?: Snapshot }) {
  useBlockHighlight(highlightedBlocks(highlight, snapshot), highlightedPages(highlight));
  return null;
}
