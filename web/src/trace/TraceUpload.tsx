// Trace upload: a button (and a drop zone over the whole page) that reads a block I/O
// trace in the worker, shows its summary and the mapping choices, and runs it
// (TraceDialog). Parsing is the core's (Rust, in the worker); the file never leaves the browser.
import { useId, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import type { Scenario } from '../scenario/model';
import type { Moment, ShareState } from '../scenario/share';
import { TraceDialog } from './TraceDialog';
import { isUploadWorkload } from './types';
import { useFileDrop } from './useFileDrop';
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

const HINT =
  'Read a block I/O trace (SPC, MSR, blkparse, DiskSim/MQSim, Alibaba, FIU, oracleGeneral, any CSV you map, or a pattern; .gz and .zst too), or drop a file anywhere on the page. It stays in your browser.';

export function TraceUpload({ client, current, onRun, reopen, onReopenEnd }: TraceUploadProps) {
  const [file, setFile] = useState<File | null>(null);
  const dragging = useFileDrop(setFile);
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  // The parsed trace of the run on screen stays in the worker (re-runs need it); older ones are dropped.
  const runPid = useRef<number | null>(null);

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
            const w: unknown = s.workload;
            const pid = isUploadWorkload(w) ? w.upload : null;
            if (runPid.current !== null && runPid.current !== pid) {
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
