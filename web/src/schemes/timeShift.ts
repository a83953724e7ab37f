// LTFTL time shift from the app: freeze / unfreeze N / revert N are requests of the
// workload (the pattern language), so issuing one "now" re-runs the same workload with
// that request inserted at the current step (docs/session-api.md, "Time shift").
import type { Scenario } from '../scenario/model';
import type { Panel } from '../sim/generated/Panel';
import { panelOf } from './tables';

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
  /** the paper's name of the state: S_epoch ("S8") */
  epoch: string;
  pinned: number;
}

export function frozenStates(panels: Panel[]): FrozenState[] | null {
  const t = panelOf(panels, 'frozen_states');
  if (!t) return null;
  return t.states.map((s) => ({ id: s.id, epoch: `S${s.epoch}`, pinned: s.pinned }));
}

export interface DiffRow {
  sector: number;
  /** the sector's page now and after a revert ("-": none) */
  now: string;
  after: string;
}

const page = (p: number | null) => (p === null ? '-' : String(p));

export function revertDiff(panels: Panel[]): Map<number, DiffRow[]> {
  const out = new Map<number, DiffRow[]>();
  for (const r of panelOf(panels, 'revert_diff')?.rows ?? []) {
    if (!out.has(r.state)) out.set(r.state, []);
    out.get(r.state)!.push({ sector: r.sector, now: page(r.now), after: page(r.after) });
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

/** The intent log's entries in the log section on flash, or those still in the RAM buffer. */
export function logEntries(panels: Panel[], where: 'intent_log' | 'log_buffer'): LogEntryRow[] | null {
  const t = panelOf(panels, where);
  if (!t) return null;
  const phi = (p: number | null) => (p === null ? 'φ' : String(p));
  return t.entries.map((e) => ({
    n: String(e.n),
    kind: e.moved ? 'gc move' : 'write',
    sector: String(e.sector),
    old: phi(e.old),
    next: phi(e.new),
    time: String(e.global_time),
  }));
}
