// The trace dialog, step by step: the file chosen is read with its parse options
// (ReadOptions, the column mapping for CSVs, ReadStatus), its summary shown
// (SummaryView), fitted to a scheme and chip (RunTarget), and run. A reopened link's file
// is checked against the link and runs by itself at the link's moment.
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { SimClient } from '../sim/client';
import {
  MAX_PAGES,
  chipSpec,
  defaultParams,
  defaultScenario,
  type Scenario,
  type TraceWorkload,
} from '../scenario/model';
import type { Moment, ShareState } from '../scenario/share';
import { MappingEditor } from './MappingEditor';
import { trapFocus, useClosedByNavigation } from './modal';
import { ReadOptions } from './ReadOptions';
import { ReadStatus } from './ReadStatus';
import { mismatch, reopened } from './reopen';
import { RunTarget, type Target } from './RunTarget';
import { SummaryView } from './SummaryView';
import type { TraceFit } from './types';
import { PRESET_PAGE_BYTES, formatBytes } from './upload';
import { chipPagesAfterFit, useTraceFit } from './useTraceFit';
import { useFileDigest, useFileFacts, useTraceRead } from './useTraceRead';

export interface TraceDialogProps {
  client: SimClient;
  file: File;
  /** the scenario whose scheme and chip the trace runs on by default */
  current: Scenario | null;
  reopen: ShareState | null;
  onClose: () => void;
  onRun: (s: Scenario, at?: Moment) => void;
}

/** The scheme and chip a trace runs on first: the scenario on screen's. */
function firstTarget(current: Scenario | null): Target {
  const scheme = current?.scheme ?? defaultScenario().scheme;
  const preset = current?.chip.preset ?? 'classroom';
  return {
    scheme,
    params: current?.params ?? defaultParams(defaultScenario().scheme),
    chip: {
      preset,
      blocks: current?.chip.blocks ?? chipSpec(preset)?.blocks ?? 16,
      pages_per_block: current?.chip.pages_per_block ?? chipSpec(preset)?.pages_per_block ?? 4,
    },
  };
}

export function TraceDialog({ client, file, current, reopen, onClose, onRun }: TraceDialogProps) {
  const titleId = useId();
  const dialogRef = useRef<HTMLDivElement>(null);
  // A reopened link's trace options (its workload); else none.
  const [was] = useState(() => reopened(reopen));
  const [target, setTarget] = useState<Target>(() => firstTarget(current));
  const [fit, setFit] = useState<TraceFit>(was?.fit ?? 'compact');
  const { preset, blocks, pages_per_block: ppb } = target.chip;

  // Choose file: its facts, and reading it.
  const { catalog, preview } = useFileFacts(client, file);
  const read = useTraceRead(client, file, was, PRESET_PAGE_BYTES[preset] ?? 512, ppb);
  const { phase } = read;
  const { format, device, skipBad, mapping, mappingJson } = read.options;
  useEffect(() => dialogRef.current?.focus(), []);

  // Fit: the scenario the trace would run as, previewed by the core. Without the file's
  // digest, which changes no fit: the digest comes after the summary, and a preview keyed by
  // it was asked again then, its answer hidden meanwhile (issue 37, item 6).
  const fitScenario = useCallback(
    (pid: number): Scenario => {
      const workload: TraceWorkload = { kind: 'trace', name: file.name, upload: pid, fit, size: file.size };
      if (format) workload.format = format;
      if (device) workload.device = device;
      if (skipBad) workload.skip_bad_lines = true;
      if (mappingJson) workload.mapping = mappingJson;
      return { scheme: target.scheme, params: target.params, chip: target.chip, workload };
    },
    [file.name, file.size, fit, format, device, skipBad, target, mappingJson],
  );
  const fitResult = useTraceFit(client, phase.kind === 'ready' ? phase.pid : null, fitScenario);
  const digest = useFileDigest(client, file, fitResult !== null || phase.kind === 'failed');
  const refused = was ? mismatch(was, file.size, digest) : null;
  // The scenario run: the fit's, with the digest when known (links carry it).
  const scenario = useCallback(
    (pid: number): Scenario => {
      const s = fitScenario(pid);
      return digest ? { ...s, workload: { ...(s.workload as TraceWorkload), sha256: digest } } : s;
    },
    [fitScenario, digest],
  );

  const close = () => {
    read.abort();
    onClose();
  };
  useClosedByNavigation(close);

  const summary = phase.kind === 'ready' ? phase.summary : null;
  const fitted = fitResult?.ok ? fitResult.summary : null;
  const chipPages = fitted ? chipPagesAfterFit(fitted.scaled_blocks, blocks, ppb) : blocks * ppb;
  // A reopened link waits for the checksum and refuses another file.
  const canRun = phase.kind === 'ready' && !!fitted && chipPages <= MAX_PAGES && !refused && (!was || digest !== null);
  const showMapping = !!preview && !preview.note && (preview.format === 'csv' || preview.format === null || !!mapping);

  // Run. A reopened link runs by itself once the same file is read: it lands on the link's moment.
  const { keep } = read;
  const run = () => {
    if (phase.kind !== 'ready') return;
    keep();
    onRun(scenario(phase.pid));
  };
  const autoRan = useRef(false);
  useEffect(() => {
    if (!reopen || !canRun || autoRan.current || phase.kind !== 'ready') return;
    autoRan.current = true;
    keep();
    onRun(scenario(phase.pid), reopen.at);
  }, [reopen, canRun, phase, scenario, onRun, keep]);

  return (
    <div className="modal-backdrop">
      <div
        className="modal trace-dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
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
          <h2 id={titleId}>
            Trace <span className="file-name">{file.name}</span>{' '}
            <span className="muted">({formatBytes(file.size)})</span>
          </h2>
          <button type="button" onClick={close} aria-label="Close the trace dialog">
            Close
          </button>
        </header>

        <ReadOptions read={read} catalog={catalog} summary={summary} />

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
            onChange={read.setMapping}
            readAs={phase.kind === 'ready' ? phase.columns : null}
          />
        )}

        <ReadStatus phase={phase} skipBad={skipBad} onSkipBad={() => read.setSkipBad(true)} onCancel={close} />

        {summary && (
          <div className="trace-summary" data-testid="trace-summary">
            <SummaryView summary={summary} />
            <RunTarget
              target={target}
              onTarget={setTarget}
              fit={fit}
              onFit={setFit}
              fitResult={fitResult}
              summary={summary}
              chipPages={chipPages}
            />
          </div>
        )}

        {phase.kind !== 'reading' && (
          <footer className="modal-foot">
            <button type="button" className="primary" disabled={!canRun} data-testid="trace-run" onClick={run}>
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
