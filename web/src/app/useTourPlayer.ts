// The guided tour being followed: which stop, jumping to a stop, and "play to the next
// stop" (the flash operations up to the stop's moment, animated, then paused there).
import { useCallback, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { hasScheme, scenarioToJson } from '../scenario/model';
import type { CompareSpec } from '../scenario/share';
import { stopScenario, tourById } from '../tour/tours';
import { SPEEDS, type Sim } from './useSimulation';

export interface TourAt {
  id: string;
  index: number;
}

export function useTourPlayer(
  sim: Sim,
  {
    onError,
    setCompare,
  }: { onError: (message: string) => void; setCompare: Dispatch<SetStateAction<CompareSpec | null>> },
) {
  const { goto, load, pause, stepOpSnapshot } = sim;
  const [tourAt, setTourAt] = useState<TourAt | null>(null);
  const [busy, setBusy] = useState(false);
  const [playing, setPlaying] = useState(false);
  // The latest loaded state and speed, read when a command runs (not when it was made).
  const latest = useRef({ loaded: sim.state.loaded, speedId: sim.state.speed.id });
  latest.current = { loaded: sim.state.loaded, speedId: sim.state.speed.id };

  const start = useCallback(
    async (id: string, index = 0) => {
      const t = tourById(id);
      if (!t || !t.schemes.every(hasScheme)) {
        onError(`There is no guided tour “${id}” in this version of ftlscope.`);
        return false;
      }
      const i = Math.max(0, Math.min(index, t.stops.length - 1));
      const scenario = stopScenario(t, i);
      const at = t.stops[i].at;
      setTourAt({ id, index: i });
      setCompare(null);
      setBusy(true);
      try {
        const cur = latest.current.loaded;
        if (cur && scenarioToJson(cur.scenario) === scenarioToJson(scenario)) {
          await goto(at.step, at.op);
          return true;
        }
        return await load(scenario, 0, at);
      } finally {
        setBusy(false);
      }
    },
    [goto, load, onError, setCompare],
  );

  // "Play to the next stop": the last requests before it only; further back is a jump.
  const token = useRef({ cancelled: false });
  const playTo = useCallback(
    async (id: string, index: number) => {
      const t = tourById(id);
      const cur = latest.current.loaded;
      if (!t || !cur || index >= t.stops.length) return;
      const target = t.stops[index].at;
      const scenario = stopScenario(t, index);
      const here = cur.snapshot;
      const ahead = here.step < target.step || (here.step === target.step && here.opCursor < target.op);
      if (scenarioToJson(cur.scenario) !== scenarioToJson(scenario) || !ahead) {
        await start(id, index);
        return;
      }
      pause();
      const mine = { cancelled: false };
      token.current.cancelled = true;
      token.current = mine;
      setPlaying(true);
      try {
        if (target.step - here.step > 2) await goto(target.step - 2, 0);
        const speedId = latest.current.speedId;
        const delay = Math.max(
          120,
          Math.min(600, speedId.endsWith('op') ? SPEEDS.find((x) => x.id === speedId)!.intervalMs : 350),
        );
        for (let guard = 0; guard < 400 && !mine.cancelled; guard++) {
          await new Promise((r) => setTimeout(r, delay));
          if (mine.cancelled) break;
          const snap = await stepOpSnapshot();
          if (!snap) break;
          if (snap.step > target.step || (snap.step === target.step && snap.opCursor >= target.op)) break;
        }
        if (!mine.cancelled) {
          setTourAt({ id, index });
          await goto(target.step, target.op);
        }
      } finally {
        if (token.current === mine) setPlaying(false);
      }
    },
    [start, goto, pause, stepOpSnapshot],
  );
  const stop = useCallback(() => {
    token.current.cancelled = true;
    setPlaying(false);
  }, []);

  return { tourAt, setTourAt, busy, playing, start, playTo, stop };
}

export type TourPlayer = ReturnType<typeof useTourPlayer>;
