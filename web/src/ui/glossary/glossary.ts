// The words of the papers and of the app, explained once: GlossaryTerm links them wherever
// they appear (tour text, welcome, legend, metrics, panel headings, narration). Definitions
// follow the papers (FAST §2.x, KRAFT §2-A, ...) and cite the section; the entries are in
// glossaryPapers.ts, glossaryApp.ts and glossarySchemes.ts.
import { APP_TERMS } from './glossaryApp';
import { PAPER_TERMS } from './glossaryPapers';
import { SCHEME_TERMS } from './glossarySchemes';

import type { GlossaryEntry } from './glossaryTypes';

export type { GlossaryEntry };

export const GLOSSARY: GlossaryEntry[] = [...PAPER_TERMS, ...APP_TERMS, ...SCHEME_TERMS];

export interface TextPart {
  text: string;
  entry?: GlossaryEntry;
}

const ALL = GLOSSARY.flatMap((e) => e.patterns.map((p) => ({ p, e }))).sort((a, b) => b.p.length - a.p.length);
const BY_PATTERN = new Map(ALL.map((x) => [x.p, x.e] as const));
// Whole words, Unicode-aware (α, “lbMSN”, “L(p)”): no letter, digit or _ on either side.
const RE = new RegExp(
  `(?<![\\p{L}\\p{N}_])(${ALL.map((x) => x.p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?![\\p{L}\\p{N}_])`,
  'gu',
);

export const entryById = (id: string) => GLOSSARY.find((e) => e.id === id);

/** Every glossary term in a text, each occurrence: [start, end) and its entry. */
export function findTerms(text: string): { start: number; end: number; entry: GlossaryEntry }[] {
  return [...text.matchAll(RE)].map((m) => ({
    start: m.index,
    end: m.index + m[1].length,
    entry: BY_PATTERN.get(m[1])!,
  }));
}

/** The entry a label (a legend entry, a metric, a heading) names, if any: its first term. */
export function termOf(label: string): GlossaryEntry | undefined {
  return findTerms(label)[0]?.entry;
}

/** Split running text at glossary terms; each entry is marked at its first appearance only. */
export function splitTerms(text: string): TextPart[] {
  const out: TextPart[] = [];
  const seen = new Set<string>();
  let last = 0;
  for (const m of findTerms(text)) {
    if (seen.has(m.entry.id)) continue;
    seen.add(m.entry.id);
    if (m.start > last) out.push({ text: text.slice(last, m.start) });
    out.push({ text: text.slice(m.start, m.end), entry: m.entry });
    last = m.end;
  }
  if (last < text.length) out.push({ text: text.slice(last) });
  return out;
}

// Technical words the glossary must explain wherever the app shows them (issue 35): the
// papers' acronyms (two or more capitals, “lbMSN”), Greek symbols, percentiles, and the
// words the issue found unexplained. Plain English around them is not checked.
const TECHNICAL = new RegExp(
  [
    '(?<![\\p{L}\\p{N}_])(?:[a-z]{0,2}[A-Z]{2,}[a-z]?s?)(?![\\p{L}\\p{N}_])',
    '[αβπ]',
    '\\bp\\d{2,3}(?:\\.\\d)?\\b',
    '\\b(?:sectors?|sub-?tables?|epoch|map dumps?|intent log|round robin|threshold|precondition\\w*|queue|torn|acknowledged|unwritten|over-provisioning|utilisation|retractable|checkpoint|associativity|victims?|merges?|switch|wait\\w*|service|response|latency|erased?|valid|invalid|frozen|revert|recovery)\\b',
  ].join('|'),
  'gu',
);

/** Acronyms that are units or plain words, not terms. */
const NOT_TERMS = new Set(['OK', 'CSV', 'JSON', 'PNG', 'SVG', 'URL', 'ID', 'NAND', 'MLC', 'SLC', 'I/O']);

/** The technical words of a text that no glossary term covers (the glossary test's check). */
export function unexplained(text: string): string[] {
  const covered = findTerms(text);
  const out: string[] = [];
  for (const m of text.matchAll(TECHNICAL)) {
    if (NOT_TERMS.has(m[0])) continue;
    const end = m.index + m[0].length;
    if (!covered.some((c) => c.start <= m.index && c.end >= end)) out.push(m[0]);
  }
  return out;
}
