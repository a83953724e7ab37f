// The running tour: where we are, the narration, the quiz, and Prev / Next
// (PageUp / PageDown, as presenter clickers send). Highlights are drawn on the
// device view by marking its blocks (g.block[data-block]) with a class.
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Snapshot } from '../sim/protocol';
import { roleStyle } from '../viz/palette';
import { stopDevice, type Highlight, type Tour } from './tours';
import type { Scenario } from '../scenario/model';
import { TourShare } from './TourShare';
import { TourText } from './TourText';
import { PredictPanel } from './PredictPanel';
import { requestEditor } from './editor/editorStore';
import './tour.css';

/** Blocks a highlight designates in a snapshot. */
export function highlightedBlocks(
  h: Highlight | undefined,
  snap: Pick<Snapshot, 'blockRoles' | 'owners' | 'events'> | undefined,
): Set<number> {
  const out = new Set<number>();
  if (!h || !snap) return out;
  const roles = new Set(h.roles ?? []);
  const owners = new Set(h.owners ?? []);
  snap.blockRoles.forEach((r, b) => {
    if (roles.has(roleStyle(r).key) || (owners.size && owners.has(snap.owners[b]))) out.add(b);
  });
  if (h.touched) for (const e of snap.events) if (e.pbn != null) out.add(e.pbn);
  for (const b of h.blocks ?? []) out.add(b);
  return out;
}

/** Pages a highlight picks ("pbn:page" keys; the editor's click-picked pages). */
export function highlightedPages(h: Highlight | undefined): Set<string> {
  return new Set((h?.pages ?? []).map(([b, p]) => `${b}:${p}`));
}

/**
 * Mark the highlighted blocks of the device view (re-applied after every render); only the
 * chip view's grid, not the printed tour's (each printed stop draws its own highlight).
 */
export function useBlockHighlight(
  blocks: Set<number>,
  pages: Set<string> = new Set(),
  container = '.chip-area [data-testid=device-grid]',
) {
  // in the commit that draws the stop (a layout effect): no script sees a stop's chip with
  // the previous stop's highlight (issue 35)
  useLayoutEffect(() => {
    const els = document.querySelectorAll<SVGGElement>(`${container} g.block`);
    els.forEach((el) => el.classList.toggle('tour-hi', blocks.has(Number(el.dataset.block))));
    const cells = document.querySelectorAll<SVGGElement>(`${container} g.block g.page-cell`);
    cells.forEach((el) => {
      const b = el.closest<SVGGElement>('g.block')?.dataset.block;
      el.classList.toggle('tour-hi-page', pages.has(`${b}:${el.dataset.page}`));
    });
    return () => {
      els.forEach((el) => el.classList.remove('tour-hi'));
      cells.forEach((el) => el.classList.remove('tour-hi-page'));
    };
  });
}

export interface TourPanelProps {
  tour: Tour;
  index: number;
  busy: boolean;
  /** animating the operations up to the next stop */
  playing: boolean;
  snapshot?: Snapshot;
  onGo: (index: number) => void;
  /** animate up to stop `index` and pause there */
  onPlay: (index: number) => void;
  onStop: () => void;
  onExit: () => void;
  /** what a prediction at a stop needs: the running scenario and chip, and how to reveal */
  predict?: { scenario: Scenario; blocks: number; ppb: number; onReveal: () => void };
  /** predictions answered in this tour so far */
  score?: { right: number; asked: number };
  onScored?: (right: number, asked: number) => void;
  /** open the tour's printable handout (one stop a page) */
  onPrint?: () => void;
}

export function TourPanel({
  tour,
  index,
  busy,
  playing,
  snapshot,
  onGo,
  onPlay,
  onStop,
  onExit,
  predict,
  score,
  onScored,
  onPrint,
}: TourPanelProps) {
  const stop = tour.stops[index];
  const prevQuiz = index > 0 ? tour.stops[index - 1].quiz : undefined;
  const last = index >= tour.stops.length - 1;
  // The quiz is about the request after the stop's moment: its answer shows once that
  // request has finished (stepped past), not after its first flash operation.
  const passed = !!snapshot && snapshot.step > stop.at.step;
  useBlockHighlight(highlightedBlocks(stop.highlight, snapshot), highlightedPages(stop.highlight));

  // Presenter keys: PageDown / PageUp step the tour (not while typing in a field).
  const ref = useRef({ index, last, onGo });
  ref.current = { index, last, onGo };
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey || e.ctrlKey || e.metaKey) return;
      const t = e.target as HTMLElement | null;
      if (t?.closest?.('input, textarea, select')) return;
      const r = ref.current;
      if (e.key === 'PageDown' && !r.last) {
        e.preventDefault();
        r.onGo(r.index + 1);
      } else if (e.key === 'PageUp' && r.index > 0) {
        e.preventDefault();
        r.onGo(r.index - 1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  // A new stop is read from its title (the body scrolls when a stop says more; the
  // buttons under it never scroll away: issue 25).
  const body = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (body.current) body.current.scrollTop = 0;
  }, [tour.id, index]);
  // Presentation's rail keeps the stop's title and three lines of what follows it in view:
  // the body's own height there is the title's plus three lines (tools.css), so the title's
  // height is handed to CSS as it changes (text step, rail width, stop).
  const title = useRef<HTMLHeadingElement>(null);
  useLayoutEffect(() => {
    const h = title.current;
    const panel = h?.closest<HTMLElement>('.tour-panel');
    if (!h || !panel) return;
    const ro = new ResizeObserver(() => panel.style.setProperty('--tour-title-h', `${h.offsetHeight}px`));
    ro.observe(h);
    return () => ro.disconnect();
  }, []);
  // The prediction's Check button sits in the footer, beside Next.
  const [slot, setSlot] = useState<HTMLElement | null>(null);

  return (
    <section
      className="tour-panel"
      aria-labelledby="tour-h"
      data-testid="tour-panel"
      data-tour={tour.id}
      data-stop={index}
      data-stops={tour.stops.length}
      data-device={stopDevice(tour, index) ? 'true' : undefined}
    >
      <div className="tour-head">
        <h2 id="tour-h">Tour · {tour.title}</h2>
        <button
          type="button"
          className="tour-edit edit-only"
          data-testid="tour-edit"
          title="Change this tour in the editor (a built-in tour is edited as your own copy)"
          onClick={() => {
            requestEditor({ kind: 'edit', id: tour.id });
            onExit();
          }}
        >
          Edit this tour
        </button>
        <span className="tour-where" data-testid="tour-where">
          {index + 1} / {tour.stops.length}
        </span>
      </div>
      {/* focusable by script: a link that opens the tour puts the keyboard here (focusOpened) */}
      <div className="tour-body" ref={body} data-testid="tour-body" tabIndex={-1}>
        <h3 className="tour-title" ref={title}>
          {stop.title}
        </h3>
        {prevQuiz && (
          <p className="tour-answer" data-testid="tour-answer">
            <strong>Answer:</strong> {prevQuiz.answer}
          </p>
        )}
        <TourText className="tour-text" text={stop.text} live />
        {stop.quiz && (
          <p className="tour-quiz" data-testid="tour-quiz">
            <strong>Quiz:</strong> {stop.quiz.question}{' '}
            {!passed && <span className="muted">(Step it yourself with → or Step request, or press Next.)</span>}
          </p>
        )}
        {stop.quiz && passed && (
          <p className="tour-answer" data-testid="tour-answer-stepped">
            <strong>Answer:</strong> {stop.quiz.answer}
          </p>
        )}
        {stop.predict && predict && snapshot && snapshot.step >= stop.at.step && snapshot.step <= stop.at.step + 1 && (
          <PredictPanel
            key={`${tour.id}-${index}`}
            scenario={predict.scenario}
            step={snapshot.step}
            opCursor={snapshot.opCursor}
            total={snapshot.total}
            blocks={predict.blocks}
            ppb={predict.ppb}
            questions={stop.predict}
            onReveal={predict.onReveal}
            onScored={onScored}
            buttonsIn={slot}
          />
        )}
        {last && score && score.asked > 0 && (
          <p className="tour-score" data-testid="tour-score">
            <strong>Your predictions:</strong> {score.right} of {score.asked} right.
          </p>
        )}
      </div>
      <div className="tour-foot">
        <span className="tour-predict-slot" ref={setSlot} />
        <div className="tour-buttons">
          <button
            type="button"
            onClick={() => onGo(index - 1)}
            disabled={busy || index === 0}
            data-testid="tour-prev"
            title="Previous stop (PageUp)"
            aria-label="Previous stop"
          >
            ◀︎<span className="tour-long"> Previous</span>
          </button>
          {!last &&
            (playing ? (
              <button type="button" onClick={onStop} data-testid="tour-stop">
                ■ Stop
              </button>
            ) : (
              <button
                type="button"
                onClick={() => onPlay(index + 1)}
                disabled={busy}
                data-testid="tour-play"
                title="Play the flash operations up to the next stop, and pause there"
                aria-label="Play to next stop"
              >
                <span className="tour-long">Play to next stop</span>
                <span className="tour-short">Play</span>
              </button>
            ))}
          <button
            type="button"
            className="primary"
            onClick={() => (last ? onExit() : onGo(index + 1))}
            disabled={busy}
            data-testid="tour-next"
            title="Next stop (PageDown)"
          >
            {last ? 'Finish tour' : 'Next ▶︎'}
          </button>
          <button type="button" onClick={onExit} data-testid="tour-exit" title="Leave tour" aria-label="Leave tour">
            <span className="tour-long">Leave tour</span>
            <span className="tour-short">✕</span>
          </button>
          <TourShare tour={tour} />
          {onPrint && (
            <button
              type="button"
              onClick={onPrint}
              data-testid="tour-print"
              title="The whole tour on paper: one stop a page, with the chip at that stop"
            >
              Print tour
            </button>
          )}
        </div>
      </div>
    </section>
  );
}
