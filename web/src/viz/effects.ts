// What to animate between two snapshots: pure functions (unit tested), no DOM.
// The device views turn these plans into D3 transitions.
import type { SimEvent } from '../sim/protocol';
import { FLASH_OP_KINDS } from './palette';

/** Where a snapshot stands: requests done, operations of the next one revealed. */
export interface Position {
  step: number;
  opCursor: number;
  eventCount: number;
}

export type Effect =
  | { kind: 'program'; pbn: number; page: number; lpn: number | null; slot: number }
  | { kind: 'copy'; from: { pbn: number; page: number }; to: { pbn: number; page: number }; lpn: number; slot: number }
  | { kind: 'read'; pbn: number; page: number; slot: number }
  | { kind: 'erase'; pbn: number; slot: number }
  | { kind: 'role'; pbn: number; from: number; to: number; slot: number }
  | { kind: 'label'; text: string; slot: number };

/**
 * The events revealed since `prev`: the tail of the same request when it grew by a few
 * operations, or the whole request when playback moved on by exactly one. Jumps
 * (seek, back, several requests at once) animate nothing: they change state discretely.
 */
export function newEvents(prev: Position | null, step: number, opCursor: number, events: SimEvent[]): SimEvent[] {
  if (!prev) return [];
  const inProgress = prev.opCursor > 0;
  // The same request grew, or its last operations were revealed and it completed.
  if (inProgress && ((step === prev.step && opCursor > prev.opCursor) || (step === prev.step + 1 && opCursor === 0))) {
    return events.length >= prev.eventCount ? events.slice(prev.eventCount) : events;
  }
  // A new request: run whole, or its first operations revealed.
  if (!inProgress && ((step === prev.step + 1 && opCursor === 0) || (step === prev.step && opCursor > 0)))
    return events;
  return [];
}

/** Event groups: each narration note (not a flash operation) opens a group of what follows. */
export interface EventGroup {
  note: SimEvent | null;
  /** indices into the events array */
  items: number[];
}

export function groupEvents(events: SimEvent[]): EventGroup[] {
  const groups: EventGroup[] = [];
  let cur: EventGroup | null = null;
  events.forEach((e, i) => {
    if (!FLASH_OP_KINDS.has(e.kind)) {
      // Consecutive notes (victim then merge) label one group together.
      if (cur && cur.note && cur.items.every((j) => !FLASH_OP_KINDS.has(events[j].kind))) {
        cur.items.push(i);
        return;
      }
      cur = { note: e, items: [] };
      groups.push(cur);
      return;
    }
    if (!cur) {
      cur = { note: null, items: [] };
      groups.push(cur);
    }
    cur.items.push(i);
  });
  return groups;
}

/**
 * Turn revealed events into effects, one time slot per flash operation: a read followed
 * by a program with the same cause and LPN is one copy (a token moves from source to
 * destination); notes become labels. Role changes of blocks (from `rolesBefore` to
 * `rolesAfter`) play at the end. `prior`: the request's events already shown (a request
 * revealed a few operations at a time): a program whose read was shown before moves its
 * token from there, in the program's own slot.
 */
export function planEffects(
  events: SimEvent[],
  rolesBefore?: Uint8Array | null,
  rolesAfter?: Uint8Array | null,
  prior: SimEvent[] = [],
): Effect[] {
  const out: Effect[] = [];
  let slot = 0;
  const pendingReads = new Map<string, { pbn: number; page: number; index: number }>();
  const readIndex = new Map<number, number>(); // event index → effect index of its read
  for (const e of prior) {
    if (e.kind === 'read' && e.lpn != null && e.pbn != null && e.page != null)
      pendingReads.set(`${e.cause ?? ''}|${e.lpn}`, { pbn: e.pbn, page: e.page, index: -1 });
    else if (e.kind === 'program' && e.cause !== 'host') pendingReads.delete(`${e.cause ?? ''}|${e.lpn}`);
  }
  events.forEach((e, i) => {
    if (e.kind === 'note' || !FLASH_OP_KINDS.has(e.kind)) {
      if (e.text) out.push({ kind: 'label', text: e.text, slot });
      return;
    }
    if (e.pbn == null) return;
    if (e.kind === 'read' || e.kind === 'read_oob') {
      if (e.page == null) return;
      if (e.lpn != null && e.kind === 'read')
        pendingReads.set(`${e.cause ?? ''}|${e.lpn}`, { pbn: e.pbn, page: e.page, index: i });
      readIndex.set(i, out.length);
      out.push({ kind: 'read', pbn: e.pbn, page: e.page, slot: slot++ });
      return;
    }
    if (e.kind === 'program') {
      if (e.page == null) return;
      const key = `${e.cause ?? ''}|${e.lpn}`;
      const src = e.lpn != null && e.cause !== 'host' ? pendingReads.get(key) : undefined;
      if (src) {
        pendingReads.delete(key);
        // The read becomes the first half of the copy: drop its separate effect.
        if (src.index < 0) {
          out.push({
            kind: 'copy',
            from: { pbn: src.pbn, page: src.page },
            to: { pbn: e.pbn, page: e.page },
            lpn: e.lpn!,
            slot: slot++,
          });
          return;
        }
        const ri = readIndex.get(src.index);
        if (ri !== undefined && out[ri]?.kind === 'read') {
          const readSlot = out[ri].slot;
          out.splice(ri, 1);
          for (const [k, v] of readIndex) if (v > ri) readIndex.set(k, v - 1);
          out.push({
            kind: 'copy',
            from: { pbn: src.pbn, page: src.page },
            to: { pbn: e.pbn, page: e.page },
            lpn: e.lpn!,
            slot: readSlot,
          });
          return;
        }
      }
      out.push({ kind: 'program', pbn: e.pbn, page: e.page, lpn: e.lpn ?? null, slot: slot++ });
      return;
    }
    if (e.kind === 'erase') out.push({ kind: 'erase', pbn: e.pbn, slot: slot++ });
  });
  if (rolesBefore && rolesAfter && rolesBefore.length === rolesAfter.length && rolesAfter.length <= 4096) {
    let any = false;
    for (let b = 0; b < rolesAfter.length; b++) {
      if (rolesBefore[b] !== rolesAfter[b]) {
        out.push({ kind: 'role', pbn: b, from: rolesBefore[b], to: rolesAfter[b], slot });
        any = true;
      }
    }
    if (any) slot++;
  }
  return out;
}

/** Number of time slots a plan needs. */
export function slotCount(plan: Effect[]): number {
  let n = 0;
  for (const e of plan) n = Math.max(n, e.slot + 1);
  return n;
}
