// The header: the scenario line and the tools (trace, tours, papers, compare, share,
// export, glossary, presentation, theme).
import type { SimClient } from '../sim/client';
import { ExportMenu } from '../export/ExportMenu';
import { PapersMenu } from '../papers/PapersView';
import { PresentTools } from '../classroom/PresentTools';
import { GlossaryButton } from '../ui/glossary/Glossary';
import { ShareMenu } from '../scenario/ShareMenu';
import type { ShareState } from '../scenario/share';
import { TourMenu } from '../tour/TourMenu';
import { tourById, type Tour } from '../tour/tours';
import { describeWithTrace } from '../trace/describe';
import { TraceUpload } from '../trace/TraceUpload';
import type { Theme } from './theme';
import type { Presentation } from './usePresentation';
import type { Sim } from './useSimulation';
import { describeTiming } from '../scenario/timing';

export interface AppHeaderProps {
  sim: Sim;
  client: SimClient | null;
  tours: Tour[];
  currentTour: string | undefined;
  onStartTour: (id: string) => void;
  comparing: boolean;
  onToggleCompare: () => void;
  reopen: ShareState | null;
  onReopenEnd: () => void;
  shareState: () => ShareState | null;
  onOpenState: (state: ShareState, missingTrace?: string) => void;
  onError: (message: string) => void;
  presentation: Presentation;
  theme: Theme;
  onToggleTheme: () => void;
}

export function AppHeader(p: AppHeaderProps) {
  const { loaded, loading } = p.sim.state;
  const info = loaded?.info;
  const snap = loaded?.snapshot;
  const { present, scale, setScale, sideOpen, setSideOpen } = p.presentation;
  return (
    <header className="app-header">
      <h1>
        ftlscope<span className="tagline"> — NAND flash translation layers, one operation at a time</span>
      </h1>
      {/* data-scheme: the scheme shown, for tests that check the form agrees with it */}
      {/* too narrow to say anything (1024 px: "FA…"), the line shows nothing, its title says it
          all (styles.css); the scenario is in the form on the left */}
      <p
        className="scenario-line"
        data-testid="scenario-line"
        data-scheme={loaded?.scenario.scheme}
        title={loaded ? describeWithTrace(loaded.scenario) : undefined}
      >
        <span className="scenario-text">
          {loaded ? describeWithTrace(loaded.scenario) : loading ? 'Loading the simulator…' : 'No scenario loaded'}
          {info && <span className="muted"> · {info.logical_pages} logical pages</span>}
          {loaded && (
            <span className="muted" data-testid="scenario-timing">
              {' '}
              · {describeTiming(loaded.scenario.timing)}
            </span>
          )}
        </span>
      </p>
      <nav className="header-tools" aria-label="Trace, tours, compare, share and export">
        <TraceUpload
          client={p.client}
          current={loaded?.scenario ?? null}
          onRun={(s, at) => void p.sim.load(s, 0, at)}
          reopen={p.reopen}
          onReopenEnd={p.onReopenEnd}
        />
        <TourMenu tours={p.tours} current={p.currentTour} onStart={p.onStartTour} />
        <PapersMenu />
        <button
          type="button"
          className="edit-only"
          aria-pressed={p.comparing}
          data-testid="compare-toggle"
          disabled={!loaded}
          onClick={p.onToggleCompare}
          title="Run several schemes on this workload and chip, side by side"
        >
          Compare
        </button>
        <ShareMenu
          current={p.shareState}
          onOpen={p.onOpenState}
          onError={p.onError}
          tourTitle={(id) => tourById(id)?.title}
        />
        <ExportMenu metrics={snap?.metrics} scenario={loaded?.scenario} step={snap?.step ?? 0} info={info} />
        <GlossaryButton />
        {present && <PresentTools scale={scale} onScale={setScale} sideOpen={sideOpen} onSide={setSideOpen} />}
        <button
          type="button"
          aria-pressed={present}
          onClick={p.presentation.toggle}
          data-testid="present-toggle"
          title="Presentation mode: large type, full screen, editing hidden (Esc leaves)"
        >
          {present ? 'Leave presentation' : 'Present'}
        </button>
        <button
          type="button"
          className="theme-toggle"
          onClick={p.onToggleTheme}
          aria-pressed={p.theme === 'dark'}
          title="Switch light/dark theme"
        >
          {p.theme === 'dark' ? 'Light theme' : 'Dark theme'}
        </button>
      </nav>
    </header>
  );
}
