// The right-hand column: power cut and recovery, metrics, events, the scheme's panels and
// its remaining tables.
import type { SimClient } from '../sim/client';
import { schemeCleaning } from '../scenario/model';
import { PowerPanel } from '../schemes/PowerPanel';
import { SchemePanels, SchemeStrip } from '../schemes/SchemePanels';
import { panelTable, tablesShownElsewhere } from '../schemes/tables';
import { EventList } from '../viz/EventList';
import { MetricsPanel } from '../viz/MetricsPanel';
import { TablesPanel } from '../viz/TablesPanel';
import type { Sim } from './useSimulation';

export function SideColumn({
  sim,
  client,
  selectedLog,
  onSelectLog,
  present,
}: {
  sim: Sim;
  /** presentation: the scheme's strip sits beside the chip (CenterColumn) */
  present: boolean;
  client: SimClient | null;
  selectedLog: number | null;
  onSelectLog: (log: number | null) => void;
}) {
  const { loaded } = sim.state;
  const snap = loaded?.snapshot;
  const info = loaded?.info;
  return (
    <aside className="right">
      {snap && loaded && (
        <PowerPanel
          client={client}
          sid={loaded.sid}
          snapshot={snap}
          onCut={sim.powerCut}
          onRecover={sim.recover}
          onFinish={sim.stepRequest}
        />
      )}
      {snap && <MetricsPanel metrics={snap.metrics} cleaning={info ? schemeCleaning(info.scheme) : undefined} />}
      {snap && (
        <EventList
          events={snap.events}
          step={snap.step}
          opCount={snap.opCount}
          onJump={(st, ops) => {
            sim.pause();
            void sim.goto(st, ops);
          }}
        />
      )}
      {/* RFTL's response times, KRAFT's log blocks: here, never under the chip (issue 35) */}
      {!present && snap && info && loaded && (
        <SchemeStrip
          client={client}
          sid={loaded.sid}
          info={info}
          snapshot={snap}
          width={262}
          selectedLog={selectedLog}
          onSelectLog={onSelectLog}
        />
      )}
      {snap && info && loaded && (
        <SchemePanels
          client={client}
          sid={loaded.sid}
          info={info}
          snapshot={snap}
          width={262}
          selectedLog={selectedLog}
          onSelectLog={onSelectLog}
          scenario={loaded.scenario}
          onLoad={(s) => sim.load(s, 0)}
          onSeek={sim.seek}
        />
      )}
      {snap && (
        <TablesPanel
          tables={(info ? tablesShownElsewhere(info.scheme, snap.view.panels) : snap.view.panels).map(panelTable)}
        />
      )}
    </aside>
  );
}
