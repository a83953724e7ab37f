// Scheme-specific panels: a strip under the device view (center) and panels in the
// right column. Each reads the core's view() tables and metrics, plus run-wide data
// (timeline, histogram) fetched from the worker.
import { useEffect, useState } from 'react';
import type { AssociativitySeries } from './types';
import type { SimClient } from '../sim/client';
import type { SessionInfo, Snapshot } from '../sim/protocol';
import { LatencyHistogram } from './LatencyHistogram';
import { AssociativityChart, LogStrip, RamPanel, RelativeAddressing } from './KraftPanels';
import { ResponseTimeline, fmtUs, type Bound } from './ResponseTimeline';
import {
  gftlBound,
  kraftLike,
  kraftLogBlocks,
  ramTable,
  relativeTables,
  rftlBound,
  rftlGroups,
  rftlLike,
  type RftlGroup,
} from './tables';
import { useSchemeData } from './useSchemeData';
import { LtftlPanels } from './LtftlPanels';
import { CrashPanel } from './CrashPanel';
import { hasPanel, schemeSpec, type Scenario } from '../scenario/model';
import './schemes.css';
import { LabelTerm } from '../ui/glossary/Glossary';

/** The associativity series of a KRAFT/KAST session, fetched once per session. */
function useAssociativity(client: SimClient | null, sid: number | null, enabled: boolean): AssociativitySeries | null {
  const [series, setSeries] = useState<{ sid: number | null; data: AssociativitySeries | null }>({
    sid: null,
    data: null,
  });
  useEffect(() => {
    if (!client || sid === null || !enabled) return;
    let live = true;
    client.request('associativity_series', { sid, points: 120 }).then(
      (data) => live && setSeries({ sid, data }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [client, sid, enabled]);
  return enabled && series.sid === sid ? series.data : null;
}

export function boundsFor(info: SessionInfo): Bound[] {
  const t = info.chip.timing;
  const out: Bound[] = [{ label: 'RFTL L(p)', us: rftlBound(t) }];
  if (hasPanel(info.scheme, 'gftl_bound'))
    out.push({ label: 'GFTL L(p)', us: gftlBound(t, info.chip.pages_per_block) });
  return out;
}

/** Which log block the KRAFT panels show; shared by the strip and the right column. */
export function useSelectedLog(sid: number | null): [number | null, (n: number | null) => void] {
  const [sel, setSel] = useState<{ sid: number | null; slot: number | null }>({ sid, slot: null });
  return [sel.sid === sid ? sel.slot : null, (slot) => setSel({ sid, slot })];
}

export interface SchemeViewProps {
  client: SimClient | null;
  sid: number | null;
  info: SessionInfo;
  snapshot: Snapshot;
  width: number;
  selectedLog: number | null;
  onSelectLog: (slot: number | null) => void;
  /** for LTFTL's time-shift buttons: the scenario on screen, reload and seek */
  scenario?: Scenario;
  onLoad?: (s: Scenario) => Promise<boolean>;
  onSeek?: (step: number) => void;
}

/** Under the device view: RFTL-like response times, KRAFT-like log blocks. */
export function SchemeStrip({ client, sid, info, snapshot, width, selectedLog, onSelectLog }: SchemeViewProps) {
  const realTime = rftlLike(info.scheme);
  const chartWidth = Math.max(200, Math.floor(width));
  const data = useSchemeData(client, sid, snapshot.step, Math.max(50, chartWidth - 60), realTime);
  const assoc = useAssociativity(client, sid, kraftLike(info.scheme));
  if (realTime) {
    return (
      <section className="scheme-strip" aria-labelledby="rt-h" data-testid="scheme-strip">
        <div className="strip-head">
          <h2 id="rt-h">
            <LabelTerm label="Response time per request" />
          </h2>
          <span className="strip-key">
            <span className="key request" /> request <span className="key gc" /> GC
            {data?.timeline && data.timeline.binSize > 1 && (
              <span className="muted"> · longest of every {data.timeline.binSize}</span>
            )}
            {data?.timeline && <span className="muted"> · worst so far {fmtUs(data.timeline.maxTotal)}</span>}
          </span>
        </div>
        {data?.timeline ? (
          <ResponseTimeline bins={data.timeline} bounds={boundsFor(info)} total={snapshot.total} width={chartWidth} />
        ) : (
          <p className="muted">Response times appear as the workload runs.</p>
        )}
      </section>
    );
  }
  if (kraftLike(info.scheme)) {
    const logs = kraftLogBlocks(snapshot.view.panels);
    if (!logs) return null;
    return (
      <div className="scheme-strip kraft-strip" data-testid="scheme-strip">
        <LogStrip logs={logs} pagesPerBlock={info.chip.pages_per_block} selected={selectedLog} onSelect={onSelectLog} />
        {assoc && <AssociativityChart series={assoc} k={logs.k} step={snapshot.step} total={snapshot.total} />}
      </div>
    );
  }
  return null;
}

function GroupCard({ g, ppb }: { g: RftlGroup; ppb: number }) {
  const part = (label: string, cls: string, u: RftlGroup['primary']) => (
    <span
      className={`grp-part ${cls}`}
      title={u ? `${label}: block ${u.pbn}, ${u.used}/${u.of} pages used` : `${label}: none`}
    >
      <span className="grp-label">{label}</span> {u ? u.pbn : '–'}
      <span className="fill-bar" aria-hidden="true">
        <span style={{ width: `${u ? (100 * u.used) / (u.of || ppb) : 0}%` }} />
      </span>
    </span>
  );
  return (
    <li className={`grp-card${g.gc ? ' gc' : ''}`} data-testid={`rftl-group-${g.lbn}`}>
      <span className="grp-lbn">LBN {g.lbn}</span>
      {part('primary', 'pri', g.primary)}
      {part('replacement', 'rep', g.replacement)}
      {part('buffer', 'buf', g.buffer)}
      <span className="grp-gc">{g.gc ?? 'no GC'}</span>
    </li>
  );
}

/** Right column: the scheme's own panels, then the crash test. */
export function SchemePanels(props: SchemeViewProps) {
  return (
    <>
      <SchemeSpecificPanels {...props} />
      {props.scenario && <CrashPanel scenario={props.scenario} />}
    </>
  );
}

/** RFTL groups and histogram; KRAFT relative addressing and RAM; LTFTL time shift. */
function SchemeSpecificPanels({
  client,
  sid,
  info,
  snapshot,
  width,
  selectedLog,
  scenario,
  onLoad,
  onSeek,
}: SchemeViewProps) {
  const realTime = rftlLike(info.scheme);
  const data = useSchemeData(client, sid, snapshot.step, 10, realTime);
  const panels = snapshot.view.panels;
  const rel = kraftLike(info.scheme) ? relativeTables(panels) : [];
  if (realTime) {
    const groups = hasPanel(info.scheme, 'rftl_block_map') ? rftlGroups(panels) : null;
    const active = groups?.filter((g) => g.gc) ?? [];
    return (
      <>
        {groups && (
          <section className="panel rftl-groups" aria-labelledby="grp-h" data-testid="rftl-groups">
            <h2 id="grp-h">
              <LabelTerm label="Logical blocks: primary / replacement / buffer" />
              {active.length > 0 && <span className="gc-count"> · {active.length} GC running</span>}
            </h2>
            <ul>
              {[...active, ...groups.filter((g) => !g.gc)].slice(0, 32).map((g) => (
                <GroupCard key={g.lbn} g={g} ppb={info.chip.pages_per_block} />
              ))}
            </ul>
          </section>
        )}
        <section className="panel" aria-labelledby="hist-h">
          <h2 id="hist-h">
            <LabelTerm label="Response-time histogram" />
          </h2>
          {data?.histogram ? <LatencyHistogram hist={data.histogram} width={width} /> : <p className="muted">…</p>}
        </section>
      </>
    );
  }
  if (hasPanel(info.scheme, 'frozen_states') && sid !== null && scenario && onLoad && onSeek) {
    return (
      <LtftlPanels client={client} sid={sid} scenario={scenario} snapshot={snapshot} onLoad={onLoad} onSeek={onSeek} />
    );
  }
  if (kraftLike(info.scheme)) {
    const slot = selectedLog !== null && rel.some((t) => t.slot === selectedLog) ? selectedLog : (rel[0]?.slot ?? null);
    return (
      <>
        {hasPanel(info.scheme, 'kraft_relative') && (
          <RelativeAddressing
            key={slot ?? -1}
            table={rel.find((t) => t.slot === slot) ?? null}
            pagesPerBlock={info.chip.pages_per_block}
          />
        )}
        <RamPanel
          metrics={snapshot.metrics}
          table={ramTable(panels)}
          asFast={
            hasPanel(info.scheme, 'kraft_ram_as_fast') ? (schemeSpec(info.scheme)?.shortLabel ?? info.scheme) : null
          }
        />
      </>
    );
  }
  return null;
}
