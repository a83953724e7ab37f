// The upload dialog's column mapping: the first rows of the file as the core splits
// them, the role each column was guessed to have, and selects to map columns (by
// header name, or by number for a file without a header) and op values. The result is
// the core's `Mapping` (crates/sim trace/parse.rs); parsing runs again on each change.
import { useId } from 'react';
import { ROLES, type Mapping, type Role, type TracePreview, type Unit } from './types';

const ROLE_LABELS: Record<Role, string> = {
  op: 'Operation (read/write)',
  address: 'Address',
  size: 'Size',
  device: 'Device',
  time: 'Time',
};
const UNITS: Unit[] = ['bytes', 'sectors', 'pages'];

/** 1-based column of `role` in the mapping (by name or number), else the guess. */
export function roleColumn(p: TracePreview, m: Mapping | null, role: Role): number {
  const r = m?.[role];
  if (r) {
    if (/^\d+$/.test(r.column)) return Number(r.column);
    const i = p.header?.findIndex((h) => h.toLowerCase() === r.column.toLowerCase()) ?? -1;
    return i + 1;
  }
  if (m && (m.op || m.address)) return 0; // an explicit mapping: unmapped roles stay unmapped
  return p.guessed.find((g) => g[0] === role)?.[1] ?? 0;
}

/** The mapping with `role` set to column `col` (0: none), named by header when there is one. */
export function withRole(p: TracePreview, m: Mapping | null, role: Role, col: number, unit?: Unit): Mapping {
  // Start from what is on screen, so the guessed roles become explicit too.
  const next: Mapping = { write_ops: m?.write_ops, read_ops: m?.read_ops };
  for (const r of ROLES) {
    const c = r === role ? col : roleColumn(p, m, r);
    if (c <= 0) continue;
    const u = r === role ? unit : m?.[r]?.unit;
    const column = p.header ? p.header[c - 1] : String(c);
    next[r] = u ? { column, unit: u } : { column };
  }
  if (!next.write_ops?.length) delete next.write_ops;
  if (!next.read_ops?.length) delete next.read_ops;
  return next;
}

function splitValues(s: string): string[] {
  return s
    .split(/[,\s]+/)
    .map((x) => x.trim())
    .filter(Boolean);
}

export function MappingEditor({
  preview,
  mapping,
  onChange,
  readAs,
}: {
  preview: TracePreview;
  mapping: Mapping | null;
  onChange: (m: Mapping | null) => void;
  /** how the core read the columns ([role, "name (unit)"]), once parsed */
  readAs?: [string, string][] | null;
}) {
  const id = useId();
  const ncols = Math.max(preview.header?.length ?? 0, ...preview.rows.map((r) => r.length), 0);
  const cols = Array.from({ length: ncols }, (_, i) => i + 1);
  const colName = (c: number) => (preview.header ? `${c}: ${preview.header[c - 1]}` : `column ${c}`);
  const roleOf = (c: number) => ROLES.filter((r) => roleColumn(preview, mapping, r) === c);
  const guessedOnly = !mapping;
  const opCol = roleColumn(preview, mapping, 'op');
  const opValues = [...new Set(preview.rows.map((r) => r[opCol - 1]).filter((v): v is string => !!v))].slice(0, 12);
  return (
    <fieldset className="trace-mapping" data-testid="trace-mapping">
      <legend>Columns</legend>
      <p className="hint">
        {preview.header
          ? 'The first rows, with the header.'
          : 'The first rows (no header: columns are mapped by number).'}{' '}
        {guessedOnly
          ? preview.guessed.length
            ? 'Roles guessed from the header are marked; change any of them below.'
            : 'No column names were recognised: map at least the operation and the address.'
          : 'Mapped by you.'}
      </p>
      <div className="preview-wrap">
        <table className="trace-preview" data-testid="trace-preview">
          <thead>
            <tr>
              {cols.map((c) => (
                <th key={c} scope="col">
                  {preview.header ? preview.header[c - 1] : `#${c}`}
                  <span className="role-tags">
                    {roleOf(c).map((r) => (
                      <span
                        key={r}
                        className={guessedOnly ? 'role-tag guessed' : 'role-tag'}
                        data-testid={`role-tag-${r}`}
                      >
                        {r}
                        {guessedOnly ? '?' : ''}
                      </span>
                    ))}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {preview.rows.slice(0, 6).map((row, i) => (
              <tr key={i}>
                {cols.map((c) => (
                  <td key={c}>{row[c - 1] ?? ''}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="mapping-grid">
        {ROLES.map((role) => {
          const col = roleColumn(preview, mapping, role);
          const unit = mapping?.[role]?.unit;
          return (
            <div className="field" key={role}>
              <label htmlFor={`${id}-${role}`}>{ROLE_LABELS[role]}</label>
              <span className="mapping-row">
                <select
                  id={`${id}-${role}`}
                  value={col}
                  data-testid={`map-${role}`}
                  onChange={(e) => onChange(withRole(preview, mapping, role, Number(e.target.value), unit))}
                >
                  <option value={0}>{role === 'op' || role === 'address' ? '— choose —' : '— none —'}</option>
                  {cols.map((c) => (
                    <option key={c} value={c}>
                      {colName(c)}
                    </option>
                  ))}
                </select>
                {(role === 'address' || role === 'size') && (
                  <select
                    aria-label={`${ROLE_LABELS[role]} unit`}
                    value={unit ?? ''}
                    data-testid={`map-${role}-unit`}
                    disabled={col === 0}
                    onChange={(e) =>
                      onChange(withRole(preview, mapping, role, col, (e.target.value || undefined) as Unit | undefined))
                    }
                  >
                    <option value="">unit: as named</option>
                    {UNITS.map((u) => (
                      <option key={u} value={u}>
                        {u === 'sectors' ? 'sectors (512 B)' : u}
                      </option>
                    ))}
                  </select>
                )}
              </span>
            </div>
          );
        })}
        <div className="field">
          <label htmlFor={`${id}-w`}>Write values</label>
          <input
            id={`${id}-w`}
            type="text"
            data-testid="map-write-ops"
            placeholder="W, Write, 2a… (always understood)"
            defaultValue={(mapping?.write_ops ?? []).join(', ')}
            onBlur={(e) =>
              onChange({
                ...withRole(preview, mapping, 'op', roleColumn(preview, mapping, 'op')),
                write_ops: splitValues(e.target.value),
                read_ops: mapping?.read_ops,
              })
            }
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-r`}>Read values</label>
          <input
            id={`${id}-r`}
            type="text"
            data-testid="map-read-ops"
            placeholder="R, Read, 28… (always understood)"
            defaultValue={(mapping?.read_ops ?? []).join(', ')}
            onBlur={(e) =>
              onChange({
                ...withRole(preview, mapping, 'op', roleColumn(preview, mapping, 'op')),
                read_ops: splitValues(e.target.value),
                write_ops: mapping?.write_ops,
              })
            }
          />
        </div>
      </div>
      {opCol > 0 && opValues.length > 0 && (
        <p className="hint" data-testid="op-values-seen">
          Op values in these rows: {opValues.map((v) => `“${v}”`).join(', ')}. R/Read, W/Write and SCSI opcodes (28/2a,
          08/0a, 88/8a) need no mapping.
        </p>
      )}
      {readAs && readAs.length > 0 && (
        <p className="hint" data-testid="trace-columns-read">
          Read as: {readAs.map(([r, c]) => `${r} = ${c}`).join('; ')}. A column without a unit in its name is bytes
          unless you choose one.
        </p>
      )}
      {mapping && (
        <button type="button" className="link" onClick={() => onChange(null)} data-testid="map-reset">
          Back to the guessed columns
        </button>
      )}
    </fieldset>
  );
}
