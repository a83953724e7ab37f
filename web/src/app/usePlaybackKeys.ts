// The single view's keyboard and the side effects of playback: Space/→/← (inactive while
// the compare view covers it), any key landing Step request's reveal first, and the page
// LPNs fetched once playback stops on a big chip (see sim/host.ts LEAN_PAGES).
import { useEffect } from 'react';
import { useShortcuts } from './keyboard';
import type { Sim } from './useSimulation';

export function usePlaybackKeys(sim: Sim, comparing: boolean) {
  const { togglePlay, pause, stepOp, backOp, finishReveal, exec, applyResult } = sim;
  const { revealing, playing, loaded } = sim.state;
  // While the power is off only Recover (or Back, or a seek) can act; Step and Play are
  // disabled with the reason (Controls), and their keys do nothing.
  const off = loaded ? !loaded.snapshot.powered : false;
  useShortcuts({
    togglePlay: () => {
      if (!comparing && !off) togglePlay();
    },
    stepForward: () => {
      if (comparing || off) return;
      pause();
      void stepOp();
    },
    stepBack: () => {
      if (comparing) return;
      pause();
      void backOp();
    },
  });

  // Any key during Step request's reveal lands it first (the key then acts on the end state).
  useEffect(() => {
    if (!revealing) return;
    const onKey = (e: KeyboardEvent) => {
      if (!['Shift', 'Control', 'Alt', 'Meta', 'CapsLock'].includes(e.key)) finishReveal();
    };
    window.addEventListener('keydown', onKey, true);
    return () => window.removeEventListener('keydown', onKey, true);
  }, [revealing, finishReveal]);

  // Playback on big chips leaves page LPNs out: fetch them once it stops.
  const snap = loaded?.snapshot;
  useEffect(() => {
    if (!playing && snap && snap.pageLpns.length === 0 && snap.pageStates.length > 0) {
      void exec((c, sid) => c.snapshot(sid)).then((s) => s && applyResult({ moved: true, snapshot: s }));
    }
  }, [playing, snap, exec, applyResult]);
}
