// The tour editor (issue 39): write a tour in the app. Step the chip to a moment and "Add
// stop here", write the text (live preview), pick highlights on the chip, reorder, try it,
// save it as a file. Everything is checked as an opened file is (draft.ts) and named before
// it can be tried or saved; the draft is kept on every change (editorStore.ts), and closing
// with unsaved changes asks first.
import { useEffect, useState } from 'react';
import { type Scenario } from '../../scenario/model';
import type { DeviceShape } from '../../sim/deviceTypes';
import type { Moment } from '../../scenario/share';
import type { Snapshot } from '../../sim/protocol';
import { download } from '../../ui/download';
import { chipSize } from '../tourCheck';
import type { TourProblem } from '../tourFile';
import { tourFileName, tourFileText } from '../tourShare';
import { addOwnTour, chipScenario, isOwnTour, scenarioDevice, tourById, withDevice } from '../tours';
import type { TourStop } from '../tourTypes';
import { ConfirmBar } from './ConfirmBar';
import {
  addStop,
  checkDraft,
  deleteStop,
  draftOf,
  draftStopScenario,
  moveStop,
  newDraft,
  slug,
  updateStop,
  type Draft,
} from './draft';
import { DraftHighlight } from './DraftHighlight';
import { EditorProblems } from './EditorProblems';
import { setEditor, useEditor, type EditorRequest } from './editorStore';
import { StopEditor } from './StopEditor';
import { StopList } from './StopList';
import './editor.css';

export interface TourEditorProps {
  /** what the chip runs now */
  loaded?: { scenario: Scenario; snapshot: Snapshot };
  /** move the chip to a moment of a scenario (loading it when it is another) */
  show: (scenario: Scenario, at: Moment) => void;
  /** play a checked tour (registered as an own tour first) */
  onTry: (id: string) => void;
  /** a tour is playing: the editor waits behind it */
  hidden: boolean;
  /** leave the playing tour (the menu asked for the editor) */
  onLeaveTour: () => void;
  /** the device view is open: its shape and operation shown (a stop added is a device stop) */
  device?: DeviceShape;
}

export function TourEditor({ loaded, show, onTry, hidden, onLeaveTour, device }: TourEditorProps) {
  const ed = useEditor();
  const { draft, selected, request } = ed;
  // Once Try it or Save found problems, the list follows every change (fixed ones go away).
  const [checking, setChecking] = useState(false);
  const [status, setStatus] = useState('');
  const [asking, setAsking] = useState<'close' | EditorRequest | null>(null);

  // A request from the Tours menu or the tour panel: carried out, or asked about first when
  // it would replace unsaved work.
  useEffect(() => {
    if (!request) return;
    if (request.kind === 'new' && !loaded) return; // the scenario comes with the chip
    setEditor({ request: null });
    if (hidden) onLeaveTour();
    if (request.kind === 'edit' && draft?.id === request.id) return; // back to this very draft
    if (draft && !ed.saved) setAsking(request);
    else carryOut(request);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request, !!loaded]);

  function carryOut(r: EditorRequest) {
    setChecking(false);
    setStatus('');
    if (r.kind === 'new') {
      if (loaded) setEditor({ open: true, draft: newDraft(loaded.scenario), selected: 0, saved: true });
      return;
    }
    const tour = tourById(r.id);
    if (!tour) return;
    const d = draftOf(tour, !isOwnTour(r.id));
    setEditor({ open: true, draft: d, selected: 0, saved: true });
    if (d.stops.length) show(draftStopScenario(d, 0), d.stops[0].at);
  }

  if (!ed.open || !draft || hidden) return null;

  const change = (d: Draft, sel = selected) => {
    const id = d.title !== draft.title ? slug(d.title) : d.id;
    setEditor({ draft: { ...d, id }, selected: Math.max(0, Math.min(sel, d.stops.length - 1)), saved: false });
    setStatus('');
  };
  const select = (i: number) => {
    setEditor({ selected: i });
    show(draftStopScenario(draft, i), draft.stops[i].at);
  };
  const stop: TourStop | undefined = draft.stops[selected];
  const want = draftStopScenario(draft, draft.stops.length ? selected : 0);
  // The moment shown: the chip's, or the device view's (the same scenario on its device).
  const here = loaded && withDevice(loaded.scenario, device ?? null);
  const hereAt = device
    ? { step: 0, op: device.cursor ?? 0 }
    : loaded && { step: loaded.snapshot.step, op: loaded.snapshot.opCursor };
  // A stop may move to another device of the tour's scenario (it then names its scenario).
  const onTourScenario = !!here && JSON.stringify(chipScenario(here)) === JSON.stringify(chipScenario(want));
  const chip = chipSize(want);
  const problems: TourProblem[] = checking ? checkDraft(draft).problems : [];
  const checked = () => {
    setChecking(true);
    return checkDraft(draft).tour;
  };

  return (
    <section className="tour-editor" aria-labelledby="ted-h" data-testid="tour-editor" data-stops={draft.stops.length}>
      <div className="ted-head">
        <h2 id="ted-h">Tour editor</h2>
        <label className="ted-field ted-title">
          <span>Title</span>
          <input
            value={draft.title}
            maxLength={200}
            onChange={(e) => change({ ...draft, title: e.target.value })}
            data-testid="ted-title"
          />
        </label>
        <label className="ted-field ted-summary">
          <span>Summary</span>
          <input
            value={draft.summary}
            maxLength={1000}
            onChange={(e) => change({ ...draft, summary: e.target.value })}
            data-testid="ted-summary"
          />
        </label>
        <span className="muted ted-scheme" data-testid="ted-scenario">
          {draft.scenario.scheme.toUpperCase()} · file {tourFileName({ ...draft, schemes: [] })}
        </span>
      </div>
      <div className="ted-main">
        <div className="ted-left">
          <StopList
            stops={draft.stops}
            dies={draft.stops.map((_, i) => {
              const d = scenarioDevice(draftStopScenario(draft, i));
              return d ? d.channels * d.diesPerChannel : 1;
            })}
            selected={selected}
            onSelect={select}
            onMove={(i, by) => {
              const r = moveStop(draft, i, by);
              change(r.draft, r.index);
            }}
            onDelete={(i) => change(deleteStop(draft, i), selected > i ? selected - 1 : selected)}
          />
          {onTourScenario ? (
            <button
              type="button"
              className="primary"
              data-testid="ted-add"
              disabled={!loaded}
              title={`A new stop at the ${device ? 'device' : 'chip'}'s moment now (after the selected stop)`}
              onClick={() => {
                const r = addStop(draft, hereAt!, selected, here);
                change(r.draft, r.index);
              }}
            >
              + Add stop here
              {hereAt
                ? device
                  ? ` (device operation ${hereAt.op})`
                  : ` (request ${hereAt.step}, op ${hereAt.op})`
                : ''}
            </button>
          ) : (
            <p className="ted-other" data-testid="ted-other-scenario">
              The chip runs another scenario than this tour.{' '}
              <button type="button" onClick={() => show(want, { step: 0, op: 0 })}>
                Show the tour’s scenario
              </button>
              {draft.stops.length === 0 && here && (
                <button type="button" onClick={() => change({ ...draft, scenario: here })}>
                  Use the chip’s scenario
                </button>
              )}
            </p>
          )}
        </div>
        <div className="ted-right">
          {stop ? (
            <StopEditor
              key={selected}
              stop={stop}
              index={selected}
              chip={chip}
              dies={want.device ? want.device.channels * want.device.dies_per_channel : 1}
              onChange={(c) => change(updateStop(draft, selected, c))}
            />
          ) : (
            <p className="muted">Each stop is a moment of the scenario with your text and highlights.</p>
          )}
        </div>
      </div>
      <EditorProblems problems={problems} onStop={select} />
      <div className="ted-foot">
        <button
          type="button"
          data-testid="ted-try"
          title="Play the tour as students will see it (Edit this tour comes back here)"
          onClick={() => {
            const tour = checked();
            if (!tour) return;
            addOwnTour(tour);
            onTry(tour.id);
          }}
        >
          ▶ Try it
        </button>
        <button
          type="button"
          className="primary"
          data-testid="ted-save"
          title="Check the tour and save it as a .tour.json file (it also joins this tab's tours)"
          onClick={() => {
            const tour = checked();
            if (!tour) return;
            addOwnTour(tour);
            download(tourFileName(tour), tourFileText(tour), 'application/json');
            setEditor({ saved: true });
            setStatus(`Saved ${tourFileName(tour)}. Share it, or open it again from Tours ▾.`);
          }}
        >
          Save tour file
        </button>
        <button
          type="button"
          data-testid="ted-close"
          onClick={() => (ed.saved ? setEditor({ open: false, draft: null }) : setAsking('close'))}
        >
          Close editor
        </button>
        <span role="status" className="ted-status" data-testid="ted-status">
          {status || (ed.saved ? '' : 'Draft kept in this browser.')}
        </span>
      </div>
      {asking && (
        <ConfirmBar
          question={
            asking === 'close'
              ? 'Close the editor and discard the unsaved changes to this tour?'
              : 'Discard the unsaved changes to this tour and start another?'
          }
          yes="Discard changes"
          no="Keep editing"
          onNo={() => setAsking(null)}
          onYes={() => {
            const a = asking;
            setAsking(null);
            if (a === 'close') setEditor({ open: false, draft: null, saved: true });
            else carryOut(a);
          }}
        />
      )}
      {stop && <DraftHighlight highlight={stop.highlight} snapshot={loaded?.snapshot} />}
    </section>
  );
}
