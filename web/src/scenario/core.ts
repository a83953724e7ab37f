// The core's free functions on the page: `catalog()` (the schemes the core has, and
// the params each reads) and `check_pattern(text)` (the Session's own pattern parser,
// for instant feedback while typing). Sessions live in the worker; these two are pure
// functions, so the page loads the same wasm module once more for them.
import { applyCatalog, type CatalogJson } from './model';

export interface PatternCheck {
  ok: boolean;
  requests?: number;
  line?: number;
  column?: number;
  message?: string;
}

export interface CoreFns {
  catalog(): string;
  check_pattern(text: string): string;
}

let fns: CoreFns | null = null;
let loading: Promise<CoreFns> | null = null;

/** Use already-initialised functions (tests pass the wasm module initialised with initSync). */
export function setCoreFns(f: CoreFns): void {
  fns = f;
  applyCatalog(JSON.parse(f.catalog()) as CatalogJson);
}

/** Load the wasm module on the page once; applies catalog() to the scheme list. */
export function loadCore(): Promise<CoreFns> {
  if (fns) return Promise.resolve(fns);
  if (!loading) {
    loading = import('../sim/pkg/ftlscope_wasm.js').then(async (m) => {
      await m.default();
      setCoreFns({ catalog: m.catalog, check_pattern: m.check_pattern });
      return fns!;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

export function coreLoaded(): boolean {
  return fns !== null;
}

/** The core's verdict on a pattern, or null while the core is not loaded. */
export function checkPattern(text: string): PatternCheck | null {
  if (!fns) return null;
  try {
    return JSON.parse(fns.check_pattern(text)) as PatternCheck;
  } catch (e) {
    return { ok: false, message: (e as Error).message };
  }
}

/** A readable message for a failed check: "line 1, column 4: '(' is never closed". */
export function describePatternError(c: PatternCheck): string {
  const where = c.line !== undefined ? `line ${c.line}, column ${c.column ?? '?'}: ` : '';
  return `${where}${c.message ?? 'not a valid pattern'}`;
}
