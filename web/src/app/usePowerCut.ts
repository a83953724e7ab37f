// A power cut in the session itself, and the recovery whose operations are then revealed.
import { useCallback } from 'react';
import type { RevealControl } from './useReveal';
import type { SessionCore } from './useSession';

/** `pause` ends a reveal (completing it) and stops playback: the cut lands on a request's end. */
export function usePowerCut({ withSession, setError }: SessionCore, { endReveal }: RevealControl, pause: () => void) {
  const powerCut = useCallback(() => {
    pause();
    return withSession((c, sid) => c.request('power_cut', { sid }));
  }, [withSession, pause]);

  const recover = useCallback(() => {
    endReveal(true);
    // Power is back: an error that came from the power being off ("recover first") no
    // longer holds, so its banner goes with it.
    return withSession(async (c, sid) => {
      const r = await c.request('recover', { sid });
      setError(null);
      return r;
    });
  }, [withSession, endReveal, setError]);

  return { powerCut, recover };
}
