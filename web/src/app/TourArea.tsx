// Above the chip: the first visit's welcome, the tour being followed, and the
// "What happens next?" prediction panel. While the device view is open (a tour's device
// stop, issue 40) the tour and the editor are drawn beside it instead (place "device").
import { Welcome } from '../classroom/Welcome';
import { PredictPanel } from '../tour/PredictPanel';
import { canPredict } from '../tour/predict';
import { TourPanel } from '../tour/TourPanel';
import { TourEditor } from '../tour/editor/TourEditor';
import { useEditor } from '../tour/editor/editorStore';
import type { DeviceShape } from '../sim/deviceTypes';
import { INTRO_TOUR_ID, tourById, type Tour } from '../tour/tours';
import type { Classroom } from './useClassroom';
import type { Sim } from './useSimulation';
import type { TourPlayer } from './useTourPlayer';

export function TourArea({
  sim,
  player,
  classroom,
  tours,
  onStartTour,
  onReveal,
  place = 'chip',
  device,
}: {
  sim: Sim;
  player: TourPlayer;
  classroom: Classroom;
  tours: Tour[];
  onStartTour: (id: string) => void;
  /** pause and step the next request (revealed op by op when the chip animates) */
  onReveal: () => void;
  /** where this area is drawn: over the chip, or beside the device view (only one shows) */
  place?: 'chip' | 'device';
  /** the device view's shape and operation shown (place "device": the editor adds stops there) */
  device?: DeviceShape;
}) {
  const { loaded } = sim.state;
  const snap = loaded?.snapshot;
  const info = loaded?.info;
  const { tourAt } = player;
  const tour = tourAt ? tourById(tourAt.id) : undefined;
  const { score } = classroom;
  const editing = useEditor().open;
  if ((place === 'device') !== player.deviceOpen) return null;
  return (
    <>
      {classroom.welcome && !tourAt && !editing && place === 'chip' && (
        <Welcome
          canTour={tours.some((t) => t.id === INTRO_TOUR_ID)}
          onClose={() => classroom.setWelcome(false)}
          onTour={() => {
            classroom.setWelcome(false);
            onStartTour(INTRO_TOUR_ID);
          }}
        />
      )}
      {tour && tourAt && (
        <TourPanel
          tour={tour}
          index={tourAt.index}
          busy={player.busy}
          playing={player.playing}
          snapshot={snap}
          onGo={(i) => {
            player.stop();
            void player.start(tour.id, i);
          }}
          onPlay={(i) => void player.playTo(tour.id, i)}
          onStop={player.stop}
          onExit={() => {
            player.stop();
            player.setTourAt(null);
          }}
          predict={
            loaded && info && canPredict(loaded.scenario)
              ? {
                  scenario: loaded.scenario,
                  blocks: info.chip.blocks,
                  ppb: info.chip.pages_per_block,
                  onReveal,
                }
              : undefined
          }
          score={score.tour === tour.id ? score : undefined}
          onScored={(right, asked) => classroom.addScore(tour.id, right, asked)}
          onPrint={() => classroom.setPrinting(tour.id)}
        />
      )}
      <TourEditor
        loaded={loaded ? { scenario: loaded.scenario, snapshot: loaded.snapshot } : undefined}
        device={place === 'device' ? device : undefined}
        show={(scenario, at) => void player.show(scenario, at)}
        onTry={onStartTour}
        hidden={!!tourAt}
        onLeaveTour={() => {
          player.stop();
          player.setTourAt(null);
        }}
      />
      {classroom.predictOpen && loaded && info && snap && place === 'chip' && (
        <PredictPanel
          scenario={loaded.scenario}
          step={snap.step}
          opCursor={snap.opCursor}
          total={snap.total}
          blocks={info.chip.blocks}
          ppb={info.chip.pages_per_block}
          questions={['kind', 'victim', 'copies']}
          onReveal={onReveal}
          onClose={() => classroom.setPredictOpen(false)}
        />
      )}
    </>
  );
}
