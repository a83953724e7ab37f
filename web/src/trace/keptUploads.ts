// The files of uploaded traces, kept on the page by the simulation worker's parser id with
// the options they were read with (issue 40: uploaded traces in the device shapes'
// comparison). DeviceCompare hands the file to the device worker, which reads it again
// through its own TraceParser, chunk by chunk: a File is a handle to the file on disk, so
// keeping it here copies nothing, and the file never leaves the browser.
import type { TraceOptions } from '../sim/traceTypes';

export interface KeptUpload {
  pid: number;
  file: Blob;
  options: TraceOptions;
}

const kept = new Map<number, KeptUpload>();

/** Called when an upload opens in the simulation worker (upload.ts). */
export function keepUpload(pid: number, file: Blob, options: TraceOptions): void {
  kept.set(pid, { pid, file, options });
}

/** The file and options of upload `pid` (null: not uploaded on this page, e.g. a link whose file was not given again). */
export function keptUpload(pid: number): KeptUpload | null {
  return kept.get(pid) ?? null;
}
