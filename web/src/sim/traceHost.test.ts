import { describe, expect, it } from 'vitest';
import { TraceHost } from './traceHost';
import type { TraceCore } from './traceTypes';

/** A core whose TraceParser only keeps the bytes it is fed, in order. */
function recordingCore(fed: number[][]): TraceCore {
  class TraceParser {
    constructor() {
      fed.push([]);
    }
    feed(bytes: Uint8Array) {
      fed[fed.length - 1].push(...bytes);
      return { done: false, failed: false };
    }
    free() {}
  }
  return { TraceParser } as unknown as TraceCore;
}

describe('TraceHost trace_feed', () => {
  // The next chunk is read ahead while this one is parsed (issue 37, item 6): whatever
  // order the page asks in, each feed must parse the bytes it asked for.
  it('feeds the bytes asked for, read ahead or not', async () => {
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 251);
    const file = new Blob([data]);
    const fed: number[][] = [];
    const host = new TraceHost(async () => recordingCore(fed));
    const { pid } = (await host.handle({ type: 'trace_open', file, options: {} })) as { pid: number };
    const asks: [number, number][] = [
      [0, 300],
      [300, 300], // read ahead
      [600, 300], // read ahead
      [600, 300], // the same again: the one read ahead was for 900
      [900, 300], // read ahead, clamped at the end
      [100, 50], // out of order
      [150, 100], // read ahead was 50 bytes: another length reads its own
    ];
    for (const [offset, length] of asks) await host.handle({ type: 'trace_feed', pid, offset, length });
    const want = asks.flatMap(([o, l]) => [...data.subarray(o, o + l)]);
    expect(fed).toHaveLength(1);
    expect(fed[0]).toEqual(want);
    await host.handle({ type: 'trace_drop', pid });
    expect(host.open).toBe(0);
  });

  // Issue 37, item 6: the first chunk is read from trace_open on, and each next one with the
  // length the page says it asks for next, so no feed waits for a read that could have started.
  it('reads the first chunk at the open and the next one at the length asked next', async () => {
    const data = Uint8Array.from({ length: 1000 }, (_, i) => (i * 7) % 251);
    const file = new Blob([data]);
    const slices: [number, number][] = [];
    const slice = file.slice.bind(file);
    file.slice = (start?: number, end?: number) => {
      slices.push([start ?? 0, end ?? file.size]);
      return slice(start, end);
    };
    const fed: number[][] = [];
    const host = new TraceHost(async () => recordingCore(fed));
    const { pid } = (await host.handle({ type: 'trace_open', file, options: {}, first: 100 })) as { pid: number };
    expect(slices).toEqual([[0, 100]]);
    await host.handle({ type: 'trace_feed', pid, offset: 0, length: 100, next: 400 });
    expect(slices).toEqual([
      [0, 100],
      [100, 500],
    ]);
    await host.handle({ type: 'trace_feed', pid, offset: 100, length: 400, next: 400 });
    await host.handle({ type: 'trace_feed', pid, offset: 500, length: 400, next: 400 });
    await host.handle({ type: 'trace_feed', pid, offset: 900, length: 400, next: 400 });
    expect(slices).toEqual([
      [0, 100],
      [100, 500],
      [500, 900],
      [900, 1300],
    ]);
    expect(fed[0]).toEqual([...data]);
  });
});
