// Scheme panels as plain tables (schemes/tables.ts, panelTable): those no scheme panel draws.
import type { PlainTable } from '../schemes/tables';
import { LabelTerm } from '../ui/glossary/Glossary';

const MAX_ROWS = 200;

export function TablesPanel({ tables }: { tables: PlainTable[] }) {
  if (tables.length === 0) return null;
  return (
    <>
      {tables.map((t, ti) => (
        <section key={ti} className="panel view-table" aria-label={t.title}>
          <h2>
            <LabelTerm label={t.title} />
          </h2>
          <div className="table-scroll" tabIndex={0} aria-label={`${t.title} (scrollable)`}>
            <table>
              <thead>
                <tr>
                  {t.columns.map((c, ci) => (
                    <th key={ci} scope="col">
                      <LabelTerm label={c} />
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {t.rows.slice(0, MAX_ROWS).map((r, ri) => (
                  <tr key={ri}>
                    {r.map((v, ci) => (
                      <td key={ci}>{v}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
            {t.rows.length > MAX_ROWS && <p className="muted">… and {t.rows.length - MAX_ROWS} more rows</p>}
            {t.rows.length === 0 && <p className="muted">(empty)</p>}
          </div>
        </section>
      ))}
    </>
  );
}
