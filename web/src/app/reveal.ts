// "Step request" with motion: the request is revealed from the state before it, a few
// flash operations at a time, and lands on the request's final state (issue 24). Pure
// planning here (unit tested); useSimulation runs it through the command queue.

/** Time each revealed frame stays on screen. */
export const REVEAL_FRAME_MS = 250;
/** Longest reveal: past this many frames, frames take several operations each. */
export const REVEAL_MAX_FRAMES = 16;

/** Where the session stands, as far as revealing goes (a Snapshot has these fields). */
export interface RevealPosition {
  opCursor: number;
  opCount: number;
  powered: boolean;
}

/** The next frame: one operation, several (`count`), or the rest of the request. */
export type RevealMove = { kind: 'op' } | { kind: 'ops'; count: number } | { kind: 'rest' };

/** True once the request (or recovery) being revealed is complete, or cannot go on. */
export function revealDone(p: RevealPosition): boolean {
  return !p.powered || p.opCount === 0 || p.opCursor >= p.opCount;
}

/**
 * The move for frame number `frame` (0-based) from position `p` (null before the first
 * frame): the first frame reveals one operation (it starts the request when between
 * requests); later frames spread what is left over the frames left, one operation each
 * when it fits, and the last frame finishes the request (step_request).
 */
export function revealMove(p: RevealPosition | null, frame: number, maxFrames = REVEAL_MAX_FRAMES): RevealMove {
  if (!p || p.opCount === 0) return { kind: 'op' };
  const remaining = p.opCount - p.opCursor;
  const framesLeft = Math.max(1, maxFrames - frame);
  const stride = Math.ceil(remaining / framesLeft);
  if (stride >= remaining) return { kind: 'rest' };
  return stride === 1 ? { kind: 'op' } : { kind: 'ops', count: stride };
}
