// How the trace dialog writes numbers and errors.
import type { LineError } from './types';

export function lineErrorText(e: LineError): string {
  return `line ${e.line}, column ${e.column}: ${e.message}`;
}

export function pct(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** A count with thousands separators; a dash when unknown. */
export function n(x: number | null | undefined): string {
  return x == null ? '—' : x.toLocaleString('en-US');
}
