// Live metrics from the core's metrics() JSON (field names as in docs/cli.md).
import { memo } from 'react';
import type { Cleaning } from '../scenario/model';
import type { Metrics } from '../sim/protocol';
import { LabelTerm, WithGlossary } from '../ui/glossary/Glossary';
import { causeLabel } from './palette';

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * One formatter per number of digits, kept: `toLocaleString` with options builds a new
 * Intl.NumberFormat on every call (~30 µs each in V8), and a step formats some 30 figures.
 * The text is the same (toLocaleString is specified as that formatter's format).
 */
const FORMATS = new Map<number, Intl.NumberFormat>();

function fmt(v: number | undefined, digits = 0): string {
  if (v === undefined) return '—';
  let f = FORMATS.get(digits);
  if (!f) {
    f = new Intl.NumberFormat('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
    FORMATS.set(digits, f);
  }
  return f.format(v);
}

export function fmtUs(v: number | undefined): string {
  if (v === undefined) return '—';
  if (v >= 1_000_000) return `${fmt(v / 1_000_000, 2)} s`;
  if (v >= 1000) return `${fmt(v / 1000, 2)} ms`;
  return `${fmt(v, 0)} µs`;
}

function get(m: Metrics, path: string): unknown {
  let cur: unknown = m;
  for (const k of path.split('.')) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[k];
  }
  return cur;
}

const LABELS: Record<string, string> = {
  gc_runs: 'GC runs',
  ram_bytes: 'Mapping RAM',
  log_utilisation: 'Log utilisation',
};

export interface Row {
  key: string;
  label: string;
  value: string;
  hint?: string;
}

const KNOWN_TOP = new Set([
  'scheme',
  'chip',
  'requests',
  'by_cause',
  'host_reads',
  'host_writes',
  'page_reads',
  'oob_reads',
  'page_programs',
  'erases',
  'write_amplification',
  'elapsed_us',
  'latency_us',
  'erase_count',
  'merges',
  'wrong_reads',
  'timing',
]);

/**
 * Response, wait and service of host requests by the run's timing model (metrics.timing,
 * docs/timing.md): the figures the tail chart and the narration's "waits 2.1 ms" speak of.
 * Closed model: wait is 0 and response = service.
 */
function timingRows(n: (p: string) => number | undefined): Row[] {
  const rows: Row[] = [];
  for (const kind of ['write', 'read'] as const) {
    if (!n(`timing.${kind}.requests`)) continue;
    const Kind = kind === 'read' ? 'Read' : 'Write';
    for (const [part, hint] of [
      ['response', 'arrival to completion = wait + service'],
      ['wait', 'queued before its first operation'],
      ['service', 'its operations and the GC or merge scheduled with it'],
    ] as const) {
      const f = (s: string) => n(`timing.${kind}.${part}_us.${s}`);
      rows.push({
        key: `${kind}_${part}`,
        label: `${Kind} ${part}`,
        value: `${fmtUs(f('mean'))} · ${fmtUs(f('p99'))}`,
        hint,
      });
    }
  }
  return rows;
}

/** Which timing model the response times are in, for the panel's caption. */
export function timingModel(m: Metrics): 'open' | 'closed' | null {
  const t = get(m, 'timing.model');
  return t === 'open' || t === 'closed' ? t : null;
}

/** Every row the panel shows (exported: the glossary test checks each label has an entry). */
export function metricRows(metrics: Metrics, cleaning: Cleaning = 'gc'): Row[] {
  const n = (p: string) => num(get(metrics, p));
  const rows: Row[] = [
    { key: 'host_writes', label: 'Host writes', value: fmt(n('host_writes')) },
    { key: 'host_reads', label: 'Host reads', value: fmt(n('host_reads')) },
    { key: 'page_programs', label: 'Page programs', value: fmt(n('page_programs')) },
    { key: 'page_reads', label: 'Page reads', value: fmt(n('page_reads')) },
    { key: 'oob_reads', label: 'OOB reads', value: fmt(n('oob_reads')) },
    { key: 'erases', label: 'Block erases', value: fmt(n('erases')) },
    {
      key: 'write_amplification',
      label: 'Write amplification',
      value: fmt(n('write_amplification'), 2),
      hint: 'page programs ÷ host writes',
    },
    { key: 'elapsed_us', label: 'Flash time', value: fmtUs(n('elapsed_us')), hint: 'sum of operation times' },
    {
      key: 'erase_count',
      label: 'Erases per block',
      value: `${fmt(n('erase_count.min'))}–${fmt(n('erase_count.max'))} (mean ${fmt(n('erase_count.mean'), 1)})`,
    },
    ...timingRows(n),
  ];
  const merges = get(metrics, 'merges');
  if (
    merges &&
    typeof merges === 'object' &&
    (cleaning === 'merges' || Object.values(merges).some((v) => typeof v === 'number' && v > 0))
  ) {
    const m = merges as Record<string, number>;
    rows.push({
      key: 'merges',
      label: 'Merges switch/partial/full',
      value: `${fmt(m.switch)} / ${fmt(m.partial)} / ${fmt(m.full)}`,
      hint: 'a merge counts at its first flash operation',
    });
  }
  // Fields the core adds later still show up, without code changes here.
  for (const [k, v] of Object.entries(metrics)) {
    if (KNOWN_TOP.has(k) || typeof v !== 'number') continue;
    if (k === 'gc_runs' && cleaning === 'merges') continue;
    const label = LABELS[k] ?? k.charAt(0).toUpperCase() + k.slice(1).replace(/_/g, ' ');
    const hint = k === 'gc_runs' ? 'a GC run counts at its first flash operation' : undefined;
    rows.push({
      key: k,
      label,
      value: k.endsWith('_bytes') ? `${fmt(v)} B` : fmt(v, Number.isInteger(v) ? 0 : 2),
      hint,
    });
  }
  return rows;
}

/**
 * `cleaning`: how the scheme cleans (the core's catalog). Merge schemes show their merges
 * (even before the first) and not "GC runs", which stays 0 for them.
 */
export function MetricsPanel({ metrics, cleaning = 'gc' }: { metrics: Metrics; cleaning?: Cleaning }) {
  const n = (p: string) => num(get(metrics, p));
  const rows = metricRows(metrics, cleaning);
  const model = timingModel(metrics);
  const byCause = get(metrics, 'by_cause');
  const causes =
    byCause && typeof byCause === 'object'
      ? Object.entries(byCause as Record<string, Record<string, unknown>>).filter(([, c]) => c && typeof c === 'object')
      : [];
  const wrong = n('wrong_reads');
  return (
    <section className="panel metrics" aria-labelledby="metrics-h">
      <h2 id="metrics-h">Metrics</h2>
      {model && (
        <p className="muted metrics-model" data-testid="metrics-timing-model">
          <WithGlossary
            text={`Response times of host requests, ${model} model${model === 'closed' ? ' (no request waits)' : ''}: mean · p99.`}
          />
        </p>
      )}
      <dl className="metrics-list">
        {rows.map((r) => (
          <MetricRow key={r.key} id={r.key} label={r.label} value={r.value} hint={r.hint} />
        ))}
      </dl>
      {causes.length > 0 && (
        <table className="by-cause" aria-label="Flash operations by cause">
          <thead>
            <tr>
              <th scope="col">Cause</th>
              <th scope="col">Reads</th>
              <th scope="col">Programs</th>
              <th scope="col">Erases</th>
            </tr>
          </thead>
          <tbody>
            {causes.map(([cause, c]) => (
              <CauseRow
                key={cause}
                cause={cause}
                reads={fmt(num(c.reads))}
                programs={fmt(num(c.programs))}
                erases={fmt(num(c.erases))}
              />
            ))}
          </tbody>
        </table>
      )}
      {wrong !== undefined && wrong > 0 && (
        <p className="alert" role="alert">
          {wrong} read(s) disagreed with the reference model — this is a simulator bug.
        </p>
      )}
    </section>
  );
}

// A step changes a few figures: rows take their text as props and are memoised, so a row
// whose text is the same is not rendered again (its label's glossary lookup included).
const MetricRow = memo(function MetricRow({
  id,
  label,
  value,
  hint,
}: {
  id: string;
  label: string;
  value: string;
  hint?: string;
}) {
  return (
    <div className="metric" data-testid={`metric-${id}`} title={hint}>
      <dt>
        <LabelTerm label={label} />
      </dt>
      <dd>{value}</dd>
    </div>
  );
});

const CauseRow = memo(function CauseRow({
  cause,
  reads,
  programs,
  erases,
}: {
  cause: string;
  reads: string;
  programs: string;
  erases: string;
}) {
  return (
    <tr data-testid={`cause-${cause}`}>
      <th scope="row">
        <LabelTerm label={causeLabel(cause)} />
      </th>
      <td>{reads}</td>
      <td>{programs}</td>
      <td>{erases}</td>
    </tr>
  );
});
