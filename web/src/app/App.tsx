import { useEffect, useMemo, useRef, useState } from 'react';
import { createSimClient, type SimClient } from '../sim/client';
import { DEFAULT_PRESET } from '../scenario/presets';
import { DeviceGrid } from '../viz/DeviceGrid';
import { EventList } from '../viz/EventList';
import { Legend } from '../viz/Legend';
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

/** Width and height of an element, kept up to date. */
function useSize<T extends HTMLElement>() {
  const ref = useRef<T>(null);
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const update = () => {
      const r = el.getBoundingClientRect();
      setSize((s) => (Math.abs(s.width - r.width) < 1 && Math.abs(s.height - r.height) < 1 ? s : { width: Math.floor(r.width), height: Math.floor(r.height) }));
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  return [ref, size] as const;
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
  const [gridRef, gridSize] = useSize<HTMLDivElement>();

  // Open on the default scenario, part-way through, so the chip already shows something.
  useEffect(() => {
    if (client) void sim.load(DEFAULT_PRESET.scenario, DEFAULT_PRESET.openAt);
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
  const usedRoles = useMemo(() => {
    const set = new Set<number>([0, 1, 2]);
    snap?.blockRoles.forEach((r) => set.add(r));
    return [...set].sort((a, b) => a - b);
  }, [snap?.blockRoles]);
  // Highlight the last revealed event that touched the chip (notes have no address).
  const lastEvent = snap ? ([...snap.events].reverse().find((e) => e.pbn != null) ?? null) : null;
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
          />
          <Narration text={snap?.narration ?? ''} step={snap?.step ?? 0} total={snap?.total ?? 0} opCursor={snap?.opCursor ?? 0} opCount={snap?.opCount ?? 0} />
          <div className="grid-wrap" ref={gridRef}>
            {snap && info && gridSize.width > 0 && gridSize.height > 0 ? (
              <DeviceGrid
                blocks={info.chip.blocks}
                pagesPerBlock={info.chip.pages_per_block}
                pageStates={snap.pageStates}
                pageLpns={snap.pageLpns}
                blockRoles={snap.blockRoles}
                eraseCounts={snap.eraseCounts}
                owners={snap.owners}
                lastEvent={lastEvent}
                transitionMs={transitionMs}
                width={gridSize.width}
                height={gridSize.height}
                theme={theme}
              />
            ) : (
              <p className="placeholder">{loading ? 'Starting the simulator…' : shownError ? 'The chip will appear here once a scenario loads.' : ''}</p>
            )}
          </div>
          <Legend roles={usedRoles} />
          {snap && info && loaded && (
            <SchemeStrip client={client} sid={loaded.sid} info={info} snapshot={snap} width={gridSize.width} selectedLog={selectedLog} onSelectLog={setSelectedLog} />
          )}
        </main>

        <aside className="right">
          {snap && loaded && <PowerPanel client={client} sid={loaded.sid} snapshot={snap} onCut={sim.powerCut} onRecover={sim.recover} onFinish={sim.stepRequest} />}
          {snap && <MetricsPanel metrics={snap.metrics} />}
          {snap && <EventList events={snap.events} step={snap.step} opCount={snap.opCount} />}
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
