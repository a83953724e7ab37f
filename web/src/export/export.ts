// Exports: metrics as CSV / JSON, SVG views (device grid, charts) as SVG / PNG, all
// downloaded from the page (ui/download.ts: blob URLs; no network).

/** Nested metrics → [["latency_us.write.mean", 12.5], ...] (numbers, strings, booleans). */
export function flattenMetrics(m: unknown, prefix = ''): [string, string | number | boolean][] {
  const out: [string, string | number | boolean][] = [];
  if (m === null || m === undefined) return out;
  if (typeof m !== 'object') {
    out.push([prefix, m as string | number | boolean]);
    return out;
  }
  if (Array.isArray(m)) {
    m.forEach((v, i) => out.push(...flattenMetrics(v, prefix ? `${prefix}.${i}` : String(i))));
    return out;
  }
  for (const [k, v] of Object.entries(m as Record<string, unknown>))
    out.push(...flattenMetrics(v, prefix ? `${prefix}.${k}` : k));
  return out;
}

function csvCell(v: unknown): string {
  const s = v === undefined || v === null ? '' : String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function toCsv(rows: unknown[][]): string {
  return rows.map((r) => r.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

/** One or more metrics objects as CSV: a `metric` column and one column per run. */
export function metricsCsv(columns: { name: string; metrics: unknown }[]): string {
  const flat = columns.map((c) => new Map(flattenMetrics(c.metrics)));
  const keys: string[] = [];
  const seen = new Set<string>();
  for (const f of flat) {
    for (const k of f.keys()) {
      if (!seen.has(k)) {
        seen.add(k);
        keys.push(k);
      }
    }
  }
  return toCsv([
    ['metric', ...columns.map((c) => c.name)],
    ...keys.map((k) => [k, ...flat.map((f) => f.get(k) ?? '')]),
  ]);
}

const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'visibility',
  'display',
];

/**
 * A standalone SVG document of an on-page SVG: computed styles (CSS variables,
 * theme classes) are written inline so it looks the same outside the page.
 */
export function svgToString(svg: SVGSVGElement, background?: string): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const dst = [clone, ...Array.from(clone.querySelectorAll('*'))];
  src.forEach((el, i) => {
    const cs = getComputedStyle(el);
    const target = dst[i] as SVGElement;
    const decl = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    target.setAttribute('style', decl);
    target.removeAttribute('class');
  });
  const width = svg.width.baseVal.value || svg.getBoundingClientRect().width;
  let height = svg.height.baseVal.value || svg.getBoundingClientRect().height;
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  // A chart whose title and legend are HTML beside it (viz/XYChart): write them into the
  // file, so an exported chart says what it shows.
  const frame = chartFrame(svg);
  if (frame) {
    const NS = 'http://www.w3.org/2000/svg';
    const top = 22;
    const legendH = frame.keys.length ? 18 : 0;
    const g = document.createElementNS(NS, 'g');
    g.setAttribute('transform', `translate(0,${top})`);
    while (clone.firstChild) g.appendChild(clone.firstChild);
    clone.appendChild(g);
    const t = document.createElementNS(NS, 'text');
    t.setAttribute('x', '8');
    t.setAttribute('y', '16');
    t.setAttribute(
      'style',
      `font-family:sans-serif;font-size:13px;font-weight:bold;fill:${getComputedStyle(svg).color || '#000'}`,
    );
    t.textContent = frame.title;
    clone.appendChild(t);
    let x = 8;
    for (const k of frame.keys) {
      const y = top + height + 12;
      const r = document.createElementNS(NS, 'rect');
      r.setAttribute('x', String(x));
      r.setAttribute('y', String(y - 9));
      r.setAttribute('width', '10');
      r.setAttribute('height', '10');
      r.setAttribute('style', `fill:${k.color}`);
      const tx = document.createElementNS(NS, 'text');
      tx.setAttribute('x', String(x + 14));
      tx.setAttribute('y', String(y));
      tx.setAttribute('style', `font-family:sans-serif;font-size:11px;fill:${getComputedStyle(svg).color || '#000'}`);
      tx.textContent = k.name;
      clone.appendChild(r);
      clone.appendChild(tx);
      x += 24 + k.name.length * 6.5;
    }
    height += top + legendH;
    clone.setAttribute('viewBox', `0 0 ${width} ${height}`);
  }
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  if (background) {
    const bg = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    bg.setAttribute('width', '100%');
    bg.setAttribute('height', '100%');
    bg.setAttribute('style', `fill:${background}`);
    clone.insertBefore(bg, clone.firstChild);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(clone)}`;
}

/**
 * The title and legend of a chart drawn as HTML around its SVG (a figure with a caption
 * and keys, viz/XYChart); null when the SVG carries its own title (compare/LineChart).
 */
export function chartFrame(svg: SVGSVGElement): { title: string; keys: { name: string; color: string }[] } | null {
  if (svg.querySelector('.chart-title')) return null;
  const fig = svg.closest('figure');
  const title = fig?.querySelector('figcaption')?.textContent?.trim();
  if (!fig || !title) return null;
  const keys = Array.from(fig.querySelectorAll<HTMLElement>('.chart-key')).map((k) => ({
    name: k.textContent?.trim() ?? '',
    color:
      (k.querySelector<HTMLElement>('.timeline-swatch') &&
        getComputedStyle(k.querySelector<HTMLElement>('.timeline-swatch')!).backgroundColor) ||
      '#000',
  }));
  // A single series has no HTML legend: name it from the chart's own series marks.
  if (keys.length === 0) {
    const mark = svg.querySelector<SVGElement>('.chart-bars, .chart-line');
    if (mark)
      keys.push({
        name: svg.getAttribute('aria-label') ?? title,
        color: getComputedStyle(mark).fill !== 'none' ? getComputedStyle(mark).fill : getComputedStyle(mark).stroke,
      });
  }
  return { title, keys };
}

/** A canvas (large chips) as a PNG blob. */
export function canvasToPng(canvas: HTMLCanvasElement): Promise<Blob> {
  return new Promise<Blob>((resolve, reject) =>
    canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
  );
}

/** A canvas as an SVG document: the picture it shows, under a title. */
export function canvasToSvg(canvas: HTMLCanvasElement, title: string, background: string): string {
  const w = canvas.width;
  const h = canvas.height;
  const esc = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${w}" height="${h + 24}" viewBox="0 0 ${w} ${h + 24}">` +
    `<title>${esc(title)}</title><rect width="100%" height="100%" style="fill:${esc(background)}"/>` +
    `<text x="6" y="16" style="font-family:sans-serif;font-size:13px">${esc(title)}</text>` +
    `<image x="0" y="24" width="${w}" height="${h}" href="${canvas.toDataURL('image/png')}"/></svg>\n`
  );
}

/** Render an SVG element to a PNG blob (scale 2 for projectors and slides). */
export async function svgToPng(svg: SVGSVGElement, background: string, scale = 2): Promise<Blob> {
  const text = svgToString(svg, background);
  const frame = chartFrame(svg);
  const extra = frame ? 22 + (frame.keys.length ? 18 : 0) : 0;
  const width = Math.ceil((svg.width.baseVal.value || svg.getBoundingClientRect().width) * scale);
  const height = Math.ceil(((svg.height.baseVal.value || svg.getBoundingClientRect().height) + extra) * scale);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    await new Promise<void>((resolve, reject) => {
      img.onload = () => resolve();
      img.onerror = () => reject(new Error('the view could not be drawn as an image'));
      img.src = url;
    });
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no 2D canvas available');
    ctx.fillStyle = background;
    ctx.fillRect(0, 0, width, height);
    ctx.drawImage(img, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The page background colour of the current theme. */
export function pageBackground(): string {
  return getComputedStyle(document.documentElement).getPropertyValue('--bg').trim() || '#ffffff';
}
