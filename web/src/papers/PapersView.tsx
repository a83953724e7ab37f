// "Paper results": each claim of the five papers, our figure, whether it matches, the
// command that reproduces it, and a button that opens its scenario in the app (a
// `#v1=` link, as web/src/scenario/share.ts builds it). The claims are data
// (claims.ts), checked against the core by papers.wasm.test.ts.
import { useEffect, useRef, useState } from 'react';
import { encodeHash } from '../scenario/share';
import { CLAIMS, PAPERS, commandFor, type Claim, type Paper } from './claims';
import './papers.css';

const fmt = (c: Claim) => {
  if (c.verdict === 'paper inconsistent' && !c.scenario && c.ours === 0) return '—';
  const digits = Math.abs(c.ours) >= 100 ? 0 : Math.abs(c.ours) >= 10 ? 1 : 3;
  return c.ours.toLocaleString('en-US', { maximumFractionDigits: digits });
};

/** The link that opens a claim's scenario at step 0. */
export function claimLink(c: Claim): string | null {
  if (!c.scenario) return null;
  return `#${encodeHash({ scenario: c.scenario, at: { step: 0, op: 0 }, view: {} })}`;
}

function ClaimRow({ c }: { c: Claim }) {
  const link = claimLink(c);
  const cmd = commandFor(c);
  return (
    <tr data-testid={`claim-${c.id}`}>
      <td className="papers-where">{c.where}</td>
      <td>
        {c.claim}
        <div className="papers-note muted">{c.note}</div>
      </td>
      <td className="papers-num">{c.paperFigure}</td>
      <td className="papers-num">
        <span className="papers-ours">{fmt(c)}</span> <span className="muted unit">{c.unit}</span>
      </td>
      <td>
        <span className={`verdict verdict-${c.verdict.replace(' ', '-')}`}>{c.verdict}</span>
      </td>
      <td className="papers-cmd">
        <code>{cmd}</code>
        <div className="muted">{c.doc}</div>
      </td>
      <td>
        {link ? (
          <a
            className="button-link"
            href={link}
            data-testid={`open-${c.id}`}
            title="Open this scenario in the simulator"
          >
            Open scenario
          </a>
        ) : (
          <span className="muted" title={c.pinnedBy}>
            test only
          </span>
        )}
      </td>
    </tr>
  );
}

export function PapersView({ onClose }: { onClose: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const [paper, setPaper] = useState<Paper | 'all'>('all');
  useEffect(() => heading.current?.focus(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  const shown = PAPERS.filter((p) => paper === 'all' || p.id === paper);
  const counts = (id: Paper) => {
    const cs = CLAIMS.filter((c) => c.paper === id);
    return `${cs.filter((c) => c.verdict === 'matches').length} of ${cs.length} match`;
  };
  return (
    <section className="papers" role="dialog" aria-modal="false" aria-labelledby="papers-title" data-testid="papers">
      <div className="papers-head">
        <h2 id="papers-title" tabIndex={-1} ref={heading}>
          Paper results
        </h2>
        <p className="muted">
          Each claim of the five papers beside our figure. Opening a scenario runs it in the simulator; the command
          reproduces the figure with the <code>ftl</code> CLI. Departures are explained in <code>docs/schemes/</code>.
        </p>
        <label>
          Paper{' '}
          <select value={paper} onChange={(e) => setPaper(e.target.value as Paper | 'all')} data-testid="papers-filter">
            <option value="all">all five</option>
            {PAPERS.map((p) => (
              <option key={p.id} value={p.id}>
                {p.id}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={onClose} data-testid="papers-close">
          Close
        </button>
      </div>
      {shown.map((p) => (
        <div key={p.id} className="papers-paper">
          <h3>
            {p.id}{' '}
            <span className="muted">
              — {p.title} · {counts(p.id)}
            </span>
          </h3>
          <table className="papers-table">
            <colgroup>
              <col style={{ width: '10%' }} />
              <col style={{ width: '30%' }} />
              <col style={{ width: '11%' }} />
              <col style={{ width: '12%' }} />
              <col style={{ width: '9%' }} />
              <col style={{ width: '18%' }} />
              <col style={{ width: '10%' }} />
            </colgroup>
            <thead>
              <tr>
                <th scope="col">Where</th>
                <th scope="col">Claim</th>
                <th scope="col">Paper</th>
                <th scope="col">Ours</th>
                <th scope="col">Verdict</th>
                <th scope="col">Reproduce</th>
                <th scope="col">
                  <span className="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {CLAIMS.filter((c) => c.paper === p.id).map((c) => (
                <ClaimRow key={c.id} c={c} />
              ))}
            </tbody>
          </table>
        </div>
      ))}
    </section>
  );
}

/** The header button and the page it opens (the only hook into App.tsx). */
export function PapersMenu() {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    // Opening a claim's scenario changes the hash: the app loads it, the page closes.
    const onHash = () => setOpen(false);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  return (
    <>
      <button
        ref={button}
        type="button"
        aria-pressed={open}
        aria-haspopup="dialog"
        data-testid="papers-toggle"
        onClick={() => setOpen((o) => !o)}
        title="The papers' claims beside our figures"
      >
        Paper results
      </button>
      {open && (
        <div className="papers-overlay">
          <PapersView
            onClose={() => {
              setOpen(false);
              button.current?.focus();
            }}
          />
        </div>
      )}
    </>
  );
}
