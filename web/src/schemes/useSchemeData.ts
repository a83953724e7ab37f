// Fetch the run-wide scheme data (timeline bins, latency histogram) after each step,
// with at most one request in flight: the latest step always wins.
import { useEffect, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { SchemeData } from './types';

const MIN_INTERVAL_MS = 200;

export function useSchemeData(
  client: SimClient | null,
  sid: number | null,
  step: number,
  bins: number,
  enabled: boolean,
): SchemeData | null {
  const [data, setData] = useState<SchemeData | null>(null);
  const want = useRef<{ sid: number; step: number; bins: number } | null>(null);
  const busy = useRef(false);

  useEffect(() => {
    if (!client || sid === null || !enabled) {
      setData(null);
      return;
    }
    want.current = { sid, step, bins };
    if (busy.current) return;
    busy.current = true;
    const pump = async (): Promise<void> => {
      const w = want.current;
      want.current = null;
      if (!w) {
        busy.current = false;
        return;
      }
      const t0 = performance.now();
      try {
        const d = await client.request('scheme_data', { sid: w.sid, bins: w.bins, upto: w.step });
        setData(d);
      } catch {
        // the session was replaced meanwhile; the next step asks again
      }
      // At most a few fetches a second: a long timeline is copied out of wasm each time.
      const wait = MIN_INTERVAL_MS - (performance.now() - t0);
      if (wait > 0 && want.current) await new Promise((r) => setTimeout(r, wait));
      return pump();
    };
    void pump();
  }, [client, sid, step, bins, enabled]);

  return data;
}
