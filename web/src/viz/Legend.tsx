import { useLayoutEffect, useState, type ReactNode, type RefObject } from 'react';
import type { DrawnMarks } from './canvasDraw';
import { BLOCK_ROLES, PAGE_STATES, bandTextColor } from './palette';
import { useOverflows } from './useOverflows';
import { LabelTerm } from '../ui/glossary/Glossary';

/**
 * Key to the device view's colours; shows only the page states and roles present when given,
 * only the marks drawn when given (issue 35), and the run's timing model when given
 * (docs/timing.md).
 *
 * With `room`, its height is fixed up front: measured once with every page state, block
 * role and mark the chip can show laid out, for this width and text size, then kept while
 * entries come and go, so the chip above never moves when a DEST band, a torn page or a
 * zoom's marks first appear (issue 35).
 */
export function Legend({
  roles,
  states,
  timing,
  marks,
  room,
}: {
  roles?: number[];
  states?: number[];
  timing?: 'open' | 'closed' | null;
  marks?: DrawnMarks;
  /** keep the room of every entry the chip can show (the main view's chip) */
  room?: boolean;
}) {
  const shownRoles = roles ? BLOCK_ROLES.filter((r) => roles.includes(r.id)) : BLOCK_ROLES;
  const shownStates = states ? PAGE_STATES.filter((s) => states.includes(s.id)) : PAGE_STATES;
  // Past its height the legend scrolls, and the keyboard reaches it then.
  const [ref, overflows] = useOverflows<HTMLDivElement>(
    `${shownRoles.length}:${shownStates.length}:${marks?.lpn}:${marks?.block}:${marks?.lbn}:${marks?.blockOnBand}:${timing}`,
  );
  const fixed = useFixedHeight(ref, room ? `${!!timing}` : null);
  const measuring = fixed.measuring;
  // In the measuring pass every entry of the room is laid out (those absent invisible).
  const allStates = measuring ? PAGE_STATES : shownStates;
  const allRoles = measuring ? BLOCK_ROLES : shownRoles;
  const drawn = {
    lpn: !marks || marks.lpn,
    meta: (!marks || marks.lpn) && (!states || states.includes(4)),
    block: !marks || marks.block,
    lbn: !marks || marks.lbn,
  };
  const anyMark = drawn.lpn || drawn.block || drawn.lbn;
  return (
    <div
      ref={ref}
      className={`legend${measuring ? ' legend-measuring' : ''}`}
      role="group"
      aria-label="Legend"
      data-testid="legend"
      tabIndex={overflows ? 0 : undefined}
      style={fixed.height !== null ? { height: `${fixed.height}px` } : undefined}
    >
      <div className="legend-group">
        <span className="legend-title">Pages</span>
        {allStates.map((s) => (
          <Slot key={s.key} drawn={shownStates.includes(s)} attrs={{ 'data-state-key': s.key }}>
            <svg width="14" height="14" aria-hidden="true">
              <rect
                x="0.5"
                y="0.5"
                width="13"
                height="13"
                rx="2"
                className={`legend-page legend-${s.key}`}
                style={{ fill: s.fill }}
              />
              {s.pattern === 'hatch' && (
                <rect x="0.5" y="0.5" width="13" height="13" rx="2" fill="url(#legend-hatch)" />
              )}
            </svg>
            <LabelTerm label={s.label} />
          </Slot>
        ))}
      </div>
      <div className="legend-group">
        <span className="legend-title">Blocks</span>
        {allRoles.map((r) => (
          <Slot key={r.key} drawn={shownRoles.includes(r)} attrs={{ 'data-role-key': r.key }}>
            <span className="legend-band" style={{ background: r.color, color: bandTextColor(r) }} aria-hidden="true">
              {r.short}
            </span>
            <LabelTerm label={r.label} />
          </Slot>
        ))}
      </div>
      {(anyMark || measuring) && (
        <div className="legend-group" data-testid={anyMark ? 'legend-marks' : undefined}>
          <Slot drawn={anyMark} title>
            Marks
          </Slot>
          {(drawn.lpn || measuring) && (
            <Slot drawn={drawn.lpn} attrs={{ 'data-mark': 'lpn' }}>
              <span className="legend-mark">12</span>
              <span>
                its logical page (<LabelTerm label="LPN" />)
              </span>
            </Slot>
          )}
          {(drawn.meta || measuring) && (
            <Slot drawn={drawn.meta}>
              <span className="legend-mark">M</span>
              <span>
                <LabelTerm label="metadata" /> (map, checkpoint, log)
              </span>
            </Slot>
          )}
          {(drawn.block || measuring) && (
            <Slot drawn={drawn.block} attrs={{ 'data-mark': 'block' }}>
              <span className="legend-mark">3 · e2</span>
              <span>
                {marks?.blockOnBand ? 'on a band' : 'under a block'}: <LabelTerm label="PBN" /> · times{' '}
                <LabelTerm label="erased" />
              </span>
            </Slot>
          )}
          {(drawn.lbn || measuring) && (
            <Slot drawn={drawn.lbn} attrs={{ 'data-mark': 'lbn' }}>
              <span className="legend-mark">L1</span>
              <span>
                on a band: the <LabelTerm label="LBN" /> it serves
              </span>
            </Slot>
          )}
        </div>
      )}
      {timing && (
        <div className="legend-group" data-testid="legend-timing">
          <span className="legend-title">Time</span>
          <span className="legend-item">
            <span>
              <LabelTerm
                label={
                  timing === 'open'
                    ? 'open model: requests arrive at their own times and wait in a queue'
                    : 'closed model: each request starts when the previous one ends'
                }
              />
            </span>
          </span>
        </div>
      )}
      <svg width="0" height="0" aria-hidden="true" style={{ position: 'absolute', top: 0, left: 0 }}>
        <defs>
          <pattern id="legend-hatch" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="5" stroke="rgba(255,255,255,0.6)" strokeWidth="2" />
          </pattern>
        </defs>
      </svg>
    </div>
  );
}

/**
 * The legend's height for a room (`key`; null: no room, the stylesheet's height): measured
 * in one render pass with every entry of the room laid out (never painted: the layout
 * effect's update renders again before the frame), again whenever its width or text size
 * changes (a window resize, a text step), never when entries come or go. Under the main
 * chip, what it takes past the stylesheet's three lines is published as `--legend-extra`,
 * which the chip column's minimum height adds (styles.css): the chip keeps its third of the
 * window and the tour panel yields instead.
 */
function useFixedHeight(ref: RefObject<HTMLDivElement | null>, key: string | null) {
  const [box, setBox] = useState('');
  const [done, setDone] = useState<{ key: string; height: number } | null>(null);
  const want = key === null ? null : `${key}|${box}`;
  const measuring = want !== null && done?.key !== want;
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || key === null) return;
    const read = () => `${el.clientWidth}:${getComputedStyle(el).fontSize}`;
    setBox(read());
    const ro = new ResizeObserver(() => setBox(read()));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, key]);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el || !measuring || want === null) return;
    // the content's height, read from its groups (their places do not depend on the box's
    // height): the box itself keeps its size in this pass, so nothing around it moves
    const box = el.getBoundingClientRect();
    const cs = getComputedStyle(el);
    const bottom = Math.max(
      box.top,
      ...Array.from(el.querySelectorAll(':scope > .legend-group'), (c) => c.getBoundingClientRect().bottom),
    );
    const frame = parseFloat(cs.paddingBottom) + parseFloat(cs.borderBottomWidth);
    setDone({ key: want, height: Math.ceil(bottom - box.top + el.scrollTop + frame) });
  }, [ref, measuring, want]);
  const height = want !== null && done?.key === want ? done.height : null;
  useLayoutEffect(() => {
    const el = ref.current;
    // only the main view's legend under its chip (not the rail's, a print or a compare pane)
    if (!el || height === null || !el.closest('.stage .chip-col') || el.closest('.rail')) return;
    const root = document.documentElement.style;
    const floor = 5.4 * (parseFloat(getComputedStyle(el).fontSize) || 0);
    // the height drawn: the room's, or the stylesheet's cap in a short window
    const drawn = el.getBoundingClientRect().height;
    root.setProperty('--legend-extra', `${Math.max(0, Math.ceil(drawn - floor))}px`);
    return () => {
      root.removeProperty('--legend-extra');
    };
  }, [ref, height]);
  return { measuring, height: measuring ? null : height };
}

/**
 * A legend entry: shown when its mark, state or role is drawn; in the measuring pass an
 * entry of the room not drawn is laid out but invisible (not read, not focusable: visibility
 * hidden) and carries no test attributes.
 */
function Slot({
  drawn,
  title,
  attrs,
  children,
}: {
  drawn: boolean;
  title?: boolean;
  attrs?: Record<string, string>;
  children: ReactNode;
}) {
  const cls = `${title ? 'legend-title' : 'legend-item'}${drawn ? '' : ' legend-reserved'}`;
  return (
    <span className={cls} {...(drawn ? attrs : {})} aria-hidden={drawn ? undefined : true}>
      {children}
    </span>
  );
}
