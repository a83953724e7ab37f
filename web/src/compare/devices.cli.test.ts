// The compare view's device shapes give the CLI's figures (issue 40, item 5): runShapes
// (the app's planner: the fewest dies in their own space, the others in that space) with
// each shape run by the core's device_run, as the device worker runs it, against
// `ftl run --channels C --dies-per-channel W --space N --json` (fixtures/ftl-run-device.json
// names each command). Several dies: the CLI's whole `device` object, equal. One die: the
// CLI has no device section; its timing section's counts, means, maxima and delayed-by-GC
// shares are equal, its p99 is the histogram's (5 significant digits).
/// <reference types="node" />
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadNodeCore } from '../scenario/testing/nodeCore';
import type { Scenario } from '../scenario/model';
import { cliCommand, runShapes, type DeviceRun, type DevicesSpec, type ShapeResult } from '../device/deviceRun';
import fixture from './fixtures/ftl-run-device.json';
import traceFixture from './fixtures/ftl-run-device-trace.json';

const core = loadNodeCore();

const base: Scenario = {
  scheme: 'page',
  params: {},
  chip: { preset: 'classroom', blocks: 64, pages_per_block: 4 },
  workload: { kind: 'uniform', n: 2000, seed: 4, read_ratio: 0.2 },
};

const run = (s: Scenario, space: number) =>
  Promise.resolve(JSON.parse(core.device_run(JSON.stringify(s), space)) as DeviceRun);
const stripe = (scheme: string) => core.device_stripe_for(scheme) as 'page' | 'block';

/** A command's flags, order-free, defaults dropped. */
function flags(cmd: string): string[] {
  return cmd
    .split(' --')
    .slice(1)
    .map((f) => (f.startsWith('gen ') ? f.replace(/:(.*)$/, (_, a: string) => ':' + a.split(',').sort().join(',')) : f))
    .filter((f) => !['chip classroom', 'arrival-seed 1', 'dies-per-channel 1'].includes(f))
    .sort();
}

/** The runs of `out`, every shape having run. */
function runsOf(out: ShapeResult[]): DeviceRun[] {
  return out.map((r) => {
    if ('error' in r) throw new Error(r.error);
    return r.run;
  });
}

/** One die against 8 channels x 1 die for `scheme`, at a Poisson `rate` when given. */
const oneVsEight = (scheme: string, rate?: number): DevicesSpec => ({
  scheme,
  ...(rate === undefined ? {} : { rate }),
  shapes: [
    { channels: 1, diesPerChannel: 1 },
    { channels: 8, diesPerChannel: 1 },
  ],
});

/** Five significant digits, as the CLI's timing histogram reports percentiles. */
const sig5 = (v: number) => Number(v.toPrecision(5));

describe("the compare's device shapes equal ftl run --channels", () => {
  for (const scheme of ['page', 'fast', 'dftl']) {
    it(`${scheme}: 1 die, 8 dies and 4 x 2 on one request list`, async () => {
      const rows = fixture.rows.filter((r) => r.scheme === scheme);
      // Given out of order: the fewest dies still fix the common space.
      const spec: DevicesSpec = {
        scheme,
        rate: 2000,
        shapes: [
          { channels: 8, diesPerChannel: 1 },
          { channels: 1, diesPerChannel: 1 },
          { channels: 4, diesPerChannel: 2 },
        ],
      };
      const done: number[] = [];
      const out = await runShapes(run, base, spec, stripe(scheme), (n) => done.push(n));
      expect(done).toEqual([1, 2, 3]);
      const results = runsOf(out);
      for (const [i, r] of results.entries()) {
        const want = rows.find(
          (x) => x.channels === spec.shapes[i].channels && x.dies_per_channel === spec.shapes[i].diesPerChannel,
        );
        if (!want) throw new Error('no fixture row');
        expect(r.request_hash).toBe(want.request_hash);
        expect(r.workload_pages).toBe(want.workload_space);
        expect(r.device.dies).toBe(spec.shapes[i].channels * spec.shapes[i].diesPerChannel);
        expect(r.device.wrong_reads).toBe(0);
        if (want.device) {
          expect(r.device).toEqual(want.device);
          // The command shown beside the figures is the one that printed them.
          // The command shown beside the figures is the one that printed them (flags in any
          // order; the classroom preset, arrival seed 1 and one die per channel are defaults).
          expect(flags(cliCommand(r))).toEqual(flags(want.command));
        } else {
          for (const k of ['read', 'write'] as const) {
            const w = want.one_die[k];
            const got = r.device[k];
            expect([got.count, got.mean_us, got.max_us, got.delayed_by_gc, got.delayed_by_gc_share]).toEqual([
              w.count,
              w.mean_us,
              w.max_us,
              w.delayed_by_gc,
              w.delayed_by_gc_share,
            ]);
            expect(sig5(got.p99_us)).toBe(sig5(w.p99_us));
          }
        }
      }
      // One request list: the same hash for every shape.
      expect(new Set(results.map((r) => r.request_hash)).size).toBe(1);
    });
  }

  it('8 dies take the load off one: read p99 falls, per-die utilisation shares the busy time', async () => {
    const [one, eight] = runsOf(await runShapes(run, base, oneVsEight('page', 2000), 'page')).map((r) => r.device);
    expect(eight.read.p99_us).toBeLessThan(one.read.p99_us);
    expect(eight.per_die).toHaveLength(8);
    // Every page request runs on exactly one die.
    expect(eight.per_die.reduce((a, d) => a + d.page_requests, 0)).toBe(one.per_die[0].page_requests);
  });

  it('a shape that cannot run fails alone, with the core message', async () => {
    const out = await runShapes(run, base, oneVsEight('bast'), 'page');
    expect('run' in out[0]).toBe(true);
    expect('error' in out[1] && out[1].error).toMatch(/page striping/);
    expect(stripe('bast')).toBe('block');
    expect(stripe('page')).toBe('page');
  });

  it('an uploaded trace (gzip) read by a TraceParser gives the CLI figures, and its text gives the same', async () => {
    // What the device worker does with an upload (deviceWorker.ts): the file fed to its own
    // TraceParser in chunks, then device_run_trace; a trace workload's text goes through device_run.
    const bytes = readFileSync('traces/oltp.csv.gz');
    const parser = new core.TraceParser(JSON.stringify({ page_bytes: 512, pages_per_block: 32 }));
    for (let i = 0; i < bytes.length; i += 4096) parser.feed(bytes.subarray(i, i + 4096));
    expect((parser.finish() as { ok: boolean }).ok).toBe(true);
    const traceBase: Scenario = {
      scheme: 'page',
      params: {},
      chip: { preset: 'fast2007' },
      workload: { kind: 'trace', fit: 'none' } as Scenario['workload'],
    };
    const spec = oneVsEight('page', 20000);
    const fromFile = (s: Scenario, space: number) =>
      Promise.resolve(JSON.parse(core.device_run_trace(JSON.stringify(s), space, parser)) as DeviceRun);
    const [one, eight] = runsOf(await runShapes(fromFile, traceBase, spec, 'page'));
    expect(one.requests).toBe(3000);
    expect(eight.device).toEqual(traceFixture.device);
    expect(flags(cliCommand(eight, 'traces/oltp.csv.gz'))).toEqual(flags(traceFixture.command));
    expect(eight.device.read.p99_us).toBeLessThan(one.device.read.p99_us);
    // The same trace as text in the scenario (device_run parses it): the same runs.
    const text = readFileSync('traces/oltp.csv', 'utf8');
    const withText = { ...traceBase, workload: { kind: 'trace', fit: 'none', text } as Scenario['workload'] };
    const [oneT, eightT] = runsOf(await runShapes(run, withText, spec, 'page'));
    expect([oneT.request_hash, oneT.device]).toEqual([one.request_hash, one.device]);
    expect(eightT.device).toEqual(eight.device);
    parser.free();
  });
});
