// The app: composes the hooks (worker start-up, simulation, tour player, presentation,
// address bar, classroom) and the columns. Behaviour lives in the hooks and components.
import { useCallback, useMemo, useState } from 'react';
import { CompareScreen } from '../compare/CompareScreen';
import { DeviceScreen } from '../device/DeviceScreen';
import { ONE_DIE } from '../device/DeviceFields';
import type { DeviceShape } from '../sim/deviceTypes';
import { DEFAULT_PRESENT_SCALE } from '../classroom/PresentTools';
import { PrintTour } from '../classroom/PrintTour';
import type { LinkNoticeState } from '../scenario/LinkNotices';
import { hasScheme } from '../scenario/model';
import { DEFAULT_PRESET } from '../scenario/presets';
import type { CompareSpec, ShareState } from '../scenario/share';
import { useSelectedLog } from '../schemes/SchemePanels';
import { availableTours, tourById } from '../tour/tours';
import { AppHeader } from './AppHeader';
import { Banners } from './Banners';
import { CenterColumn } from './CenterColumn';
import { EMBED, EmbedLink } from './embed';
import { ScenarioForm } from './ScenarioForm';
import { SideColumn } from './SideColumn';
import { SkipLink } from './SkipLink';
import { TourArea } from './TourArea';
import { useTheme } from './theme';
import { useClassroom } from './useClassroom';
import { useHashRoute } from './useHashRoute';
import { usePlaybackKeys } from './usePlaybackKeys';
import { usePresentation } from './usePresentation';
import { useSimulation } from './useSimulation';
import { useStartup } from './useStartup';
import { useTourPlayer } from './useTourPlayer';
import './tools.css';

export function App() {
  const { client, startError, coreReady } = useStartup();
  const sim = useSimulation(client);
  const { loaded } = sim.state;
  const [theme, toggleTheme] = useTheme();
  const [notices, setNotices] = useState<LinkNoticeState>({});
  // A link or file whose uploaded trace is being provided again (web/src/trace checks it).
  const [reopen, setReopen] = useState<ShareState | null>(null);
  const [compare, setCompare] = useState<CompareSpec | null>(null);
  // The device shape (issue 40): several dies open the device view over the scenario.
  const [device, setDevice] = useState<DeviceShape>(ONE_DIE);
  const [deviceOpen, setDeviceOpen] = useState(false);
  const openDevice = useCallback((d: DeviceShape | null) => {
    if (d) setDevice(d);
    setDeviceOpen(!!d && d.channels * d.diesPerChannel > 1);
  }, []);
  // The device's operation shown travels in the link (0: left out), and after a power cut the
  // moves since (device/devicePath.ts).
  const onDeviceCursor = useCallback((cursor: number, moves?: DeviceShape['moves']) => {
    setDevice((d) => {
      const next = { ...d };
      if (cursor > 0) next.cursor = cursor;
      else delete next.cursor;
      if (moves) next.moves = moves;
      else delete next.moves;
      return next.cursor === d.cursor && next.moves === d.moves ? d : next;
    });
  }, []);
  const presentation = usePresentation();
  const { present } = presentation;
  const classroom = useClassroom();
  const onTourError = useCallback((error: string) => setNotices({ error }), []);
  // A tour's device stop opens the device view at its moment; its other stops, one chip.
  const tourDevice = useCallback((d: DeviceShape | null) => openDevice(d ?? ONE_DIE), [openDevice]);
  const player = useTourPlayer(sim, { onError: onTourError, setCompare, onDevice: tourDevice, deviceOpen });
  const route = useHashRoute({
    sim,
    ready: !!client && coreReady !== 'loading',
    tour: player,
    presentation,
    theme,
    toggleTheme,
    compare,
    setCompare,
    device: deviceOpen ? device : null,
    setDevice: openDevice,
    notices,
    setNotices,
    onFirstVisit: classroom.showWelcome,
  });
  usePlaybackKeys(sim, compare !== null);
  const tours = useMemo(() => (coreReady === 'ready' ? availableTours(hasScheme) : []), [coreReady]);
  const [selectedLog, setSelectedLog] = useSelectedLog(loaded?.sid ?? null);
  const startTour = (id: string) => void player.start(id);
  const applyScenario = (s: Parameters<typeof sim.load>[0], openAt?: number) => {
    player.setTourAt(null);
    return sim.load(s, openAt);
  };
  const printing = classroom.printing ? tourById(classroom.printing) : undefined;

  return (
    <div
      className={[
        'app',
        present && 'presenting',
        present && presentation.scale > DEFAULT_PRESENT_SCALE && 'present-large',
        present && presentation.sideOpen && 'side-open',
        EMBED && 'embed',
      ]
        .filter(Boolean)
        .join(' ')}
      data-present={present}
      data-embed={EMBED || undefined}
      data-revealing={sim.state.revealing || undefined}
      style={present ? ({ '--present-scale': presentation.scale } as React.CSSProperties) : undefined}
    >
      <SkipLink />
      <AppHeader
        sim={sim}
        client={client}
        tours={tours}
        currentTour={player.tourAt?.id}
        onStartTour={(id) => {
          classroom.tourStarted(id);
          startTour(id);
        }}
        comparing={compare !== null}
        onToggleCompare={() => {
          sim.pause();
          player.setTourAt(null);
          setCompare((c) => (c ? null : { runs: [] }));
        }}
        reopen={reopen}
        onReopenEnd={() => setReopen(null)}
        shareState={route.shareState}
        onOpenState={route.openState}
        onError={onTourError}
        presentation={presentation}
        theme={theme}
        onToggleTheme={toggleTheme}
      />
      <Banners
        sim={sim}
        notices={notices}
        setNotices={setNotices}
        applyView={route.applyView}
        onReopen={setReopen}
        startError={startError}
      />
      {compare && client && loaded && (
        <CompareScreen
          client={client}
          base={loaded.scenario}
          spec={compare}
          theme={theme}
          onSpec={setCompare}
          onClose={() => setCompare(null)}
        />
      )}
      {deviceOpen && !compare && loaded && (
        <div className="device-with-tour">
          {/* the tour (a device stop) or the tour editor beside the dies; empty: hidden */}
          <aside className="device-side" aria-label="Tour">
            <TourArea
              place="device"
              device={device}
              sim={sim}
              player={player}
              classroom={classroom}
              tours={tours}
              onStartTour={startTour}
              onReveal={() => undefined}
            />
          </aside>
          <DeviceScreen
            scenario={loaded.scenario}
            shape={device}
            theme={theme}
            onClose={() => setDeviceOpen(false)}
            onCursor={onDeviceCursor}
          />
        </div>
      )}
      {/* Hidden, not unmounted, while comparing: the grid keeps its measured size. */}
      <div className="layout" style={(compare || (deviceOpen && !compare)) && loaded ? { display: 'none' } : undefined}>
        <aside className="left">
          <ScenarioForm
            /* an uploaded trace stays: Apply edits scheme, chip and parameters around it */
            current={loaded ? loaded.scenario : DEFAULT_PRESET.scenario}
            busy={!loaded && !client}
            onApply={applyScenario}
            device={device}
            onDevice={(d) =>
              // Apply opens the device at its first operation (a link's cursor is not the new run's).
              openDevice({ channels: d.channels, diesPerChannel: d.diesPerChannel, stripe: d.stripe })
            }
          />
          <p className="keys-hint">
            Keys: <kbd>Space</kbd> play/pause · <kbd>→</kbd> step op · <kbd>←</kbd> back · <kbd>PageDown</kbd> /{' '}
            <kbd>PageUp</kbd> next / previous tour stop (a presenter’s clicker)
          </p>
        </aside>
        <CenterColumn
          sim={sim}
          client={client}
          player={player}
          classroom={classroom}
          tours={tours}
          onStartTour={startTour}
          theme={theme}
          textScale={present ? presentation.scale : 1}
          present={present}
          shownError={startError ?? sim.state.error}
          selectedLog={selectedLog}
          onSelectLog={setSelectedLog}
        />
        <SideColumn
          sim={sim}
          client={client}
          selectedLog={selectedLog}
          onSelectLog={setSelectedLog}
          present={present}
        />
      </div>
      {EMBED && <EmbedLink />}
      {printing && <PrintTour tour={printing} onClose={() => classroom.setPrinting(null)} />}
    </div>
  );
}
