/// <reference lib="webworker" />
// A worker of its own for crash sweeps (own wasm instance): the simulation worker stays
// free while it runs, and cancel is terminate().
import init, { crash_sweep } from './pkg/ftlscope_wasm.js';
import type { CrashRequest, CrashMessage } from './crashTypes';

declare const self: DedicatedWorkerGlobalScope;

self.addEventListener('message', (ev: MessageEvent<CrashRequest>) => {
  void (async () => {
    const post = (m: CrashMessage) => self.postMessage(m);
    try {
      await init();
      let last = 0;
      const report = crash_sweep(
        JSON.stringify(ev.data.scenario),
        JSON.stringify(ev.data.options),
        (done: number, total: number) => {
          const now = performance.now();
          if (now - last > 100 || done === total) {
            last = now;
            post({ kind: 'progress', done, total });
          }
        },
      );
      post({ kind: 'done', report });
    } catch (e) {
      post({ kind: 'error', message: e instanceof Error ? e.message : String(e) });
    }
  })();
});
