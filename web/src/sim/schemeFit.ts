// Does the core accept a scheme on a chip? The answer is the core's own: the page builds a
// throw-away Session (the same constructor the worker uses) and reports its error, so the
// form never has to restate a scheme's geometry rules (RFTL's pi >= 2k + j, GFTL's pages
// per block, BAST's blocks >= log blocks + 2 ...) and cannot drift from them.
import { CHIPS, chipSpec, type Scenario } from './scenarioTypes';

interface SessionLike {
  free(): void;
}
type SessionCtor = new (json: string) => SessionLike;

let ctor: SessionCtor | null = null;
let loading: Promise<SessionCtor | null> | null = null;

/** The wasm Session constructor on the page (the module loadCore() already initialised). */
export function coreSessionCtor(): Promise<SessionCtor | null> {
  if (ctor) return Promise.resolve(ctor);
  if (!loading) {
    loading = import('./pkg/ftlscope_wasm.js').then(
      async (m) => {
        await m.default();
        ctor = m.Session as unknown as SessionCtor;
        return ctor;
      },
      () => null,
    );
  }
  return loading;
}

/** The constructor once loaded, else null (synchronous, for checks while typing). */
export function peekSessionCtor(): SessionCtor | null {
  return ctor;
}

/** For tests: use an initialised module's Session. */
export function setSessionCtor(c: SessionCtor): void {
  ctor = c;
}

/** Requests the check generates at most: the workload's rules do not depend on its length. */
const CHECK_REQUESTS = 2000;

function forCheck(s: Scenario, geometryOnly: boolean): Scenario {
  const w = s.workload;
  if (geometryOnly || w.kind === 'trace') return { ...s, workload: { kind: 'pattern', text: 'w0' } };
  if ('n' in w && w.n > CHECK_REQUESTS) return { ...s, workload: { ...w, n: CHECK_REQUESTS } };
  return s;
}

/** null when the core builds this scenario, else its message. */
export function coreError(C: SessionCtor, s: Scenario, geometryOnly = false): string | null {
  try {
    new C(JSON.stringify(forCheck(s, geometryOnly))).free();
    return null;
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

export interface Fit {
  chip: Scenario['chip'];
  /** what was changed and why, for the form to say; null when the chip already fits */
  note: string | null;
}

/** Candidate chips, nearest first: more pages per block, then more blocks, then the other presets. */
function candidates(chip: Scenario['chip']): Scenario['chip'][] {
  const spec = chipSpec(chip.preset);
  const blocks = chip.blocks ?? spec?.blocks ?? 16;
  const ppb = chip.pages_per_block ?? spec?.pages_per_block ?? 4;
  const out: Scenario['chip'][] = [];
  for (const p of [ppb, 8, 16, 32, 64].filter((p) => p >= ppb)) {
    for (const b of [blocks, 16, 24, 32, 48, 64].filter((b) => b >= blocks))
      out.push({ preset: chip.preset, blocks: b, pages_per_block: p });
  }
  for (const c of CHIPS)
    if (c.id !== chip.preset) out.push({ preset: c.id, blocks: c.suggestedBlocks, pages_per_block: c.pages_per_block });
  return out;
}

/**
 * The chip to run `s.scheme` on: the form's own when the core accepts it, else the nearest
 * one it accepts, with a sentence saying what changed and the core's reason.
 */
export function fitChip(C: SessionCtor, s: Scenario): Fit | { error: string } {
  const first = coreError(C, s, true);
  if (!first) return { chip: s.chip, note: null };
  for (const chip of candidates(s.chip)) {
    if (coreError(C, { ...s, chip }, true)) continue;
    const spec = chipSpec(chip.preset);
    const what =
      chip.preset === s.chip.preset
        ? `${chip.blocks} blocks × ${chip.pages_per_block} pages`
        : `the ${spec?.label ?? chip.preset} chip (${chip.blocks} blocks × ${chip.pages_per_block} pages)`;
    return { chip, note: `Chip changed to ${what}: on the previous chip the core says “${first}”.` };
  }
  return { error: first };
}
