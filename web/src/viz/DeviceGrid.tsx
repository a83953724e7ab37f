// The chip as an SVG grid (small chips): one column of page cells per block, blocks
// wrapped into rows. React renders the structure; D3 computes the layout scales and
// animates: page fills, copies (a token moves), erases (a flash) and role changes. What a
// group of operations is doing is said by the narration above the chip, not over it.
import { useEffect, useEffectEvent, useMemo, useRef } from 'react';
import { select } from 'd3';
// d3's barrel is side-effect free, so bring in the Selection.transition/interrupt patch explicitly.
import 'd3-transition';
import type { SimEvent } from '../sim/protocol';
import { bandLabel, bandTextColor, pageMark, pageStyle, roleStyle } from './palette';
import type { Effect } from './effects';
import { blockGroups, hoverText, type Hovered } from './chipInfo';
import type { ChipState } from './chipState';
import { MARK_MIN, deviceLayout } from './deviceLayout';
import { playEffects } from './deviceFx';
import { useFillDelays } from './fillDelays';
import type { DrawnMarks } from './canvasDraw';

export interface DeviceGridProps extends ChipState {
  blocks: number;
  pagesPerBlock: number;
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
  /**
   * Never so many blocks to a row that a block is narrower than this (its label: block
   * number and erase count; ChipView's fitChip chooses it with the text scale).
   */
  minBlockWidth?: number;
  /** the marks drawn (the legend explains only those; issue 35) */
  onMarks?: (m: DrawnMarks) => void;
  /** the page fills' transitions are running (true) or every page has its state's colour */
  onFills?: (running: boolean, drawn: Uint8Array) => void;
}

const NO_LPN = 0xffffffff;

export { gridLayout } from './deviceLayout';

/** Which marks DeviceGrid draws with these arrays and sizes (the legend's). */
function marksDrawn(m: {
  showText: boolean;
  showBandText: boolean;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  owners: Int32Array;
  ownerSets?: Record<string, number[]>;
  blocks: number;
  bw: number;
  ts: number;
}): DrawnMarks {
  let lpn = false;
  if (m.showText)
    for (let i = 0; i < m.pageStates.length && !lpn; i++) lpn = m.pageLpns[i] !== NO_LPN || m.pageStates[i] === 4;
  let lbn = false;
  if (m.showBandText)
    for (let b = 0; b < m.blocks && !lbn; b++)
      lbn = /L\d/.test(bandLabel(roleStyle(m.blockRoles[b]), m.owners[b], m.bw / m.ts, m.ownerSets?.[b]));
  return { lpn, block: m.bw >= 44 * m.ts, lbn };
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
  const fxRef = useRef<SVGGElement>(null);
  const groups = useMemo(() => blockGroups(blockRoles, owners), [blockRoles, owners]);
  const groupMiddle = useMemo(() => new Map(groups.map((g) => [g.first + 1, g.owner])), [groups]);
  const groupSize = props.groupOf ?? (groups.length > 0 ? 3 : 1);

  const minBw = props.minBlockWidth ?? 0;
  const layout = useMemo(
    () => deviceLayout(blocks, ppb, width, height, groupSize, ts, minBw),
    [blocks, ppb, width, height, groupSize, ts, minBw],
  );
  const { bw, ph, blockX, blockY, BAND, LABEL } = layout;

  // Per-page delay of the fill change (fillDelays.ts).
  const slotMs = props.slotMs ?? 0;
  const { delays, since } = useFillDelays(props.plan, slotMs, ppb);

  const onFills = useEffectEvent((running: boolean, drawn: Uint8Array) => props.onFills?.(running, drawn));
  // D3 owns the page fills: animate them from whatever they were to the new state.
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const cells = select(svg).selectAll<SVGRectElement, unknown>('rect.page');
    const css = getComputedStyle(svg);
    // Resolve var(--x) so D3 can interpolate between concrete colours: once a colour in each
    // run, not once a page (a die of 1,024 pages read the computed style 1,024 times).
    const resolved = new Map<string, string>();
    const resolve = (fill: string) => {
      let c = resolved.get(fill);
      if (c === undefined) {
        const m = /^var\((--[\w-]+)\)$/.exec(fill);
        c = m ? css.getPropertyValue(m[1]).trim() || '#ccc' : fill;
        resolved.set(fill, c);
      }
      return c;
    };
    const fillOf = function (this: SVGRectElement) {
      return resolve(pageStyle(Number(this.getAttribute('data-state'))).fill);
    };
    // Tests and screenshots wait for `data-fills="idle"` (and the theme it was drawn in)
    // instead of sleeping through the colour transitions.
    svg.dataset.fillsTheme = props.theme ?? '';
    const ends: Promise<void>[] = [];
    const left = since();
    if (props.transitionMs > 0 && cells.size() <= 4096) {
      const t = cells
        .interrupt()
        .transition()
        .delay(function () {
          return left(Number(this.getAttribute('data-ppn')));
        })
        .duration(props.transitionMs)
        .style('fill', fillOf);
      if (!t.empty()) ends.push(t.end());
    } else {
      cells.interrupt().style('fill', fillOf);
    }
    // A page's LPN appears when its program or copy plays, not before (Step request
    // reveals a whole merge: its numbers arrive with their tokens instead of jumping).
    const labels = select(svg).selectAll<SVGTextElement, unknown>('text.lpn');
    labels.interrupt().style('opacity', null);
    if (props.transitionMs > 0 && delays.size > 0 && cells.size() <= 4096) {
      labels.each(function () {
        const d = left(Number(this.getAttribute('data-ppn')));
        if (d > 0)
          ends.push(
            select(this)
              .style('opacity', 0)
              .transition()
              .delay(d)
              .duration(Math.min(props.transitionMs, 150))
              .style('opacity', 1)
              .end(),
          );
      });
    }
    const gen = String(Number(svg.dataset.fillsGen ?? 0) + 1);
    svg.dataset.fillsGen = gen;
    svg.dataset.fills = ends.length > 0 ? 'running' : 'idle';
    onFills(ends.length > 0, pageStates);
    // An interrupted transition rejects: the next effect's generation takes over.
    void Promise.allSettled(ends).then(() => {
      if (svg.dataset.fillsGen !== gen) return;
      svg.dataset.fills = 'idle';
      onFills(false, pageStates);
    });
  }, [pageStates, props.transitionMs, layout, props.theme, delays, since]);

  // The effect layer: tokens and flashes, drawn over the grid and removed after.
  useEffect(() => {
    const g = fxRef.current;
    const svg = svgRef.current;
    if (!g || !svg) return;
    const fx = select(g);
    fx.selectAll('*').interrupt().remove();
    // role changes' old bands sit in their blocks (under the band text: deviceFx)
    select(svg).selectAll('g.block > .fx-role').interrupt().remove();
    const plan = props.plan ?? [];
    if (slotMs <= 0 || plan.length === 0) {
      svg.dataset.fx = 'idle';
      return;
    }
    const ends = playEffects(fx, plan, slotMs, layout, getComputedStyle(svg));
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
    // The plan is new exactly when planId is (ChipView keeps both in one ref).
  }, [props.plan, slotMs, layout]);

  const hi = lastEvent && lastEvent.pbn != null ? lastEvent : null;
  const showText = ph >= MARK_MIN.pageHeight * ts && bw >= MARK_MIN.pageWidth * ts;
  const showBandText = bw >= 26 * ts;
  // The marks drawn, for the legend (issue 35): the same tests as the drawing below.
  const { onMarks, ownerSets } = props;
  useEffect(() => {
    onMarks?.(
      marksDrawn({ showText, showBandText, pageStates, pageLpns, blockRoles, owners, ownerSets, blocks, bw, ts }),
    );
  }, [onMarks, showText, showBandText, pageStates, pageLpns, blockRoles, owners, ownerSets, blocks, bw, ts]);

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
          <title>{`Block ${b} page ${p} (PPN ${i}) · ${style.hover ?? style.label}${lpn !== NO_LPN && st !== 4 ? ` · LPN ${lpn}` : ''}`}</title>
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
