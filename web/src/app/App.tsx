import { useEffect, useMemo, useRef, useState } from 'react';
import { createSimClient, type SimClient } from '../sim/client';
import { DEFAULT_PRESET } from '../scenario/presets';
import { Charts } from '../viz/Charts';
import { ChipView } from '../viz/ChipView';
import { EventList } from '../viz/EventList';
import { scenarioFromUrl } from '../viz/urlScenario';
import { useRunLog } from '../viz/useRunLog';
import { useSize } from '../viz/useSize';
import { MetricsPanel } from '../viz/MetricsPanel';
import { Narration } from '../viz/Narration';
import { TablesPanel } from '../viz/TablesPanel';
import { Controls } from './Controls';
import { useShortcuts } from './keyboard';
import { ScenarioForm } from './ScenarioForm';
import { prefersReducedMotion, useTheme } from './theme';
import { useSimulation } from './useSimulation';
import { TraceUpload } from '../trace/TraceUpload';
import { describeWithTrace } from '../trace/describe';
import { isUploadWorkload } from '../trace/types';
import { SchemePanels, SchemeStrip, useSelectedLog } from '../schemes/SchemePanels';
import { tablesShownElsewhere } from '../schemes/tables';
import { PowerPanel } from '../schemes/PowerPanel';
import { defaultWorkload, type Scenario } from '../scenario/model';

/** The scenario form cannot edit an uploaded trace: it offers the scheme and chip with a generated workload. */
function formScenario(s: Scenario): Scenario {
  return isUploadWorkload(s.workload) ? { ...s, workload: defaultWorkload('hotcold') } : s;
}

export function App() {
  const [client, setClient] = useState<SimClient | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  useEffect(() => {
    let c: SimClient;
    try {
      c = createSimClient();
    } catch (e) {
      setStartError(`Could not start the simulation worker: ${(e as Error).message}`);
      return;
    }
    setClient(c);
    return () => c.close();
  }, []);

  const sim = useSimulation(client);
  const { loaded, loading, error, playing, speed } = sim.state;
  const [theme, toggleTheme] = useTheme();
  const [view, setView] = useState<'chip' | 'charts'>('chip');
  const [viewRef, viewSize] = useSize<HTMLDivElement>();
  const pendingAt = useRef(0);
  useEffect(() => {
    if (loaded && pendingAt.current > 0) {
      sim.seek(pendingAt.current);
      pendingAt.current = 0;
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded?.sid]);

  // Open on the default scenario, part-way through, so the chip already shows something
  // (or on the scenario a ?scenario= link names).
  useEffect(() => {
    if (!client) return;
    const fromUrl = scenarioFromUrl();
    if (fromUrl) {
      pendingAt.current = fromUrl.at;
      void sim.load(fromUrl.scenario, 0);
    } else void sim.load(DEFAULT_PRESET.scenario, DEFAULT_PRESET.openAt);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client]);

  useShortcuts({
    togglePlay: sim.togglePlay,
    stepForward: () => {
      sim.pause();
      void sim.stepOp();
    },
    stepBack: () => {
      sim.pause();
      void sim.backOp();
    },
  });

  const snap = loaded?.snapshot;
  const info = loaded?.info;
  const reduced = useMemo(prefersReducedMotion, []);
  const transitionMs = reduced || speed.intervalMs < 100 || speed.count > 1 ? 0 : Math.min(300, speed.intervalMs * 0.7);
  // Playback on big chips leaves page LPNs out (see sim/host.ts LEAN_PAGES): fetch them once it stops.
  useEffect(() => {
    if (!playing && snap && snap.pageLpns.length === 0 && snap.pageStates.length > 0) {
      void sim.exec((c, sid) => c.snapshot(sid)).then((s) => s && sim.applyResult({ moved: true, snapshot: s }));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playing, snap]);
  const runLog = useRunLog(loaded?.sid ?? null, snap ?? null, sim.exec, sim.applyResult, sim.pause);
  const shownError = startError ?? error;
  const [selectedLog, setSelectedLog] = useSelectedLog(loaded?.sid ?? null);

  return (
    <div className="app">
      <header className="app-header">
        <h1>
          ftlscope<span className="tagline"> — NAND flash translation layers, one operation at a time</span>
        </h1>
        <p className="scenario-line" data-testid="scenario-line">
          {loaded ? describeWithTrace(loaded.scenario) : loading ? 'Loading the simulator…' : 'No scenario loaded'}
          {info && <span className="muted"> · {info.logical_pages} logical pages</span>}
        </p>
        <TraceUpload client={client} current={loaded?.scenario ?? null} onRun={(s) => void sim.load(s, 0)} />
        <button type="button" className="theme-toggle" onClick={toggleTheme} aria-pressed={theme === 'dark'} title="Switch light/dark theme">
          {theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
      </header>

      {shownError && (
        <div className="error-banner" role="alert" data-testid="error">
          <span>{shownError}</span>
          {!startError && (
            <button type="button" onClick={sim.dismissError} aria-label="Dismiss error">
              Dismiss
            </button>
          )}
        </div>
      )}

      <div className="layout">
        <aside className="left">
          {loaded ? (
            <ScenarioForm current={formScenario(loaded.scenario)} busy={false} onApply={(s, openAt) => void sim.load(s, openAt)} />
          ) : (
            <ScenarioForm current={DEFAULT_PRESET.scenario} busy={!client} onApply={(s, openAt) => void sim.load(s, openAt)} />
          )}
          <p className="keys-hint">
            Keys: <kbd>Space</kbd> play/pause · <kbd>→</kbd> step op · <kbd>←</kbd> back
          </p>
        </aside>

        <main className="center">
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
            onStepRequest={() => {
              sim.pause();
              void sim.stepRequest();
            }}
            onBack={() => {
              sim.pause();
              void sim.backOp();
            }}
            onTogglePlay={sim.togglePlay}
            onSpeed={sim.setSpeed}
            onSeek={(v) => {
              sim.pause();
              sim.seek(v);
            }}
            onJump={(v) => {
              sim.pause();
              sim.seek(v);
            }}
            log={runLog.log}
          />
          <Narration text={snap?.narration ?? ''} step={snap?.step ?? 0} total={snap?.total ?? 0} opCursor={snap?.opCursor ?? 0} opCount={snap?.opCount ?? 0} />
          <div className="view-tabs" role="tablist" aria-label="View">
            <button type="button" role="tab" id="tab-chip" aria-selected={view === 'chip'} aria-controls="view-panel" onClick={() => setView('chip')} data-testid="tab-chip">
              Chip
            </button>
            <button type="button" role="tab" id="tab-charts" aria-selected={view === 'charts'} aria-controls="view-panel" onClick={() => setView('charts')} data-testid="tab-charts">
              Charts
            </button>
          </div>
          <div className="grid-wrap" ref={viewRef} id="view-panel" role="tabpanel" aria-labelledby={view === 'chip' ? 'tab-chip' : 'tab-charts'}>
            {snap && info ? (
              view === 'chip' ? (
                <ChipView info={info} snap={snap} transitionMs={transitionMs} budgetMs={playing ? speed.intervalMs * 0.9 : Infinity} theme={theme} />
              ) : (
                <Charts snap={snap} ppb={info.chip.pages_per_block} log={runLog.log} ahead={runLog.ahead} onRunToEnd={() => void runLog.runToEnd()} onCancel={runLog.cancelRun} />
              )
            ) : (
              <p className="placeholder">{loading ? 'Starting the simulator…' : shownError ? 'The chip will appear here once a scenario loads.' : ''}</p>
            )}
          </div>
          {snap && info && loaded && (
            <SchemeStrip client={client} sid={loaded.sid} info={info} snapshot={snap} width={viewSize.width} selectedLog={selectedLog} onSelectLog={setSelectedLog} />
          )}
        </main>

        <aside className="right">
          {snap && loaded && <PowerPanel client={client} sid={loaded.sid} snapshot={snap} />}
          {snap && <MetricsPanel metrics={snap.metrics} />}
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
          {snap && info && loaded && (
            <SchemePanels
              client={client}
              sid={loaded.sid}
              info={info}
              snapshot={snap}
              width={262}
              selectedLog={selectedLog}
              onSelectLog={setSelectedLog}
              scenario={loaded.scenario}
              onLoad={(s) => sim.load(s, 0)}
              onSeek={sim.seek}
            />
          )}
          {snap && <TablesPanel tables={info ? tablesShownElsewhere(info.scheme, snap.view.tables) : snap.view.tables} />}
        </aside>
      </div>
    </div>
  );
}
