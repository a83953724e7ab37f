// Running a comparison or sweep: decide each run's chip and workload space from that run
// alone (the core's plan_runs, scenario::plan::plan), then run each to the end in the worker.
import type { SimClient } from '../sim/client';
import type { LatencyHistogram, Metrics, Plan, SeriesPoint, SessionInfo, Thumb } from '../sim/protocol';
import type { Scenario } from '../scenario/model';
import { isUploadWorkload, type TraceSummary } from '../trace/types';
import { applyPlan, planInput, type Planned } from './compare';

/** The workload space asked for: a number of pages for every run, `'common'` (the default,
 * issue 38: the smallest own space among the runs, so all replay one request list) or
 * `'own'` (each scheme's own space with its paper defaults). */
export type SpaceChoice = number | 'common' | 'own';

export interface PlanResult {
  plan: Plan;
  /** how the workload space was chosen: given, the common space of the set, or each run's own */
  spaceMode: 'given' | 'common' | 'own';
  planned: Planned[];
  /** the trace fit ('none' for generated workloads) and the pages a trace needs unchanged */
  fit: string;
  need: number;
  /** the trace fitted into the first runnable run's space (upload only): footprint and what the fit did */
  trace?: TraceSummary;
}

/** Does the request list depend on the workload space? The page-side mirror of
 * scenario::plan::space_shapes_requests (core-wasm/crates/sim/src/scenario/plan.rs):
 * generated workloads are made in the space and folded or compacted traces fitted into it;
 * a trace run unchanged (or on a scaled chip) and a pattern are the same requests in any space. */
export function spaceShapesRequests(w: Scenario['workload']): boolean {
  if (w.kind === 'pattern') return false;
  if (w.kind === 'trace') return w.fit === 'fold' || w.fit === 'compact';
  return true;
}

/** The common workload space of a set (scenario::plan::common_space, as `ftl sweep` uses it):
 * the smallest own logical space among the runs that can be built, from a plan made with no
 * trace and no space given (`plan_one(sc, Fit::None, None, None)` for each run). */
export function commonSpaceOf(own: Plan): number | undefined {
  const spaces = own.runs.flatMap((r) => (r.logical_pages === null ? [] : [r.logical_pages]));
  return spaces.length ? Math.min(...spaces) : undefined;
}

/** Decides the chip and workload space of every run, each alone with the space chosen
 * (`space`: see SpaceChoice; 0 is 'own'). Throws when no run can run. */
export async function planRuns(
  client: SimClient,
  base: Scenario,
  scenarios: Scenario[],
  space: SpaceChoice = 0,
): Promise<PlanResult> {
  let given = typeof space === 'number' ? space : 0;
  let spaceMode: PlanResult['spaceMode'] = given > 0 ? 'given' : 'own';
  if (space === 'common' && spaceShapesRequests(base.workload)) {
    // Each run is then planned alone with this space given, as `ftl run --space N`.
    const own = await client.plan(scenarios.map(planInput), 'none', 0, 0).catch(() => undefined);
    const common = own && commonSpaceOf(own);
    if (common) {
      given = common;
      spaceMode = 'common';
    }
  }
  const w = base.workload;
  let fit = 'none';
  let need = 0;
  if (w.kind === 'trace') {
    fit = typeof w.fit === 'string' ? w.fit : 'none';
    if (isUploadWorkload(w)) {
      // The trace's own extent, whatever the fit (fold never fails).
      const probe = await client.request('trace_fit', {
        pid: w.upload,
        scenario: { ...base, workload: { ...w, fit: 'fold' } },
      });
      if (probe.ok) need = probe.summary.needed_logical_pages;
    }
  }
  const plan = await client.plan(scenarios.map(planInput), fit, need, given);
  const planned = applyPlan(scenarios, plan);
  let trace: TraceSummary | undefined;
  const first = planned.find((p): p is Extract<Planned, { scenario: unknown }> => 'scenario' in p);
  if (first && isUploadWorkload(w)) {
    const r = await client.request('trace_fit', { pid: w.upload, scenario: first.scenario });
    if (r.ok) trace = r.summary;
  }
  return { plan, spaceMode, planned, fit, need, trace };
}

export interface Outcome {
  sid?: number;
  error?: string;
  info?: SessionInfo;
  total: number;
  metrics?: Metrics;
  series?: SeriesPoint[];
  latency?: LatencyHistogram;
  /** per-block summaries kept at evenly spaced requests (big chips: instant scrubbing) */
  frames?: Thumb[];
}

/** Requests at which a big chip's summary is kept: 0, total/count, ..., total. */
export function framePoints(total: number, count: number): number[] {
  const pts = new Set<number>();
  for (let i = 0; i <= count; i++) pts.add(Math.round((total * i) / count));
  return [...pts];
}

/**
 * Creates a Session and runs it to the end at full speed, in chunks of about 150 ms of
 * worker time (progress and cancel stay responsive). `keep`: leave the Session open
 * (compare steps through it afterwards); otherwise it is disposed (sweeps).
 */
export async function runOne(
  client: SimClient,
  scenario: Scenario,
  opts: {
    keep: boolean;
    cancelled: () => boolean;
    progress: (done: number, total: number) => void;
    frames?: { count: number; cells: number };
  },
): Promise<Outcome> {
  const created = await client.create(scenario);
  const sid = created.sid;
  try {
    const total = created.info.total_requests;
    let metrics: Metrics = created.snapshot.metrics;
    let chunk = 5000;
    let done = created.snapshot.step;
    // Big chips: stop at each frame point and keep the chip's per-block summary there.
    const points = opts.frames ? framePoints(total, opts.frames.count) : [];
    const frames: Thumb[] = [];
    const grab = async () => {
      if (opts.frames && points[frames.length] === done) frames.push(await client.thumb(sid, done, opts.frames.cells));
    };
    await grab();
    while (done < total && !opts.cancelled()) {
      const t0 = performance.now();
      const next = points[frames.length];
      const r = await client.run(sid, next !== undefined && opts.frames ? Math.min(chunk, next - done) : chunk);
      if (r.step === done) break;
      done = r.step;
      metrics = r.metrics;
      await grab();
      opts.progress(done, total);
      const dt = performance.now() - t0;
      chunk = Math.max(500, Math.min(2_000_000, Math.round(chunk * (150 / Math.max(10, dt)))));
    }
    const series = await client.series(sid);
    const latency = await client.latency(sid);
    if (!opts.keep) await client.dispose(sid);
    return {
      sid: opts.keep ? sid : undefined,
      info: created.info,
      total,
      metrics,
      series,
      latency,
      frames: opts.frames ? frames : undefined,
    };
  } catch (e) {
    void client.dispose(sid).catch(() => undefined);
    throw e;
  }
}
