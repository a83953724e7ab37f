// Messages between the page (client.ts) and the simulation worker (worker.ts / host.ts).
// Every request carries an id; the worker answers each one exactly once with the same id.
import type { TraceCommand, TraceResultMap } from './traceTypes';
import type { PageCommand, PageResultMap } from './pageTypes';
import type { Panel } from './generated/Panel';
import type { AssociativitySeries, CrashHere, CrashOutcome, SchemeCommand, SchemeData } from './schemeTypes';

import type { Session } from './pkg/ftlscope_wasm';
import type { PageCore } from './pageCore';
import type { LatencyHistogram } from './generated/LatencyHistogram';
import type { Metrics } from './generated/Metrics';
import type { Plan } from './generated/Plan';
import type { QueueView } from './generated/QueueView';
import type { SchemeView } from './generated/SchemeView';
import type { SeriesPoint } from './generated/SeriesPoint';
import type { SessionInfo } from './generated/SessionInfo';
import type { SimEvent } from './generated/SimEvent';

// The values the core returns: generated from its Rust types (scripts/gen-types.mjs).
export type { ChipInfo } from './generated/ChipInfo';
export type { QueueItem } from './generated/QueueItem';
export type { LatencyHistogram, Metrics, Plan, QueueView, SeriesPoint, SessionInfo, SimEvent };
/** The wasm classes, as wasm-bindgen declares them (web/src/sim/pkg, built by scripts/build-wasm.mjs). */
export type { Delta as WasmDelta, Session as WasmSession, TraceParser as WasmTraceParser } from './pkg/ftlscope_wasm';

/** A delta on the wire (parallel arrays: pages, then blocks), applied by the client (sim/patch.ts). */
export interface ChipDelta {
  pages: Uint32Array;
  states: Uint8Array;
  lpns: Uint32Array;
  blocks: Uint32Array;
  roles: Uint8Array;
  owners: Int32Array;
  eraseCounts: Uint32Array;
  /** the delta's blocks that serve several logical blocks */
  ownerSets: Record<string, number[]>;
}

/** The core's free functions scenario/ calls (scenario/loadCore.ts; loaded by sim/pageCore.ts). */
export type CoreFns = Pick<PageCore, 'catalog' | 'check_pattern'>;
export type { PatternCheck } from './generated/PatternCheck';

/** How the host builds a Session (the wasm class; tests pass a stand-in of the same shape). */
export type SessionConstructor = new (...args: ConstructorParameters<typeof Session>) => Session;

export type { Panel };

/** The scheme panels of a moment and whether the RAM holds them (core: stepper/view.rs, ftl/panel.rs). */
export type { SchemeView };

/** Everything the UI draws, captured after each command. */
export interface Snapshot {
  step: number;
  total: number;
  opCursor: number;
  opCount: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  /** every owner of the blocks that have several (absent when none) */
  ownerSets?: Record<string, number[]>;
  metrics: Metrics;
  events: SimEvent[];
  narration: string;
  view: SchemeView;
  /** false after a power cut until recover() */
  powered: boolean;
  /** a recovery's flash operations are being revealed */
  recovering: boolean;
  /** requests (0-based) interrupted by the power cuts recovered from, before this moment */
  cutRequests?: { index: number; survived: boolean }[];
  /** blocks the merge or GC under way will erase (its victims), while it runs */
  victims?: number[];
  /** the request queue at this moment (Session.queue(); docs/timing.md) */
  queue?: QueueView;
  /**
   * Wire only (huge chips, playback): the pages that changed since the last snapshot sent
   * for this Session, with `pageStates` left empty; the client rebuilds `pageStates`
   * and removes this field (sim/patch.ts).
   */
  pagePatch?: { idx: Uint32Array; val: Uint8Array };
  /**
   * Wire only (huge chips, op steps): what the move changed, with the chip's arrays left
   * empty; the client applies it to its copy and removes this field (sim/patch.ts).
   */
  chipDelta?: ChipDelta;
  /**
   * Set by the client when the arrays were rebuilt from a delta: the blocks it changed and
   * the page states it was applied to, so a grid showing those redraws only these blocks.
   */
  changed?: { blocks: Uint32Array; from: Uint8Array };
}

/** The run-wide log for the timeline and charts (covers requests < logUpto). */
export interface RunLog {
  /** flat [request index, bits, ...]: 1 merge, 2 GC, 4 metadata, 8 wrong read, 16 time shift, 32 power cut */
  markers: Uint32Array;
  logUpto: number;
  series: SeriesPoint[];
  latency: LatencyHistogram;
}

/** Progress of a chunk of run-ahead ('run_ahead'). */
export interface RunAheadResult {
  ran: number;
  step: number;
  total: number;
}

export type Command =
  | { type: 'create'; scenario: unknown }
  | { type: 'dispose'; sid: number }
  | { type: 'snapshot'; sid: number }
  | { type: 'step_op'; sid: number }
  | { type: 'step_request'; sid: number }
  | { type: 'back_op'; sid: number }
  | { type: 'seek'; sid: number; step: number }
  /**
   * Advance for playback: `op` reveals `count` flash operations; `request` runs
   * count-1 requests at full speed and then one with its events retained.
   */
  | { type: 'advance'; sid: number; unit: 'op' | 'request'; count: number }
  /** Exactly the moment after `step` requests and `ops` flash operations of the next one. */
  | { type: 'goto'; sid: number; step: number; ops: number }
  /** Run `count` more requests at full speed (no snapshot: for compare runs to the end). */
  | { type: 'run'; sid: number; count: number }
  /** Cumulative counts sampled over the run so far. */
  | { type: 'series'; sid: number }
  /** markers, series and latency histogram of what has run so far */
  | { type: 'run_log'; sid: number }
  /**
   * run up to `count` requests (no snapshot): "run to end" in chunks. With `ms`, the worker
   * stops after the slice that passes `ms` milliseconds, so each chunk takes about that long
   * whatever a request costs (progress and Cancel answer within it).
   */
  | { type: 'run_ahead'; sid: number; count: number; ms?: number }
  /** compare / sweep (web/src/compare): one chip and workload space for every run */
  | { type: 'plan'; runs: unknown[]; fit: string; need: number; space?: number }
  /** compare: go to `step` and return only what a thumbnail grid draws (no events, tables, LPNs) */
  | { type: 'thumb'; sid: number; step: number; cells?: number }
  /** the latency histogram of the current state (the moment shown) */
  | { type: 'latency'; sid: number }
  /** trace upload (web/src/trace) and scheme panels (web/src/schemes) */
  | TraceCommand
  | SchemeCommand
  | PageCommand;

export type CommandType = Command['type'];

export interface CreateResult {
  sid: number;
  info: SessionInfo;
  snapshot: Snapshot;
}

export interface StepResult {
  /** false when the command could not move (end of workload, or step 0 for back_op) */
  moved: boolean;
  snapshot: Snapshot;
}

export interface ResultMap extends TraceResultMap, SchemeResultMap, PageResultMap<Snapshot> {
  create: CreateResult;
  dispose: null;
  snapshot: Snapshot;
  step_op: StepResult;
  step_request: StepResult;
  back_op: StepResult;
  seek: StepResult;
  advance: StepResult;
  goto: StepResult;
  run: RunResult;
  series: SeriesPoint[];
  run_log: RunLog;
  run_ahead: RunAheadResult;
  plan: Plan;
  thumb: Thumb;
  latency: LatencyHistogram;
}

/** A compare run's state at one step, as little as a grid needs. */
export interface Thumb {
  step: number;
  total: number;
  /**
   * Set when the grid is a per-block summary (big chips): each block drawn as `cells`
   * cells holding its pages' states in proportion (valid, retractable, metadata,
   * invalid, erased, in that order); `pageStates` then has blocks x cells entries.
   */
  cells?: number;
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
  metrics: Metrics;
}

export interface RunResult {
  step: number;
  total: number;
  metrics: Metrics;
}

export type Request = Command & { id: number };

export type Response = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: string };

/** The worker's answers to the scheme panels' commands (schemeTypes.ts). */
export interface SchemeResultMap {
  scheme_data: SchemeData;
  workload_pattern: string;
  associativity_series: AssociativitySeries | null;
  crash_here: CrashHere;
  power_cut: StepResult;
  recover: StepResult;
  verdict: CrashOutcome | null;
}
