// LTFTL time shift from the app: freeze / unfreeze N / revert N are requests of the
// workload (the pattern language), so issuing one "now" re-runs the same workload with
// that request inserted at the current step (docs/session-api.md, "Time shift").
import type { Scenario } from '../scenario/model';
import type { ViewTable } from '../sim/protocol';

/** Largest workload the app re-writes as a pattern to insert a request. */
export const TIME_SHIFT_MAX_REQUESTS = 200_000;

export type TimeShiftRequest =
  { kind: 'freeze' } | { kind: 'unfreeze'; state: number } | { kind: 'revert'; state: number };

export function requestText(r: TimeShiftRequest): string {
  return r.kind === 'freeze' ? 'freeze' : `${r.kind} ${r.state}`;
}

/** Where the request goes: after the request in progress, if any. */
export function insertionPoint(step: number, opCount: number): number {
  return opCount > 0 ? step + 1 : step;
}

export function withInserted(s: Scenario, before: string, r: TimeShiftRequest, after: string): Scenario {
  const text = [before.trim(), requestText(r), after.trim()].filter(Boolean).join('\n');
  return { scheme: s.scheme, params: s.params, chip: s.chip, workload: { kind: 'pattern', text } };
}

export interface FrozenState {
  id: number;
  epoch: string;
  pinned: number;
}

export function frozenStates(tables: ViewTable[]): FrozenState[] | null {
  const t = tables.find((x) => x.title.startsWith('Frozen states'));
  if (!t) return null;
  return t.rows.map((r) => ({ id: Number(r[0]), epoch: String(r[1]), pinned: Number(r[2]) }));
}

export interface DiffRow {
  sector: number;
  now: string;
  after: string;
}

export function revertDiff(tables: ViewTable[]): Map<number, DiffRow[]> {
  const out = new Map<number, DiffRow[]>();
  const t = tables.find((x) => x.title.startsWith('Revert diff'));
  for (const r of t?.rows ?? []) {
    const id = Number(r[0]);
    if (!out.has(id)) out.set(id, []);
    out.get(id)!.push({ sector: Number(r[1]), now: String(r[2]), after: String(r[3]) });
  }
  return out;
}

export interface LogEntryRow {
  n: string;
  kind: string;
  sector: string;
  old: string;
  next: string;
  time: string;
}

export function logEntries(tables: ViewTable[], prefix: string): LogEntryRow[] | null {
  const t = tables.find((x) => x.title.startsWith(prefix));
  if (!t) return null;
  return t.rows.map((r) => ({
    n: String(r[0]),
    kind: String(r[1]),
    sector: String(r[2]),
    old: String(r[3]),
    next: String(r[4]),
    time: String(r[5]),
  }));
}

export const LTFTL_TABLES = ['Frozen states', 'Intent log in the log section', 'Log buffer (RAM', 'Revert diff'];
