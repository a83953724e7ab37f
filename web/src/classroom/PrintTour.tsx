// A tour on paper: every stop on its own page (print.css), with the chip as it is at that
// stop (the worker replays the stop's scenario in a Session of its own: sim/pageClient.ts),
// its text, quiz and answer.
import { useEffect, useState } from 'react';
import { stopSnapshot } from '../sim/pageClient';
import type { SimEvent } from '../sim/protocol';
import { highlightedBlocks } from '../tour/TourPanel';
import { PrintedPageHighlights } from '../tour/PrintedPageHighlights';
import { stopScenario, type Tour } from '../tour/tours';
import { TourText } from '../tour/TourText';
import { chipState } from '../viz/chipState';
import { DeviceGrid } from '../viz/DeviceGrid';
import { Legend } from '../viz/Legend';

interface StopChip {
  blocks: number;
  ppb: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  ownerSets?: Record<string, number[]>;
  narration: string;
  /** as the live view draws the stop: the merge or GC's victims, the last operation, the highlight */
  victims: number[];
  lastEvent: SimEvent | null;
  highlighted: Set<number>;
}

const CHIP_W = 680;
const CHIP_H = 300;

export function PrintTour({ tour, onClose }: { tour: Tour; onClose: () => void }) {
  const [chips, setChips] = useState<(StopChip | string)[] | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      // One stop at a time: the worker builds, moves and frees a Session for each.
      const out: (StopChip | string)[] = [];
      for (const [i, stop] of tour.stops.entries()) {
        try {
          const {
            blocks,
            pagesPerBlock,
            snapshot: s,
          } = await stopSnapshot(stopScenario(tour, i), stop.at.step, stop.at.op);
          const { blockRoles, owners, events } = s;
          out.push({
            blocks,
            ppb: pagesPerBlock,
            pageStates: s.pageStates,
            pageLpns: s.pageLpns,
            blockRoles,
            eraseCounts: s.eraseCounts,
            owners,
            ownerSets: s.ownerSets,
            narration: s.narration,
            victims: s.victims ?? [],
            lastEvent: [...events].reverse().find((e) => e.pbn != null) ?? null,
            highlighted: highlightedBlocks(stop.highlight, { blockRoles, owners, events }),
          });
        } catch (e) {
          out.push(`This stop could not be drawn: ${(e as Error).message}`);
        }
        if (!live) return;
      }
      setChips(out);
    })();
    return () => {
      live = false;
    };
  }, [tour]);

  return (
    <div className="print-tour" data-testid="print-tour" data-ready={chips !== null}>
      <div className="print-tools no-print">
        <p>
          <strong>{tour.title}</strong> — {tour.stops.length} stops, one per printed page.
        </p>
        <button
          type="button"
          className="primary"
          onClick={() => window.print()}
          disabled={!chips}
          data-testid="print-now"
        >
          Print
        </button>
        <button type="button" onClick={onClose} data-testid="print-close">
          Close
        </button>
      </div>
      <PrintedPageHighlights tour={tour} />
      {tour.stops.map((stop, i) => {
        const c = chips?.[i];
        return (
          <article className="print-stop" key={i} data-testid="print-stop">
            <header>
              <span className="print-where">
                {tour.title} · stop {i + 1} of {tour.stops.length} · after request {stop.at.step}
                {stop.at.op > 0 ? `, operation ${stop.at.op} of the next` : ''}
              </span>
              <h2>{stop.title}</h2>
            </header>
            <div className="print-chip">
              {typeof c === 'object' ? (
                <div className="print-chip-box" style={{ position: 'relative', width: CHIP_W, height: CHIP_H }}>
                  <DeviceGrid
                    blocks={c.blocks}
                    pagesPerBlock={c.ppb}
                    {...chipState(c)}
                    victims={c.victims}
                    lastEvent={c.lastEvent}
                    highlighted={c.highlighted}
                    transitionMs={0}
                    width={CHIP_W}
                    height={CHIP_H}
                  />
                </div>
              ) : (
                <p className="muted">{c ?? 'Drawing the chip…'}</p>
              )}
            </div>
            {typeof c === 'object' && c.narration && <p className="print-narration">{c.narration}</p>}
            <TourText text={stop.text} terms={false} />
            {stop.quiz && (
              <p>
                <strong>Quiz:</strong> {stop.quiz.question}
              </p>
            )}
            {stop.quiz && (
              <p className="print-answer">
                <strong>Answer:</strong> {stop.quiz.answer}
              </p>
            )}
          </article>
        );
      })}
      <Legend />
    </div>
  );
}
