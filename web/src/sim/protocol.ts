// Messages between the page (client.ts) and the simulation worker (worker.ts / host.ts).
// Every request carries an id; the worker answers each one exactly once with the same id.
import type { TraceCommand, TraceResultMap } from './traceTypes';
import type { PageCommand, PageResultMap } from './pageTypes';
import type { Panel } from './generated/Panel';
import type {
  AssociativitySeries,
  CrashHere,
  LatencyHistogram,
  SchemeCommand,
  SchemeData,
  Verdict,
} from './schemeTypes';

import type { QueueView } from './generated/QueueView';
import type { SeriesPoint } from './generated/SeriesPoint';

export type { LatencyHistogram };
// Generated from the Rust types (scripts/gen-types.mjs).
export type { QueueItem } from './generated/QueueItem';
export type { QueueView, SeriesPoint };

/** What the wasm-bindgen `Session` class offers (docs/session-api.md). */
export interface WasmSession {
  info(): string;
  step(): number;
  total(): number;
  op_cursor(): number;
  op_count(): number;
  step_op(): boolean;
  step_request(): boolean;
  run(n: number): number;
  seek(step: number): void;
  back_op(): boolean;
  page_states(): Uint8Array;
  page_lpns(): Uint32Array;
  block_roles(): Uint8Array;
  block_erase_counts(): Uint32Array;
  block_owners(): Int32Array;
  /** blocks serving several logical blocks: JSON {pbn: [lbn, ...]} (KRAFT/KAST shared logs) */
  block_owner_sets?(): string;
  /** the next request run on a copy, classified (prediction answers) */
  predict_next?(): string;
  metrics(): string;
  events(): string;
  narration(): string;
  view(): string;
  /** power cut and recovery (docs/session-api.md, "Power cut and recovery") */
  power_cut?(): void;
  powered?(): boolean;
  recovering?(): boolean;
  /** blocks the merge or GC under way will erase, while it runs */
  victims?(): Uint32Array;
  recover?(): void;
  verdict?(): string;
  /** requests interrupted by the cuts recovered from: flat [index, survived 0/1, ...] */
  cut_requests?(): Uint32Array;
  /** the state after `step` requests and `ops` flash operations of the next one */
  goto?(step: number, ops: number): void;
  /** what changed since the last call (snapshots by change, docs/session-api.md) */
  take_delta?(): WasmDelta;
  /** cumulative counts sampled over the run (docs/session-api.md) */
  series?(): string;
  markers?(): Uint32Array;
  log_upto?(): number;
  latency_histogram?(): string;
  /** the request queue at this moment (docs/timing.md): JSON QueueView */
  queue?(): string;
  free?(): void;
}

/** Session.take_delta(): the pages and blocks the moves since the last call touched. */
export interface WasmDelta {
  full(): boolean;
  pages(): Uint32Array;
  page_states(): Uint8Array;
  page_lpns(): Uint32Array;
  blocks(): Uint32Array;
  block_roles(): Uint8Array;
  block_owners(): Int32Array;
  block_erase_counts(): Uint32Array;
  owner_sets(): string;
  free?(): void;
}

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

export type SessionConstructor = new (scenarioJson: string) => WasmSession;

export interface ChipInfo {
  name: string;
  blocks: number;
  pages_per_block: number;
  page_bytes: number;
  spare_bytes: number;
  timing: { read_us: number; read_oob_us: number; program_us: number; erase_us: number };
}

export interface SessionInfo {
  scheme: string;
  scheme_label: string;
  chip: ChipInfo;
  logical_pages: number;
  total_requests: number;
  /** FNV-1a 64 of the request list (trace::request_hash): equal hashes, equal requests */
  request_hash?: string;
  params: Record<string, unknown>;
  /** every parameter the scheme reads, with its value on this chip (given or the default) */
  params_resolved?: Record<string, number>;
  /** hybrid schemes: the log blocks the run uses (the parameter or the scheme's default) */
  log_blocks_used?: number | null;
  /** the space the workload was generated or fitted in (a comparison's run), when set */
  workload_space?: number | null;
  precondition?: { fill: boolean; random_writes: number; seed: number; writes: number } | null;
}

export type { Panel };

export type EventKind = 'read' | 'read_oob' | 'program' | 'erase' | 'note';

export interface SimEvent {
  kind: EventKind;
  pbn?: number | null;
  page?: number | null;
  lpn?: number | null;
  cause?: string | null;
  text?: string | null;
}

/** The scheme panels of a moment (core: ftl/panel.rs, generated types). */
export interface SchemeViewData {
  panels: Panel[];
}

/** Metrics JSON (docs/cli.md); read defensively, new fields are shown generically. */
export type Metrics = Record<string, unknown>;

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
  view: SchemeViewData;
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

/** Session.latency_histogram(): [response time µs, count] pairs (defined in schemeTypes.ts). */

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
  /** run up to `count` requests at full speed (no snapshot): "run to end" in chunks */
  | { type: 'run_ahead'; sid: number; count: number }
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

/** trace::plan::Plan (core-wasm/crates/sim/src/trace/plan.rs): each run planned alone. */
export interface Plan {
  fit: string;
  /** the workload space given for every run (null: each run's own) */
  space: number | null;
  runs: {
    blocks: number;
    pages_per_block: number;
    /** the scheme's own logical space on the run's chip */
    logical_pages: number | null;
    /** the space the run's workload is generated or fitted in */
    workload_pages: number | null;
    error: string | null;
  }[];
  note: string;
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
  verdict: Verdict | null;
}
