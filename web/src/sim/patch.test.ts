import { describe, expect, it } from 'vitest';
import { ChipBase, PatchBase, diffStates } from './patch';

describe('page-state patches', () => {
  it('lists the changed pages, or gives up when too many changed', () => {
    const a = new Uint8Array([0, 1, 2, 0, 0, 0, 0, 0]);
    const b = new Uint8Array([0, 2, 2, 0, 1, 0, 0, 0]);
    const d = diffStates(a, b, 1 / 2)!;
    expect([...d.idx]).toEqual([1, 4]);
    expect([...d.val]).toEqual([2, 1]);
    expect(diffStates(a, b, 1 / 8)).toBeNull();
    expect(diffStates(a, new Uint8Array(3))).toBeNull();
  });

  it('rebuilds into alternating buffers, each result a new identity with the right content', () => {
    const base = new PatchBase();
    const s0 = new Uint8Array([0, 0, 0, 0]);
    base.full(1, s0);
    const s1 = base.apply(1, { idx: Uint32Array.from([2]), val: Uint8Array.from([1]) });
    expect([...s1]).toEqual([0, 0, 1, 0]);
    expect(s1).not.toBe(s0);
    const s2 = base.apply(1, { idx: Uint32Array.from([0]), val: Uint8Array.from([2]) });
    expect([...s2]).toEqual([2, 0, 1, 0]);
    expect(s2).not.toBe(s1);
    expect(s2).toBe(s0); // the spare buffer is reused: no new allocation
    const s3 = base.apply(1, { idx: Uint32Array.from([]), val: new Uint8Array(0) });
    expect([...s3]).toEqual([2, 0, 1, 0]);
    expect(s3).toBe(s1);
    base.forget(1);
    expect(base.apply(1, { idx: Uint32Array.from([0]), val: Uint8Array.from([1]) }).length).toBe(0);
  });

  it('applies a core delta (pages, blocks, owner sets) to a copy of the last arrays', () => {
    const chips = new ChipBase();
    const full = {
      pageStates: new Uint8Array([1, 1, 0, 0]),
      pageLpns: new Uint32Array([5, 6, 0xffffffff, 0xffffffff]),
      blockRoles: new Uint8Array([1, 0]),
      eraseCounts: new Uint32Array([0, 3]),
      owners: new Int32Array([0, -1]),
      ownerSets: { '0': [0, 2] },
    };
    expect(chips.apply(2, { pages: new Uint32Array(0) } as never)).toBeNull();
    chips.full(2, full);
    const next = chips.apply(2, {
      pages: Uint32Array.from([0, 2]),
      states: Uint8Array.from([2, 1]),
      lpns: Uint32Array.from([5, 5]),
      blocks: Uint32Array.from([0, 1]),
      roles: Uint8Array.from([1, 2]),
      owners: Int32Array.from([0, -1]),
      eraseCounts: Uint32Array.from([0, 4]),
      ownerSets: {},
    })!;
    expect([...next.pageStates]).toEqual([2, 1, 1, 0]);
    expect([...next.pageLpns]).toEqual([5, 6, 5, 0xffffffff]);
    expect([...next.blockRoles]).toEqual([1, 2]);
    expect([...next.eraseCounts]).toEqual([0, 4]);
    expect(next.ownerSets).toBeUndefined();
    expect(next.pageStates).not.toBe(full.pageStates);
    expect([...full.pageStates]).toEqual([1, 1, 0, 0]); // the states already shown are untouched
    // the next delta goes into the other set, brought up to date first
    const one = (p: number, st: number) => ({
      pages: Uint32Array.from([p]),
      states: Uint8Array.from([st]),
      lpns: Uint32Array.from([7]),
      blocks: new Uint32Array(0),
      roles: new Uint8Array(0),
      owners: new Int32Array(0),
      eraseCounts: new Uint32Array(0),
      ownerSets: {},
    });
    const n2 = chips.apply(2, one(3, 4))!;
    expect(n2.pageStates).toBe(full.pageStates);
    expect([...n2.pageStates]).toEqual([2, 1, 1, 4]);
    expect([...n2.blockRoles]).toEqual([1, 2]);
    const n3 = chips.apply(2, one(1, 0))!;
    expect(n3.pageStates).toBe(next.pageStates);
    expect([...n3.pageStates]).toEqual([2, 0, 1, 4]);
    expect([...n3.pageLpns]).toEqual([5, 7, 5, 7]);
  });
});

import { SimClient, type WorkerLike } from './client';
import { SessionHost } from './host';
import type { Request, Response, Snapshot } from './protocol';
import { FakeSession, fakeCore } from './testing/fakeSession';

type Listener = (ev: { data?: unknown }) => void;

/** The real host over fake Sessions; records whether answers carried patches. */
class HostWorker implements WorkerLike {
  host = new SessionHost(async () => fakeCore(FakeSession));
  listeners: Listener[] = [];
  patches = 0;
  postMessage(message: unknown) {
    const req = structuredClone(message) as Request;
    void this.host.handle(req).then((res: Response) => {
      const snap = res.ok ? (res.result as { snapshot?: Snapshot })?.snapshot : undefined;
      if (snap?.pagePatch) this.patches++;
      setTimeout(() => this.listeners.forEach((l) => l({ data: structuredClone(res) })), 0);
    });
  }
  addEventListener(type: string, l: Listener) {
    if (type === 'message') this.listeners.push(l);
  }
  terminate() {}
}

describe('patched playback of a huge chip (host → client)', () => {
  it('rebuilds exactly the page states a full snapshot would carry', async () => {
    const scenario = {
      scheme: 'page',
      params: { op: 0.25 },
      chip: { preset: 'fastcheck' as const, blocks: 4100, pages_per_block: 64 },
      workload: { kind: 'uniform' as const, n: 400, seed: 4, read_ratio: 0.1 },
    };
    const w = new HostWorker();
    const c = new SimClient(w);
    const a = await c.create(scenario);
    let last = a.snapshot;
    for (let i = 0; i < 4; i++) last = (await c.advance(a.sid, 'request', 50)).snapshot;
    expect(w.patches).toBeGreaterThanOrEqual(3);
    expect(last.pagePatch).toBeUndefined();
    expect(last.step).toBe(200);
    const b = await c.create(scenario);
    const full = (await c.seek(b.sid, 200)).snapshot;
    expect(last.pageStates.length).toBe(4100 * 64);
    expect(Buffer.from(last.pageStates).equals(Buffer.from(full.pageStates))).toBe(true);
    // a seek afterwards is a full snapshot again, and playback patches continue from it
    await c.seek(a.sid, 100);
    await c.advance(a.sid, 'request', 20);
    const again = (await c.advance(a.sid, 'request', 30)).snapshot;
    const ref = (await c.seek(b.sid, 150)).snapshot;
    expect(again.step).toBe(150);
    expect(Buffer.from(again.pageStates).equals(Buffer.from(ref.pageStates))).toBe(true);
  }, 30_000);
});
