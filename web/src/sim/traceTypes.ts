// Trace upload: the worker commands, the wasm TraceParser's JSON (docs/session-api.md
// "Traces", docs/traces.md "The summary"), and how the page talks about them.

/** The wasm-bindgen `TraceParser` class (crates/wasm). */
export interface WasmTraceParser {
  feed(bytes: Uint8Array): string;
  finish(): string;
  fit(scenarioJson: string): string;
  free?(): void;
}

/** What the worker needs from the wasm module for traces. */
export interface TraceCore {
  TraceParser: new (optionsJson: string) => WasmTraceParser;
  /** `Session.from_trace(scenario_json, parser)` */
  fromTrace(scenarioJson: string, parser: WasmTraceParser): unknown;
  traceCatalog(): string;
  /** `trace_preview(head, rows, whole)` */
  tracePreview?(head: Uint8Array, rows: number, whole: boolean): string;
  /** The core's incremental SHA-256 (`Sha256Stream`). */
  Sha256?: new () => { update(bytes: Uint8Array): void; hex(): string; free?(): void };
}

export type TraceFormat =
  | 'umass'
  | 'msr'
  | 'blkparse'
  | 'disksim'
  | 'csv'
  | 'pattern'
  | 'alibaba'
  | 'fiu'
  | 'oracle_general'
  | 'vscsi'
  | 'vscsi2'
  | 'addresses';

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

/** The first rows of a file as the core reads them (trace/parse.rs `Preview`). */
export interface TracePreview {
  format: TraceFormat | null;
  compression: string | null;
  delimiter: string;
  header: string[] | null;
  rows: string[][];
  /** [role, 1-based column] */
  guessed: [Role, number][];
  op_values: string[];
  note: string | null;
}
export type TraceFit = 'none' | 'fold' | 'compact' | 'scale';

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

export interface TraceProgress {
  bytes: number;
  lines: number;
  records: number;
  requests: number;
  bad_lines: number;
  format: string | null;
  failed: boolean;
  /** The request limit was reached: the rest of the file is not read (call finish). */
  done?: boolean;
}

export interface LineError {
  line: number;
  column: number;
  message: string;
}

export interface TraceSummary {
  format: string;
  format_detected: boolean;
  bytes?: number;
  lines?: number;
  records: number;
  record_reads: number;
  record_writes: number;
  requests: number;
  reads: number;
  writes: number;
  read_share: number;
  page_bytes?: number;
  pages_per_block?: number;
  footprint_blocks: number;
  footprint_pages?: number;
  min_page: number;
  max_page: number;
  needed_logical_pages: number;
  logical_pages: number | null;
  fit: string;
  fit_note: string | null;
  /** the chip's block count after "scale the chip" grew it (null: the chip as given) */
  scaled_blocks?: number | null;
  fit_touched: number;
  out_of_range: number;
  fitted_footprint_blocks?: number | null;
  reads_of_unwritten?: number;
  ignored: Record<string, number>;
  skipped_lines: number;
  errors: LineError[];
  devices: [string, number][];
  sample: [number, number][];
  warnings: string[];
}

export type FinishResult =
  | { ok: true; summary: TraceSummary; columns?: [string, string][]; compression?: string | null }
  | { ok: false; error: { message: string; errors: LineError[]; bad_lines: number } };

export type FitResult = { ok: true; summary: TraceSummary } | { ok: false; message: string };

export interface TraceCatalog {
  formats: { name: string; description: string }[];
  generators: { kind: string; description: string }[];
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
  | { type: 'trace_open'; file: Blob; options: TraceOptions }
  | { type: 'trace_feed'; pid: number; offset: number; length: number }
  | { type: 'trace_finish'; pid: number }
  | { type: 'trace_fit'; pid: number; scenario: unknown }
  | { type: 'trace_drop'; pid: number }
  | { type: 'trace_catalog' }
  | { type: 'trace_preview'; file: Blob; rows: number }
  | { type: 'trace_hash'; file: Blob; offset: number; length: number };

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
