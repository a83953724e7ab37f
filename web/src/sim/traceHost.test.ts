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
});
