// DeviceClient (deviceTypes.ts) with a fake Worker: a reply that could not be read, or a
// worker that failed, answers the requests waiting on it with a message, so the device
// view shows it instead of waiting for ever (issue 37, session 24).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceClient, type DeviceReply } from './deviceTypes';

class FakeWorker extends EventTarget {
  static last: FakeWorker | null = null;
  posted: unknown[] = [];
  terminated = false;
  constructor() {
    super();
    FakeWorker.last = this;
  }
  postMessage(m: unknown) {
    this.posted.push(m);
  }
  terminate() {
    this.terminated = true;
  }
  answer(data: unknown) {
    this.dispatchEvent(new MessageEvent('message', { data }));
  }
}

/** What `p` has resolved to after the microtasks run (undefined: still waiting). */
async function settled<T>(p: Promise<T>): Promise<T | undefined> {
  let out: T | undefined;
  void p.then((v) => (out = v));
  for (let i = 0; i < 5; i++) await Promise.resolve();
  return out;
}

describe('DeviceClient', () => {
  beforeEach(() => vi.stubGlobal('Worker', FakeWorker));
  afterEach(() => vi.unstubAllGlobals());

  it('answers requests in order', async () => {
    const c = new DeviceClient();
    const a = c.request({ kind: 'step' });
    const b = c.request({ kind: 'back' });
    FakeWorker.last!.answer({ kind: 'error', message: 'one' });
    FakeWorker.last!.answer({ kind: 'error', message: 'two' });
    expect(await a).toEqual({ kind: 'error', message: 'one' });
    expect(await b).toEqual({ kind: 'error', message: 'two' });
  });

  it('answers the request whose reply could not be read (messageerror) with a message', async () => {
    const c = new DeviceClient();
    const a = c.request({ kind: 'step' });
    const b = c.request({ kind: 'step' });
    FakeWorker.last!.dispatchEvent(new MessageEvent('messageerror'));
    const r = await settled(a);
    expect(r).toEqual({ kind: 'error', message: 'a reply of the device worker could not be read' });
    // The next reply is the next request's.
    FakeWorker.last!.answer({ kind: 'error', message: 'second' });
    expect(await settled(b)).toEqual({ kind: 'error', message: 'second' });
  });

  it('answers every waiting request, and every later one, when the worker fails', async () => {
    const c = new DeviceClient();
    const a = c.request({ kind: 'step' });
    FakeWorker.last!.dispatchEvent(Object.assign(new Event('error'), { message: 'boom' }));
    const r = (await settled(a)) as Extract<DeviceReply, { kind: 'error' }> | undefined;
    expect(r?.kind).toBe('error');
    expect(r?.message).toContain('the device worker stopped: boom');
    expect(FakeWorker.last!.terminated).toBe(true);
    const later = await settled(c.request({ kind: 'step' }));
    expect(later).toEqual(r);
  });
});
