import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { createSimClient, type SimClient } from '../sim/client';
import { CompareView } from '../compare/CompareView';
import { ExportMenu } from '../export/ExportMenu';
import { loadCore } from '../scenario/core';
import { LinkNotices, type LinkNoticeState } from '../scenario/LinkNotices';
import { defaultWorkload, hasScheme, scenarioToJson, schemeCleaning, type Scenario } from '../scenario/model';
import { DEFAULT_PRESET } from '../scenario/presets';
import { decodeHash, encodeHash, type CompareSpec, type ShareState } from '../scenario/share';
import { ShareMenu } from '../scenario/ShareMenu';
import { TourMenu } from '../tour/TourMenu';
import { PapersMenu } from '../papers/PapersView';
import { TourPanel } from '../tour/TourPanel';
import { availableTours, stopScenario, tourById } from '../tour/tours';
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
import { SPEEDS, useSimulation } from './useSimulation';
import { REVEAL_FRAME_MS } from './reveal';
import './tools.css';
import { TraceUpload } from '../trace/TraceUpload';
import { describeWithTrace } from '../trace/describe';
import { SchemePanels, SchemeStrip, useSelectedLog } from '../schemes/SchemePanels';
import { tablesShownElsewhere } from '../schemes/tables';
import { PowerPanel } from '../schemes/PowerPanel';
import { GlossaryButton } from '../classroom/Glossary';
import { PrintTour } from '../classroom/PrintTour';
import { DEFAULT_PRESENT_SCALE, PresentTools } from '../classroom/PresentTools';
import { Welcome } from '../classroom/Welcome';
import { PredictPanel } from '../tour/PredictPanel';
import { canPredict } from '../tour/predict';
import { INTRO_TOUR_ID } from '../tour/tours';

/** `?embed=1`: only the chip, the narration and the controls (an <iframe> on a course page). */
const EMBED = typeof location !== 'undefined' && new URLSearchParams(location.search).get('embed') === '1';

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
  const { loaded, loading, error, playing, speed, revealing } = sim.state;
  const [theme, toggleTheme] = useTheme();
  const [view, setView] = useState<'chip' | 'charts'>('chip');
  const [viewRef, viewSize] = useSize<HTMLDivElement>();

  // The core's catalog (scheme list) and pattern checker, on the page.
  const [coreReady, setCoreReady] = useState<'loading' | 'ready' | 'failed'>('loading');
  useEffect(() => {
    loadCore().then(
      () => setCoreReady('ready'),
      () => setCoreReady('failed'),
    );
  }, []);

  const [notices, setNotices] = useState<LinkNoticeState>({});
  // A link or file whose uploaded trace is being provided again (web/src/trace checks it).
  const [reopen, setReopen] = useState<ShareState | null>(null);
  const [tourAt, setTourAt] = useState<{ id: string; index: number } | null>(null);
  const [tourBusy, setTourBusy] = useState(false);
  const [present, setPresent] = useState(false);
  const [compare, setCompare] = useState<CompareSpec | null>(null);
  const tour = tourAt ? tourById(tourAt.id) : undefined;
  // Classroom: presentation text size and side panel, the welcome, predictions, printing.
  const [presentScale, setPresentScale] = useState(DEFAULT_PRESENT_SCALE);
  const [sideOpen, setSideOpen] = useState(false);
  const [welcome, setWelcome] = useState(false);
  const [predictOpen, setPredictOpen] = useState(false);
  const [printing, setPrinting] = useState<string | null>(null);
  const [score, setScore] = useState({ tour: '', right: 0, asked: 0 });

  const loadedRef = useRef(loaded);
  loadedRef.current = loaded;
  const themeRef = useRef(theme);
  themeRef.current = theme;
  const speedRef = useRef(speed.id);
  speedRef.current = speed.id;
  const applyView = useCallback(
    (state: ShareState) => {
      if (state.view.theme && state.view.theme !== themeRef.current) toggleTheme();
      const t = state.view.tour && tourById(state.view.tour.id);
      setTourAt(t ? { id: t.id, index: Math.min(state.view.tour!.index, t.stops.length - 1) } : null);
      setPresent(!!state.view.present);
      setCompare(state.compare ?? null);
      if (state.view.speed && SPEEDS.some((x) => x.id === state.view.speed)) sim.setSpeed(state.view.speed);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [toggleTheme],
  );

  const startTour = useCallback(
    async (id: string, index = 0) => {
      const t = tourById(id);
      if (!t || !t.schemes.every(hasScheme)) {
        setNotices({ error: `There is no guided tour “${id}” in this version of ftlscope.` });
        return false;
      }
      const i = Math.max(0, Math.min(index, t.stops.length - 1));
      const scenario = stopScenario(t, i);
      const at = t.stops[i].at;
      setTourAt({ id, index: i });
      setCompare(null);
      setTourBusy(true);
      try {
        const cur = loadedRef.current;
        if (cur && scenarioToJson(cur.scenario) === scenarioToJson(scenario)) {
          await sim.goto(at.step, at.op);
          return true;
        }
        return await sim.load(scenario, 0, at);
      } finally {
        setTourBusy(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [sim.goto, sim.load],
  );
  // "Play to the next stop": animate the flash operations up to the stop's moment, then
  // pause there (the last requests before it only; further back is a jump).
  const [tourPlaying, setTourPlaying] = useState(false);
  const tourPlay = useRef({ cancelled: false });
  const playToStop = useCallback(
    async (id: string, index: number) => {
      const t = tourById(id);
      const cur = loadedRef.current;
      if (!t || !cur || index >= t.stops.length) return;
      const target = t.stops[index].at;
      const scenario = stopScenario(t, index);
      const here = cur.snapshot;
      const ahead = here.step < target.step || (here.step === target.step && here.opCursor < target.op);
      if (scenarioToJson(cur.scenario) !== scenarioToJson(scenario) || !ahead) {
        await startTour(id, index);
        return;
      }
      sim.pause();
      const token = { cancelled: false };
      tourPlay.current.cancelled = true;
      tourPlay.current = token;
      setTourPlaying(true);
      try {
        if (target.step - here.step > 2) await sim.goto(target.step - 2, 0);
        const delay = Math.max(
          120,
          Math.min(
            600,
            speedRef.current.endsWith('op') ? SPEEDS.find((x) => x.id === speedRef.current)!.intervalMs : 350,
          ),
        );
        for (let guard = 0; guard < 400 && !token.cancelled; guard++) {
          await new Promise((r) => setTimeout(r, delay));
          if (token.cancelled) break;
          const snap = await sim.stepOpSnapshot();
          if (!snap) break;
          if (snap.step > target.step || (snap.step === target.step && snap.opCursor >= target.op)) break;
        }
        if (!token.cancelled) {
          setTourAt({ id, index });
          await sim.goto(target.step, target.op);
        }
      } finally {
        if (tourPlay.current === token) setTourPlaying(false);
      }
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [startTour, sim.goto, sim.pause, sim.stepOpSnapshot],
  );
  const stopTourPlay = useCallback(() => {
    tourPlay.current.cancelled = true;
    setTourPlaying(false);
  }, []);

  /** Open what the address bar's hash says: a shared state, a tour, or the default. */
  const openFromHash = useCallback(
    async (hash: string) => {
      const fromUrl = scenarioFromUrl();
      if (fromUrl && !hash) {
        setNotices({});
        if (await sim.load(fromUrl.scenario, 0, { step: fromUrl.at, op: 0 })) return;
      }
      const d = decodeHash(hash);
      if (d.kind === 'tour') {
        setNotices({});
        if (await startTour(d.id)) return;
      } else if (d.kind === 'state') {
        setNotices({ notice: d.notice });
        if (d.missingTrace) {
          // The trace is not in the link: show the default and offer to keep the rest.
          setNotices({ missingTrace: { name: d.missingTrace, state: d.state } });
        } else {
          applyView(d.state);
          if (await sim.load(d.state.scenario, 0, d.state.at)) return;
          setNotices({
            error:
              'The scenario in this link could not be started (see the message above); showing the default scenario instead.',
          });
        }
      } else if (d.kind === 'error') {
        setNotices({ error: `${d.message} Showing the default scenario instead.` });
      }
      setTourAt(null);
      // A first visit (no link): the short default at request 0, with the welcome.
      if (!hash && !fromUrl && !EMBED) setWelcome(true);
      await sim.load(DEFAULT_PRESET.scenario, DEFAULT_PRESET.openAt);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [applyView, startTour, sim.load],
  );

  // Open on the link's state, or the default scenario part-way through, once the
  // worker and the core's catalog are there.
  useEffect(() => {
    if (client && coreReady !== 'loading') void openFromHash(location.hash);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, coreReady]);
  useEffect(() => {
    const onHash = () => void openFromHash(location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [openFromHash]);

  // Presentation mode: Escape leaves it (and full screen).
  const presentRef = useRef(present);
  presentRef.current = present;
  const togglePresent = useCallback(() => {
    const next = !presentRef.current;
    setPresent(next);
    try {
      if (next && document.fullscreenEnabled && !document.fullscreenElement)
        void document.documentElement.requestFullscreen().catch(() => undefined);
      if (!next && document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
    } catch {
      // full screen is optional
    }
  }, []);
  useEffect(() => {
    if (!present) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented) return;
      if (document.fullscreenElement) void document.exitFullscreen().catch(() => undefined);
      setPresent(false);
    };
    const onFs = () => {
      if (!document.fullscreenElement) setPresent(false);
    };
    window.addEventListener('keydown', onKey);
    document.addEventListener('fullscreenchange', onFs);
    return () => {
      window.removeEventListener('keydown', onKey);
      document.removeEventListener('fullscreenchange', onFs);
    };
  }, [present]);

  const shareState = useCallback((): ShareState | null => {
    const cur = loadedRef.current;
    if (!cur) return null;
    const state: ShareState = {
      scenario: cur.scenario,
      at: { step: cur.snapshot.step, op: cur.snapshot.opCursor },
      view: {
        theme: themeRef.current,
        speed: speedRef.current,
        ...(tourAt ? { tour: tourAt } : {}),
        ...(present ? { present: true } : {}),
      },
    };
    if (compare) state.compare = compare;
    return state;
  }, [tourAt, present, compare]);

  // The address bar follows the state (debounced; replaceState fires no hashchange), so a
  // reload or a copied address bar opens exactly here. Not while a link's trace is missing:
  // the link must survive until the user decides.
  const snapStep = loaded?.snapshot.step;
  const snapOp = loaded?.snapshot.opCursor;
  useEffect(() => {
    if (!loaded || notices.missingTrace) return;
    const timer = setTimeout(() => {
      const state = shareState();
      if (!state) return;
      const hash = `#${encodeHash(state)}`;
      if (location.hash !== hash) history.replaceState(null, '', hash);
    }, 400);
    return () => clearTimeout(timer);
  }, [loaded, snapStep, snapOp, theme, speed.id, shareState, notices.missingTrace]);

  const openState = useCallback(
    (state: ShareState, missingTrace?: string) => {
      if (missingTrace) {
        setNotices({ missingTrace: { name: missingTrace, state } });
        return;
      }
      setNotices({});
      applyView(state);
      void sim.load(state.scenario, 0, state.at);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [applyView, sim.load],
  );

  const tours = useMemo(() => (coreReady === 'ready' ? availableTours(hasScheme) : []), [coreReady]);

  // The single view's keys do nothing while the compare view covers it.
  useShortcuts({
    togglePlay: () => {
      if (!compare) sim.togglePlay();
    },
    stepForward: () => {
      if (compare) return;
      sim.pause();
      void sim.stepOp();
    },
    stepBack: () => {
      if (compare) return;
      sim.pause();
      void sim.backOp();
    },
  });

  // Any key during Step request's reveal lands it first (the key then acts on the end state).
  const finishReveal = sim.finishReveal;
  useEffect(() => {
    if (!revealing) return;
    const onKey = (e: KeyboardEvent) => {
      if (!['Shift', 'Control', 'Alt', 'Meta', 'CapsLock'].includes(e.key)) finishReveal();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [revealing, finishReveal]);

  const snap = loaded?.snapshot;
  const info = loaded?.info;
  const reduced = useMemo(prefersReducedMotion, []);
  const transitionMs = reduced || speed.intervalMs < 100 || speed.count > 1 ? 0 : Math.min(300, speed.intervalMs * 0.7);
  // Step request: revealed op by op when the chip animates, in one step when it does not.
  const stepRequest = transitionMs > 0 ? sim.revealRequest : sim.stepRequest;
  // Playback on big chips leaves page LPNs out (see sim/host.ts LEAN_PAGES): fetch them once it stops.
  useEffect(() => {
    if (!playing && snap && snap.pageLpns.length === 0 && snap.pageStates.length > 0) {
      void sim.exec((c, sid) => c.snapshot(sid)).then((s) => s && sim.applyResult({ moved: true, snapshot: s }));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [playing, snap]);
  const runLog = useRunLog(loaded?.sid ?? null, snap ?? null, sim.exec, sim.applyResult, sim.pause, view === 'charts');
  const shownError = startError ?? error;
  const [selectedLog, setSelectedLog] = useSelectedLog(loaded?.sid ?? null);

  return (
    <div
      className={['app', present && 'presenting', present && sideOpen && 'side-open', EMBED && 'embed']
        .filter(Boolean)
        .join(' ')}
      data-present={present}
      data-embed={EMBED || undefined}
      data-revealing={revealing || undefined}
      style={present ? ({ '--present-scale': presentScale } as React.CSSProperties) : undefined}
    >
      <header className="app-header">
        <h1>
          ftlscope<span className="tagline"> — NAND flash translation layers, one operation at a time</span>
        </h1>
        <p className="scenario-line" data-testid="scenario-line">
          {loaded ? describeWithTrace(loaded.scenario) : loading ? 'Loading the simulator…' : 'No scenario loaded'}
          {info && <span className="muted"> · {info.logical_pages} logical pages</span>}
        </p>
        <nav className="header-tools" aria-label="Trace, tours, compare, share and export">
          <TraceUpload
            client={client}
            current={loaded?.scenario ?? null}
            onRun={(s, at) => void sim.load(s, 0, at)}
            reopen={reopen}
            onReopenEnd={() => setReopen(null)}
          />
          <TourMenu
            tours={tours}
            current={tourAt?.id}
            onStart={(id) => {
              setScore({ tour: id, right: 0, asked: 0 });
              setWelcome(false);
              void startTour(id);
            }}
          />
          <PapersMenu />
          <button
            type="button"
            className="edit-only"
            aria-pressed={compare !== null}
            data-testid="compare-toggle"
            disabled={!loaded}
            onClick={() => {
              sim.pause();
              setTourAt(null);
              setCompare((c) => (c ? null : { runs: [] }));
            }}
            title="Run several schemes on this workload and chip, side by side"
          >
            Compare
          </button>
          <ShareMenu current={shareState} onOpen={openState} onError={(m) => setNotices({ error: m })} />
          <ExportMenu metrics={snap?.metrics} scenario={loaded?.scenario} step={snap?.step ?? 0} info={info} />
          <GlossaryButton />
          {present && (
            <PresentTools scale={presentScale} onScale={setPresentScale} sideOpen={sideOpen} onSide={setSideOpen} />
          )}
          <button
            type="button"
            aria-pressed={present}
            onClick={togglePresent}
            data-testid="present-toggle"
            title="Presentation mode: large type, full screen, editing hidden (Esc leaves)"
          >
            {present ? 'Leave presentation' : 'Present'}
          </button>
          <button
            type="button"
            className="theme-toggle"
            onClick={toggleTheme}
            aria-pressed={theme === 'dark'}
            title="Switch light/dark theme"
          >
            {theme === 'dark' ? 'Light theme' : 'Dark theme'}
          </button>
        </nav>
      </header>

      <LinkNotices
        state={notices}
        onDismiss={() => setNotices({})}
        onKeepRest={(state) => {
          setNotices({});
          applyView(state);
          const kept: Scenario = { ...state.scenario, workload: defaultWorkload('hotcold') };
          void sim.load(kept, 0);
        }}
        onUploadAgain={(state) => {
          // Open the file picker while the click still counts as the user's, then load the
          // link's scheme and chip so the upload runs on them (web/src/trace uses `current`).
          setReopen(state);
          document.querySelector<HTMLInputElement>('[data-testid=trace-input]')?.click();
          setNotices({});
          applyView(state);
          void sim.load({ ...state.scenario, workload: defaultWorkload('hotcold') }, 0);
        }}
      />

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

      {compare && client && loaded && (
        <CompareView
          client={client}
          base={loaded.scenario}
          spec={compare}
          theme={theme}
          onSpec={setCompare}
          onClose={() => setCompare(null)}
        />
      )}
      {/* Hidden, not unmounted, while comparing: the grid keeps its measured size. */}
      <div className="layout" style={compare && loaded ? { display: 'none' } : undefined}>
        <aside className="left">
          {loaded ? (
            <ScenarioForm
              current={loaded.scenario /* an uploaded trace stays: Apply edits scheme, chip and parameters around it */}
              busy={false}
              onApply={(s, openAt) => {
                setTourAt(null);
                return sim.load(s, openAt);
              }}
            />
          ) : (
            <ScenarioForm
              current={DEFAULT_PRESET.scenario}
              busy={!client}
              onApply={(s, openAt) => {
                setTourAt(null);
                return sim.load(s, openAt);
              }}
            />
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
              void stepRequest();
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
          {welcome && !tourAt && (
            <Welcome
              canTour={tours.some((t) => t.id === INTRO_TOUR_ID)}
              onClose={() => setWelcome(false)}
              onTour={() => {
                setWelcome(false);
                void startTour(INTRO_TOUR_ID);
              }}
            />
          )}
          {tour && tourAt && (
            <TourPanel
              tour={tour}
              index={tourAt.index}
              busy={tourBusy}
              playing={tourPlaying}
              snapshot={snap}
              onGo={(i) => {
                stopTourPlay();
                void startTour(tour.id, i);
              }}
              onPlay={(i) => void playToStop(tour.id, i)}
              onStop={stopTourPlay}
              onExit={() => {
                stopTourPlay();
                setTourAt(null);
              }}
              predict={
                loaded && info && canPredict(loaded.scenario)
                  ? {
                      scenario: loaded.scenario,
                      blocks: info.chip.blocks,
                      ppb: info.chip.pages_per_block,
                      onReveal: () => {
                        sim.pause();
                        void stepRequest();
                      },
                    }
                  : undefined
              }
              score={score.tour === tour.id ? score : undefined}
              onScored={(right, asked) =>
                setScore((sc) =>
                  sc.tour === tour.id
                    ? { tour: tour.id, right: sc.right + right, asked: sc.asked + asked }
                    : { tour: tour.id, right, asked },
                )
              }
              onPrint={() => setPrinting(tour.id)}
            />
          )}
          {predictOpen && loaded && info && snap && (
            <PredictPanel
              scenario={loaded.scenario}
              step={snap.step}
              opCursor={snap.opCursor}
              total={snap.total}
              blocks={info.chip.blocks}
              ppb={info.chip.pages_per_block}
              questions={['kind', 'victim', 'copies']}
              onReveal={() => {
                sim.pause();
                void stepRequest();
              }}
              onClose={() => setPredictOpen(false)}
            />
          )}
          <Narration
            text={snap?.narration ?? ''}
            step={snap?.step ?? 0}
            total={snap?.total ?? 0}
            opCursor={snap?.opCursor ?? 0}
            opCount={snap?.opCount ?? 0}
            powered={snap?.powered ?? true}
            recovering={snap?.recovering ?? false}
          />
          <div className="view-bar">
            <div className="view-tabs" role="tablist" aria-label="View">
              <button
                type="button"
                role="tab"
                id="tab-chip"
                aria-selected={view === 'chip'}
                aria-controls="view-panel"
                onClick={() => setView('chip')}
                data-testid="tab-chip"
              >
                Chip
              </button>
              <button
                type="button"
                role="tab"
                id="tab-charts"
                aria-selected={view === 'charts'}
                aria-controls="view-panel"
                onClick={() => setView('charts')}
                data-testid="tab-charts"
              >
                Charts
              </button>
            </div>
            {loaded && canPredict(loaded.scenario) && (
              <button
                type="button"
                className="predict-toggle"
                aria-pressed={predictOpen}
                onClick={() => {
                  sim.pause();
                  setPredictOpen((o) => !o);
                }}
                data-testid="predict-toggle"
                title="Guess what the next request will do, then see it"
              >
                What happens next?
              </button>
            )}
          </div>
          <div
            className="grid-wrap"
            ref={viewRef}
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
                  theme={theme}
                  textScale={present ? presentScale : 1}
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
                  : shownError
                    ? 'The chip will appear here once a scenario loads.'
                    : ''}
              </p>
            )}
          </div>
          {snap && info && loaded && (
            <SchemeStrip
              client={client}
              sid={loaded.sid}
              info={info}
              snapshot={snap}
              width={viewSize.width}
              selectedLog={selectedLog}
              onSelectLog={setSelectedLog}
            />
          )}
        </main>

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
          {snap && (
            <TablesPanel tables={info ? tablesShownElsewhere(info.scheme, snap.view.tables) : snap.view.tables} />
          )}
        </aside>
      </div>
      {EMBED && (
        <a
          className="embed-open"
          href={location.href
            .replace(/([?&])embed=1&?/, '$1')
            .replace(/[?&]$/, '')
            .replace(/\?#/, '#')}
          target="_blank"
          rel="noopener"
          data-testid="embed-open"
        >
          Open in ftlscope ↗
        </a>
      )}
      {printing && tourById(printing) && <PrintTour tour={tourById(printing)!} onClose={() => setPrinting(null)} />}
    </div>
  );
}
