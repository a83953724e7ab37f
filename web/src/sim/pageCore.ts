// The core's free functions on the page: the wasm module loaded once more on the main
// thread for pure functions only (the catalog, the pattern checker, chip fitting and the
// scenario check). No Session is made here: Sessions live in the worker (worker.ts), and
// only web/src/sim imports the wasm package (eslint.config.js).

/** The wasm module's free functions the page calls (their types: the package's .d.ts). */
export type PageCore = Pick<
  typeof import('./pkg/ftlscope_wasm'),
  'catalog' | 'check_pattern' | 'fit_chip' | 'scenario_error' | 'device_stripe_for'
>;

let core: PageCore | null = null;
let loading: Promise<PageCore> | null = null;

/** Use an already-initialised module (tests pass the wasm module initialised with initSync). */
export function setPageCore(c: PageCore): void {
  core = c;
}

/** The functions once loaded, else null (synchronous, for checks while typing). */
export function peekPageCore(): PageCore | null {
  return core;
}

/** Load the wasm module on the page once. */
export function loadPageCore(): Promise<PageCore> {
  if (core) return Promise.resolve(core);
  if (!loading) {
    loading = import('./pkg/ftlscope_wasm.js').then(async (m) => {
      await m.default();
      core = m;
      return m;
    });
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}
