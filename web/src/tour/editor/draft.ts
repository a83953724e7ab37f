// A tour being written in the app (TourEditor): plain data, the shape of a tour file
// without its format fields, changed by these pure functions and checked by the same
// validator a tour file goes through (tourFile.ts, tourCheck.ts) before it is tried or saved.
import type { Scenario } from '../../scenario/model';
import type { Moment } from '../../scenario/share';
import { tourCoreProblems } from '../tourCheck';
import { TOUR_FORMAT, TOUR_VERSION, tourFromObject, type TourProblem } from '../tourFile';
import { sameScenario } from '../tours';
import type { Highlight, Tour, TourStop } from '../tourTypes';

export interface Draft {
  id: string;
  title: string;
  summary: string;
  scenario: Scenario;
  stops: TourStop[];
}

/** A tour id from its title: lower-case letters, digits and hyphens (tourFile.ts). */
export function slug(title: string): string {
  const s = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // accents go, the letter stays
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+/, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return s || 'my-tour';
}

/** An empty tour on the scenario the chip runs now ("New tour"). */
export function newDraft(scenario: Scenario): Draft {
  return { id: 'my-tour', title: 'My tour', summary: '', scenario, stops: [] };
}

/**
 * A draft of an existing tour ("Edit this tour"): an own tour keeps its id (saving replaces
 * it); a built-in one becomes a copy with its own id and title.
 */
export function draftOf(tour: Tour, builtin: boolean): Draft {
  const { schemes: _s, ...rest } = structuredClone(tour);
  if (!builtin) return rest;
  const title = `My copy of ${tour.title}`.slice(0, 200);
  return { ...rest, title, id: slug(title) };
}

/**
 * "Add stop here": a stop at this moment, after the stop `after` (at the end when -1 or
 * none). `scenario`: the scenario of the moment when it is not the one the stop would
 * inherit (the same on another device: a device stop, issue 40); the stop then names it,
 * and the stop after it keeps its own scenario by naming it too.
 */
export function addStop(
  d: Draft,
  at: Moment,
  after = d.stops.length - 1,
  scenario?: Scenario,
): { draft: Draft; index: number } {
  const stop: TourStop = { title: `Stop ${d.stops.length + 1}`, at: { step: at.step, op: at.op }, text: '' };
  const index = Math.min(Math.max(after + 1, 0), d.stops.length);
  const stops = [...d.stops];
  if (scenario && !sameScenario(scenario, draftStopScenario(d, index - 1))) {
    stop.scenario = scenario;
    const next = stops[index];
    if (next && !next.scenario) stops[index] = { ...next, scenario: draftStopScenario(d, index) };
  }
  return { draft: { ...d, stops: [...stops.slice(0, index), stop, ...stops.slice(index)] }, index };
}

export function updateStop(d: Draft, i: number, change: Partial<TourStop>): Draft {
  return { ...d, stops: d.stops.map((s, j) => (j === i ? tidy({ ...s, ...change }) : s)) };
}

/** Move stop i one place up (-1) or down (+1); the index it lands at. */
export function moveStop(d: Draft, i: number, by: -1 | 1): { draft: Draft; index: number } {
  const j = i + by;
  if (i < 0 || j < 0 || i >= d.stops.length || j >= d.stops.length) return { draft: d, index: i };
  const stops = [...d.stops];
  [stops[i], stops[j]] = [stops[j], stops[i]];
  return { draft: { ...d, stops }, index: j };
}

export function deleteStop(d: Draft, i: number): Draft {
  return { ...d, stops: d.stops.filter((_, j) => j !== i) };
}

/** Add a picked block, or take it away when it is already picked. */
export function toggleBlock(h: Highlight | undefined, pbn: number): Highlight {
  const blocks = h?.blocks ?? [];
  const next = blocks.includes(pbn) ? blocks.filter((b) => b !== pbn) : [...blocks, pbn].sort((a, b) => a - b);
  return { ...h, blocks: next };
}

/** Add a picked page [pbn, page], or take it away when it is already picked. */
export function togglePage(h: Highlight | undefined, pbn: number, page: number): Highlight {
  const pages = h?.pages ?? [];
  const has = pages.some(([b, p]) => b === pbn && p === page);
  const next: [number, number][] = has
    ? pages.filter(([b, p]) => !(b === pbn && p === page))
    : [...pages, [pbn, page] as [number, number]].sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return { ...h, pages: next };
}

/** Empty optional parts are left out of the file (an empty highlight, no predictions). */
function tidy(s: TourStop): TourStop {
  const out: TourStop = { ...s };
  if (out.highlight) {
    const h: Highlight = { ...out.highlight };
    (['roles', 'owners', 'blocks', 'pages'] as const).forEach((k) => {
      if (h[k]?.length === 0) delete h[k];
    });
    if (h.touched === false) delete h.touched;
    if (Object.keys(h).length) out.highlight = h;
    else delete out.highlight;
  }
  if (out.predict?.length === 0) delete out.predict;
  if (out.quiz && !out.quiz.question && !out.quiz.answer) delete out.quiz;
  return out;
}

/** The draft as a tour file's object (what Save writes). */
export function draftFile(d: Draft): Record<string, unknown> {
  return {
    format: TOUR_FORMAT,
    version: TOUR_VERSION,
    id: d.id,
    title: d.title,
    ...(d.summary ? { summary: d.summary } : {}),
    scenario: d.scenario,
    stops: d.stops.map(tidy),
  };
}

/**
 * The draft as a tour, or every problem: the file checks (tourFile.ts), what only the editor
 * asks (a title and some text at each stop), then what needs the core (tourCheck.ts).
 */
export function checkDraft(d: Draft): { tour?: Tour; problems: TourProblem[] } {
  const own: TourProblem[] = [];
  if (!d.title.trim()) own.push({ path: 'title', message: 'give the tour a title' });
  d.stops.forEach((s, i) => {
    if (!s.title.trim()) own.push({ path: `stops[${i}].title`, message: 'give the stop a title' });
    if (!s.text.trim()) own.push({ path: `stops[${i}].text`, message: 'write what the students should read here' });
    if (s.quiz && (!s.quiz.question.trim() || !s.quiz.answer.trim()))
      own.push({ path: `stops[${i}].quiz`, message: 'a quiz needs both a question and its answer' });
  });
  const { tour, problems } = tourFromObject(draftFile(d));
  if (!tour) return { problems: [...own, ...problems] };
  const all = [...own, ...tourCoreProblems(tour)];
  return all.length ? { problems: all } : { tour, problems: [] };
}

/** "stops[1].text: ..." as a person reads it: "Stop 2 · text: ...". */
export function problemLine(p: TourProblem): string {
  const m = /^stops\[(\d+)\]\.?(.*)$/.exec(p.path);
  if (m) return `Stop ${Number(m[1]) + 1}${m[2] ? ` · ${m[2]}` : ''}: ${p.message}`;
  return p.path ? `${p.path}: ${p.message}` : p.message;
}

/** The stop a problem is about (to jump to it), if any. */
export function problemStop(p: TourProblem): number | undefined {
  const m = /^stops\[(\d+)\]/.exec(p.path);
  return m ? Number(m[1]) : undefined;
}

/** The scenario the chip must run for stop i (the last one set at or before it). */
export function draftStopScenario(d: Draft, i: number): Scenario {
  for (let j = Math.min(i, d.stops.length - 1); j >= 0; j--) {
    const s = d.stops[j].scenario;
    if (s) return s;
  }
  return d.scenario;
}

/** A draft read back from storage: only when it has a draft's shape (else none). */
export function draftFromStored(raw: unknown): Draft | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const d = raw as Partial<Draft>;
  if (typeof d.id !== 'string' || typeof d.title !== 'string' || typeof d.summary !== 'string') return null;
  if (typeof d.scenario !== 'object' || d.scenario === null || !Array.isArray(d.stops)) return null;
  const okStop = (s: unknown) => {
    const x = s as Partial<TourStop> | null;
    return (
      !!x &&
      typeof x.title === 'string' &&
      typeof x.text === 'string' &&
      !!x.at &&
      Number.isInteger(x.at.step) &&
      Number.isInteger(x.at.op)
    );
  };
  if (!d.stops.every(okStop)) return null;
  // A highlight is drawn as the draft is edited: one that is not of the file's shape is dropped.
  const ints = (v: unknown, n?: number) =>
    Array.isArray(v) && (n === undefined || v.length === n) && v.every((x) => Number.isInteger(x));
  const okHighlight = (h: Highlight) =>
    typeof h === 'object' &&
    h !== null &&
    (h.blocks === undefined || ints(h.blocks)) &&
    (h.owners === undefined || ints(h.owners)) &&
    (h.roles === undefined || (Array.isArray(h.roles) && h.roles.every((r) => typeof r === 'string'))) &&
    (h.pages === undefined || (Array.isArray(h.pages) && h.pages.every((p) => ints(p, 2))));
  return {
    ...(d as Draft),
    stops: d.stops.map((s) => {
      if (s.highlight === undefined || okHighlight(s.highlight)) return s;
      const { highlight: _dropped, ...rest } = s;
      return rest;
    }),
  };
}
