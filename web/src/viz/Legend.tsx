import { BLOCK_ROLES, PAGE_STATES, bandTextColor } from './palette';

/** Key to the device view's colours; shows only the roles a scheme uses when given. */
export function Legend({ roles }: { roles?: number[] }) {
  const shownRoles = roles ? BLOCK_ROLES.filter((r) => roles.includes(r.id)) : BLOCK_ROLES;
  return (
    <div className="legend" aria-label="Legend">
      <div className="legend-group">
        <span className="legend-title">Pages</span>
        {PAGE_STATES.map((s) => (
          <span key={s.key} className="legend-item">
            <svg width="14" height="14" aria-hidden="true">
              <rect x="0.5" y="0.5" width="13" height="13" rx="2" className={`legend-page legend-${s.key}`} style={{ fill: s.fill }} />
              {s.pattern === 'hatch' && <rect x="0.5" y="0.5" width="13" height="13" rx="2" fill="url(#legend-hatch)" />}
            </svg>
            {s.label}
          </span>
        ))}
      </div>
      <div className="legend-group">
        <span className="legend-title">Blocks</span>
        {shownRoles.map((r) => (
          <span key={r.key} className="legend-item">
            <span className="legend-band" style={{ background: r.color, color: bandTextColor(r) }} aria-hidden="true">
              {r.short}
            </span>
            {r.label}
          </span>
        ))}
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
