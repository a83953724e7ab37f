// The guided tour being followed: which stop, jumping to a stop, and "play to the next
// stop" (the flash operations up to the stop's moment, animated, then paused there).
// A stop on a device of several dies (its scenario's `device`, issue 40) opens the device
// view at its `at.op`, the device's operation cursor; the tour panel then sits beside it.
import { useCallback, useRef, useState, type Dispatch, type SetStateAction } from 'react';
import { hasScheme, scenarioToJson, type Scenario } from '../scenario/model';
import type { CompareSpec, Moment } from '../scenario/share';
import type { DeviceShape } from '../sim/deviceTypes';
import { chipScenario, scenarioDevice, stopDevice, stopScenario, tourById } from '../tour/tours';
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
    onDevice,
    deviceOpen = false,
  }: {
    onError: (message: string) => void;
    setCompare: Dispatch<SetStateAction<CompareSpec | null>>;
    /** open the device view at a shape and cursor (a device stop), or go back to the chip view */
    onDevice?: (d: DeviceShape | null) => void;
    /** the device view is open (the tour panel is drawn beside it, not over the chip) */
    deviceOpen?: boolean;
  },
) {
  const { goto, load, pause, stepOpSnapshot } = sim;
  const [tourAt, setTourAt] = useState<TourAt | null>(null);
  const [busy, setBusy] = useState(false);
  const [playing, setPlaying] = useState(false);
  // The latest loaded state and speed, read when a command runs (not when it was made).
  const latest = useRef({ loaded: sim.state.loaded, speedId: sim.state.speed.id });
  latest.current = { loaded: sim.state.loaded, speedId: sim.state.speed.id };

  /**
   * Show a moment of a scenario (loading it when it is another): on a device of several
   * dies (its `device`), the device view at operation `at.op`; else the chip at `at`.
   */
  const show = useCallback(
    async (s: Scenario, at: Moment) => {
      const device = scenarioDevice(s);
      // A device stop: the one chip holds the scenario at its start, the device view the moment.
      const scenario = chipScenario(s);
      const chipAt = device ? { step: 0, op: 0 } : at;
      // The chip view back before the chip moves (the device view would reopen on it).
      if (!device) onDevice?.(null);
      const cur = latest.current.loaded;
      let ok = true;
      if (cur && scenarioToJson(cur.scenario) === scenarioToJson(scenario)) {
        if (!device) await goto(chipAt.step, chipAt.op);
      } else ok = await load(scenario, 0, chipAt);
      // ... and the device view once the scenario it runs is loaded.
      if (device && ok) onDevice?.({ ...device, cursor: at.op });
      return ok;
    },
    [goto, load, onDevice],
  );

  const start = useCallback(
    async (id: string, index = 0) => {
      const t = tourById(id);
      if (!t || !t.schemes.every(hasScheme)) {
        onError(`There is no guided tour “${id}” in this version of ftlscope.`);
        return false;
      }
      const i = Math.max(0, Math.min(index, t.stops.length - 1));
      setTourAt({ id, index: i });
      setCompare(null);
      setBusy(true);
      try {
        return await show(stopScenario(t, i), t.stops[i].at);
      } finally {
        setBusy(false);
      }
    },
    [show, onError, setCompare],
  );

  // "Play to the next stop": the last requests before it only; further back is a jump.
  const token = useRef({ cancelled: false });
  const playTo = useCallback(
    async (id: string, index: number) => {
      const t = tourById(id);
      const cur = latest.current.loaded;
      if (!t || !cur || index >= t.stops.length) return;
      const target = t.stops[index].at;
      const scenario = chipScenario(stopScenario(t, index));
      const here = cur.snapshot;
      const ahead = here.step < target.step || (here.step === target.step && here.opCursor < target.op);
      // The device view is not animated here: a device stop, or one after it, is a jump.
      if (scenarioToJson(cur.scenario) !== scenarioToJson(scenario) || !ahead || stopDevice(t, index) || deviceOpen) {
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
    [start, goto, pause, stepOpSnapshot, deviceOpen],
  );
  const stop = useCallback(() => {
    token.current.cancelled = true;
    setPlaying(false);
  }, []);

  return { tourAt, setTourAt, busy, playing, start, playTo, stop, show, deviceOpen };
}

export type TourPlayer = ReturnType<typeof useTourPlayer>;
