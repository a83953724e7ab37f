// A link or scenario file reopened with its trace: the file given again must be the one
// the link was made with, and is read with the link's own options.
import type { ShareState } from '../scenario/share';
import type { Mapping, TraceFit, TraceFormat } from './types';

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

/** A reopened link's trace options, as its workload carries them. */
export interface Reopened {
  name: string;
  size?: unknown;
  sha256?: unknown;
  format?: TraceFormat;
  device?: string;
  skipBad: boolean;
  mapping: Mapping | null;
  fit?: TraceFit;
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

/** The trace options of a reopened link (null: no link, or its workload is not a trace). */
export function reopened(reopen: ShareState | null): Reopened | null {
  const w = reopen?.scenario.workload;
  if (!w || w.kind !== 'trace') return null;
  const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    name: w.name,
    size: w.size,
    sha256: w.sha256,
    format: str(w.format) as TraceFormat | undefined,
    device: str(w.device),
    skipBad: !!w.skip_bad_lines,
    mapping: parseMapping(w.mapping),
    fit: str(w.fit) as TraceFit | undefined,
  };
}
