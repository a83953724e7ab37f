import { describe, expect, it } from 'vitest';
import { SimClient, SimError, type WorkerLike } from './client';
import { SessionHost } from './host';
import type { Request, Response } from './protocol';
import { FakeSession, fakeCore } from './testing/fakeSession';
import { defaultScenario } from '../scenario/model';

type Listener = (ev: { data?: unknown; message?: string; preventDefault?: () => void }) => void;

/** A Worker stand-in: records posted messages; the test answers them by hand. */
class MockWorker implements WorkerLike {
  posted: Request[] = [];
  listeners: Record<string, Listener[]> = {};
  terminated = false;
  postMessage(message: unknown) {
    this.posted.push(structuredClone(message) as Request);
  }
  addEventListener(type: string, listener: Listener) {
    (this.listeners[type] ??= []).push(listener);
  }
  terminate() {
    this.terminated = true;
  }
  emit(type: string, ev: Parameters<Listener>[0]) {
    for (const l of this.listeners[type] ?? []) l(ev);
  }
  reply(res: Response) {
    this.emit('message', { data: res });
  }
}

/** A Worker stand-in that runs the real host logic over fake Sessions, asynchronously. */
class HostWorker extends MockWorker {
  host = new SessionHost(async () => fakeCore(FakeSession));
  postMessage(message: unknown) {
    super.postMessage(message);
    const req = structuredClone(message) as Request;
    void this.host.handle(req).then((res) => setTimeout(() => this.reply(structuredClone(res)), 0));
  }
}

describe('SimClient', () => {
  it('gives every request a fresh id and matches answers by id, in any order', async () => {
    const w = new MockWorker();
    const c = new SimClient(w);
    const a = c.snapshot(1);
    const b = c.stepOp(1);
    expect(w.posted.map((r) => r.type)).toEqual(['snapshot', 'step_op']);
    const [ra, rb] = w.posted;
    expect(ra.id).not.toEqual(rb.id);
    expect(c.inFlight).toBe(2);
    w.reply({ id: rb.id, ok: true, result: { moved: true, snapshot: 'B' } });
    w.reply({ id: ra.id, ok: true, result: 'A' });
    await expect(a).resolves.toBe('A');
    await expect(b).resolves.toEqual({ moved: true, snapshot: 'B' });
    expect(c.inFlight).toBe(0);
  });

  it('sends the command arguments', () => {
    const w = new MockWorker();
    const c = new SimClient(w);
    void c.seek(3, 120);
    void c.advance(3, 'request', 10);
    expect(w.posted[0]).toMatchObject({ type: 'seek', sid: 3, step: 120 });
    expect(w.posted[1]).toMatchObject({ type: 'advance', sid: 3, unit: 'request', count: 10 });
  });

  it('rejects with the worker error message as a SimError', async () => {
    const w = new MockWorker();
    const c = new SimClient(w);
    const p = c.create(defaultScenario());
    w.reply({ id: w.posted[0].id, ok: false, error: 'unknown chip preset "nope"' });
    await expect(p).rejects.toBeInstanceOf(SimError);
    await expect(p).rejects.toThrow('unknown chip preset "nope"');
    await p.catch((e: SimError) => expect(e.command).toBe('create'));
  });

  it('ignores answers to unknown ids', async () => {
    const w = new MockWorker();
    const c = new SimClient(w);
    const p = c.snapshot(1);
    w.reply({ id: 999, ok: true, result: 'stray' });
    w.reply({ id: w.posted[0].id, ok: true, result: 'mine' });
    await expect(p).resolves.toBe('mine');
  });

  it('fails every pending request when the worker crashes, and refuses new ones', async () => {
    const w = new MockWorker();
    const c = new SimClient(w);
    const p1 = c.stepOp(1);
    const p2 = c.stepRequest(1);
    w.emit('error', { message: 'wasm trap: unreachable', preventDefault: () => {} });
    await expect(p1).rejects.toThrow(/worker failed: wasm trap/);
    await expect(p2).rejects.toThrow(/worker failed/);
    await expect(c.snapshot(1)).rejects.toThrow(/worker failed/);
    expect(c.inFlight).toBe(0);
  });

  it('close() rejects pending requests and terminates the worker', async () => {
    const w = new MockWorker();
    const c = new SimClient(w);
    const p = c.snapshot(1);
    c.close();
    await expect(p).rejects.toThrow(/closed/);
    expect(w.terminated).toBe(true);
  });
});

describe('SimClient + SessionHost end to end (fake Session)', () => {
  it('creates a session and steps, seeks and goes back', async () => {
    const c = new SimClient(new HostWorker());
    const created = await c.create(defaultScenario());
    expect(created.info.chip.blocks).toBe(16);
    expect(created.snapshot.step).toBe(0);
    expect(created.snapshot.pageStates).toBeInstanceOf(Uint8Array);
    expect(created.snapshot.pageStates.length).toBe(64);

    const op = await c.stepOp(created.sid);
    expect(op.moved).toBe(true);
    expect(op.snapshot.events.length).toBe(1);

    const req = await c.stepRequest(created.sid);
    // step_op either left request 1 half-revealed (step_request finishes it) or completed it.
    expect(req.snapshot.step).toBe(op.snapshot.opCount > 0 ? 1 : op.snapshot.step + 1);
    expect(req.snapshot.opCount).toBe(0);

    const seek = await c.seek(created.sid, 50);
    expect(seek.snapshot.step).toBe(50);
    const fresh = await c.create(defaultScenario());
    const replay = await c.advance(fresh.sid, 'request', 50);
    expect(replay.snapshot.step).toBe(50);
    expect([...replay.snapshot.pageStates]).toEqual([...seek.snapshot.pageStates]);
    expect(replay.snapshot.metrics).toEqual(seek.snapshot.metrics);

    const back = await c.backOp(created.sid);
    expect(back.moved).toBe(true);
    expect(back.snapshot.step).toBe(49);

    await c.dispose(created.sid);
    await expect(c.snapshot(created.sid)).rejects.toThrow(/no session/);
  });

  it('reports a bad scenario as a readable error', async () => {
    const c = new SimClient(new HostWorker());
    await expect(c.create({ ...defaultScenario(), scheme: 'nope' })).rejects.toThrow('unknown scheme "nope"');
  });

  it('advance stops at the end of the workload', async () => {
    const c = new SimClient(new HostWorker());
    const { sid } = await c.create({ ...defaultScenario(), workload: { kind: 'pattern', text: 'w0 w1 w2' } });
    const r = await c.advance(sid, 'request', 10);
    expect(r.snapshot.step).toBe(3);
    const again = await c.advance(sid, 'request', 1);
    expect(again.moved).toBe(false);
    const op = await c.stepOp(sid);
    expect(op.moved).toBe(false);
  });
});

describe('SessionHost', () => {
  it('reports a failing wasm load for every request', async () => {
    const host = new SessionHost(async () => {
      throw new Error('could not load the simulator');
    });
    const res = await host.handle({ id: 7, type: 'create', scenario: defaultScenario() });
    expect(res).toEqual({ id: 7, ok: false, error: 'could not load the simulator' });
  });

  it('turns thrown strings (wasm-bindgen style) into messages', async () => {
    const Throwing = function () {
      throw 'bad scenario: blocks must be ≥ 2';
    } as unknown as typeof FakeSession;
    const host = new SessionHost(async () => fakeCore(Throwing));
    const res = await host.handle({ id: 1, type: 'create', scenario: {} });
    expect(res).toEqual({ id: 1, ok: false, error: 'bad scenario: blocks must be ≥ 2' });
  });

  it("when idle, has the Session make the next Back's state after a move by hand only", async () => {
    let prepared = 0;
    class Counting extends FakeSession {
      prepare_back_part() {
        prepared++;
        return false;
      }
    }
    const host = new SessionHost(async () => fakeCore(Counting));
    const after = async (req: Request) => {
      await host.idle(req, await host.handle(req));
      return prepared;
    };
    expect(await after({ id: 1, type: 'create', scenario: defaultScenario() })).toBe(1);
    expect(await after({ id: 2, type: 'step_op', sid: 1 })).toBe(2);
    expect(await after({ id: 3, type: 'run', sid: 1, count: 3 })).toBe(2);
    expect(await after({ id: 4, type: 'snapshot', sid: 1 })).toBe(2);
    expect(await after({ id: 5, type: 'back_op', sid: 1 })).toBe(3);
    expect(await after({ id: 6, type: 'step_op', sid: 99 })).toBe(3);
  });

  it("makes the next Back's state in parts, a part a call, until none is left", async () => {
    const parts: number[] = [];
    class InParts extends FakeSession {
      left = 0;
      back_op() {
        this.left = 3;
        return super.back_op();
      }
      prepare_back_part() {
        parts.push(this.left);
        this.left = Math.max(0, this.left - 1);
        return this.left > 0;
      }
    }
    const host = new SessionHost(async () => fakeCore(InParts));
    const create: Request = { id: 1, type: 'create', scenario: defaultScenario() };
    expect(await host.idle(create, await host.handle(create))).toBe(false);
    await host.handle({ id: 2, type: 'step_op', sid: 1 });
    const back: Request = { id: 3, type: 'back_op', sid: 1 };
    const res = await host.handle(back);
    expect(await host.idle(back, res)).toBe(true);
    // A request that moves nothing has no idle work of its own: the worker goes on with the move's.
    const snap: Request = { id: 4, type: 'snapshot', sid: 1 };
    expect(await host.idle(snap, await host.handle(snap))).toBe(null);
    expect(await host.idle(back, res)).toBe(true);
    expect(await host.idle(back, res)).toBe(false);
    expect(parts).toEqual([0, 3, 2, 1]);
  });

  it('rejects unknown commands without throwing', async () => {
    const host = new SessionHost(async () => fakeCore(FakeSession));
    const res = await host.handle({ id: 2, type: 'explode' } as unknown as Request);
    expect(res.ok).toBe(false);
  });
});

describe('SessionHost after a core panic', () => {
  it('drops the crashed session and says how to recover', async () => {
    class Panicky extends FakeSession {
      step_op(): boolean {
        throw new WebAssembly.RuntimeError('unreachable');
      }
    }
    const host = new SessionHost(async () => fakeCore(Panicky));
    const created = await host.handle({ id: 1, type: 'create', scenario: defaultScenario() });
    expect(created.ok).toBe(true);
    const sid = (created as { result: { sid: number } }).result.sid;
    const res = await host.handle({ id: 2, type: 'step_op', sid });
    expect(res.ok).toBe(false);
    expect(!res.ok && res.error).toMatch(/simulator crashed \(unreachable\).*Apply the scenario again/);
    const after = await host.handle({ id: 3, type: 'snapshot', sid });
    expect(!after.ok && after.error).toMatch(/no session/);
  });
});
