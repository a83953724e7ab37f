// Loading the core's free functions on the page (through sim/pageCore.ts, the one place
// that loads the wasm module on the page) and applying its catalog to the scheme list.
// Separate from core.ts so that model.ts (which checks patterns through core.ts) and
// core.ts form no import cycle.
import { installCoreFns, type CoreFns } from './core';
import { applyCatalog } from './model';
import { loadPageCore } from '../sim/pageCore';

let loaded: CoreFns | null = null;
let loading: Promise<CoreFns> | null = null;

/** Use already-initialised functions (tests pass the wasm module initialised with initSync). */
export function setCoreFns(f: CoreFns): void {
  loaded = f;
  installCoreFns(f);
  applyCatalog(f.catalog());
}

/** Load the wasm module on the page once; applies catalog() to the scheme list. */
export function loadCore(): Promise<CoreFns> {
  if (loaded) return Promise.resolve(loaded);
  if (!loading) {
    loading = loadPageCore().then((m) => {
      const f = { catalog: () => m.catalog(), check_pattern: (t: string) => m.check_pattern(t) };
      setCoreFns(f);
      return f;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
