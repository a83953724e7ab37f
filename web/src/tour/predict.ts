// "What happens next?": the questions are data; the answers come from the core
// (Session.predict_next, asked in the worker: sim/pageClient.ts predictNext, runs the next
// request on a copy of the state and classifies what it did), so a question can never
// disagree with what the chip then shows.
import { schemeCleaning, type Scenario } from '../scenario/model';
import type { Prediction } from '../sim/pageTypes';

export type { Prediction };

export type PredictKind = 'kind' | 'victim' | 'copies';

export interface Choice {
  value: string;
  label: string;
}

export interface PredictQuestion {
  id: PredictKind;
  prompt: string;
  /** the choices offered on this chip and scheme */
  choices: (ctx: { blocks: number; ppb: number; scheme: string }) => Choice[];
  /** the right choice's value, from the core's prediction */
  answer: (p: Prediction) => string;
}

export const KIND_LABEL: Record<Prediction['kind'], string> = {
  none: 'Nothing extra: just the request itself',
  gc: 'Garbage collection (copy valid pages out, erase a block)',
  switch: 'A switch merge (a log block becomes the data block, no copies)',
  partial: 'A partial merge (copy the missing pages into the log block)',
  full: 'A full merge (copy every up-to-date page into a new block)',
};

export const QUESTIONS: Record<PredictKind, PredictQuestion> = {
  kind: {
    id: 'kind',
    prompt: 'What will the next request make the FTL do?',
    choices: ({ scheme }) =>
      (schemeCleaning(scheme) === 'merges'
        ? (['none', 'switch', 'partial', 'full'] as const)
        : (['none', 'gc'] as const)
      ).map((k) => ({
        value: k,
        label: KIND_LABEL[k],
      })),
    answer: (p) => p.kind,
  },
  victim: {
    id: 'victim',
    prompt: 'Which block will be erased first?',
    choices: ({ blocks }) => [
      { value: 'none', label: 'No block is erased' },
      ...Array.from({ length: blocks }, (_, b) => ({ value: String(b), label: `Block ${b}` })),
    ],
    answer: (p) => (p.erased.length > 0 ? String(p.erased[0]) : 'none'),
  },
  copies: {
    id: 'copies',
    prompt: 'How many pages will be copied?',
    choices: ({ ppb }) => {
      const max = Math.max(8, ppb * 3);
      return Array.from({ length: max + 1 }, (_, n) => ({ value: String(n), label: String(n) })).concat({
        value: 'more',
        label: `more than ${max}`,
      });
    },
    answer: (p) => String(p.copies),
  },
};

/** The right value, clamped to the choices offered (a copy count above the list is "more"). */
export function rightValue(
  q: PredictQuestion,
  p: Prediction,
  ctx: { blocks: number; ppb: number; scheme: string },
): string {
  const v = q.answer(p);
  const values = q.choices(ctx).map((c) => c.value);
  if (values.includes(v)) return v;
  return q.id === 'copies' ? 'more' : v;
}

/** One sentence saying what the core computed, the reason shown with right or wrong. */
export function explain(p: Prediction): string {
  const what =
    p.kind === 'none'
      ? 'no garbage collection and no merge'
      : p.kind === 'gc'
        ? `garbage collection (${p.gc_runs} run${p.gc_runs === 1 ? '' : 's'})`
        : p.kind === 'switch'
          ? `${p.switches} switch merge${p.switches === 1 ? '' : 's'}`
          : p.kind === 'partial'
            ? `${p.partials} partial merge${p.partials === 1 ? '' : 's'}`
            : `${p.full_merges} full merge${p.full_merges === 1 ? '' : 's'}`;
  const req =
    p.request.op === 'write' || p.request.op === 'read'
      ? `${p.request.op === 'write' ? 'w' : 'r'}${p.lpn}`
      : p.request.op;
  const erased = p.erased.length
    ? `erases block${p.erased.length === 1 ? '' : 's'} ${p.erased.join(', ')}`
    : 'erases nothing';
  return `${req} causes ${what}: it ${erased} and copies ${p.copies} page${p.copies === 1 ? '' : 's'} (${p.programs} program${p.programs === 1 ? '' : 's'}, ${p.reads} read${p.reads === 1 ? '' : 's'} in all).`;
}

/** Predictions need the scenario itself on the page: an uploaded trace is not in it. */
export function canPredict(s: Scenario): boolean {
  return s.workload.kind !== 'trace';
}
