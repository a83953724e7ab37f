/// <reference types="node" />
// An uploaded trace in the device view (issue 40): what the device worker does when the
// view opens over an upload (deviceWorker.ts `open` with a trace): the file fed to its own
// TraceParser in chunks, then `DeviceSession.from_trace`. Stepped to the end, every die's
// page requests and the host count are those of the device's whole run of the same file
// (`device_run_trace`, which the compare's devices.cli.test.ts pins to `ftl run --trace`),
// and the same trace as text in the scenario opens the same device, moment for moment.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { DeviceSession, TraceParser, device_run_trace, initSync } from '../sim/pkg/ftlscope_wasm.js';
import type { DeviceMoment } from '../sim/generated/DeviceMoment';
import type { DeviceRun } from './deviceRun';

beforeAll(() => {
  initSync({ module: readFileSync(fileURLToPath(new URL('../sim/pkg/ftlscope_wasm_bg.wasm', import.meta.url))) });
});

const base = { scheme: 'page', params: {}, chip: { preset: 'fast2007', blocks: 32 } };
const upload = JSON.stringify({ ...base, workload: { kind: 'trace', fit: 'none' } });

function parsed(file: string): TraceParser {
  const bytes = readFileSync(file);
  const parser = new TraceParser(JSON.stringify({ page_bytes: 512, pages_per_block: 32 }));
  for (let i = 0; i < bytes.length; i += 4096) parser.feed(bytes.subarray(i, i + 4096));
  expect((parser.finish() as { ok: boolean }).ok).toBe(true);
  return parser;
}

describe('DeviceSession.from_trace', () => {
  it('runs an uploaded trace striped over 8 dies as the device run of the file does', () => {
    const parser = parsed('traces/oltp.csv.gz');
    const device = { channels: 8, dies_per_channel: 1, stripe: 'page' };
    const run = JSON.parse(device_run_trace(JSON.stringify({ ...JSON.parse(upload), device }), 0, parser)) as DeviceRun;
    expect(run.requests).toBe(3000);
    const s = DeviceSession.from_trace(upload, 8, 1, 'page', parser);
    expect(s.dies()).toBe(8);
    const first: DeviceMoment = s.moment();
    expect(first.hosts).toBe(run.device.host_requests);
    let last = -1;
    while (s.step_op()) {
      const cur = (s.moment() as DeviceMoment).current!;
      expect(cur.start_ns * 16 + cur.die).toBeGreaterThanOrEqual(last);
      last = cur.start_ns * 16 + cur.die;
    }
    const end: DeviceMoment = s.moment();
    expect(end.hosts_done).toBe(end.hosts);
    expect(end.dies.map((d) => d.step)).toEqual(run.device.per_die.map((d) => d.page_requests));
    expect(end.dies.every((d) => d.step > 0)).toBe(true);

    // The same trace as text: the same device at every moment.
    const text = readFileSync('traces/oltp.csv', 'utf8');
    const t = new DeviceSession(
      JSON.stringify({ ...base, workload: { kind: 'trace', fit: 'none', text } }),
      8,
      1,
      'page',
    );
    expect(t.total()).toBe(s.total());
    s.goto(0);
    for (let i = 0; i < 200; i++) {
      expect(t.step_op()).toBe(s.step_op());
      expect(t.moment()).toEqual(s.moment());
    }
    for (const x of [s, t, parser]) x.free();
  });

  it('refuses a parser that has not finished and page striping of BAST, with the core messages; block striping runs', () => {
    const unfinished = new TraceParser(JSON.stringify({ page_bytes: 512 }));
    expect(() => DeviceSession.from_trace(upload, 2, 1, 'page', unfinished)).toThrow(/not parsed yet/);
    unfinished.free();
    const parser = parsed('traces/hotcold.msr.csv');
    const bast = JSON.stringify({ ...JSON.parse(upload), scheme: 'bast' });
    expect(() => DeviceSession.from_trace(bast, 2, 1, 'page', parser)).toThrow(/needs block striping$/);
    const s = DeviceSession.from_trace(bast, 2, 1, 'block', parser);
    expect((s.moment() as DeviceMoment).hosts).toBeGreaterThan(1900);
    s.free();
    parser.free();
  });
});
