// The chip on a canvas (large chips, up to millions of pages): an overview image with
// one pixel per page (blocks as 1-pixel columns under a 1-pixel role stripe), d3-zoom
// for pan and zoom, page-level cells (and LPNs) drawn when zoomed in, and a minimap.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { select, zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3';
import type { SimEvent } from '../sim/protocol';
import { bandLabel, bandTextColor, pageMark, pageStyle, roleStyle } from './palette';
import type { Hovered } from './chipInfo';

export interface CanvasGridProps {
  blocks: number;
  pagesPerBlock: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  ownerSets?: Record<string, number[]>;
  lastEvent?: SimEvent | null;
  width: number;
  height: number;
  theme?: string;
  onHover?: (h: Hovered | null) => void;
  /** the page states and block roles present (found while drawing, for the legend) */
  onPresent?: (p: { states: number[]; roles: number[] }) => void;
}

function zoomText(pxPerPage: number): string {
  return `${pxPerPage >= DETAIL_K ? 'pages' : 'overview'} · ${pxPerPage >= 1 ? `${pxPerPage.toFixed(1)} px/page` : `${(1 / pxPerPage).toFixed(1)} pages/px`}`;
}

/** Blocks per row of the overview so that the image's aspect matches the box. */
export function canvasLayout(blocks: number, ppb: number, width: number, height: number) {
  const aspect = Math.max(0.2, width / Math.max(1, height));
  // cols / (rows * (ppb + 1)) ≈ aspect, cols * rows ≈ blocks
  let rows = Math.max(1, Math.round(Math.sqrt(blocks / (aspect * (ppb + 1)))));
  let cols = Math.ceil(blocks / rows);
  if (cols > 8192) {
    cols = 8192;
    rows = Math.ceil(blocks / cols);
  }
  return { cols, rows, imgW: cols, imgH: rows * (ppb + 1) };
}

/** '#rrggbb' → little-endian RGBA as one uint32 (for ImageData). */
export function packColor(css: string): number {
  let r = 128,
    g = 128,
    b = 128;
  const m = /^#([0-9a-f]{6})$/i.exec(css.trim());
  if (m) {
    const n = parseInt(m[1], 16);
    r = (n >> 16) & 255;
    g = (n >> 8) & 255;
    b = n & 255;
  } else {
    const rgb = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(css);
    if (rgb) [r, g, b] = [Number(rgb[1]), Number(rgb[2]), Number(rgb[3])];
  }
  return ((255 << 24) | (b << 16) | (g << 8) | r) >>> 0;
}

const DETAIL_K = 6; // px per page cell at which cells are drawn one by one
const TEXT_K = 18; // ... and their LPNs
const NO_LPN = 0xffffffff;
/** Pages recoloured per animation frame while the overview image catches up. */
const SLICE_PAGES = 128_000;

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

  const layout = useMemo(() => canvasLayout(blocks, ppb, width, height), [blocks, ppb, width, height]);
  const fitK = Math.min(width / layout.imgW, height / layout.imgH);
  const fitRef = useRef(fitK);
  fitRef.current = fitK;

  const colorCache = useRef<{ theme?: string; value: ReturnType<typeof readColors> } | null>(null);
  const colors = useCallback(() => {
    const c = colorCache.current;
    if (c && c.theme === props.theme && c.value) return c.value;
    const value = readColors();
    colorCache.current = { theme: props.theme, value };
    return value;
  }, [props.theme]);
  function readColors() {
    const el = canvasRef.current;
    const css = el ? getComputedStyle(el) : null;
    const resolve = (c: string) => {
      const m = /^var\((--[\w-]+)\)$/.exec(c);
      return m ? (css?.getPropertyValue(m[1]).trim() ?? '#cccccc') : c;
    };
    return {
      page: Array.from({ length: 8 }, (_, i) => resolve(pageStyle(i).fill)),
      role: Array.from({ length: 16 }, (_, i) => resolve(roleStyle(i).color)),
      bg: css?.getPropertyValue('--bg').trim() || '#ffffff',
      text: css?.getPropertyValue('--text').trim() || '#000000',
      ring: css?.getPropertyValue('--hi-ring').trim() || '#000000',
    };
  }

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
    const col = colors();
    const pageC = new Uint32Array(256).fill(packColor('#000000'));
    col.page.forEach((c, i) => (pageC[i] = packColor(c)));
    const roleC = new Uint32Array(256).fill(packColor('#000000'));
    col.role.forEach((c, i) => (roleC[i] = packColor(c)));
    let data = dataRef.current;
    if (!data || data.width !== layout.imgW || data.height !== layout.imgH) {
      data = ctx.createImageData(layout.imgW, layout.imgH);
      dataRef.current = data;
    }
    const px = new Uint32Array(data.data.buffer);
    const bg = packColor(col.bg);
    const W = layout.imgW;
    const rowH = ppb + 1;
    const states = p.pageStates;
    const roles = p.blockRoles;
    const nb = p.blocks;
    const { seenS, seenR } = sw;
    // Zoomed in, the cells are drawn from the page states directly: the image only feeds
    // the minimap, so it catches up in smaller slices.
    const detail = transformRef.current.k * fitRef.current >= DETAIL_K;
    const perSlice = Math.max(1, Math.floor((detail ? SLICE_PAGES / 4 : SLICE_PAGES) / (W * rowH)));
    let done = 0;
    while (done < perSlice && sw.left > 0) {
      const r = sw.row;
      // Row by row of the image so the writes are sequential (the reads stride by ppb bytes).
      const b0 = r * W;
      let o = r * rowH * W;
      for (let c = 0; c < W; c++, o++) {
        if (b0 + c < nb) {
          seenR[roles[b0 + c]] = 1;
          px[o] = roleC[roles[b0 + c]];
        } else px[o] = bg;
      }
      for (let pg = 0; pg < ppb; pg++) {
        let i = b0 * ppb + pg;
        for (let c = 0; c < W; c++, o++, i += ppb) {
          if (b0 + c < nb) {
            const st = states[i];
            seenS[st] = 1;
            px[o] = pageC[st];
          } else px[o] = bg;
        }
      }
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
    return sw.left > 0;
  }, [layout, colors, ppb]);

  const draw = useCallback(() => {
    frame.current = null;
    if (build()) {
      // more slices to go: draw once the image is whole (each scaled draw reads all of it)
      frame.current = requestAnimationFrame(draw);
      if (drawnOnce.current && performance.now() - drawnAt.current < 250) return;
    }
    drawnOnce.current = true;
    drawnAt.current = performance.now();
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
    const rowH = ppb + 1;
    if (k < DETAIL_K) {
      ctx.imageSmoothingEnabled = k < 1;
      ctx.imageSmoothingQuality = 'low';
      ctx.save();
      ctx.translate(t.x, t.y);
      ctx.scale(k, k);
      ctx.drawImage(img, 0, 0);
      ctx.restore();
    }
    if (k >= DETAIL_K) {
      // Page-level detail for the visible blocks only.
      const x0 = Math.max(0, Math.floor(-t.x / k));
      const x1 = Math.min(layout.cols, Math.ceil((p.width - t.x) / k));
      const y0 = Math.max(0, Math.floor(-t.y / k));
      const y1 = Math.min(layout.imgH, Math.ceil((p.height - t.y) / k));
      const r0 = Math.floor(y0 / rowH);
      const r1 = Math.min(layout.rows - 1, Math.floor(y1 / rowH));
      ctx.fillStyle = col.bg;
      ctx.fillRect(0, 0, p.width, p.height);
      const gap = Math.max(1, k * 0.12);
      ctx.font = `${Math.min(12, k * 0.45)}px system-ui, sans-serif`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      const paths: Path2D[] = [];
      const hatch = new Path2D();
      const texts: [string, number, number, number][] = [];
      for (let r = r0; r <= r1; r++) {
        for (let c = x0; c < x1; c++) {
          const b = r * layout.cols + c;
          if (b >= p.blocks) break;
          const bx = t.x + c * k + gap / 2;
          const by = t.y + r * rowH * k;
          const role = roleStyle(p.blockRoles[b]);
          ctx.fillStyle = col.role[p.blockRoles[b]] ?? '#000';
          ctx.fillRect(bx, by + gap / 2, k - gap, k - gap);
          if (k >= TEXT_K * 1.6) {
            ctx.fillStyle = bandTextColor({ ...role, color: col.role[p.blockRoles[b]] ?? '#000' });
            ctx.fillText(bandLabel(role, p.owners[b], k, p.ownerSets?.[b]), bx + (k - gap) / 2, by + k / 2, k - gap);
          }
          const pStart = Math.max(0, Math.floor(y0 - r * rowH - 1));
          const pEnd = Math.min(ppb, Math.ceil(y1 - r * rowH));
          for (let pg = pStart; pg < pEnd; pg++) {
            const i = b * ppb + pg;
            const st = p.pageStates[i];
            const py = by + (pg + 1) * k + gap / 2;
            (paths[st] ??= new Path2D()).rect(bx, py, k - gap, k - gap);
            if (st === 2) {
              // invalid pages are hatched, never colour alone
              hatch.moveTo(bx, py + k - gap);
              hatch.lineTo(bx + k - gap, py);
            }
            if (k >= TEXT_K && i < p.pageLpns.length && (p.pageLpns[i] !== NO_LPN || st === 4))
              texts.push([pageMark(st, p.pageLpns[i]), bx + (k - gap) / 2, py + (k - gap) / 2, st]);
          }
        }
      }
      paths.forEach((path, st) => {
        ctx.fillStyle = col.page[st] ?? '#000';
        ctx.fill(path);
      });
      ctx.strokeStyle = 'rgba(255,255,255,0.6)';
      ctx.lineWidth = 1;
      ctx.stroke(hatch);
      for (const [t, tx, ty, st] of texts) {
        ctx.fillStyle = st === 0 ? col.text : '#000000';
        ctx.fillText(t, tx, ty, k - gap);
      }
    }
    // The last touched page (or erased block) gets a ring, so activity is visible at any zoom.
    const e = p.lastEvent;
    if (e && e.pbn != null && e.pbn < p.blocks) {
      const c = e.pbn % layout.cols;
      const r = Math.floor(e.pbn / layout.cols);
      const x = t.x + c * k;
      const y = t.y + (r * rowH + 1 + (e.page ?? 0)) * k;
      const h = e.page == null ? ppb * k : k;
      ctx.strokeStyle = col.ring;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 3, y - 3, Math.max(k, 1) + 6, Math.max(h, 1) + 6);
    }
    // the minimap at most a few times a second
    const now = performance.now();
    if (now - miniAt.current > 400 || (moved.current && now - miniAt.current > 120)) {
      miniAt.current = now;
      moved.current = false;
      drawMini();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [layout, ppb, colors, build]);

  const drawMini = useCallback(() => {
    const mini = miniRef.current;
    const img = imageRef.current;
    if (!mini || !img) return;
    const ctx = mini.getContext('2d');
    if (!ctx) return;
    const p = propsRef.current;
    const s = Math.min(mini.width / layout.imgW, mini.height / layout.imgH);
    ctx.clearRect(0, 0, mini.width, mini.height);
    ctx.imageSmoothingEnabled = true;
    ctx.imageSmoothingQuality = 'low';
    ctx.drawImage(img, 0, 0, layout.imgW * s, layout.imgH * s);
    const t = transformRef.current;
    const k = t.k * fitRef.current;
    ctx.strokeStyle = '#D55E00';
    ctx.lineWidth = 2;
    ctx.strokeRect((-t.x / k) * s, (-t.y / k) * s, (p.width / k) * s, (p.height / k) * s);
  }, [layout]);

  const schedule = useCallback(() => {
    if (frame.current == null) frame.current = requestAnimationFrame(draw);
  }, [draw]);

  useEffect(() => {
    dirty.current = true;
    schedule();
  }, [props.pageStates, props.blockRoles, layout, colors, schedule]);

  useEffect(() => {
    schedule();
  }, [props.lastEvent, width, height, schedule]);

  // Follow: when zoomed in and the last operation is out of view, bring it to the centre.
  const [follow, setFollow] = useState(true);
  useEffect(() => {
    const e = props.lastEvent;
    const canvas = canvasRef.current;
    if (!follow || !e || e.pbn == null || !canvas || !zoomRef.current) return;
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
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.lastEvent, follow]);

  // d3-zoom on the canvas: wheel/drag/pinch, double-click to zoom in.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const maxK = Math.max(4, (48 / Math.max(fitK, 1e-6)) * 1);
    const z = d3zoom<HTMLCanvasElement, unknown>()
      .scaleExtent([0.8, maxK])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        transformRef.current = ev.transform;
        moved.current = true;
        // the zoom read-out is written directly: a React render per wheel tick would relayout the page
        const el = zoomLabel.current;
        if (el) el.textContent = zoomText(ev.transform.k * fitRef.current);
        schedule();
      });
    zoomRef.current = z;
    const sel = select(canvas);
    sel.call(z);
    // start centred
    const t0 = zoomIdentity.translate((width - layout.imgW * fitK) / 2, (height - layout.imgH * fitK) / 2);
    sel.call(z.transform, t0);
    return () => {
      sel.on('.zoom', null);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [layout, width, height]);

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
    if (canvas && zoomRef.current) {
      select(canvas).call(
        zoomRef.current.transform,
        zoomIdentity.translate((width - layout.imgW * fitK) / 2, (height - layout.imgH * fitK) / 2),
      );
    }
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
