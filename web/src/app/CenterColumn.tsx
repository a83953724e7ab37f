// The middle of the single view: controls, the tour, the narration, the chip or charts
// tab, and the scheme strip under it.
import { QueueStrip } from '../viz/QueueStrip';
import { useMemo, useState } from 'react';
import type { SimClient } from '../sim/client';
import { SchemeStrip } from '../schemes/SchemePanels';
import { canPredict } from '../tour/predict';
import type { Tour } from '../tour/tours';
import { useSize } from '../ui/useSize';
import { Charts } from '../viz/Charts';
import { ChipView } from '../viz/ChipView';
import { Narration } from '../viz/Narration';
import { useRunLog } from '../viz/useRunLog';
import { Controls } from './Controls';
import { REVEAL_FRAME_MS } from './reveal';
import { prefersReducedMotion, type Theme } from './theme';
import { TourArea } from './TourArea';
import type { Classroom } from './useClassroom';
import type { Sim } from './useSimulation';
import type { TourPlayer } from './useTourPlayer';

export interface CenterColumnProps {
  sim: Sim;
  client: SimClient | null;
  player: TourPlayer;
  classroom: Classroom;
  tours: Tour[];
  onStartTour: (id: string) => void;
  theme: Theme;
  textScale: number;
  /** presentation: the tour and narration beside the chip, the scheme's strip with them */
  present: boolean;
  shownError: string | null;
  selectedLog: number | null;
  onSelectLog: (log: number | null) => void;
}

export function CenterColumn(p: CenterColumnProps) {
  const { sim } = p;
  const { loaded, loading, playing, speed, revealing } = sim.state;
  const snap = loaded?.snapshot;
  const info = loaded?.info;
  const [view, setView] = useState<'chip' | 'charts'>('chip');
  // The scheme's strip (RFTL's response times, KRAFT's log blocks) sits beside the chip in
  // presentation and in the side column otherwise: it never takes the chip's height (issue 35).
  const [railRef, railSize] = useSize<HTMLDivElement>();
  // In presentation the chip's legend sits in the rail, under the narration.
  const [legendIn, setLegendIn] = useState<HTMLDivElement | null>(null);
  const reduced = useMemo(prefersReducedMotion, []);
  const transitionMs = reduced || speed.intervalMs < 100 || speed.count > 1 ? 0 : Math.min(300, speed.intervalMs * 0.7);
  // Step request: revealed op by op when the chip animates, in one step when it does not.
  const stepRequest = transitionMs > 0 ? sim.revealRequest : sim.stepRequest;
  const reveal = () => {
    sim.pause();
    void stepRequest();
  };
  const runLog = useRunLog(loaded?.sid ?? null, snap ?? null, sim.exec, sim.applyResult, sim.pause, view === 'charts');
  // The open model's request queue (three rows of fixed height): under the narration, or
  // in presentation across the chip's column above the chip (the rail beside it is narrow
  // and holds the tour, the narration and the legend).
  const queue = <QueueStrip queue={snap?.queue} step={snap?.step ?? 0} />;
  const seek = (v: number) => {
    sim.pause();
    sim.seek(v);
  };
  return (
    <main className="center" tabIndex={-1}>
      <Controls
        step={snap?.step ?? 0}
        total={snap?.total ?? 0}
        opCursor={snap?.opCursor ?? 0}
        opCount={snap?.opCount ?? 0}
        playing={playing}
        speed={speed}
        disabled={!loaded}
        onStepOp={() => {
          sim.pause();
          void sim.stepOp();
        }}
        onStepRequest={reveal}
        onBack={() => {
          sim.pause();
          void sim.backOp();
        }}
        onTogglePlay={sim.togglePlay}
        onSpeed={sim.setSpeed}
        onSeek={seek}
        onJump={seek}
        log={runLog.log}
        powerOff={snap ? !snap.powered : false}
        cutRequests={snap?.cutRequests}
      />
      <div className="stage">
        <div className="rail" ref={railRef}>
          <TourArea
            sim={sim}
            player={p.player}
            classroom={p.classroom}
            tours={p.tours}
            onStartTour={p.onStartTour}
            onReveal={reveal}
          />
          <Narration
            text={snap?.narration ?? ''}
            step={snap?.step ?? 0}
            total={snap?.total ?? 0}
            opCursor={snap?.opCursor ?? 0}
            opCount={snap?.opCount ?? 0}
            powered={snap?.powered ?? true}
            recovering={snap?.recovering ?? false}
          />
          {!p.present && queue}
          {p.present && <div className="rail-legend" ref={setLegendIn} />}
          {p.present && snap && info && loaded && (
            <SchemeStrip
              client={p.client}
              sid={loaded.sid}
              info={info}
              snapshot={snap}
              width={railSize.width}
              selectedLog={p.selectedLog}
              onSelectLog={p.onSelectLog}
            />
          )}
        </div>
        <div className="chip-col">
          <div className="view-bar">
            <div className="view-tabs" role="tablist" aria-label="View">
              {(['chip', 'charts'] as const).map((v) => (
                <button
                  key={v}
                  type="button"
                  role="tab"
                  id={`tab-${v}`}
                  aria-selected={view === v}
                  aria-controls="view-panel"
                  onClick={() => setView(v)}
                  data-testid={`tab-${v}`}
                >
                  {v === 'chip' ? 'Chip' : 'Charts'}
                </button>
              ))}
            </div>
            {loaded && canPredict(loaded.scenario) && (
              <button
                type="button"
                className="predict-toggle"
                aria-pressed={p.classroom.predictOpen}
                onClick={() => {
                  sim.pause();
                  p.classroom.setPredictOpen((o) => !o);
                }}
                data-testid="predict-toggle"
                title="Guess what the next request will do, then see it"
              >
                What happens next?
              </button>
            )}
          </div>
          {p.present && queue}
          <div
            className="grid-wrap"
            id="view-panel"
            role="tabpanel"
            aria-labelledby={view === 'chip' ? 'tab-chip' : 'tab-charts'}
          >
            {snap && info ? (
              view === 'chip' ? (
                <ChipView
                  info={info}
                  snap={snap}
                  transitionMs={transitionMs}
                  budgetMs={playing ? speed.intervalMs * 0.9 : revealing ? REVEAL_FRAME_MS : Infinity}
                  theme={p.theme}
                  textScale={p.textScale}
                  legendIn={p.present ? legendIn : null}
                />
              ) : (
                <Charts
                  snap={snap}
                  ppb={info.chip.pages_per_block}
                  log={runLog.log}
                  ahead={runLog.ahead}
                  onRunToEnd={() => void runLog.runToEnd()}
                  onCancel={runLog.cancelRun}
                  latencyAt={runLog.latencyAt}
                  latencyCurrent={runLog.latencyCurrent}
                  latency={runLog.latency}
                />
              )
            ) : (
              <p className="placeholder">
                {loading
                  ? 'Starting the simulator…'
                  : p.shownError
                    ? 'The chip will appear here once a scenario loads.'
                    : ''}
              </p>
            )}
          </div>
        </div>
      </div>
    </main>
  );
}
