import { zoomIdentity, type ZoomTransform } from 'd3';

/** The box and fit a canvas zoom was set up for. */
export interface ZoomBox {
  /** the chip and its arrangement (blocks, pages a block, image size): the same one keeps its zoom */
  layout: unknown;
  fitK: number;
  width: number;
  height: number;
}

/**
 * The canvas's zoom for a chip in a box of `width` × `height` at `fitK` (layout px → screen
 * px at zoom 1): centred for a new chip; the same chip in a box that changed size (a window
 * resize, the legend gaining a row when a mark starts to be drawn) keeps its pixels per page
 * and the point at the view's centre, so a resize never throws the class back to the whole
 * chip (issue 35). `k` stays within [0.8, maxK].
 */
export function zoomFor(
  box: ZoomBox,
  img: { imgW: number; imgH: number },
  was: ZoomBox | null,
  t: ZoomTransform,
  maxK: number,
): ZoomTransform {
  const { width, height, fitK } = box;
  if (!was || was.layout !== box.layout)
    return zoomIdentity.translate((width - img.imgW * fitK) / 2, (height - img.imgH * fitK) / 2);
  const ppp = t.k * was.fitK;
  const k = Math.min(Math.max(ppp / fitK, 0.8), maxK);
  const cx = (was.width / 2 - t.x) / ppp;
  const cy = (was.height / 2 - t.y) / ppp;
  return zoomIdentity.translate(width / 2 - cx * k * fitK, height / 2 - cy * k * fitK).scale(k);
}
