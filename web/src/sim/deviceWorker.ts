/// <reference lib="webworker" />
// A worker of its own for the device view (own wasm instance, one DeviceSession): the
// simulation worker keeps its one-chip session. Each request is answered with the moment
// and every die's chip arrays (deviceTypes.ts).
import init, { DeviceSession, device_run, device_stripe_for } from './pkg/ftlscope_wasm.js';
import type { DeviceReply, DeviceRequest, DieArrays } from './deviceTypes';

declare const self: DedicatedWorkerGlobalScope;

let session: DeviceSession | null = null;

function reply(s: DeviceSession, moved: boolean): DeviceReply {
  const dies: DieArrays[] = [];
  for (let d = 0; d < s.dies(); d++) {
    dies.push({
      pageStates: s.page_states(d),
      pageLpns: s.page_lpns(d),
      blockRoles: s.block_roles(d),
      eraseCounts: s.block_erase_counts(d),
      owners: s.block_owners(d),
    });
  }
  return { kind: 'moment', moment: s.moment(), dies, moved };
}

function handle(r: DeviceRequest): DeviceReply {
  if (r.kind === 'open') {
    session?.free();
    session = null;
    const { channels, diesPerChannel, stripe } = r.shape;
    session = new DeviceSession(JSON.stringify(r.scenario), channels, diesPerChannel, stripe);
    return reply(session, false);
  }
  if (r.kind === 'run') return { kind: 'run', json: device_run(JSON.stringify(r.scenario), r.space) };
  if (r.kind === 'stripe')
    return { kind: 'stripe', stripe: device_stripe_for(r.scheme) === 'block' ? 'block' : 'page' };
  if (!session) return { kind: 'error', message: 'no device is open' };
  if (r.kind === 'step') return reply(session, session.step_op());
  if (r.kind === 'back') return reply(session, session.back_op());
  if (r.kind === 'cut') {
    session.power_cut();
    return reply(session, true);
  }
  if (r.kind === 'recover') {
    session.recover();
    return reply(session, true);
  }
  if (r.kind === 'recover_whole') {
    session.recover_whole();
    return reply(session, true);
  }
  session.goto(r.cursor);
  return reply(session, true);
}

let ready: Promise<unknown> | null = null;

self.addEventListener('message', (ev: MessageEvent<DeviceRequest>) => {
  ready ??= init();
  // Requests are answered in order: each waits for the module, then runs synchronously.
  void ready.then(
    () => {
      let out: DeviceReply;
      try {
        out = handle(ev.data);
      } catch (e) {
        out = { kind: 'error', message: e instanceof Error ? e.message : String(e) };
      }
      self.postMessage(out);
    },
    (e: unknown) => self.postMessage({ kind: 'error', message: String(e) } satisfies DeviceReply),
  );
});
