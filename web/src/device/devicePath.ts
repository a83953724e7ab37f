// Where the device view is, as a link carries it (issue 40; docs/ssd.md, "Links"): the
// recorded run's operation, and after a power cut the moves made since (the cut, the
// recovery, steps and steps back in the run after it). A link made after a cut replays
// them on open (the worker's `replay`), so it reopens the same powered-off, recovering or
// run-on moment. The core is deterministic, so the same moves give the same moment.
import type { DeviceMove, DeviceRequest } from '../sim/deviceTypes';

export interface DevicePath {
  /** the recorded run's operation (with moves: where the first cut was made) */
  cursor: number;
  moves: DeviceMove[];
}

/** The moment as far as the path needs it. */
interface Reached {
  cursor: number;
  power: 'on' | 'off' | 'recovering' | 'recovered';
  recovered_cuts: number;
}

/**
 * The path after request `r` reached moment `m` from path `p`. On the recorded run (power on,
 * no cut recovered) the cursor alone says where; otherwise the move is appended (steps and
 * steps back in a row folded into one count; a step and a step back are not cancelled: at a
 * boundary they are not each other's inverse).
 */
export function follow(p: DevicePath, r: DeviceRequest, m: Reached): DevicePath {
  if (m.power === 'on' && m.recovered_cuts === 0) return { cursor: m.cursor, moves: [] };
  const move: DeviceMove | null =
    r.kind === 'step'
      ? 1
      : r.kind === 'back'
        ? -1
        : r.kind === 'cut' || r.kind === 'recover' || r.kind === 'recover_whole'
          ? r.kind
          : null;
  if (move === null) return p;
  const moves = [...p.moves];
  const last = moves[moves.length - 1];
  if (typeof move === 'number' && typeof last === 'number' && Math.sign(last) === move)
    moves[moves.length - 1] = last + move;
  else moves.push(move);
  return { cursor: p.cursor, moves };
}
