import { BLOCK_ROLES, PAGE_STATES, bandTextColor } from './palette';
import { useOverflows } from './useOverflows';

/** Key to the device view's colours; shows only the page states and roles present when given. */
export function Legend({ roles, states }: { roles?: number[]; states?: number[] }) {
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
            {s.label}
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
            {r.label}
          </span>
        ))}
      </div>
      <div className="legend-group" data-testid="legend-marks">
        <span className="legend-title">Marks</span>
        <span className="legend-item">
          <span className="legend-mark">12</span> in a page: the logical page (LPN) it holds
        </span>
        {(!states || states.includes(4)) && (
          <span className="legend-item">
            <span className="legend-mark">M</span> metadata (map, checkpoint, log)
          </span>
        )}
        <span className="legend-item">
          <span className="legend-mark">3 · e2</span> under a block: block number (PBN) · times erased
        </span>
        <span className="legend-item">
          <span className="legend-mark">L1</span> on a band: the logical block (LBN) it serves
        </span>
      </div>
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
