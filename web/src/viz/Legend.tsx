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
}: {
  roles?: number[];
  states?: number[];
  timing?: 'open' | 'closed' | null;
  marks?: DrawnMarks;
}) {
  const shownRoles = roles ? BLOCK_ROLES.filter((r) => roles.includes(r.id)) : BLOCK_ROLES;
  const shownStates = states ? PAGE_STATES.filter((s) => states.includes(s.id)) : PAGE_STATES;
  // A fixed height (styles.css): past it the legend scrolls, and the keyboard reaches it.
  const [ref, overflows] = useOverflows<HTMLDivElement>(`${shownRoles.length}:${shownStates.length}`);
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
      {(!marks || marks.lpn || marks.block || marks.lbn) && (
        <div className="legend-group" data-testid="legend-marks">
          <span className="legend-title">Marks</span>
          {(!marks || marks.lpn) && (
            <span className="legend-item" data-mark="lpn">
              <span className="legend-mark">12</span>
              <span>
                in a page: the logical page (<LabelTerm label="LPN" />) it holds
              </span>
            </span>
          )}
          {(!marks || marks.lpn) && (!states || states.includes(4)) && (
            <span className="legend-item">
              <span className="legend-mark">M</span>
              <span>
                <LabelTerm label="metadata" /> (map, checkpoint, log)
              </span>
            </span>
          )}
          {(!marks || marks.block) && (
            <span className="legend-item" data-mark="block">
              <span className="legend-mark">3 · e2</span>
              <span>
                {marks?.blockOnBand ? 'on a band, below its role' : 'under a block'}: block number (
                <LabelTerm label="PBN" />) · times <LabelTerm label="erased" />
              </span>
            </span>
          )}
          {(!marks || marks.lbn) && (
            <span className="legend-item" data-mark="lbn">
              <span className="legend-mark">L1</span>
              <span>
                on a band: the logical block (<LabelTerm label="LBN" />) it serves
              </span>
            </span>
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
      <svg width="0" height="0" aria-hidden="true" style={{ position: 'absolute' }}>
        <defs>
          <pattern id="legend-hatch" patternUnits="userSpaceOnUse" width="5" height="5" patternTransform="rotate(45)">
            <line x1="0" y1="0" x2="0" y2="5" stroke="rgba(255,255,255,0.6)" strokeWidth="2" />
          </pattern>
        </defs>
      </svg>
    </div>
  );
}
