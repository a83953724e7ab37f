import { useLayoutEffect, type ReactNode, type RefObject } from 'react';
import type { DrawnMarks } from './canvasDraw';
import { BLOCK_ROLES, PAGE_STATES, bandTextColor } from './palette';
import { useOverflows } from './useOverflows';
import { LabelTerm } from '../ui/glossary/Glossary';

/**
/**
 * Key to the device view's colours; shows only the page states and roles present when given,
 * only the marks drawn when given (issue 35), and the run's timing model when given
 * (docs/timing.md).
 */
export function Legend({
  roles,
  states,
  timing,
  marks,
  reserve = false,
}: {
  roles?: number[];
  states?: number[];
  timing?: 'open' | 'closed' | null;
  marks?: DrawnMarks;
  /**
   * Keep the room of the marks not drawn (the canvas, where a zoom adds and removes them):
   * the legend's height, and so the canvas's box and zoom, does not change as they come.
   */
  reserve?: boolean;
}) {
  const shownRoles = roles ? BLOCK_ROLES.filter((r) => roles.includes(r.id)) : BLOCK_ROLES;
  const shownStates = states ? PAGE_STATES.filter((s) => states.includes(s.id)) : PAGE_STATES;
  // In presentation's rail a box of its own that scrolls past its room (and the keyboard
  // reaches it then); under the chip as tall as its rows, the chip column's floor raised
  // to match (styles.css --legend-extra).
  const [ref, overflows] = useOverflows<HTMLDivElement>(`${shownRoles.length}:${shownStates.length}`);
  useLegendRoom(ref);
  return (
    <div
      ref={ref}
      className="legend"
      role="group"
      aria-label="Legend"
      data-testid="legend"
      tabIndex={overflows ? 0 : undefined}
    >
      <div className="legend-group">
        <span className="legend-title">Pages</span>
        {shownStates.map((s) => (
          <span key={s.key} className="legend-item" data-state-key={s.key}>
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
          </span>
        ))}
      </div>
      <div className="legend-group">
        <span className="legend-title">Blocks</span>
        {shownRoles.map((r) => (
          <span key={r.key} className="legend-item" data-role-key={r.key}>
            <span className="legend-band" style={{ background: r.color, color: bandTextColor(r) }} aria-hidden="true">
              {r.short}
            </span>
            <LabelTerm label={r.label} />
          </span>
        ))}
      </div>
      {(!marks || marks.lpn || marks.block || marks.lbn || reserve) && (
        <div className="legend-group" data-testid="legend-marks">
          <Slot drawn={!marks || marks.lpn || marks.block || marks.lbn} reserve={reserve} title>
            Marks
          </Slot>
          <Slot mark="lpn" drawn={!marks || marks.lpn} reserve={reserve}>
            <span className="legend-mark">12</span>
            <span>
              its logical page (<LabelTerm label="LPN" />)
            </span>
          </Slot>
          {(!states || states.includes(4)) && (
            <Slot drawn={!marks || marks.lpn} reserve={reserve}>
              <span className="legend-mark">M</span>
              <span>
                <LabelTerm label="metadata" /> (map, checkpoint, log)
              </span>
            </Slot>
          )}
          <Slot mark="block" drawn={!marks || marks.block} reserve={reserve}>
            <span className="legend-mark">3 · e2</span>
            <span>
              {marks?.blockOnBand || reserve ? 'on a band' : 'under a block'}: <LabelTerm label="PBN" /> · times{' '}
              <LabelTerm label="erased" />
            </span>
          </Slot>
          <Slot mark="lbn" drawn={!marks || marks.lbn} reserve={reserve}>
            <span className="legend-mark">L1</span>
            <span>
              on a band: the <LabelTerm label="LBN" /> it serves
            </span>
          </Slot>
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
 * Under the chip the legend is as tall as its rows (every entry inside the window, none
 * scrolled out of sight: issue 35); what it takes past its three-line floor is published as
 * `--legend-extra` on the document, which the chip column's minimum height adds, so the
 * chip keeps its third of the window and the tour panel yields instead. In presentation's
 * rail the legend scrolls itself and adds nothing.
 */
function useLegendRoom(ref: RefObject<HTMLDivElement | null>) {
  useLayoutEffect(() => {
    const el = ref.current;
    // only the main view's legend under its chip (not the rail's, a print or a compare pane)
    if (!el || !el.closest('.stage .chip-col') || el.closest('.rail')) return;
    const root = document.documentElement.style;
    const update = () => {
      const floor = parseFloat(getComputedStyle(el).minHeight) || 0;
      const extra = Math.max(0, Math.ceil(el.offsetHeight - floor));
      if (root.getPropertyValue('--legend-extra') !== `${extra}px`) root.setProperty('--legend-extra', `${extra}px`);
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => {
      ro.disconnect();
      root.removeProperty('--legend-extra');
    };
  }, [ref]);
}

/**
 * A legend entry: shown when its mark is drawn; else, when the room is reserved, laid out
 * but invisible (not read, not focusable: visibility hidden), else absent.
 */
function Slot({
  mark,
  drawn,
  reserve,
  title,
  children,
}: {
  mark?: string;
  drawn: boolean;
  reserve: boolean;
  title?: boolean;
  children: ReactNode;
}) {
  if (!drawn && !reserve) return null;
  const cls = `${title ? 'legend-title' : 'legend-item'}${drawn ? '' : ' legend-reserved'}`;
  return (
    <span className={cls} data-mark={drawn ? mark : undefined} aria-hidden={drawn ? undefined : true}>
      {children}
    </span>
  );
}
