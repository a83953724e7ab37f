// The chip as an SVG grid: one column of page cells per block, blocks wrapped into
// rows. React renders the structure; D3 computes the layout scales and animates
// the page fills when states change.
import { useEffect, useMemo, useRef } from 'react';
import { scaleBand, select } from 'd3';
// d3's barrel is side-effect free, so bring in the Selection.transition/interrupt patch explicitly.
import 'd3-transition';
import type { SimEvent } from '../sim/protocol';
import { bandTextColor, pageStyle, roleStyle } from './palette';

export interface DeviceGridProps {
  blocks: number;
  pagesPerBlock: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  /** the last revealed event, highlighted */
  lastEvent?: SimEvent | null;
  /** ms for state transitions; 0 = discrete */
  transitionMs: number;
  width: number;
  height: number;
  /** re-resolve CSS colours when the theme changes */
  theme?: string;
}

const NO_LPN = 0xffffffff;
const BAND = 16; // role band height above each block
const LABEL = 14; // pbn label below each block

/** Choose blocks per row so cells are as large as possible in the given box. */
export function gridLayout(blocks: number, ppb: number, width: number, height: number) {
  let best = { cols: blocks, rows: 1, cell: 0, cellW: 0 };
  for (let cols = 1; cols <= blocks; cols++) {
    const rows = Math.ceil(blocks / cols);
    const cellW = width / cols;
    const cellH = (height - rows * (BAND + LABEL)) / rows / ppb;
    const cell = Math.min(cellW * 0.6, cellH);
    if (cell > best.cell) best = { cols, rows, cell, cellW };
  }
  return best;
}

export function DeviceGrid(props: DeviceGridProps) {
  const { blocks, pagesPerBlock: ppb, pageStates, pageLpns, blockRoles, eraseCounts, owners, lastEvent, width, height } = props;
  const svgRef = useRef<SVGSVGElement>(null);

  const layout = useMemo(() => {
    const { cols, rows } = gridLayout(blocks, ppb, width, height);
    const x = scaleBand<number>().domain(Array.from({ length: cols }, (_, i) => i)).range([0, width]).paddingInner(0.12).paddingOuter(0.04);
    const rowH = height / rows;
    const y = scaleBand<number>()
      .domain(Array.from({ length: ppb }, (_, i) => i))
      .range([BAND, rowH - LABEL])
      .paddingInner(ppb > 16 ? 0 : 0.08);
    return { cols, rows, x, y, rowH };
  }, [blocks, ppb, width, height]);

  const showText = layout.y.bandwidth() >= 13 && layout.x.bandwidth() >= 22;
  const showBandText = layout.x.bandwidth() >= 26;

  // D3 owns the page fills: animate them from whatever they were to the new state.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const cells = select(svg).selectAll<SVGRectElement, unknown>('rect.page');
    const css = getComputedStyle(svg);
    // Resolve var(--x) so D3 can interpolate between concrete colours.
    const resolve = (fill: string) => {
      const m = /^var\((--[\w-]+)\)$/.exec(fill);
      return m ? css.getPropertyValue(m[1]).trim() || '#ccc' : fill;
    };
    const fillOf = function (this: SVGRectElement) {
      return resolve(pageStyle(Number(this.getAttribute('data-state'))).fill);
    };
    if (props.transitionMs > 0 && cells.size() <= 4096) {
      cells.interrupt().transition().duration(props.transitionMs).style('fill', fillOf);
    } else {
      cells.interrupt().style('fill', fillOf);
    }
  }, [pageStates, props.transitionMs, layout, props.theme]);

  const hi = lastEvent && lastEvent.pbn != null ? lastEvent : null;
  const bw = layout.x.bandwidth();
  const ph = layout.y.bandwidth();

  const blockEls = [];
  for (let b = 0; b < blocks; b++) {
    const col = b % layout.cols;
    const row = Math.floor(b / layout.cols);
    const bx = layout.x(col) ?? 0;
    const by = row * layout.rowH;
    const role = roleStyle(blockRoles[b]);
    let valid = 0;
    for (let p = 0; p < ppb; p++) if (pageStates[b * ppb + p] === 1) valid++;
    const owner = owners[b];
    const title = `Block ${b} · ${role.label} · erase count ${eraseCounts[b]} · owner LBN ${owner >= 0 ? owner : '—'} · valid pages ${valid}/${ppb}`;
    const erased = hi?.kind === 'erase' && hi.pbn === b;
    const pages = [];
    for (let p = 0; p < ppb; p++) {
      const i = b * ppb + p;
      const st = pageStates[i];
      const style = pageStyle(st);
      const lpn = pageLpns[i];
      const py = by + (layout.y(p) ?? 0);
      const isHi = hi != null && hi.kind !== 'erase' && hi.pbn === b && hi.page === p;
      pages.push(
        <g key={p} className={isHi ? 'page-cell hi' : 'page-cell'}>
          <title>{`Block ${b} page ${p} (PPN ${i}) · ${style.label}${lpn !== NO_LPN ? ` · LPN ${lpn}` : ''}\n${title}`}</title>
          <rect className="page" data-state={st} x={bx} y={py} width={bw} height={Math.max(ph, 1)} />
          {style.pattern === 'hatch' && ph >= 4 && (
            <rect className="hatch" x={bx} y={py} width={bw} height={ph} fill="url(#hatch)" pointerEvents="none" />
          )}
          {showText && lpn !== NO_LPN && (
            <text className={`lpn lpn-${style.key}`} x={bx + bw / 2} y={py + ph / 2} dy="0.35em" textAnchor="middle" pointerEvents="none">
              {lpn}
            </text>
          )}
          {isHi && <rect className="hi-ring" x={bx - 1.5} y={py - 1.5} width={bw + 3} height={ph + 3} rx={3} pointerEvents="none" />}
        </g>,
      );
    }
    blockEls.push(
      <g key={b} className="block" data-block={b} data-role={role.key}>
        <title>{title}</title>
        <rect className="role-band" x={bx} y={by + 2} width={bw} height={BAND - 4} rx={2} style={{ fill: role.color }} />
        {showBandText && (
          <text className="role-text" x={bx + bw / 2} y={by + BAND / 2} dy="0.35em" textAnchor="middle" style={{ fill: bandTextColor(role) }}>
            {role.short}
          </text>
        )}
        <rect
          className={erased ? 'block-outline erased-flash' : 'block-outline'}
          x={bx - 1}
          y={by + BAND - 1}
          width={bw + 2}
          height={layout.rowH - BAND - LABEL + 2}
          style={{ stroke: role.color }}
        />
        {pages}
        <text className="pbn" x={bx + bw / 2} y={by + layout.rowH - LABEL / 2} dy="0.35em" textAnchor="middle">
          {bw >= 18 || b % 4 === 0 ? `${b}` : ''}
          {bw >= 44 ? ` · e${eraseCounts[b]}` : ''}
        </text>
      </g>,
    );
  }

  return (
    <svg
      ref={svgRef}
      className="device-grid"
      data-testid="device-grid"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      role="img"
      aria-label={`Flash chip: ${blocks} blocks of ${ppb} pages. Hover a block or page for details.`}
    >
      <defs>
        <pattern id="hatch" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
          <line x1="0" y1="0" x2="0" y2="6" stroke="rgba(255,255,255,0.55)" strokeWidth="2" />
        </pattern>
      </defs>
      {blockEls}
    </svg>
  );
}
