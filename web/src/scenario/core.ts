// The core's free functions on the page: `catalog()` (the schemes the core has, and
// the params each reads) and `check_pattern(text)` (the Session's own pattern parser,
// for instant feedback while typing). Sessions live in the worker; these two are pure
// functions, so the page loads the same wasm module once more for them (loadCore.ts).

import type { CoreFns, PatternCheck } from '../sim/protocol';

export type { CoreFns, PatternCheck };

let fns: CoreFns | null = null;

/**
 * Use these functions for pattern checks. Low level: loadCore.ts's setCoreFns also applies
 * the catalog (kept there so this file, which model.ts imports, imports nothing back).
 */
export function installCoreFns(f: CoreFns): void {
  fns = f;
}

export function coreLoaded(): boolean {
  return fns !== null;
}

/** The core's verdict on a pattern, or null while the core is not loaded. */
export function checkPattern(text: string): PatternCheck | null {
  if (!fns) return null;
  try {
    return fns.check_pattern(text);
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** A readable message for a failed check: "line 1, column 4: '(' is never closed". */
export function describePatternError(c: PatternCheck): string {
  const where = c.line !== undefined ? `line ${c.line}, column ${c.column ?? '?'}: ` : '';
  return `${where}${c.message ?? 'not a valid pattern'}`;
}
