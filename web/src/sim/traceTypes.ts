// Trace upload: the worker commands, the wasm TraceParser's values (docs/session-api.md
// "Traces", docs/traces.md "The summary"; their types generated from the Rust), and how
// the page talks about them.
import type { LineError } from './generated/LineError';
import type { TraceCatalog } from './generated/TraceCatalog';
import type { Fit as TraceFit } from './generated/Fit';
import type { TraceFinish } from './generated/TraceFinish';
import type { TraceFitPreview } from './generated/TraceFitPreview';
import type { TraceFormat } from './generated/TraceFormat';
import type { TracePreview } from './generated/TracePreview';
import type { TraceProgress } from './generated/TraceProgress';
import type { TraceSummary } from './generated/TraceSummary';

export type { LineError, TraceCatalog, TraceFit, TraceFormat, TracePreview, TraceProgress, TraceSummary };
/** `TraceParser.finish()` */
export type FinishResult = TraceFinish;
/** `TraceParser.fit(scenario)` */
export type FitResult = TraceFitPreview;

/** What the worker needs from the wasm module for traces (the module's own declarations). */
export type TraceCore = Pick<
  typeof import('./pkg/ftlscope_wasm'),
  'TraceParser' | 'Session' | 'Sha256Stream' | 'trace_catalog' | 'trace_preview'
>;

export type Unit = 'bytes' | 'sectors' | 'pages';
export type Role = 'op' | 'address' | 'size' | 'device' | 'time';
export const ROLES: Role[] = ['op', 'address', 'size', 'device', 'time'];

/** The core's column mapping (crates/sim trace/parse.rs `Mapping`): a header name or a 1-based column number per role. */
export interface Mapping {
  op?: { column: string; unit?: Unit };
  address?: { column: string; unit?: Unit };
  size?: { column: string; unit?: Unit };
  device?: { column: string; unit?: Unit };
  time?: { column: string; unit?: Unit };
  write_ops?: string[];
  read_ops?: string[];
}

/** TraceParser options (all optional; absent format = auto-detect). */
export interface TraceOptions {
  format?: TraceFormat;
  page_bytes?: number;
  device?: string;
  skip_bad_lines?: boolean;
  max_errors?: number;
  blkparse_action?: string;
  pages_per_block?: number;
  mapping?: Mapping;
}

/**
 * A workload that runs an upload already parsed in the worker: the scenario JSON's
 * `{kind: "trace", fit, ...}` plus `upload` (the parser's id in the worker) and `name`
 * (the file name, for people). Neither goes to the core; the upload never leaves the browser.
 */
export interface UploadWorkload {
  kind: 'trace';
  name: string;
  upload: number;
  fit: TraceFit;
  format?: TraceFormat;
  device?: string;
  skip_bad_lines?: boolean;
  /** the column mapping as JSON (a string, so it travels in links like the other options) */
  mapping?: string;
  /** the file's size and SHA-256 (hex): a link reopened with another file is refused */
  size?: number;
  sha256?: string;
}

/** Page-side fields of a trace workload: never sent to the core. */
const PAGE_SIDE = ['upload', 'name', 'mapping', 'size', 'sha256', 'missing'];

export type TraceCommand =
  /** `first`: the first chunk's length, read from the open on (before its trace_feed arrives). */
  | { type: 'trace_open'; file: Blob; options: TraceOptions; first?: number }
  /** `next`: the length the page asks for next, read ahead while this chunk is parsed (else `length`). */
  | { type: 'trace_feed'; pid: number; offset: number; length: number; next?: number }
  | { type: 'trace_finish'; pid: number }
  | { type: 'trace_fit'; pid: number; scenario: unknown }
  | { type: 'trace_drop'; pid: number }
  | { type: 'trace_catalog' }
  | { type: 'trace_preview'; file: Blob; rows: number }
  /**
   * `whole`: the file's digest in one go by the platform's SHA-256 (`crypto.subtle`, off the
   * worker's thread), or null at once, nothing hashed, where it has none (not a secure context).
   */
  | { type: 'trace_hash'; file: Blob; offset: number; length: number; whole?: boolean };

export interface TraceResultMap {
  trace_open: { pid: number; size: number };
  trace_feed: TraceProgress;
  trace_finish: FinishResult;
  trace_fit: FitResult;
  trace_drop: null;
  trace_catalog: TraceCatalog;
  trace_preview: TracePreview;
  /** After the last slice: SHA-256 of the file, lower-case hex; before it, null. */
  trace_hash: string | null;
}

export function isUploadWorkload(w: unknown): w is UploadWorkload {
  return (
    typeof w === 'object' &&
    w !== null &&
    (w as { kind?: unknown }).kind === 'trace' &&
    typeof (w as { upload?: unknown }).upload === 'number'
  );
}

/** The scenario JSON the core reads: the upload's page-side fields removed. */
export function coreScenario(scenario: unknown): unknown {
  if (typeof scenario !== 'object' || scenario === null) return scenario;
  const s = scenario as { workload?: unknown };
  if (!isUploadWorkload(s.workload)) return scenario;
  const workload = Object.fromEntries(Object.entries(s.workload).filter(([k]) => !PAGE_SIDE.includes(k)));
  return { ...s, workload };
}
