// Trace upload: a button (and a drop zone over the whole page) that reads a block I/O
// trace in the worker, shows its summary and the mapping choices, and runs it.
// Parsing is the core's (Rust, in the worker); the file never leaves the browser.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import {
  CHIPS,
  MAX_PAGES,
  SCHEMES,
  chipSpec,
  defaultParams,
  defaultScenario,
  type ChipPreset,
  type Scenario,
} from '../scenario/model';
import type { Moment, ShareState } from '../scenario/share';
import { AddressPlot } from './AddressPlot';
import { MappingEditor } from './MappingEditor';
import type {
  FitResult,
  LineError,
  Mapping,
  TraceCatalog,
  TraceFit,
  TraceFormat,
  TracePreview,
  TraceProgress,
  TraceSummary,
  UploadWorkload,
} from './types';
import { Cancelled, PRESET_PAGE_BYTES, formatBytes, hashUpload, parseUpload } from './upload';
import './trace.css';

export interface TraceUploadProps {
  client: SimClient | null;
  /** the scenario on screen: its scheme and chip are the trace's defaults */
  current: Scenario | null;
  /** `at`: the moment to open on (a reopened link's) */
  onRun: (scenario: Scenario, at?: Moment) => void;
  /**
   * A link or scenario file whose trace is being provided again: the next file chosen
   * is checked against its size and SHA-256, parsed with its options and run on its
   * scheme and chip at its moment.
   */
  reopen?: ShareState | null;
  /** the reopen ended (ran, refused and closed, or cancelled) */
  onReopenEnd?: () => void;
}

/** Why `file` is not the trace a link was made with, or null when it is. */
export function mismatch(
  expect: { name: string; size?: unknown; sha256?: unknown },
  size: number,
  sha256: string | null,
): string | null {
  if (typeof expect.size === 'number' && expect.size !== size) {
    return `This is not the file the link was made with: “${expect.name}” had ${expect.size.toLocaleString('en-US')} bytes, this file has ${size.toLocaleString('en-US')}.`;
  }
  if (typeof expect.sha256 === 'string' && sha256 !== null && expect.sha256 !== sha256) {
    return `This is not the file the link was made with: same size, but its SHA-256 differs (${sha256.slice(0, 12)}… instead of ${expect.sha256.slice(0, 12)}…).`;
  }
  return null;
}

type Phase =
  | { kind: 'reading'; fraction: number; progress: TraceProgress | null }
  | { kind: 'failed'; message: string; errors: LineError[]; badLines: number }
  | { kind: 'ready'; pid: number; summary: TraceSummary; columns?: [string, string][] };

const FITS: { id: TraceFit; label: string; help: string }[] = [
  {
    id: 'compact',
    label: 'Compact',
    help: 'renumber the touched logical blocks densely, in first-touch order (keeps locality)',
  },
  { id: 'fold', label: 'Fold', help: 'page modulo the logical space' },
  { id: 'scale', label: 'Scale the chip', help: 'keep the addresses and grow the chip until they fit' },
  { id: 'none', label: 'As is', help: 'only if every address is already inside the logical space' },
];

const IGNORED_LABELS: Record<string, string> = {
  other_device: 'records of other devices',
  other_action: 'blkparse lines of other actions',
  not_read_write: 'neither read nor write (discard, flush)',
  zero_size: 'zero-size records',
  blkparse_statistics: 'blkparse statistics lines',
  comments: 'comment lines',
  beyond_limit: 'records beyond the request limit',
};

export function lineErrorText(e: LineError): string {
  return `line ${e.line}, column ${e.column}: ${e.message}`;
}

function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

function n(x: number | null | undefined): string {
  return x == null ? '—' : x.toLocaleString('en-US');
}

/** Physical pages of the chip a fit ends on ("scaled the chip from A to B blocks"). */
export function chipPagesAfterFit(note: string | null | undefined, blocks: number, ppb: number): number {
  const m = note?.match(/to (\d+) blocks/);
  return (m ? Number(m[1]) : blocks) * ppb;
}

const HINT =
  'Read a block I/O trace (SPC, MSR, blkparse, DiskSim/MQSim, Alibaba, FIU, oracleGeneral, any CSV you map, or a pattern; .gz and .zst too), or drop a file anywhere on the page. It stays in your browser.';

/** Keep Tab inside the dialog (it is modal). */
function trapFocus(e: KeyboardEvent, root: HTMLElement | null): void {
  if (!root) return;
  const items = [
    ...root.querySelectorAll<HTMLElement>('button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])'),
  ].filter((el) => !(el as HTMLButtonElement).disabled && el.offsetParent !== null);
  if (items.length === 0) return;
  const first = items[0];
  const last = items[items.length - 1];
  if (e.shiftKey && (document.activeElement === first || document.activeElement === root)) {
    e.preventDefault();
    last.focus();
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault();
    first.focus();
  }
}

function hasFiles(e: DragEvent): boolean {
  return !!e.dataTransfer && Array.from(e.dataTransfer.types).includes('Files');
}

export function TraceUpload({ client, current, onRun, reopen, onReopenEnd }: TraceUploadProps) {
  const [file, setFile] = useState<File | null>(null);
  const [dragging, setDragging] = useState(false);
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The parsed trace of the run on screen stays in the worker (re-runs need it); older ones are dropped.
  const runPid = useRef<number | null>(null);

  // Drop anywhere on the page.
  useEffect(() => {
    let depth = 0;
    const enter = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth++;
      setDragging(true);
    };
    const over = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy';
    };
    const leave = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      depth = Math.max(0, depth - 1);
      if (depth === 0) setDragging(false);
    };
    const drop = (e: DragEvent) => {
      if (!hasFiles(e)) return;
      e.preventDefault();
      depth = 0;
      setDragging(false);
      const f = e.dataTransfer?.files?.[0];
      if (f) setFile(f);
    };
    window.addEventListener('dragenter', enter);
    window.addEventListener('dragover', over);
    window.addEventListener('dragleave', leave);
    window.addEventListener('drop', drop);
    return () => {
      window.removeEventListener('dragenter', enter);
      window.removeEventListener('dragover', over);
      window.removeEventListener('dragleave', leave);
      window.removeEventListener('drop', drop);
    };
  }, []);

  return (
    <div className="trace-upload">
      <label htmlFor={inputId} className="button-like" data-testid="trace-pick" title={HINT}>
        Upload trace…
      </label>
      <input
        id={inputId}
        ref={inputRef}
        type="file"
        className="visually-hidden"
        data-testid="trace-input"
        aria-describedby={`${inputId}-hint`}
        disabled={!client}
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) setFile(f);
          e.target.value = '';
        }}
      />
      <span id={`${inputId}-hint`} className="visually-hidden">
        {HINT}
      </span>
      {dragging && (
        <div className="drop-overlay" data-testid="drop-overlay" aria-hidden="true">
          <p>Drop the trace to read it</p>
        </div>
      )}
      {file && client && (
        <TraceDialog
          key={`${file.name}:${file.size}:${file.lastModified}`}
          client={client}
          file={file}
          current={reopen ? reopen.scenario : current}
          reopen={reopen ?? null}
          onClose={() => {
            setFile(null);
            if (reopen) onReopenEnd?.();
            inputRef.current?.focus();
          }}
          onRun={(s, at) => {
            const pid = (s.workload as unknown as UploadWorkload).upload;
            if (client && runPid.current !== null && runPid.current !== pid) {
              void client.request('trace_drop', { pid: runPid.current }).catch(() => undefined);
            }
            runPid.current = pid;
            setFile(null);
            if (reopen) onReopenEnd?.();
            onRun(s, at);
          }}
        />
      )}
    </div>
  );
}

interface DialogProps {
  client: SimClient;
  file: File;
  current: Scenario | null;
  reopen: ShareState | null;
  onClose: () => void;
  onRun: (s: Scenario, at?: Moment) => void;
}

function parseMapping(json: unknown): Mapping | null {
  if (typeof json !== 'string' || !json) return null;
  try {
    const m = JSON.parse(json) as unknown;
    return typeof m === 'object' && m !== null ? (m as Mapping) : null;
  } catch {
    return null;
  }
}

function TraceDialog({ client, file, current, reopen, onClose, onRun }: DialogProps) {
  const ids = {
    title: useId(),
    format: useId(),
    device: useId(),
    scheme: useId(),
    chip: useId(),
    blocks: useId(),
    ppb: useId(),
  };
  // A reopened link's trace options (its workload); else none.
  const was =
    reopen && reopen.scenario.workload.kind === 'trace'
      ? (reopen.scenario.workload as unknown as Partial<UploadWorkload> & { name: string })
      : null;
  const [catalog, setCatalog] = useState<TraceCatalog | null>(null);
  const [format, setFormat] = useState<TraceFormat | ''>((was?.format as TraceFormat | undefined) ?? '');
  const [device, setDevice] = useState(was?.device ?? '');
  const [skipBad, setSkipBad] = useState(!!was?.skip_bad_lines);
  const [mapping, setMapping] = useState<Mapping | null>(parseMapping(was?.mapping));
  const [preview, setPreview] = useState<TracePreview | null>(null);
  const [digest, setDigest] = useState<string | null>(null);
  const refused = was ? mismatch(was, file.size, digest) : null;
  const [scheme, setScheme] = useState(current?.scheme ?? defaultScenario().scheme);
  const [params, setParams] = useState(current?.params ?? defaultParams(defaultScenario().scheme));
  const [preset, setPreset] = useState<ChipPreset>(current?.chip.preset ?? 'classroom');
  const [blocks, setBlocks] = useState<number>(
    current?.chip.blocks ?? chipSpec(current?.chip.preset ?? 'classroom')?.blocks ?? 16,
  );
  const [ppb, setPpb] = useState<number>(
    current?.chip.pages_per_block ?? chipSpec(current?.chip.preset ?? 'classroom')?.pages_per_block ?? 4,
  );
  const [fit, setFit] = useState<TraceFit>((was?.fit as TraceFit | undefined) ?? 'compact');
  const [phase, setPhase] = useState<Phase>({ kind: 'reading', fraction: 0, progress: null });
  const [fitResult, setFitResult] = useState<FitResult | null>(null);
  const [devices, setDevices] = useState<[string, number][]>([]);
  const pageBytes = PRESET_PAGE_BYTES[preset] ?? 512;
  const abortRef = useRef<AbortController | null>(null);
  const pidRef = useRef<number | null>(null);
  const dialogRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    void client.request('trace_catalog', {}).then(setCatalog, () => undefined);
    void client.request('trace_preview', { file, rows: 8 }).then(setPreview, () => undefined);
    dialogRef.current?.focus();
  }, [client, file]);

  // The file's SHA-256, in the worker slice by slice (the file never leaves the browser
  // and is never copied whole): links carry it so a reopened link can check that the
  // file given again is the same one.
  useEffect(() => {
    let live = true;
    hashUpload(client, file).then(
      (h) => live && setDigest(h),
      () => live && setDigest(''),
    );
    return () => {
      live = false;
    };
  }, [client, file]);

  const mappingJson = mapping ? JSON.stringify(mapping) : '';

  // Read (again) whenever the file or a parse option changes.
  useEffect(() => {
    const ac = new AbortController();
    abortRef.current = ac;
    setPhase({ kind: 'reading', fraction: 0, progress: null });
    setFitResult(null);
    let last = 0;
    parseUpload(
      client,
      file,
      {
        format: format || undefined,
        device: device || undefined,
        skip_bad_lines: skipBad,
        page_bytes: pageBytes,
        pages_per_block: ppb,
        mapping: mappingJson ? (JSON.parse(mappingJson) as Mapping) : undefined,
      },
      (fraction, progress) => {
        const now = performance.now();
        if (now - last > 80 || fraction >= 1) {
          last = now;
          if (!ac.signal.aborted) setPhase({ kind: 'reading', fraction, progress });
        }
      },
      ac.signal,
    ).then(
      ({ pid, result }) => {
        if (ac.signal.aborted) {
          void client.request('trace_drop', { pid }).catch(() => undefined);
          return;
        }
        const old = pidRef.current;
        if (old !== null) void client.request('trace_drop', { pid: old }).catch(() => undefined);
        pidRef.current = pid;
        if (result.ok) {
          setPhase({ kind: 'ready', pid, summary: result.summary, columns: result.columns });
          if (!device) setDevices(result.summary.devices ?? []);
        } else {
          setPhase({
            kind: 'failed',
            message: result.error.message,
            errors: result.error.errors ?? [],
            badLines: result.error.bad_lines ?? 0,
          });
        }
      },
      (e: unknown) => {
        if (e instanceof Cancelled || ac.signal.aborted) return;
        setPhase({ kind: 'failed', message: (e as Error).message, errors: [], badLines: 0 });
      },
    );
    return () => ac.abort();
  }, [client, file, format, device, skipBad, pageBytes, ppb, mappingJson]);

  // Drop the parser when the dialog goes away without running.
  const ran = useRef(false);
  useEffect(
    () => () => {
      abortRef.current?.abort();
      if (!ran.current && pidRef.current !== null)
        void client.request('trace_drop', { pid: pidRef.current }).catch(() => undefined);
    },
    [client],
  );

  const scenario = useCallback(
    (pid: number): Scenario => {
      const workload: UploadWorkload = { kind: 'trace', name: file.name, upload: pid, fit, size: file.size };
      if (format) workload.format = format;
      if (device) workload.device = device;
      if (skipBad) workload.skip_bad_lines = true;
      if (mappingJson) workload.mapping = mappingJson;
      if (digest) workload.sha256 = digest;
      return { scheme, params, chip: { preset, blocks, pages_per_block: ppb }, workload } as unknown as Scenario;
    },
    [file.name, file.size, fit, format, device, skipBad, scheme, params, preset, blocks, ppb, mappingJson, digest],
  );

  // Preview the fit on the chosen scheme and chip.
  const readyPid = phase.kind === 'ready' ? phase.pid : null;
  useEffect(() => {
    if (readyPid === null) return;
    let live = true;
    setFitResult(null);
    client.request('trace_fit', { pid: readyPid, scenario: scenario(readyPid) }).then(
      (r) => live && setFitResult(r),
      (e: unknown) => live && setFitResult({ ok: false, message: (e as Error).message }),
    );
    return () => {
      live = false;
    };
  }, [client, readyPid, scenario]);

  const close = () => {
    abortRef.current?.abort();
    onClose();
  };

  const summary = phase.kind === 'ready' ? phase.summary : null;
  const fitted = fitResult?.ok ? fitResult.summary : null;
  const chipPages = fitted ? chipPagesAfterFit(fitted.fit_note, blocks, ppb) : blocks * ppb;
  const tooBig = chipPages > MAX_PAGES;
  // A reopened link waits for the checksum and refuses another file.
  const canRun = phase.kind === 'ready' && !!fitted && !tooBig && !refused && (!was || digest !== null);
  const showMapping = !!preview && !preview.note && (preview.format === 'csv' || preview.format === null || !!mapping);

  // A reopened link runs by itself once the same file is read: it lands on the link's moment.
  const autoRan = useRef(false);
  useEffect(() => {
    if (!reopen || !canRun || autoRan.current || phase.kind !== 'ready') return;
    autoRan.current = true;
    ran.current = true;
    onRun(scenario(phase.pid), reopen.at);
  }, [reopen, canRun, phase, scenario, onRun]);

  return (
    <div className="modal-backdrop">
      <div
        className="modal trace-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={ids.title}
        tabIndex={-1}
        ref={dialogRef}
        data-testid="trace-dialog"
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Escape') close();
          if (e.key === 'Tab') trapFocus(e.nativeEvent, dialogRef.current);
        }}
      >
        <header className="modal-head">
          <h2 id={ids.title}>
            Trace <span className="file-name">{file.name}</span>{' '}
            <span className="muted">({formatBytes(file.size)})</span>
          </h2>
          <button type="button" onClick={close} aria-label="Close the trace dialog">
            Close
          </button>
        </header>

        <div className="trace-options">
          <div className="field">
            <label htmlFor={ids.format}>Format</label>
            <select
              id={ids.format}
              value={format}
              data-testid="trace-format"
              onChange={(e) => setFormat(e.target.value as TraceFormat | '')}
            >
              <option value="">Detect automatically{summary && !format ? ` (${summary.format})` : ''}</option>
              {(catalog?.formats ?? []).map((f) => (
                <option key={f.name} value={f.name} title={f.description}>
                  {f.name}
                </option>
              ))}
            </select>
          </div>
          {(devices.length > 1 || device) && (
            <div className="field">
              <label htmlFor={ids.device}>Device</label>
              <select
                id={ids.device}
                value={device}
                data-testid="trace-device"
                onChange={(e) => setDevice(e.target.value)}
              >
                <option value="">All {devices.length} devices (one address space)</option>
                {devices.map(([d, count]) => (
                  <option key={d} value={d}>
                    {d} ({n(count)} records)
                  </option>
                ))}
              </select>
            </div>
          )}
          <label className="check">
            <input
              type="checkbox"
              checked={skipBad}
              data-testid="trace-skip-bad"
              onChange={(e) => setSkipBad(e.target.checked)}
            />{' '}
            Skip bad lines
          </label>
        </div>

        {was && (
          <p
            className={refused ? 'alert' : 'hint'}
            role={refused ? 'alert' : undefined}
            data-testid={refused ? 'trace-refused' : 'trace-reopen'}
          >
            {refused ??
              (digest === null
                ? `Checking that this is the file the link was made with (“${was.name}”)…`
                : `This is the file the link was made with; it opens at step ${reopen?.at.step.toLocaleString('en-US')}.`)}
          </p>
        )}

        {showMapping && preview && (
          <MappingEditor
            preview={preview}
            mapping={mapping}
            onChange={setMapping}
            readAs={phase.kind === 'ready' ? phase.columns : null}
          />
        )}

        {phase.kind === 'reading' && (
          <div className="reading" data-testid="trace-reading">
            <label>
              Reading in the worker…{' '}
              {phase.progress ? `${n(phase.progress.lines)} lines, ${n(phase.progress.requests)} page requests` : ''}
              <progress max={1} value={phase.fraction} data-testid="trace-progress" />
            </label>
            <button type="button" onClick={close} data-testid="trace-cancel">
              Cancel
            </button>
          </div>
        )}

        {phase.kind === 'failed' && (
          <div className="trace-failed" role="alert" data-testid="trace-error">
            <p className="alert">{phase.message}</p>
            {phase.errors.length > 0 && (
              <>
                <ul className="line-errors" data-testid="trace-line-errors">
                  {phase.errors.map((e, i) => (
                    <li key={i}>{lineErrorText(e)}</li>
                  ))}
                </ul>
                <p className="hint">
                  {n(phase.badLines)} bad line{phase.badLines === 1 ? '' : 's'} seen.{' '}
                  {!skipBad && (
                    <button
                      type="button"
                      className="link"
                      onClick={() => setSkipBad(true)}
                      data-testid="trace-skip-bad-now"
                    >
                      Skip bad lines and read again
                    </button>
                  )}
                </p>
              </>
            )}
          </div>
        )}

        {summary && (
          <div className="trace-summary" data-testid="trace-summary">
            <div className="summary-cols">
              <dl className="summary-list">
                <div>
                  <dt>Format</dt>
                  <dd data-testid="trace-format-detected">
                    {summary.format} {summary.format_detected ? '(detected)' : '(chosen)'}
                  </dd>
                </div>
                <div>
                  <dt>Records</dt>
                  <dd>
                    {n(summary.records)} ({n(summary.record_writes)} writes, {n(summary.record_reads)} reads)
                  </dd>
                </div>
                <div>
                  <dt>Page requests</dt>
                  <dd data-testid="trace-requests">{n(summary.requests)}</dd>
                </div>
                <div>
                  <dt>Read / write</dt>
                  <dd>
                    {pct(summary.read_share)} reads · {n(summary.writes)} writes
                  </dd>
                </div>
                <div>
                  <dt>Footprint</dt>
                  <dd>
                    {n(summary.footprint_blocks)} logical blocks (pages {n(summary.min_page)}–{n(summary.max_page)})
                  </dd>
                </div>
                {summary.skipped_lines > 0 && (
                  <div>
                    <dt>Skipped lines</dt>
                    <dd data-testid="trace-skipped">{n(summary.skipped_lines)}</dd>
                  </div>
                )}
                {Object.entries(summary.ignored ?? {})
                  .filter(([, v]) => v > 0)
                  .map(([k, v]) => (
                    <div key={k}>
                      <dt>Ignored</dt>
                      <dd>
                        {n(v)} {IGNORED_LABELS[k] ?? k}
                      </dd>
                    </div>
                  ))}
              </dl>
              <AddressPlot sample={summary.sample ?? []} requests={summary.requests} />
            </div>
            {summary.warnings?.length > 0 && (
              <ul className="trace-warnings" data-testid="trace-warnings">
                {summary.warnings.map((w, i) => (
                  <li key={i}>{w}</li>
                ))}
              </ul>
            )}
            {summary.errors?.length > 0 && (
              <details className="skipped-errors">
                <summary>First skipped lines</summary>
                <ul className="line-errors">
                  {summary.errors.map((e, i) => (
                    <li key={i}>{lineErrorText(e)}</li>
                  ))}
                </ul>
              </details>
            )}

            <fieldset className="trace-target">
              <legend>Run it on</legend>
              <div className="field-row">
                <div className="field">
                  <label htmlFor={ids.scheme}>Scheme</label>
                  <select
                    id={ids.scheme}
                    value={scheme}
                    data-testid="trace-scheme"
                    onChange={(e) => {
                      setScheme(e.target.value);
                      setParams(defaultParams(e.target.value));
                    }}
                  >
                    {SCHEMES.map((s) => (
                      <option key={s.id} value={s.id}>
                        {s.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field">
                  <label htmlFor={ids.chip}>Chip</label>
                  <select
                    id={ids.chip}
                    value={preset}
                    data-testid="trace-chip"
                    onChange={(e) => {
                      const c = chipSpec(e.target.value);
                      setPreset(e.target.value as ChipPreset);
                      // The chip's own geometry (issue 27: a trace runs on the chip it names;
                      // the single view's smaller suggestion is for stepping by hand).
                      if (c) {
                        setBlocks(c.blocks);
                        setPpb(c.pages_per_block);
                      }
                    }}
                  >
                    {CHIPS.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                </div>
                <div className="field narrow">
                  <label htmlFor={ids.blocks}>Blocks</label>
                  <input
                    id={ids.blocks}
                    type="number"
                    min={2}
                    value={blocks}
                    data-testid="trace-blocks"
                    onChange={(e) => setBlocks(Math.max(2, Math.floor(Number(e.target.value) || 2)))}
                  />
                </div>
                <div className="field narrow">
                  <label htmlFor={ids.ppb}>Pages/block</label>
                  <input
                    id={ids.ppb}
                    type="number"
                    min={2}
                    value={ppb}
                    data-testid="trace-ppb"
                    onChange={(e) => setPpb(Math.max(2, Math.floor(Number(e.target.value) || 2)))}
                  />
                </div>
              </div>
              {(SCHEMES.find((x) => x.id === scheme)?.params.length ?? 0) > 0 && (
                <div className="field-row" data-testid="trace-params">
                  {SCHEMES.find((x) => x.id === scheme)?.params.map((p) => (
                    <div className="field narrow" key={p.key}>
                      <label htmlFor={`${ids.scheme}-${p.key}`}>{p.label}</label>
                      <input
                        id={`${ids.scheme}-${p.key}`}
                        type="number"
                        min={p.min}
                        max={p.max}
                        step={p.step}
                        placeholder={p.hint}
                        value={(params as Record<string, number | undefined>)[p.key] ?? ''}
                        data-testid={`trace-param-${p.key}`}
                        onChange={(e) => {
                          const v = e.target.value === '' ? NaN : Number(e.target.value);
                          setParams((old) => {
                            const next = { ...old, [p.key]: v } as Record<string, number>;
                            if (Number.isNaN(v)) delete next[p.key];
                            return next as typeof old;
                          });
                        }}
                      />
                    </div>
                  ))}
                </div>
              )}
              <div className="fit-choices" role="radiogroup" aria-label="Addresses beyond the logical space">
                {FITS.map((f) => (
                  <label key={f.id} className="check" title={f.help}>
                    <input
                      type="radio"
                      name="trace-fit"
                      value={f.id}
                      checked={fit === f.id}
                      onChange={() => setFit(f.id)}
                      data-testid={`trace-fit-${f.id}`}
                    />{' '}
                    {f.label}
                  </label>
                ))}
              </div>
              <p className="hint">{FITS.find((f) => f.id === fit)?.help}</p>
              <div className="fit-preview" aria-live="polite" data-testid="trace-fit-preview">
                {!fitResult && <p className="muted">Checking the fit…</p>}
                {fitResult && !fitResult.ok && <p className="alert">{fitResult.message}</p>}
                {fitted && (
                  <p>
                    {fitted.fit_note ?? 'Every address fits as it is.'} — {n(fitted.fit_touched)} of{' '}
                    {n(fitted.requests)} requests touched
                    {fitted.logical_pages != null ? `; logical space ${n(fitted.logical_pages)} pages` : ''}.
                  </p>
                )}
                {fitted?.warnings
                  ?.filter((w) => !summary.warnings?.includes(w))
                  .map((w, i) => (
                    <p key={i} className="hint warn">
                      {w}
                    </p>
                  ))}
                {fitted && tooBig && (
                  <p className="alert">
                    That chip has {n(chipPages)} pages; the device view draws at most {n(MAX_PAGES)}. Choose fold or
                    compact, or a smaller chip.
                  </p>
                )}
              </div>
            </fieldset>
          </div>
        )}

        {phase.kind !== 'reading' && (
          <footer className="modal-foot">
            <button
              type="button"
              className="primary"
              disabled={!canRun}
              data-testid="trace-run"
              onClick={() => {
                if (phase.kind !== 'ready') return;
                ran.current = true;
                onRun(scenario(phase.pid));
              }}
            >
              Run this trace
            </button>
            <button type="button" onClick={close}>
              Cancel
            </button>
          </footer>
        )}
      </div>
    </div>
  );
}
