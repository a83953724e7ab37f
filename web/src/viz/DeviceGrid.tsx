// The chip as an SVG grid (small chips): one column of page cells per block, blocks
// wrapped into rows. React renders the structure; D3 computes the layout scales and
// animates: page fills, copies (a token moves), erases (a flash) and role changes. What a
// group of operations is doing is said by the narration above the chip, not over it.
import { useEffect, useMemo, useRef } from 'react';
import { scaleBand, select } from 'd3';
// d3's barrel is side-effect free, so bring in the Selection.transition/interrupt patch explicitly.
import 'd3-transition';
import type { SimEvent } from '../sim/protocol';
import { bandLabel, bandTextColor, pageMark, pageStyle, roleStyle } from './palette';
import type { Effect } from './effects';
import { blockGroups, hoverText, type Hovered } from './chipInfo';

export interface DeviceGridProps {
  blocks: number;
  pagesPerBlock: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  /** every owner of a block that has several (KRAFT/KAST shared log blocks) */
  ownerSets?: Record<string, number[]>;
  /** blocks being cleaned by the merge or GC under way (its victims) */
  victims?: number[];
  /** blocks a tour stop highlights (the printed tour; the live view marks them itself) */
  highlighted?: Set<number>;
  /** the last revealed event, highlighted */
  lastEvent?: SimEvent | null;
  /** ms for state transitions; 0 = discrete */
  transitionMs: number;
  /** what to animate for the latest change, and ms per operation slot (0 = none) */
  plan?: Effect[];
  planId?: number;
  slotMs?: number;
  width: number;
  height: number;
  /** re-resolve CSS colours when the theme changes */
  theme?: string;
  onHover?: (h: Hovered | null) => void;
  /** presentation mode: labels, bands and page numbers this many times larger */
  textScale?: number;
  /**
   * Blocks the layout keeps together in a row (RFTL: 3, a logical block's primary,
   * replacement and buffer). Given by the scheme, never by the moment's roles: the layout
   * depends on the chip and the space only. Default: 3 when the blocks form such groups.
   */
  groupOf?: number;
}

const NO_LPN = 0xffffffff;
const BASE_BAND = 16; // role band height above each block (times textScale)
const BASE_LABEL = 14; // pbn label below each block (times textScale)

/**
 * Choose blocks per row so cells are as large as possible in the given box. With
 * `group` > 1 (RFTL's primary/replacement/buffer triples) rows hold whole groups.
 */
export function gridLayout(blocks: number, ppb: number, width: number, height: number, group = 1, scale = 1) {
  const BAND = BASE_BAND * scale;
  const LABEL = BASE_LABEL * scale;
  let best = { cols: blocks, rows: 1, cell: 0, cellW: 0 };
  for (let cols = 1; cols <= blocks; cols++) {
    if (group > 1 && cols % group !== 0 && cols !== blocks) continue;
    const rows = Math.ceil(blocks / cols);
    const cellW = width / cols;
    const cellH = (height - rows * (BAND + LABEL)) / rows / ppb;
    const cell = Math.min(cellW * 0.6, cellH);
    if (cell > best.cell) best = { cols, rows, cell, cellW };
  }
  return best;
}

export function DeviceGrid(props: DeviceGridProps) {
  const {
    blocks,
    pagesPerBlock: ppb,
    pageStates,
    pageLpns,
    blockRoles,
    eraseCounts,
    owners,
    lastEvent,
    width,
    height,
  } = props;
  const svgRef = useRef<SVGSVGElement>(null);
  const ts = props.textScale ?? 1;
  const BAND = BASE_BAND * ts;
  const LABEL = BASE_LABEL * ts;
  const fxRef = useRef<SVGGElement>(null);
  const groups = useMemo(() => blockGroups(blockRoles, owners), [blockRoles, owners]);
  const groupMiddle = useMemo(() => new Map(groups.map((g) => [g.first + 1, g.owner])), [groups]);
  const groupSize = props.groupOf ?? (groups.length > 0 ? 3 : 1);

  const layout = useMemo(() => {
    const { cols, rows } = gridLayout(blocks, ppb, width, height, groupSize, ts);
    const x = scaleBand<number>()
      .domain(Array.from({ length: cols }, (_, i) => i))
      .range([0, width])
      .paddingInner(0.12)
      .paddingOuter(0.04);
    const rowH = height / rows;
    const y = scaleBand<number>()
      .domain(Array.from({ length: ppb }, (_, i) => i))
      .range([BAND, rowH - LABEL])
      .paddingInner(ppb > 16 ? 0 : 0.08);
    return { cols, rows, x, y, rowH };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [blocks, ppb, width, height, groupSize, ts]);

  const bw = layout.x.bandwidth();
  const ph = layout.y.bandwidth();
  const blockX = (b: number) => layout.x(b % layout.cols) ?? 0;
  const blockY = (b: number) => Math.floor(b / layout.cols) * layout.rowH;
  const cellXY = (b: number, p: number) => ({ x: blockX(b), y: blockY(b) + (layout.y(p) ?? 0) });

  // Per-page delay of the fill change: a programmed page fills when its slot plays, an
  // erased block turns clean when its erase plays.
  const slotMs = props.slotMs ?? 0;
  const delays = useMemo(() => {
    const d = new Map<number, number>();
    if (!props.plan || slotMs <= 0) return d;
    for (const e of props.plan) {
      if (e.kind === 'program') d.set(e.pbn * ppb + e.page, (e.slot + 0.6) * slotMs);
      else if (e.kind === 'copy') d.set(e.to.pbn * ppb + e.to.page, (e.slot + 0.8) * slotMs);
      else if (e.kind === 'erase') for (let p = 0; p < ppb; p++) d.set(e.pbn * ppb + p, (e.slot + 0.3) * slotMs);
    }
    return d;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.planId, slotMs, ppb]);

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
      cells
        .interrupt()
        .transition()
        .delay(function () {
          return delays.get(Number(this.getAttribute('data-ppn'))) ?? 0;
        })
        .duration(props.transitionMs)
        .style('fill', fillOf);
    } else {
      cells.interrupt().style('fill', fillOf);
    }
    // A page's LPN appears when its program or copy plays, not before (Step request
    // reveals a whole merge: its numbers arrive with their tokens instead of jumping).
    const labels = select(svg).selectAll<SVGTextElement, unknown>('text.lpn');
    labels.interrupt().style('opacity', null);
    if (props.transitionMs > 0 && delays.size > 0 && cells.size() <= 4096) {
      labels.each(function () {
        const d = delays.get(Number(this.getAttribute('data-ppn')));
        if (d !== undefined && d > 0)
          select(this)
            .style('opacity', 0)
            .transition()
            .delay(d)
            .duration(Math.min(props.transitionMs, 150))
            .style('opacity', 1);
      });
    }
  }, [pageStates, props.transitionMs, layout, props.theme, delays]);

  // The effect layer: tokens and flashes, drawn over the grid and removed after.
  useEffect(() => {
    const g = fxRef.current;
    const svg = svgRef.current;
    if (!g || !svg) return;
    const fx = select(g);
    fx.selectAll('*').interrupt().remove();
    const plan = props.plan ?? [];
    if (slotMs <= 0 || plan.length === 0) {
      svg.dataset.fx = 'idle';
      return;
    }
    const css = getComputedStyle(svg);
    const validFill = pageStyle(1).fill;
    const ends: Promise<void>[] = [];
    const track = (t: { end(): Promise<void> }) => ends.push(t.end());
    for (const e of plan) {
      const t0 = e.slot * slotMs;
      if (e.kind === 'program' || e.kind === 'copy') {
        const to = e.kind === 'copy' ? e.to : e;
        const { x, y } = cellXY(to.pbn, to.page);
        const start = e.kind === 'copy' ? t0 + slotMs * 0.6 : t0;
        const r = fx
          .append('rect')
          .attr('class', 'fx-fill')
          .attr('x', x)
          .attr('y', y + ph)
          .attr('width', bw)
          .attr('height', 0)
          .style('fill', validFill);
        track(
          r
            .transition()
            .delay(start)
            .duration(slotMs * 0.4)
            .attr('y', y)
            .attr('height', Math.max(ph, 1))
            .transition()
            .duration(slotMs * 0.3)
            .style('opacity', 0)
            .remove(),
        );
      }
      if (e.kind === 'copy') {
        const a = cellXY(e.from.pbn, e.from.page);
        const b = cellXY(e.to.pbn, e.to.page);
        const tok = fx
          .append('g')
          .attr('class', 'fx-token')
          .attr('transform', `translate(${a.x + bw / 2},${a.y + ph / 2})`)
          .style('opacity', 0);
        tok.append('circle').attr('r', Math.max(5, Math.min(11, ph / 2)));
        if (ph >= 12) tok.append('text').attr('dy', '0.35em').attr('text-anchor', 'middle').text(String(e.lpn));
        track(
          tok
            .transition()
            .delay(t0)
            .duration(slotMs * 0.1)
            .style('opacity', 1)
            .transition()
            .duration(slotMs * 0.6)
            .attr('transform', `translate(${b.x + bw / 2},${b.y + ph / 2})`)
            .transition()
            .duration(slotMs * 0.2)
            .style('opacity', 0)
            .remove(),
        );
      }
      if (e.kind === 'read') {
        const { x, y } = cellXY(e.pbn, e.page);
        const ring = fx
          .append('rect')
          .attr('class', 'fx-read')
          .attr('x', x - 2)
          .attr('y', y - 2)
          .attr('width', bw + 4)
          .attr('height', ph + 4)
          .attr('rx', 3)
          .style('opacity', 0);
        track(
          ring
            .transition()
            .delay(t0)
            .duration(slotMs * 0.3)
            .style('opacity', 1)
            .transition()
            .duration(slotMs * 0.5)
            .style('opacity', 0)
            .remove(),
        );
      }
      if (e.kind === 'erase') {
        const x = blockX(e.pbn);
        const y = blockY(e.pbn) + BAND;
        const flash = fx
          .append('rect')
          .attr('class', 'fx-erase')
          .attr('x', x - 3)
          .attr('y', y - 3)
          .attr('width', bw + 6)
          .attr('height', Math.max(0, layout.rowH - BAND - LABEL + 6))
          .attr('rx', 4)
          .style('opacity', 0);
        track(
          flash
            .transition()
            .delay(t0)
            .duration(slotMs * 0.25)
            .style('opacity', 0.9)
            .transition()
            .duration(slotMs * 0.75)
            .style('opacity', 0)
            .remove(),
        );
      }
      if (e.kind === 'role') {
        const x = blockX(e.pbn);
        const y = blockY(e.pbn);
        const from = roleStyle(e.from).color;
        const m = /^var\((--[\w-]+)\)$/.exec(from);
        const band = fx
          .append('rect')
          .attr('class', 'fx-role')
          .attr('x', x)
          .attr('y', y + 2)
          .attr('width', bw)
          .attr('height', BAND - 4)
          .attr('rx', 2)
          .style('fill', m ? css.getPropertyValue(m[1]).trim() : from);
        track(
          band
            .transition()
            .delay(t0)
            .duration(slotMs)
            .attr('width', 0)
            .attr('x', x + bw / 2)
            .remove(),
        );
      }
    }
    svg.dataset.fx = 'running';
    const kinds: Record<string, number> = {};
    for (const e of plan) kinds[e.kind] = (kinds[e.kind] ?? 0) + 1;
    let cancelled = false;
    void Promise.allSettled(ends).then((rs) => {
      if (cancelled) return;
      svg.dataset.fx = 'idle';
      if (rs.every((r) => r.status === 'fulfilled')) {
        svg.dataset.fxPlays = String(Number(svg.dataset.fxPlays ?? 0) + 1);
        svg.dataset.fxLast = Object.entries(kinds)
          .map(([k, n]) => `${k}:${n}`)
          .join(',');
      }
    });
    return () => {
      cancelled = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.planId, layout]);

  const hi = lastEvent && lastEvent.pbn != null ? lastEvent : null;
  const showText = ph >= 13 * ts && bw >= 22 * ts;
  const showBandText = bw >= 26 * ts;

  const groupEls = groups.map(({ first, owner }) => {
    if (Math.floor(first / layout.cols) !== Math.floor((first + 2) / layout.cols)) return null;
    const x0 = blockX(first) - bw * 0.08;
    const x1 = blockX(first + 2) + bw * 1.08;
    return (
      <g key={`grp${first}`} className="rftl-group" data-lbn={owner}>
        <rect x={x0} y={blockY(first)} width={x1 - x0} height={layout.rowH - 2} rx={5} />
      </g>
    );
  });

  const victimSet = new Set(props.victims ?? []);
  const blockEls = [];
  for (let b = 0; b < blocks; b++) {
    const bx = blockX(b);
    const by = blockY(b);
    const role = roleStyle(blockRoles[b]);
    const owner = owners[b];
    const title = hoverText({ block: b, page: null }, { ppb, pageStates, pageLpns, blockRoles, eraseCounts, owners });
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
        <g key={p} className={isHi ? 'page-cell hi' : 'page-cell'} data-page={p}>
          <title>{`Block ${b} page ${p} (PPN ${i}) · ${style.label}${lpn !== NO_LPN && st !== 4 ? ` · LPN ${lpn}` : ''}`}</title>
          <rect className="page" data-state={st} data-ppn={i} x={bx} y={py} width={bw} height={Math.max(ph, 1)} />
          {style.pattern === 'hatch' && ph >= 4 && (
            <rect className="hatch" x={bx} y={py} width={bw} height={ph} fill="url(#hatch)" pointerEvents="none" />
          )}
          {showText && (lpn !== NO_LPN || st === 4) && (
            <text
              className={`lpn lpn-${style.key}`}
              data-ppn={i}
              x={bx + bw / 2}
              y={py + ph / 2}
              dy="0.35em"
              textAnchor="middle"
              pointerEvents="none"
            >
              {pageMark(st, lpn)}
            </text>
          )}
          {isHi && (
            <rect
              className="hi-ring"
              x={bx - 1.5}
              y={py - 1.5}
              width={bw + 3}
              height={ph + 3}
              rx={3}
              pointerEvents="none"
            />
          )}
        </g>,
      );
    }
    blockEls.push(
      <g
        key={b}
        className={['block', victimSet.has(b) && 'victim', props.highlighted?.has(b) && 'tour-hi']
          .filter(Boolean)
          .join(' ')}
        data-block={b}
        data-role={role.key}
        data-owner={owner}
        data-victim={victimSet.has(b) ? '' : undefined}
      >
        <title>{victimSet.has(b) ? `${title}\nVictim: being cleaned by the merge or GC under way` : title}</title>
        <rect
          className="role-band"
          x={bx}
          y={by + 2}
          width={bw}
          height={BAND - 4}
          rx={2}
          style={{ fill: role.color }}
        />
        {showBandText && (
          <text
            className="role-text"
            x={bx + bw / 2}
            y={by + BAND / 2}
            dy="0.35em"
            textAnchor="middle"
            style={{ fill: bandTextColor(role) }}
          >
            {bandLabel(role, owner, bw / ts, props.ownerSets?.[b])}
          </text>
        )}
        <rect
          className={erased ? 'block-outline erased-flash' : 'block-outline'}
          x={bx - 1}
          y={by + BAND - 1}
          width={bw + 2}
          height={Math.max(0, layout.rowH - BAND - LABEL + 2)}
          style={{ stroke: role.color }}
        />
        {pages}
        {victimSet.has(b) && (
          <rect
            className="victim-ring"
            x={bx - 3}
            y={by + BAND - 3}
            width={bw + 6}
            height={layout.rowH - BAND - LABEL + 6}
            rx={3}
            pointerEvents="none"
          />
        )}
        <text
          className={groupMiddle.has(b) ? 'pbn group-lbn' : 'pbn'}
          x={bx + bw / 2}
          y={by + layout.rowH - LABEL / 2}
          dy="0.35em"
          textAnchor="middle"
        >
          {groupMiddle.has(b) ? `LBN ${groupMiddle.get(b)}` : bw >= 18 || b % 4 === 0 ? `${b}` : ''}
          {bw >= 44 * ts ? ` · e${eraseCounts[b]}` : ''}
          {bw < 44 * ts && bw >= 26 * ts && owner >= 0 && !showBandText ? ` L${owner}` : ''}
        </text>
      </g>,
    );
  }

  return (
    <svg
      ref={svgRef}
      className="device-grid"
      data-testid="device-grid"
      data-fx="idle"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      style={{ ['--chip-text-scale' as string]: ts }}
      role="img"
      aria-label={`Flash chip: ${blocks} blocks of ${ppb} pages. Hover a block or page for details.`}
      onMouseMove={(ev) => {
        if (!props.onHover) return;
        const t = ev.target as Element;
        const blk = t.closest('[data-block]');
        const pg = t.closest('[data-page]');
        props.onHover(
          blk
            ? { block: Number(blk.getAttribute('data-block')), page: pg ? Number(pg.getAttribute('data-page')) : null }
            : null,
        );
      }}
      onMouseLeave={() => props.onHover?.(null)}
    >
      <defs>
        <pattern id="hatch" patternUnits="userSpaceOnUse" width="6" height="6" patternTransform="rotate(45)">
          <line x1="0" y1="0" x2="0" y2="6" stroke="rgba(255,255,255,0.55)" strokeWidth="2" />
        </pattern>
      </defs>
      {groupEls}
      {blockEls}
      <g ref={fxRef} className="fx" pointerEvents="none" />
    </svg>
  );
}
