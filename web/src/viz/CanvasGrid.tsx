// The chip on a canvas (large chips, up to millions of pages): an overview image with
// one pixel per page (blocks as 1-pixel columns under a 1-pixel role stripe), d3-zoom
// for pan and zoom, page-level cells (and LPNs) drawn when zoomed in, and a minimap.
import { zoomFor, type ZoomBox } from './canvasZoom';
import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { SimEvent } from '../sim/protocol';
import {
  canvasLayout,
  DETAIL_K,
  drawDetail,
  drawMinimap,
  drawRing,
  NO_MARKS,
  packedColors,
  paintRow,
  readColors,
  SLICE_PAGES,
  zoomText,
  type Colors,
  type DrawnMarks,
} from './canvasDraw';
import { installProbe, paintDelta } from './canvasDelta';
import type { Hovered } from './chipInfo';
import type { ChipState } from './chipState';

export interface CanvasGridProps extends ChipState {
  blocks: number;
  pagesPerBlock: number;
  lastEvent?: SimEvent | null;
  width: number;
  height: number;
  theme?: string;
  onHover?: (h: Hovered | null) => void;
  /** the page states and block roles present (found while drawing, for the legend) */
  onPresent?: (p: { states: number[]; roles: number[] }) => void;
  /** the marks the last frame drew (for the legend) */
  onMarks?: (m: DrawnMarks) => void;
}

export { canvasLayout, packColor } from './canvasDraw';

export function CanvasGrid(props: CanvasGridProps) {
  const { blocks, pagesPerBlock: ppb, width, height } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const miniRef = useRef<HTMLCanvasElement>(null);
  const imageRef = useRef<HTMLCanvasElement | null>(null);
  const dataRef = useRef<ImageData | null>(null);
  const presentKey = useRef('');
  const drawnOnce = useRef(false);
  const drawnAt = useRef(0);
  const miniAt = useRef(0);
  const moved = useRef(true);
  const transformRef = useRef<ZoomTransform>(zoomIdentity);
  const zoomRef = useRef<ZoomBehavior<HTMLCanvasElement, unknown> | null>(null);
  const frame = useRef<number | null>(null);
  const propsRef = useRef(props);
  propsRef.current = props;
  const zoomLabel = useRef<HTMLSpanElement>(null);
  const drawnFor = useRef<ZoomBox | null>(null); // the chip and box the zoom was set up for
  /** The page states the overview image shows whole, and what was received and drawn. */
  const shown = useRef<Uint8Array | null>(null);
  const counts = useRef({ received: 0, drawn: 0, byChange: 0 });

  const layout = useMemo(() => canvasLayout(blocks, ppb, width, height), [blocks, ppb, width, height]);
  const fitK = Math.min(width / layout.imgW, height / layout.imgH);
  const fitRef = useRef(fitK);
  fitRef.current = fitK;

  const colorCache = useRef<{ theme?: string; value: Colors } | null>(null);
  const colors = useCallback(() => {
    const c = colorCache.current;
    if (c && c.theme === props.theme && c.value) return c.value;
    const value = readColors(canvasRef.current);
    colorCache.current = { theme: props.theme, value };
    return value;
  }, [props.theme]);

  // Rebuild the overview image (one pass over the page states), in the next animation
  // frame rather than in React's commit, so neither task grows long on a big chip.
  const dirty = useRef(true);
  /** Where the incremental rebuild is: next block row, and rows left in this sweep. */
  const sweep = useRef({ row: 0, left: 0, scanned: 0, seenS: new Uint8Array(256), seenR: new Uint8Array(256) });
  /**
   * Bring the overview image up to date a slice at a time (about half a million pages per
   * frame), so no single task grows long on a 2-million-page chip; returns true when
   * more slices remain.
   */
  const build = useCallback((): boolean => {
    const p = propsRef.current;
    const sw = sweep.current;
    if (dirty.current) {
      dirty.current = false;
      // a new state: sweep every row again, from where we are
      sw.left = layout.rows;
    }
    if (sw.left === 0) return false;
    if (sw.row >= layout.rows) {
      sw.row = 0;
      sw.scanned = 0;
    }
    let img = imageRef.current;
    if (!img || img.width !== layout.imgW || img.height !== layout.imgH) {
      img = document.createElement('canvas');
      img.width = layout.imgW;
      img.height = layout.imgH;
      imageRef.current = img;
    }
    const ctx = img.getContext('2d', { willReadFrequently: false });
    if (!ctx) return false;
    const packed = packedColors(colors());
    let data = dataRef.current;
    if (!data || data.width !== layout.imgW || data.height !== layout.imgH) {
      data = ctx.createImageData(layout.imgW, layout.imgH);
      dataRef.current = data;
    }
    const px = new Uint32Array(data.data.buffer);
    const W = layout.imgW;
    const rowH = ppb + 1;
    const { seenS, seenR } = sw;
    // Zoomed in, the cells are drawn from the page states directly: the image only feeds
    // the minimap, so it catches up in smaller slices.
    const detail = transformRef.current.k * fitRef.current >= DETAIL_K;
    const perSlice = Math.max(1, Math.floor((detail ? SLICE_PAGES / 4 : SLICE_PAGES) / (W * rowH)));
    let done = 0;
    while (done < perSlice && sw.left > 0) {
      const r = sw.row;
      paintRow(px, r, W, ppb, p, packed, seenS, seenR);
      ctx.putImageData(data, 0, 0, 0, r * rowH, W, rowH);
      sw.row = (r + 1) % layout.rows;
      sw.left--;
      done++;
      // Any `rows` consecutive rows cover the chip once: report what they held, start over.
      if (++sw.scanned >= layout.rows) {
        const codes = (seen: Uint8Array) => [...seen.keys()].filter((k) => seen[k]);
        const present = { states: codes(seenS), roles: codes(seenR) };
        const key = JSON.stringify(present);
        if (key !== presentKey.current) {
          presentKey.current = key;
          p.onPresent?.(present);
        }
        seenS.fill(0);
        seenR.fill(0);
        sw.scanned = 0;
      }
    }
    if (sw.left === 0 && !dirty.current) shown.current = p.pageStates;
    return sw.left > 0;
  }, [layout, colors, ppb]);

  const drawMini = useCallback(() => {
    const mini = miniRef.current;
    const img = imageRef.current;
    if (!mini || !img) return;
    const t = transformRef.current;
    drawMinimap(mini, img, layout, t, t.k * fitRef.current, propsRef.current);
  }, [layout]);

  const draw = useCallback(() => {
    frame.current = null;
    if (build()) {
      // more slices to go: draw once the image is whole (each scaled draw reads all of it)
      frame.current = requestAnimationFrame(draw);
      if (drawnOnce.current && performance.now() - drawnAt.current < 250) return;
    }
    drawnOnce.current = true;
    drawnAt.current = performance.now();
    if (!dirty.current && sweep.current.left === 0) counts.current.drawn = counts.current.received;
    const canvas = canvasRef.current;
    const img = imageRef.current;
    if (!canvas || !img) return;
    const p = propsRef.current;
    // opaque: cheaper to hand to the compositor every frame
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) return;
    const t = transformRef.current;
    const k = t.k * fitRef.current;
    const dpr = canvas.width / Math.max(1, p.width);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const col = colors();
    ctx.fillStyle = col.bg;
    ctx.fillRect(0, 0, p.width, p.height);
    // Overview image, scaled (smoothed when shrunk: it averages pages; crisp when enlarged).
    if (k < DETAIL_K) {
      ctx.imageSmoothingEnabled = k < 1;
      ctx.imageSmoothingQuality = 'low';
      ctx.save();
      ctx.translate(t.x, t.y);
      ctx.scale(k, k);
      ctx.drawImage(img, 0, 0);
      ctx.restore();
      p.onMarks?.(NO_MARKS);
    } else p.onMarks?.(drawDetail(ctx, t, k, p, layout, ppb, p, col));
    drawRing(ctx, p.lastEvent, t, k, p.blocks, layout, ppb, col.ring);
    // the minimap at most a few times a second
    const now = performance.now();
    if (now - miniAt.current > 400 || (moved.current && now - miniAt.current > 120)) {
      miniAt.current = now;
      moved.current = false;
      drawMini();
    }
  }, [layout, ppb, colors, build, drawMini]);

  const schedule = useCallback(() => {
    if (frame.current == null) frame.current = requestAnimationFrame(draw);
  }, [draw]);

  useEffect(() => {
    counts.current.received++;
    // An op step's delta (issue 26): repaint only its blocks when the image shows the
    // arrays it was applied to; anything else sweeps the whole image again.
    const p = propsRef.current;
    const idle = !dirty.current && sweep.current.left === 0 && p.changed?.from === shown.current;
    if (idle && paintDelta(imageRef.current, dataRef.current, layout, ppb, p, colors, presentKey)) {
      shown.current = p.pageStates;
      counts.current.byChange++;
    } else dirty.current = true;
    schedule();
  }, [props.pageStates, props.blockRoles, layout, ppb, colors, schedule]);

  useEffect(() => {
    const idle = () => frame.current == null && !dirty.current && sweep.current.left === 0;
    const get = () => ({ data: dataRef.current, layout, ppb, chip: propsRef.current, packed: packedColors(colors()) });
    installProbe(canvasRef.current, get, () => ({ ...counts.current, idle: idle() }));
  }, [layout, ppb, colors]);

  useEffect(() => {
    schedule();
  }, [props.lastEvent, width, height, props.textScale, schedule]);

  // Follow: when zoomed in and the last operation is out of view, bring it to the centre.
  const [follow, setFollow] = useState(true);
  // An effect event: it follows a new operation, not a resize (the size is read, not watched).
  const followTo = useEffectEvent((e: SimEvent | null | undefined) => {
    const canvas = canvasRef.current;
    if (!e || e.pbn == null || !canvas || !zoomRef.current) return;
    const t = transformRef.current;
    const k = t.k * fitK;
    if (k < 2) return; // the whole chip (or most of it) is in view anyway
    const wx = (e.pbn % layout.cols) + 0.5;
    const wy = Math.floor(e.pbn / layout.cols) * (ppb + 1) + 1 + (e.page ?? ppb / 2);
    const sx = t.x + wx * k;
    const sy = t.y + wy * k;
    if (sx >= 0 && sx <= width && sy >= 0 && sy <= height) return;
    select(canvas).call(
      zoomRef.current.transform,
      zoomIdentity.translate(width / 2 - wx * k, height / 2 - wy * k).scale(t.k),
    );
  });
  useEffect(() => {
    if (follow) followTo(props.lastEvent);
  }, [props.lastEvent, follow]);

  // d3-zoom (wheel/drag/pinch, double-click): set up again when the layout or box changes
  // (canvasZoom.ts); up to 72 px a page × the text scale ("16383 · e12" fits at canvasDraw's minFont).
  const onZoomed = useEffectEvent(() => schedule());
  const maxK = Math.max(4, (72 * Math.max(1, props.textScale ?? 1)) / Math.max(fitK, 1e-6));
  const maxKNow = useEffectEvent(() => maxK);
  useEffect(() => void zoomRef.current?.scaleExtent([0.8, maxK]), [maxK]);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const z = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.8, maxKNow()])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        transformRef.current = ev.transform;
        moved.current = true;
        // the zoom read-out is written directly: a React render per wheel tick would relayout the page
        const el = zoomLabel.current;
        if (el) el.textContent = zoomText(ev.transform.k * fitRef.current);
        onZoomed();
      });
    zoomRef.current = z;
    const sel = select(canvas);
    sel.call(z);
    // centred, or a resized box keeps the zoom (canvasZoom.ts)
    const box = { layout: `${blocks}:${ppb}:${layout.imgW}x${layout.imgH}`, fitK, width, height };
    const t0 = zoomFor(box, layout, drawnFor.current, transformRef.current, maxKNow());
    drawnFor.current = box;
    sel.call(z.transform, t0);
    return () => {
      sel.on('.zoom', null);
    };
  }, [layout, width, height, fitK, blocks, ppb]);

  const zoomBy = (f: number) => {
    const canvas = canvasRef.current;
    if (canvas && zoomRef.current) select(canvas).call(zoomRef.current.scaleBy, f);
  };
  const panBy = (dx: number, dy: number) => {
    const canvas = canvasRef.current;
    if (canvas && zoomRef.current)
      select(canvas).call(
        zoomRef.current.translateBy,
        dx / (transformRef.current.k * fitK),
        dy / (transformRef.current.k * fitK),
      );
  };
  const reset = () => {
    const canvas = canvasRef.current;
    const fit = zoomFor({ layout, fitK, width, height }, layout, null, zoomIdentity, maxK);
    if (canvas && zoomRef.current) select(canvas).call(zoomRef.current.transform, fit);
  };
  /** Centre the view on a minimap point. */
  const centreOnMini = (mx: number, my: number) => {
    const mini = miniRef.current;
    const canvas = canvasRef.current;
    if (!mini || !canvas || !zoomRef.current) return;
    const s = Math.min(mini.width / layout.imgW, mini.height / layout.imgH);
    const wx = mx / s;
    const wy = my / s;
    const k = transformRef.current.k;
    const kk = k * fitK;
    select(canvas).call(
      zoomRef.current.transform,
      zoomIdentity.translate(width / 2 - wx * kk, height / 2 - wy * kk).scale(k),
    );
  };

  const hoverAt = (clientX: number, clientY: number) => {
    const canvas = canvasRef.current;
    if (!canvas || !props.onHover) return;
    const rect = canvas.getBoundingClientRect();
    const t = transformRef.current;
    const k = t.k * fitK;
    const wx = (clientX - rect.left - t.x) / k;
    const wy = (clientY - rect.top - t.y) / k;
    const c = Math.floor(wx);
    const r = Math.floor(wy / (ppb + 1));
    const within = Math.floor(wy) - r * (ppb + 1);
    const b = r * layout.cols + c;
    if (c < 0 || c >= layout.cols || r < 0 || b >= blocks) return props.onHover(null);
    props.onHover({ block: b, page: within >= 1 ? within - 1 : null });
  };

  const dpr = typeof window !== 'undefined' ? Math.min(2, window.devicePixelRatio || 1) : 1;
  return (
    <div className="canvas-grid" style={{ width, height }}>
      <canvas
        ref={canvasRef}
        className="device-canvas"
        data-testid="device-canvas"
        width={Math.floor(width * dpr)}
        height={Math.floor(height * dpr)}
        style={{ width, height }}
        tabIndex={0}
        role="img"
        aria-label={`Flash chip: ${blocks.toLocaleString('en-US')} blocks of ${ppb} pages, drawn as one pixel per page. Scroll or use + and − to zoom, arrow keys with Shift to pan.`}
        onMouseMove={(e) => hoverAt(e.clientX, e.clientY)}
        onMouseLeave={() => props.onHover?.(null)}
        onKeyDown={(e) => {
          if (e.key === '+' || e.key === '=') zoomBy(1.6);
          else if (e.key === '-' || e.key === '_') zoomBy(1 / 1.6);
          else if (e.key === '0') reset();
          else if (e.shiftKey && e.key === 'ArrowLeft') panBy(80, 0);
          else if (e.shiftKey && e.key === 'ArrowRight') panBy(-80, 0);
          else if (e.shiftKey && e.key === 'ArrowUp') panBy(0, 80);
          else if (e.shiftKey && e.key === 'ArrowDown') panBy(0, -80);
          else return;
          e.preventDefault();
        }}
      />
      <div className="canvas-tools" role="group" aria-label="Zoom">
        <button type="button" onClick={() => zoomBy(1.6)} aria-label="Zoom in" data-testid="zoom-in">
          +
        </button>
        <button type="button" onClick={() => zoomBy(1 / 1.6)} aria-label="Zoom out" data-testid="zoom-out">
          −
        </button>
        <button type="button" onClick={reset} aria-label="Show the whole chip">
          Fit
        </button>
        <label className="follow" title="When zoomed in, keep the last operation in view">
          <input type="checkbox" checked={follow} onChange={(e) => setFollow(e.target.checked)} data-testid="follow" />
          Follow
        </label>
        <span className="zoom-level" aria-live="off" ref={zoomLabel} data-testid="zoom-level">
          {zoomText(fitK)}
        </span>
      </div>
      <canvas
        ref={miniRef}
        className="minimap"
        data-testid="minimap"
        width={140}
        height={Math.max(36, Math.min(72, Math.round((140 * layout.imgH) / layout.imgW)))}
        aria-hidden="true"
        onMouseDown={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          centreOnMini(e.clientX - r.left, e.clientY - r.top);
        }}
        onMouseMove={(e) => {
          if (e.buttons !== 1) return;
          const r = e.currentTarget.getBoundingClientRect();
          centreOnMini(e.clientX - r.left, e.clientY - r.top);
        }}
      />
    </div>
  );
}
