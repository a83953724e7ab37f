// A tour on paper: every stop on its own page (print.css), with the chip as it is at that
// stop (the worker replays the stop's scenario in a Session of its own: sim/pageClient.ts),
// its text, quiz and answer. A device stop (issue 40) prints its dies at the stop's device
// operation (a device worker of its own: sim/deviceTypes.ts), each with its queue.
import { useEffect, useState } from 'react';
import { DeviceClient, type DeviceMoment, type DeviceShape, type DieArrays } from '../sim/deviceTypes';
import { stopSnapshot } from '../sim/pageClient';
import type { SimEvent } from '../sim/protocol';
import { highlightedBlocks } from '../tour/TourPanel';
import { PrintedPageHighlights } from '../tour/PrintedPageHighlights';
import { chipScenario, stopDevice, stopScenario, type Tour } from '../tour/tours';
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

interface StopDevice {
  moment: DeviceMoment;
  dies: DieArrays[];
}

const CHIP_W = 680;
const CHIP_H = 300;

/** A device stop's moment: opened in a worker of its own, moved to the cursor, closed. */
async function deviceAt(scenario: unknown, shape: DeviceShape): Promise<StopDevice> {
  const c = new DeviceClient();
  try {
    const { channels, diesPerChannel, stripe } = shape;
    let r = await c.request({ kind: 'open', scenario, shape: { channels, diesPerChannel, stripe } });
    if (r.kind === 'moment') r = await c.request({ kind: 'goto', cursor: shape.cursor ?? 0 });
    if (r.kind === 'error') throw new Error(r.message);
    if (r.kind !== 'moment') throw new Error('the device gave no moment');
    return { moment: r.moment, dies: r.dies };
  } finally {
    c.close();
  }
}

/** The dies of a device stop side by side (4 a row), each with its queue depth. */
function PrintDies({ d }: { d: StopDevice }) {
  const m = d.moment;
  const cols = Math.min(4, d.dies.length);
  const w = Math.floor(CHIP_W / cols) - 8;
  return (
    <div className="print-dies" data-testid="print-dies">
      <p className="print-narration">
        Device operation {m.cursor} of {m.total}
        {m.current ? ` (die ${m.current.die})` : ''}; device time {(m.now_ns / 1000).toFixed(1)} µs; host requests done{' '}
        {m.hosts_done} of {m.hosts}.
      </p>
      <div style={{ display: 'grid', gridTemplateColumns: `repeat(${cols}, ${w}px)`, gap: 8 }}>
        {d.dies.map((a, i) => {
          const die = m.dies[i];
          const blocks = a.blockRoles.length;
          return (
            <div key={i} data-die={i}>
              <div style={{ fontSize: '0.8rem' }}>
                <b>Die {i}</b>
                {m.current?.die === i ? ' (this operation)' : ''} · queue {die.queue.length + die.queue_more} ·{' '}
                {Math.round(die.utilisation * 100)} % busy
              </div>
              <div style={{ position: 'relative', width: w, height: 90 }}>
                <DeviceGrid
                  blocks={blocks}
                  pagesPerBlock={blocks ? a.pageStates.length / blocks : 0}
                  {...a}
                  transitionMs={0}
                  width={w}
                  height={90}
                />
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}

export function PrintTour({ tour, onClose }: { tour: Tour; onClose: () => void }) {
  const [chips, setChips] = useState<(StopChip | StopDevice | string)[] | null>(null);
  useEffect(() => {
    let live = true;
    void (async () => {
      // One stop at a time: the worker builds, moves and frees a Session for each.
      const out: (StopChip | StopDevice | string)[] = [];
      for (const [i, stop] of tour.stops.entries()) {
        try {
          const device = stopDevice(tour, i);
          if (device) {
            out.push(await deviceAt(chipScenario(stopScenario(tour, i)), device));
            if (!live) return;
            continue;
          }
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
              {typeof c === 'object' && 'moment' in c ? (
                <PrintDies d={c} />
              ) : typeof c === 'object' ? (
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
            {typeof c === 'object' && 'narration' in c && c.narration && (
              <p className="print-narration">{c.narration}</p>
            )}
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
