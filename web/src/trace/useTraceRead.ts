// The dialog's first steps: the file chosen is read (again whenever a parse option or the
// chip's page size changes) by the core in the worker, which keeps the parsed trace under
// a pid. Also the file's SHA-256, and the preview of its first rows for the column mapping.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { Reopened } from './reopen';
import type { LineError, Mapping, TraceCatalog, TraceFormat, TracePreview, TraceProgress, TraceSummary } from './types';
import { Cancelled, hashUpload, parseUpload } from './upload';

export type Phase =
  | { kind: 'reading'; fraction: number; progress: TraceProgress | null }
  | { kind: 'failed'; message: string; errors: LineError[]; badLines: number }
  | { kind: 'ready'; pid: number; summary: TraceSummary; columns?: [string, string][] };

function drop(client: SimClient, pid: number) {
  void client.request('trace_drop', { pid }).catch(() => undefined);
}

/** The file's catalog of formats and preview rows (null until known). */
export function useFileFacts(client: SimClient, file: File) {
  const [catalog, setCatalog] = useState<TraceCatalog | null>(null);
  const [preview, setPreview] = useState<TracePreview | null>(null);
  useEffect(() => {
    void client.request('trace_catalog', {}).then(setCatalog, () => undefined);
    void client.request('trace_preview', { file, rows: 8 }).then(setPreview, () => undefined);
  }, [client, file]);
  return { catalog, preview };
}

/**
 * The file's SHA-256 (null until known; '' if it failed), taken once `start` is true: links
 * carry it so a reopened link can check that the file given again is the same one. The
 * dialog starts it once the summary and its fit preview are answered, the things a user reads
 * first: on two cores the digest slowed the preview (issue 37, item 6).
 */
export function useFileDigest(client: SimClient, file: File, start: boolean) {
  const [digest, setDigest] = useState<string | null>(null);
  const [started, setStarted] = useState<File | null>(null);
  if (start && started !== file) setStarted(file);
  useEffect(() => {
    if (started !== file) return;
    let live = true;
    setDigest(null);
    hashUpload(client, file).then(
      (h) => live && setDigest(h),
      () => live && setDigest(''),
    );
    return () => {
      live = false;
    };
  }, [client, file, started]);
  return started === file ? digest : null;
}

/**
 * Reads `file` with the parse options (state here, starting from a reopened link's) on a
 * chip of `pageBytes`-byte pages, `ppb` to a block. The parsed trace is dropped from the
 * worker when it is read again or the dialog goes away, unless `keep()` was called (it runs).
 */
export function useTraceRead(client: SimClient, file: File, was: Reopened | null, pageBytes: number, ppb: number) {
  const [format, setFormat] = useState<TraceFormat | ''>(was?.format ?? '');
  const [device, setDevice] = useState(was?.device ?? '');
  const [skipBad, setSkipBad] = useState(!!was?.skipBad);
  const [mapping, setMapping] = useState<Mapping | null>(was?.mapping ?? null);
  const [phase, setPhase] = useState<Phase>({ kind: 'reading', fraction: 0, progress: null });
  const [devices, setDevices] = useState<[string, number][]>([]);
  const abortRef = useRef<AbortController | null>(null);
  const pidRef = useRef<number | null>(null);
  const mappingJson = mapping ? JSON.stringify(mapping) : '';

  // Read (again) whenever the file or a parse option changes.
  useEffect(() => {
    const ac = new AbortController();
    abortRef.current = ac;
    setPhase({ kind: 'reading', fraction: 0, progress: null });
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
          drop(client, pid);
          return;
        }
        if (pidRef.current !== null) drop(client, pidRef.current);
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
  const abort = useCallback(() => abortRef.current?.abort(), []);
  const keep = useCallback(() => {
    ran.current = true;
  }, []);
  useEffect(
    () => () => {
      abortRef.current?.abort();
      if (!ran.current && pidRef.current !== null) drop(client, pidRef.current);
    },
    [client],
  );

  return {
    options: { format, device, skipBad, mapping, mappingJson },
    setFormat,
    setDevice,
    setSkipBad,
    setMapping,
    phase,
    devices,
    /** stop reading (the dialog closes) */
    abort,
    /** the trace runs: the worker keeps it */
    keep,
  };
}

export type TraceRead = ReturnType<typeof useTraceRead>;
