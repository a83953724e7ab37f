// A shareable state: the scenario plus where we are in it (step and flash operation)
// and the view options, in the URL hash (`#v1=<lz-string>`) or a JSON file.
//
// Versions:
//   v1  {v:1, scenario, at:{step, op}, view:{theme?, tour?, present?, speed?}, compare?, device?}
//   v0  the bare Session scenario JSON of docs/session-api.md (no step, no view),
//       compressed the same way: migrated to v1 at step 0.
//   `#tour=<id>` is a readable link to a guided tour (see tour/tours.ts).
// Uploaded traces are never put in a link: a trace workload becomes
// `{kind: 'trace', name, missing: true}` and the app asks for the file again.
import type { DeviceMove, DeviceShape, DevicesSpec } from '../sim/deviceTypes';
import { compressToEncodedURIComponent, decompressFromEncodedURIComponent } from 'lz-string';
import { preconditionFrom, scenarioFromObject, type Precondition, type Scenario } from './model';

export const SHARE_VERSION = 1;

export interface Moment {
  /** completed requests */
  step: number;
  /** flash operations of the next request revealed */
  op: number;
}

export interface ViewOptions {
  theme?: 'light' | 'dark';
  /** a guided tour and the index of its current stop */
  tour?: { id: string; index: number };
  /** presentation mode (large type, editing hidden) */
  present?: boolean;
  /** playback speed id (app/useSimulation.ts SPEEDS) */
  speed?: string;
}

/** Compare mode: the same workload and chip through several schemes / parameter sets. */
export interface CompareSpec {
  runs: { scheme: string; params: Scenario['params'] }[];
  /** preconditioning for every run; null = none (overrides the scenario's), absent = the scenario's */
  precondition?: Precondition | null;
  /** the workload space for every run (pages); absent = the smallest own space of the runs,
   * or each run's own with `ownSpace` (docs/compare.md) */
  space?: number;
  /** each scheme's own space with its paper defaults instead of one request list (issue 38) */
  ownSpace?: boolean;
  /** device shapes of one scheme side by side (issue 40: 1 die against 8) */
  devices?: DevicesSpec;
}

export interface ShareState {
  scenario: Scenario;
  at: Moment;
  view: ViewOptions;
  compare?: CompareSpec;
  /** the device view open over the scenario: its shape (issue 40; absent: the chip view) */
  device?: DeviceShape;
}

export type Decoded =
  | { kind: 'none' }
  | { kind: 'tour'; id: string }
  | {
      kind: 'state';
      state: ShareState;
      /** the link held a trace that must be provided again: its name */
      missingTrace?: string;
      /** e.g. "this link was made by an older version and was migrated" */
      notice?: string;
    }
  | { kind: 'error'; message: string };

// ---- encoding ---------------------------------------------------------------------

/** The scenario as it may travel in a link or file: no uploaded trace contents. */
export function shareableScenario(s: Scenario): Scenario {
  if (s.workload.kind !== 'trace') return s;
  // Everything but the trace's contents: its name and options stay, so the app can say
  // which file to provide again and parse it the same way.
  // `upload` is this page's handle on an uploaded file (web/src/trace): meaningless elsewhere.
  const { text: _text, upload: _upload, ...rest } = s.workload;
  void _text;
  void _upload;
  return { ...s, workload: { ...rest, kind: 'trace', name: s.workload.name, missing: true } };
}

/** Plain JSON of a state, version-tagged (what a link and a scenario file hold). */
export function stateToJson(state: ShareState): string {
  const out: Record<string, unknown> = {
    v: SHARE_VERSION,
    scenario: shareableScenario(state.scenario),
    at: { step: state.at.step, op: state.at.op },
  };
  const view = Object.fromEntries(Object.entries(state.view).filter(([, v]) => v !== undefined && v !== false));
  if (Object.keys(view).length) out.view = view;
  if (state.compare) out.compare = state.compare;
  if (state.device) out.device = state.device;
  return JSON.stringify(out);
}

/** `v1=...` (without the `#`). */
export function encodeHash(state: ShareState): string {
  return `v${SHARE_VERSION}=${compressToEncodedURIComponent(stateToJson(state))}`;
}

export function shareUrl(state: ShareState, base: string): string {
  return `${base.split('#')[0]}#${encodeHash(state)}`;
}

// ---- decoding ---------------------------------------------------------------------

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function wholeNumber(v: unknown, what: string): number {
  if (v === undefined) return 0;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`${what} must be a whole number ≥ 0`);
  return v;
}

function viewFrom(raw: unknown): ViewOptions {
  const view: ViewOptions = {};
  if (!isObject(raw)) return view;
  if (raw.theme === 'light' || raw.theme === 'dark') view.theme = raw.theme;
  if (isObject(raw.tour) && typeof raw.tour.id === 'string') {
    view.tour = {
      id: raw.tour.id,
      index: typeof raw.tour.index === 'number' && raw.tour.index >= 0 ? Math.floor(raw.tour.index) : 0,
    };
  }
  if (raw.present === true) view.present = true;
  if (typeof raw.speed === 'string' && /^[\w-]{1,20}$/.test(raw.speed)) view.speed = raw.speed;
  return view;
}

function compareFrom(raw: unknown): CompareSpec | undefined {
  if (!isObject(raw) || !Array.isArray(raw.runs)) return undefined;
  const runs = raw.runs
    .filter((r): r is Record<string, unknown> => isObject(r) && typeof r.scheme === 'string')
    .slice(0, 6)
    .map((r) => ({ scheme: r.scheme as string, params: (isObject(r.params) ? r.params : {}) as Scenario['params'] }));
  if (!runs.length) return undefined;
  const spec: CompareSpec = { runs };
  if (typeof raw.space === 'number' && Number.isInteger(raw.space) && raw.space >= 1) spec.space = raw.space;
  if (raw.ownSpace === true) spec.ownSpace = true;
  const devices = devicesFrom(raw.devices);
  if (devices) spec.devices = devices;
  if (raw.precondition === null) spec.precondition = null;
  else if (raw.precondition !== undefined) {
    try {
      spec.precondition = preconditionFrom(raw.precondition) ?? null;
    } catch {
      // a damaged preconditioning falls back to the scenario's
    }
  }
  return spec;
}

/** The compare's device shapes (1 to 4 of whole channels x dies), or nothing when damaged. */
function devicesFrom(raw: unknown): DevicesSpec | undefined {
  if (!isObject(raw) || typeof raw.scheme !== 'string' || !Array.isArray(raw.shapes)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 16 ? v : 0);
  const shapes = raw.shapes
    .filter(isObject)
    .map((x) => ({ channels: n(x.channels), diesPerChannel: n(x.diesPerChannel) }))
    .filter((x) => x.channels && x.diesPerChannel)
    .slice(0, 4);
  if (!shapes.length) return undefined;
  const out: DevicesSpec = { scheme: raw.scheme, shapes };
  if (typeof raw.rate === 'number' && Number.isFinite(raw.rate) && raw.rate > 0) out.rate = raw.rate;
  return out;
}

/** A device shape of several dies, or nothing (a damaged one opens the chip view). */
function deviceFrom(raw: unknown): DeviceShape | undefined {
  if (!isObject(raw)) return undefined;
  const n = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 && v <= 64 ? v : 0);
  const channels = n(raw.channels);
  const diesPerChannel = n(raw.diesPerChannel);
  const stripe = raw.stripe === 'block' ? 'block' : raw.stripe === 'page' ? 'page' : null;
  if (!channels || !diesPerChannel || !stripe || channels * diesPerChannel < 2) return undefined;
  const out: DeviceShape = { channels, diesPerChannel, stripe };
  const c = raw.cursor;
  if (typeof c === 'number' && Number.isInteger(c) && c > 0 && c < 2 ** 32) out.cursor = c;
  // After a power cut: the moves since (damaged: the recorded run at the cursor).
  const moves = movesFrom(raw.moves);
  if (moves) out.moves = moves;
  return out;
}

/** A device's moves since a power cut (device/devicePath.ts) from a link or file: they start with the cut, each a
 * power move or a whole count of steps; nothing when damaged. */
function movesFrom(raw: unknown): DeviceMove[] | undefined {
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > MAX_MOVES) return undefined;
  const ok = raw.every(
    (m) =>
      m === 'cut' ||
      m === 'recover' ||
      m === 'recover_whole' ||
      (typeof m === 'number' && Number.isInteger(m) && m !== 0 && Math.abs(m) < 2 ** 31),
  );
  return ok && raw[0] === 'cut' ? (raw as DeviceMove[]) : undefined;
}

/** The longest path a link carries (a cut and what follows it: a few moves each). */
const MAX_MOVES = 4096;

/** The migrations, oldest first: each takes version n to n + 1. */
const MIGRATIONS: Record<number, (raw: unknown) => Record<string, unknown>> = {
  // v0: a bare Session scenario → a v1 state at step 0.
  0: (raw) => ({ v: 1, scenario: raw, at: { step: 0, op: 0 } }),
};

/** A state from parsed JSON of any known version (throws a readable Error). */
export function stateFromObject(
  raw: unknown,
  version: number,
): { state: ShareState; missingTrace?: string; migrated: boolean } {
  let cur = raw;
  let v = version;
  const migrated = v < SHARE_VERSION;
  while (v < SHARE_VERSION) {
    const m = MIGRATIONS[v];
    if (!m) throw new Error(`links of version ${v} are no longer supported`);
    cur = m(cur);
    v++;
  }
  if (!isObject(cur)) throw new Error('the scenario data is not an object');
  if (cur.v !== undefined && cur.v !== SHARE_VERSION)
    throw new Error(`the data says version ${String(cur.v)}, the link says ${version}`);
  const scenario = scenarioFromObject(cur.scenario, { allowMissingTrace: true, exactParams: true });
  let missingTrace: string | undefined;
  if (scenario.workload.kind === 'trace' && (scenario.workload.missing || !scenario.workload.text)) {
    missingTrace = scenario.workload.name;
    scenario.workload = { ...scenario.workload, missing: true };
  }
  const at = isObject(cur.at)
    ? { step: wholeNumber(cur.at.step, 'step'), op: wholeNumber(cur.at.op, 'op') }
    : { step: 0, op: 0 };
  const state: ShareState = { scenario, at, view: viewFrom(cur.view) };
  const compare = compareFrom(cur.compare);
  if (compare) state.compare = compare;
  const device = deviceFrom(cur.device);
  if (device) state.device = device;
  return { state, missingTrace, migrated };
}

/**
 * Read a location hash (with or without `#`). Never throws: a damaged link gives
 * `{kind: 'error', message}` and the app opens the default scenario with the message.
 */
export function decodeHash(hash: string): Decoded {
  const h = hash.replace(/^#/, '').trim();
  if (h === '') return { kind: 'none' };
  const tour = /^tour=([\w-]+)$/.exec(h);
  if (tour) return { kind: 'tour', id: tour[1] };
  const m = /^v(\d+)=(.*)$/s.exec(h);
  if (!m)
    return { kind: 'error', message: 'This link does not hold an ftlscope scenario (it should start with #v1=).' };
  const version = Number(m[1]);
  if (version > SHARE_VERSION) {
    return {
      kind: 'error',
      message: `This link was made by a newer version of ftlscope (link format v${version}; this one reads up to v${SHARE_VERSION}). Open it with the newer version.`,
    };
  }
  let json: string | null = null;
  try {
    json = decompressFromEncodedURIComponent(m[2]);
  } catch {
    json = null;
  }
  if (!json)
    return {
      kind: 'error',
      message: 'This link is damaged (it could not be decompressed) — was it cut short when copied?',
    };
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    return {
      kind: 'error',
      message: 'This link is damaged (its data is not valid JSON) — was it cut short when copied?',
    };
  }
  try {
    const { state, missingTrace, migrated } = stateFromObject(raw, version);
    return {
      kind: 'state',
      state,
      missingTrace,
      notice: migrated
        ? `This link was made by an older version of ftlscope (v${version}) and was updated; it opens at the start of the workload.`
        : undefined,
    };
  } catch (e) {
    return { kind: 'error', message: `This link's scenario cannot be used: ${(e as Error).message}` };
  }
}

// ---- scenario files ---------------------------------------------------------------

/** A scenario file: pretty JSON of the same versioned state. */
export function stateToFile(state: ShareState): string {
  return JSON.stringify(JSON.parse(stateToJson(state)), null, 2) + '\n';
}

/**
 * Read a scenario file: a versioned state, or a bare Session scenario (v0).
 * Throws an Error with a readable message.
 */
export function stateFromFile(text: string): { state: ShareState; missingTrace?: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(`not valid JSON: ${(e as Error).message}`);
  }
  if (!isObject(raw)) throw new Error('a scenario file must hold a JSON object');
  if (raw.v === undefined) return stateFromObject(raw, 0);
  if (typeof raw.v !== 'number' || !Number.isInteger(raw.v)) throw new Error('"v" must be a version number');
  if (raw.v > SHARE_VERSION) throw new Error(`this file was made by a newer version of ftlscope (v${raw.v})`);
  return stateFromObject(raw, raw.v);
}
