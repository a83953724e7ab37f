// A tour as a file (`.tour.json`, docs/tours.md): the one format of the built-in tours
// (tours/*.tour.json) and of the tours teachers write, share and open. The file comes from
// anyone, so it is read as data only and checked here; every problem is named with its
// path ("stops[2].text: ..."), and sizes are bounded before anything is parsed.
import { GLOSSARY } from '../ui/glossary/glossary';
import { BLOCK_ROLES } from '../viz/palette';
import { parseMarkdown, type LinkProblem } from './markdown';
import type { Scenario } from '../scenario/model';
import type { Tour } from './tourTypes';

export const TOUR_FORMAT = 'ftlscope-tour';
export const TOUR_VERSION = 1;
/** Bounds on what a tour may hold (a lecture fits well inside them). */
export const LIMITS = {
  fileChars: 1_000_000,
  stops: 60,
  title: 200,
  summary: 1_000,
  text: 5_000,
  quiz: 1_500,
  list: 64,
};
/** The problems listed at most (a broken file should not flood the screen). */
const MAX_PROBLEMS = 40;

export interface TourProblem {
  /** where in the file: "stops[2].at.step", "" for the whole file */
  path: string;
  message: string;
}

export type TourFile = Omit<Tour, 'schemes'> & { format: typeof TOUR_FORMAT; version: number };

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const ROLE_KEYS = new Set(BLOCK_ROLES.map((r) => r.key));
const GLOSSARY_IDS = new Set(GLOSSARY.map((e) => e.id));
const PREDICT = new Set(['kind', 'victim', 'copies']);
const PAGE_STATES = new Set(['erased', 'valid', 'invalid', 'retractable', 'metadata']);
const SCENARIO_KEYS = ['scheme', 'params', 'chip', 'workload', 'precondition', 'timing', 'device'];
/** Channels and dies per channel a tour's device may have (as links carry them: scenario/share.ts). */
export const MAX_DEVICE_SIDE = 64;
const STOP_KEYS = ['title', 'at', 'scenario', 'text', 'highlight', 'quiz', 'predict', 'expect', 'pages', 'blocks'];

class Checker {
  problems: TourProblem[] = [];
  more = 0;
  add(path: string, message: string) {
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ path, message });
    else this.more++;
  }
  fields(o: Obj, path: string, allowed: string[], required: string[] = []) {
    for (const k of Object.keys(o))
      if (!allowed.includes(k)) this.add(join(path, k), `unknown field (allowed: ${allowed.join(', ')})`);
    for (const k of required) if (!(k in o)) this.add(join(path, k), 'missing');
  }
  str(v: unknown, path: string, max: number, optional = false): v is string {
    if (v === undefined && optional) return false;
    if (typeof v !== 'string') return (this.add(path, 'must be text'), false);
    if (v.length > max) return (this.add(path, `too long: ${v.length} characters (at most ${max})`), false);
    return true;
  }
  /** Markdown text: its length, and every link names a glossary term. */
  text(v: unknown, path: string, max: number) {
    if (!this.str(v, path, max)) return;
    const links: LinkProblem[] = [];
    for (const b of parseMarkdown(v, links))
      for (const part of b.kind === 'p' ? b.inline : b.items.flat())
        if (part.kind === 'term' && !GLOSSARY_IDS.has(part.id))
          this.add(path, `unknown glossary term "${part.id}" (in [${part.label}](glossary:${part.id}))`);
    for (const l of links)
      this.add(path, `the link [${l.label}](${l.target.slice(0, 60)}) is not a glossary term: write (glossary:id)`);
  }
  int(v: unknown, path: string, min = 0): v is number {
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
      this.add(path, `must be a whole number ≥ ${min}`);
      return false;
    }
    return true;
  }
  list(v: unknown, path: string): v is unknown[] {
    if (!Array.isArray(v)) return (this.add(path, 'must be a list'), false);
    if (v.length > LIMITS.list)
      return (this.add(path, `too many entries: ${v.length} (at most ${LIMITS.list})`), false);
    return true;
  }
}

const join = (path: string, key: string | number) =>
  typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key;

function checkScenario(c: Checker, v: unknown, path: string) {
  if (!isObj(v)) return c.add(path, 'must be an object (scheme, params, chip, workload)');
  c.fields(v, path, SCENARIO_KEYS, ['scheme', 'chip', 'workload']);
  c.str(v.scheme, join(path, 'scheme'), 40);
  if (v.params !== undefined) {
    if (!isObj(v.params)) c.add(join(path, 'params'), 'must be an object of numbers');
    else
      for (const [k, x] of Object.entries(v.params))
        if (typeof x !== 'number' || !/^[a-z][a-z0-9_]{0,40}$/.test(k))
          c.add(join(join(path, 'params'), k), 'must be a number with a lower-case name');
  }
  if (!isObj(v.chip) || typeof v.chip.preset !== 'string') c.add(join(path, 'chip'), 'must name a preset');
  if (!isObj(v.workload) || typeof v.workload.kind !== 'string')
    c.add(join(path, 'workload'), 'must be an object with a kind');
  else if (v.workload.kind === 'trace')
    c.add(join(path, 'workload.kind'), 'a tour cannot carry a trace: use a pattern or a generated workload');
  else if (v.workload.kind === 'pattern') c.str(v.workload.text, join(path, 'workload.text'), 20_000);
  if (v.device !== undefined) checkDevice(c, v.device, join(path, 'device'));
}

/**
 * A scenario's device (issue 40; the core's `ssd::Shape`, as `ftl run` scenario files hold
 * it): channels x dies per channel and the stripe unit. The app draws the default bus rate,
 * so a tour gives none.
 */
function checkDevice(c: Checker, v: unknown, path: string) {
  if (!isObj(v)) return c.add(path, 'must be {"channels", "dies_per_channel", "stripe"} (e.g. 8, 1, "page")');
  c.fields(v, path, ['channels', 'dies_per_channel', 'stripe'], ['channels', 'dies_per_channel', 'stripe']);
  for (const k of ['channels', 'dies_per_channel'])
    if (k in v && c.int(v[k], join(path, k), 1) && (v[k] as number) > MAX_DEVICE_SIDE)
      c.add(join(path, k), `at most ${MAX_DEVICE_SIDE}`);
  if ('stripe' in v && v.stripe !== 'page' && v.stripe !== 'block')
    c.add(join(path, 'stripe'), 'must be "page" or "block"');
}

/** Dies of a raw scenario's device (1: none, or a damaged one the checks name). */
function rawDies(s: unknown): number {
  if (!isObj(s) || !isObj(s.device)) return 1;
  const { channels, dies_per_channel } = s.device;
  return typeof channels === 'number' && typeof dies_per_channel === 'number' ? channels * dies_per_channel : 1;
}

/**
 * A stop on a device of several dies (the device view): `at.op` is the device's operation
 * cursor (operations of all dies in time order) and `at.step` is 0; the chip-view fields
 * (highlight, predict, pages, blocks) have no meaning there. `expect` reads the device's
 * moment (tours.test.ts).
 */
function checkDeviceStop(c: Checker, v: unknown, path: string, dies: number) {
  if (!isObj(v)) return;
  if (isObj(v.at) && v.at.step !== 0)
    c.add(
      join(path, 'at.step'),
      `must be 0 on a device stop (${dies} dies): "op" counts the device's operations in time order`,
    );
  for (const k of ['highlight', 'predict', 'pages', 'blocks'])
    if (v[k] !== undefined)
      c.add(join(path, k), `not on a device stop (${dies} dies): it is drawn on the one-chip view`);
}

function checkStop(c: Checker, v: unknown, path: string) {
  if (!isObj(v)) return c.add(path, 'must be an object');
  c.fields(v, path, STOP_KEYS, ['title', 'at', 'text']);
  c.str(v.title, join(path, 'title'), LIMITS.title);
  if (!isObj(v.at)) c.add(join(path, 'at'), 'must be {"step": requests done, "op": operations of the next}');
  else {
    c.fields(v.at, join(path, 'at'), ['step', 'op'], ['step', 'op']);
    c.int(v.at.step, join(path, 'at.step'));
    c.int(v.at.op, join(path, 'at.op'));
  }
  if (v.scenario !== undefined) checkScenario(c, v.scenario, join(path, 'scenario'));
  c.text(v.text, join(path, 'text'), LIMITS.text);
  const h = v.highlight;
  if (h !== undefined) {
    const hp = join(path, 'highlight');
    if (!isObj(h)) c.add(hp, 'must be an object (roles, owners, touched, blocks, pages)');
    else {
      c.fields(h, hp, ['roles', 'owners', 'touched', 'blocks', 'pages']);
      if (h.roles !== undefined && c.list(h.roles, join(hp, 'roles')))
        h.roles.forEach((r, i) => {
          if (typeof r !== 'string' || !ROLE_KEYS.has(r))
            c.add(join(join(hp, 'roles'), i), `unknown block role (one of ${[...ROLE_KEYS].join(', ')})`);
        });
      if (h.owners !== undefined && c.list(h.owners, join(hp, 'owners')))
        h.owners.forEach((o, i) => c.int(o, join(join(hp, 'owners'), i)));
      if (h.touched !== undefined && typeof h.touched !== 'boolean')
        c.add(join(hp, 'touched'), 'must be true or false');
      if (h.blocks !== undefined && c.list(h.blocks, join(hp, 'blocks')))
        h.blocks.forEach((b, i) => c.int(b, join(join(hp, 'blocks'), i)));
      if (h.pages !== undefined && c.list(h.pages, join(hp, 'pages')))
        h.pages.forEach((pg, i) => {
          const pp = join(join(hp, 'pages'), i);
          if (!Array.isArray(pg) || pg.length !== 2) c.add(pp, 'must be [block, page]');
          else pg.forEach((x, j) => c.int(x, join(pp, j)));
        });
    }
  }
  if (v.quiz !== undefined) {
    const qp = join(path, 'quiz');
    if (!isObj(v.quiz)) c.add(qp, 'must be {"question", "answer"}');
    else {
      c.fields(v.quiz, qp, ['question', 'answer'], ['question', 'answer']);
      c.str(v.quiz.question, join(qp, 'question'), LIMITS.quiz);
      c.str(v.quiz.answer, join(qp, 'answer'), LIMITS.quiz);
    }
  }
  if (v.predict !== undefined && c.list(v.predict, join(path, 'predict'))) {
    v.predict.forEach((k, i) => {
      if (typeof k !== 'string' || !PREDICT.has(k))
        c.add(join(join(path, 'predict'), i), 'unknown question (kind, victim or copies)');
    });
    if (isObj(v.at) && v.at.op !== 0)
      c.add(join(path, 'predict'), 'a prediction is asked between requests: at.op must be 0');
  }
  if (v.expect !== undefined) {
    if (!isObj(v.expect) || Object.keys(v.expect).length > LIMITS.list)
      c.add(join(path, 'expect'), `must be an object of at most ${LIMITS.list} metrics`);
    else
      for (const [k, x] of Object.entries(v.expect))
        if (!/^[a-z_]{1,40}(\.[a-z_0-9]{1,40}){0,3}$/.test(k) || typeof x !== 'number' || !Number.isFinite(x))
          c.add(join(join(path, 'expect'), k), 'must be a metric path with a number');
  }
  if (v.pages !== undefined) {
    if (!isObj(v.pages)) c.add(join(path, 'pages'), 'must be an object of page-state counts');
    else
      for (const [k, x] of Object.entries(v.pages))
        if (!PAGE_STATES.has(k)) c.add(join(join(path, 'pages'), k), 'unknown page state');
        else c.int(x, join(join(path, 'pages'), k));
  }
  if (v.blocks !== undefined && c.list(v.blocks, join(path, 'blocks')))
    v.blocks.forEach((b, i) => {
      const bp = join(join(path, 'blocks'), i);
      if (!isObj(b)) return c.add(bp, 'must be an object');
      c.fields(b, bp, ['block', 'role', 'owner', 'pages'], ['block']);
      c.int(b.block, join(bp, 'block'));
      if (b.role !== undefined && (typeof b.role !== 'string' || !ROLE_KEYS.has(b.role)))
        c.add(join(bp, 'role'), 'unknown block role');
      if (b.owner !== undefined) c.int(b.owner, join(bp, 'owner'));
      if (b.pages !== undefined && (typeof b.pages !== 'string' || !/^[EVIRM]{1,4096}$/.test(b.pages)))
        c.add(join(bp, 'pages'), 'must be letters E, V, I, R, M (one a page)');
    });
}

/** Every check of tourFromObject passed: the object has a tour file's shape (no cast needed). */
const passed = (raw: Obj, c: Checker): raw is Obj & TourFile => isObj(raw) && c.problems.length === 0;

/**
 * A tour from a parsed file: the tour, or every problem with its path. Checks the shape,
 * the bounds and the glossary links; what needs the core (the scenario's scheme and
 * parameters, stops within the workload) is tourCoreProblems's (tourCheck.ts).
 */
export function tourFromObject(raw: unknown): { tour?: Tour; problems: TourProblem[] } {
  const c = new Checker();
  if (!isObj(raw)) return { problems: [{ path: '', message: 'a tour file is a JSON object' }] };
  c.fields(
    raw,
    '',
    ['format', 'version', 'id', 'title', 'summary', 'scenario', 'stops'],
    ['format', 'id', 'title', 'scenario', 'stops'],
  );
  if (raw.format !== undefined && raw.format !== TOUR_FORMAT) c.add('format', `must be "${TOUR_FORMAT}"`);
  if (raw.version !== undefined && raw.version !== TOUR_VERSION)
    c.add('version', `this app reads version ${TOUR_VERSION} (the file says ${String(raw.version)})`);
  if (c.str(raw.id, 'id', 60) && !/^[a-z0-9][a-z0-9-]*$/.test(raw.id))
    c.add('id', 'lower-case letters, digits and hyphens only');
  c.str(raw.title, 'title', LIMITS.title);
  if (raw.summary !== undefined) c.str(raw.summary, 'summary', LIMITS.summary);
  checkScenario(c, raw.scenario, 'scenario');
  if (!Array.isArray(raw.stops)) c.add('stops', 'must be a list of stops');
  else if (raw.stops.length === 0) c.add('stops', 'a tour needs at least one stop');
  else if (raw.stops.length > LIMITS.stops)
    c.add('stops', `too many stops: ${raw.stops.length} (at most ${LIMITS.stops})`);
  else {
    let scenario: unknown = raw.scenario;
    raw.stops.forEach((s, i) => {
      checkStop(c, s, join('stops', i));
      if (isObj(s) && s.scenario !== undefined) scenario = s.scenario;
      const dies = rawDies(scenario);
      if (dies > 1) checkDeviceStop(c, s, join('stops', i), dies);
    });
  }
  if (c.more) c.problems.push({ path: '', message: `and ${c.more} more problems` });
  if (!passed(raw, c)) return { problems: c.problems };
  const file: TourFile = raw;
  const schemes = [file.scenario, ...file.stops.map((s) => s.scenario)].flatMap((s) => (s ? [s.scheme] : []));
  const { format: _f, version: _v, ...rest } = file;
  // params may be left out (the scheme's defaults)
  const withParams = (s: Scenario): Scenario => ({ ...s, params: s.params ?? {} });
  const tour: Tour = {
    ...rest,
    summary: rest.summary ?? '',
    schemes: [...new Set(schemes)],
    scenario: withParams(rest.scenario),
    stops: rest.stops.map((s) => (s.scenario ? { ...s, scenario: withParams(s.scenario) } : s)),
  };
  return { tour, problems: [] };
}

/** A tour from a file's text: bounded before it is parsed. */
export function tourFromJson(text: string): { tour?: Tour; problems: TourProblem[] } {
  if (text.length > LIMITS.fileChars)
    return {
      problems: [
        { path: '', message: `the file is too large: ${text.length} characters (at most ${LIMITS.fileChars})` },
      ],
    };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { problems: [{ path: '', message: `not valid JSON: ${(e as Error).message}` }] };
  }
  return tourFromObject(raw);
}

/** The file a tour saves as (tourFromObject reads it back to the same tour). */
export function tourToFile(tour: Tour): TourFile {
  const { schemes: _s, ...rest } = tour;
  return { format: TOUR_FORMAT, version: TOUR_VERSION, ...rest };
}

/** One line a person reads: "stops[2].text: unknown glossary term ...". */
export function describeProblems(problems: TourProblem[]): string[] {
  return problems.map((p) => (p.path ? `${p.path}: ${p.message}` : p.message));
}
