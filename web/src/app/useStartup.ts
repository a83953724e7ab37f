// The worker's lifecycle and the core's catalog on the page: what the app waits for
// before it opens anything.
import { useEffect, useState } from 'react';
import { createSimClient, type SimClient } from '../sim/client';
import { setAppClient } from '../sim/pageClient';
import { loadCore } from '../scenario/loadCore';

export type CoreReady = 'loading' | 'ready' | 'failed';

export function useStartup(): { client: SimClient | null; startError: string | null; coreReady: CoreReady } {
  const [client, setClient] = useState<SimClient | null>(null);
  const [startError, setStartError] = useState<string | null>(null);
  useEffect(() => {
    let c: SimClient;
    try {
      c = createSimClient();
    } catch (e) {
      setStartError(`Could not start the simulation worker: ${(e as Error).message}`);
      return;
    }
    setClient(c);
    setAppClient(c);
    return () => {
      setAppClient(null);
      c.close();
    };
  }, []);

  // The core's catalog (scheme list) and pattern checker, on the page.
  const [coreReady, setCoreReady] = useState<CoreReady>('loading');
  useEffect(() => {
    loadCore().then(
      () => setCoreReady('ready'),
      () => setCoreReady('failed'),
    );
  }, []);
  return { client, startError, coreReady };
}
