// App-side state of one simulation, composed from one hook per concern: the Session and
// its command queue (useSession: opening a scenario, errors), the request reveal
// (useReveal), stepping and scrubbing (useStepping), playback (usePlayback), power cut and
// recovery (usePowerCut), and the document's settled mark (useSettledMark).
import { useCallback } from 'react';
import type { SimClient } from '../sim/client';
import { usePlayback, type Speed } from './usePlayback';
import { usePowerCut } from './usePowerCut';
import { useReveal } from './useReveal';
import { useLoad, useSession, type Loaded } from './useSession';
import { useSettledMark } from './useSettledMark';
import { useStepping } from './useStepping';

export { DEFAULT_SPEED, HUGE_PAGES, SPEEDS, type Speed } from './usePlayback';
export type { Loaded } from './useSession';

export interface SimState {
  loaded: Loaded | null;
  /** true while the first scenario is being created */
  loading: boolean;
  /** the last error from the core (bad scenario, worker failure) */
  error: string | null;
  playing: boolean;
  speed: Speed;
  /** Step request is revealing a request op by op (the state lands on its end) */
  revealing: boolean;
}

export function useSimulation(client: SimClient | null) {
  // The queue's callbacks run after this render (when a command is queued or fails), by
  // then `playback` and `checkSettled` below exist.
  const session = useSession(
    client,
    () => playback.setPlaying(false),
    () => checkSettled(),
  );
  const reveal = useReveal(session);
  const stepping = useStepping(session, reveal);
  const playback = usePlayback(session, reveal, stepping.seek);
  const { powerCut, recover } = usePowerCut(session, reveal, playback.pause);
  const { endReveal } = reveal;
  const { setPlaying } = playback;
  const load = useLoad(
    session,
    useCallback(() => {
      endReveal(false);
      setPlaying(false);
    }, [endReveal, setPlaying]),
  );
  const { loaded, loading, error } = session;
  const { playing, speed } = playback;
  const { revealing } = reveal;
  const checkSettled = useSettledMark(loaded, playing, revealing, session.pending, session.lastSnapshot);

  return {
    state: { loaded, loading, error, playing, speed, revealing } satisfies SimState,
    load,
    goto: stepping.goto,
    stepOpSnapshot: stepping.stepOpSnapshot,
    stepOp: stepping.stepOp,
    exec: session.exec,
    applyResult: session.apply,
    stepRequest: stepping.stepRequest,
    revealRequest: reveal.revealRequest,
    finishReveal: reveal.finishReveal,
    backOp: stepping.backOp,
    powerCut,
    recover,
    seek: stepping.seek,
    togglePlay: playback.togglePlay,
    pause: playback.pause,
    setSpeed: playback.setSpeed,
    dismissError: session.dismissError,
  };
}

/** Everything useSimulation returns: its state and its (stable) commands. */
export type Sim = ReturnType<typeof useSimulation>;
