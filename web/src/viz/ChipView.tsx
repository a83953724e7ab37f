// The device view: SVG for small chips (every page an element, animated), canvas with
// zoom and a minimap for large ones; a hover line and a legend of what is present.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { SessionInfo, Snapshot } from '../sim/protocol';
import { hasPanel } from '../scenario/model';
import { CanvasGrid } from './CanvasGrid';
import type { DrawnMarks } from './canvasDraw';
import { hoverText, presentCodes, type Hovered } from './chipInfo';
import { chipState } from './chipState';
import { DeviceGrid } from './DeviceGrid';
import { fitChip } from './deviceLayout';
import { newEvents, planEffects, slotCount, type Effect, type Position } from './effects';
import { timingModel } from './MetricsPanel';
import { Legend } from './Legend';
import { useSize } from '../ui/useSize';

/** Chips with more pages than this are drawn on a canvas. */
export const SVG_MAX_PAGES = 4096;

export interface ChipViewProps {
  info: SessionInfo;
  snap: Snapshot;
  /** ms per transition (0 = discrete: reduced motion or high speed) */
  transitionMs: number;
  /** while playing, the time until the next snapshot: an animation must fit in it */
  budgetMs: number;
  theme: string;
  /** presentation mode: chip labels this many times larger */
  textScale?: number;
  /** where the legend goes instead of under the chip (presentation: beside it, issue 35) */
  legendIn?: HTMLElement | null;
}

export function ChipView({ info, snap, transitionMs, budgetMs, theme, textScale, legendIn }: ChipViewProps) {
  const [areaRef, { width, height }] = useSize<HTMLDivElement>();
  const blocks = info.chip.blocks;
  const ppb = info.chip.pages_per_block;
  const large = blocks * ppb > SVG_MAX_PAGES;
  const [hovered, setHovered] = useState<Hovered | null>(null);

  // What changed since the previous snapshot → what to animate.
  const prev = useRef<{ pos: Position; roles: Uint8Array } | null>(null);
  const planRef = useRef<{ id: number; plan: Effect[]; slotMs: number }>({ id: 0, plan: [], slotMs: 0 });
  const lastSnap = useRef<Snapshot | null>(null);
  // Page states still drawn while the fills fade to the new ones (a torn page until its
  // erase plays in a recovery's animation): the legend explains them too (issue 35).
  const fading = useRef<number[]>([]);
  const [, setFillsDone] = useState(0);
  // Idle for the pages drawn now only: a fade that ended before the effect of a newer
  // snapshot started (its commit painted, its effect not yet run) leaves that snapshot's
  // old colours to fade still, so its fading states stay in the legend (a race on a busy machine).
  const onFills = useCallback((running: boolean, drawn: Uint8Array) => {
    if (running || fading.current.length === 0 || drawn !== lastSnap.current?.pageStates) return;
    fading.current = [];
    setFillsDone((n) => n + 1);
  }, []);
  if (lastSnap.current !== snap) {
    const before = lastSnap.current;
    fading.current =
      !large && transitionMs > 0 && before && before.pageStates !== snap.pageStates
        ? [...new Set([...fading.current, ...presentCodes(before.pageStates)])]
        : [];
    const fresh = newEvents(prev.current?.pos ?? null, snap.step, snap.opCursor, snap.events);
    // The request's operations shown before these (Step request reveals a few at a time).
    const prior = fresh.length < snap.events.length ? snap.events.slice(0, snap.events.length - fresh.length) : [];
    const plan =
      !large && transitionMs > 0 && fresh.length ? planEffects(fresh, prev.current?.roles, snap.blockRoles, prior) : [];
    const slots = slotCount(plan);
    let slotMs = 0;
    if (slots > 0) {
      slotMs = Math.min(Math.max(transitionMs, 220), budgetMs / slots);
      if (slotMs < 40) slotMs = 0; // too fast to see: change in discrete steps
    }
    planRef.current = { id: planRef.current.id + 1, plan: slotMs > 0 ? plan : [], slotMs };
    prev.current = {
      pos: { step: snap.step, opCursor: snap.opCursor, eventCount: snap.events.length },
      roles: snap.blockRoles,
    };
    lastSnap.current = snap;
  }

  // Small chips: scan here; large ones: the canvas finds them while it draws (one pass).
  const [canvasPresent, setCanvasPresent] = useState<{ states: number[]; roles: number[] } | null>(null);
  const present = useMemo(
    () => (large ? (canvasPresent?.states ?? []) : presentCodes(snap.pageStates)),
    [large, canvasPresent, snap.pageStates],
  );
  const fadingNow = fading.current;
  const states = useMemo(
    () => (fadingNow.length ? [...new Set([...present, ...fadingNow])] : present),
    [present, fadingNow],
  );
  const roles = useMemo(
    () => (large ? (canvasPresent?.roles ?? []) : presentCodes(snap.blockRoles)),
    [large, canvasPresent, snap.blockRoles],
  );
  // The marks the grid drew: the legend explains only those (issue 35).
  const [marks, setMarks] = useState<DrawnMarks | null>(null);
  const onMarks = useCallback(
    (m: DrawnMarks) =>
      setMarks((o) =>
        o && o.lpn === m.lpn && o.block === m.block && o.lbn === m.lbn && o.blockOnBand === m.blockOnBand ? o : m,
      ),
    [],
  );
  const lastEvent = useMemo(() => [...snap.events].reverse().find((e) => e.pbn != null) ?? null, [snap.events]);
  useEffect(() => setHovered(null), [info]);

  const arrays = {
    ppb,
    pageStates: snap.pageStates,
    pageLpns: snap.pageLpns,
    blockRoles: snap.blockRoles,
    eraseCounts: snap.eraseCounts,
    owners: snap.owners,
  };
  const hover = hovered && hovered.block < blocks ? hoverText(hovered, arrays) : null;
  // The chip is always whole in its box (issue 35): its marks take the largest text scale
  // at which every block and its label fit, at most the presentation's, at least 2 (18 px)
  // when that fits; the pages' LPNs yield first.
  const groupOf = hasPanel(info.scheme, 'rftl_block_map') ? 3 : 1;
  const ts = textScale ?? 1;
  const fit = useMemo(
    () =>
      large || width <= 0 || height <= 0 ? null : fitChip(blocks, ppb, width, height, groupOf, ts, Math.min(ts, 2)),
    [large, blocks, ppb, width, height, groupOf, ts],
  );

  return (
    <div className="chip-view">
      <div className="chip-area" ref={areaRef} data-testid="chip-area" data-chip-scale={fit?.ts}>
        {width <= 0 || height <= 0 ? null : large ? (
          <CanvasGrid
            blocks={blocks}
            pagesPerBlock={ppb}
            {...chipState(snap)}
            lastEvent={lastEvent}
            width={width}
            height={height}
            theme={theme}
            onHover={setHovered}
            onPresent={setCanvasPresent}
            onMarks={onMarks}
            textScale={textScale}
          />
        ) : (
          <DeviceGrid
            blocks={blocks}
            pagesPerBlock={ppb}
            {...chipState(snap)}
            victims={snap.victims}
            lastEvent={lastEvent}
            transitionMs={transitionMs}
            textScale={fit?.ts ?? ts}
            groupOf={groupOf}
            minBlockWidth={fit?.minBw ?? 0}
            onMarks={onMarks}
            onFills={onFills}
            plan={planRef.current.plan}
            planId={planRef.current.id}
            slotMs={planRef.current.slotMs}
            width={width}
            height={height}
            theme={theme}
            onHover={setHovered}
          />
        )}
      </div>
      <p className="hover-line" data-testid="hover-line" aria-live="off">
        {hover ??
          (large
            ? 'Hover the chip for a block’s details; scroll to zoom, drag to pan.'
            : 'Hover a block or page for its details.')}
      </p>
      {legendIn ? (
        createPortal(
          <Legend roles={roles} states={states} timing={timingModel(snap.metrics)} marks={marks ?? undefined} room />,
          legendIn,
        )
      ) : (
        <Legend roles={roles} states={states} timing={timingModel(snap.metrics)} marks={marks ?? undefined} room />
      )}
    </div>
  );
}
