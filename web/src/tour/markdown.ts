// The Markdown subset of tour text (docs/tours.md): paragraphs (a blank line between),
// lists ("- " or "1. " at the start of a line), *emphasis*, **strong** and links to
// glossary terms, [label](glossary:id). Nothing else is markup: no HTML, no headings, no
// images, no links out of the app (a tour file comes from anyone: a link to another
// target is kept as its label only, and the validator names it). TourText.tsx renders the
// result as React elements, never as HTML.

export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'em'; text: string }
  | { kind: 'strong'; text: string }
  /** `id` is what the link names; the renderer links it only when the glossary has it */
  | { kind: 'term'; label: string; id: string };

export type Block = { kind: 'p'; inline: Inline[] } | { kind: 'ul' | 'ol'; items: Inline[][] };

/** A link whose target is not a glossary term: the label is kept, the target dropped. */
export interface LinkProblem {
  label: string;
  target: string;
}

/** The longest text the renderer draws (longer text is cut, with a note). */
export const MAX_RENDERED = 20_000;

// Bounded pieces ({1,200}) and no nesting: linear in the text, whatever it holds.
const INLINE = /\*\*([^*\n]{1,2000})\*\*|\*([^*\n]{1,2000})\*|\[([^\]\n]{1,200})\]\(([^)\s]{1,200})\)/g;
const GLOSSARY_LINK = /^glossary:([a-z0-9][a-z0-9-]{0,60})$/;

export function parseInline(text: string, links: LinkProblem[] = []): Inline[] {
  const out: Inline[] = [];
  let last = 0;
  for (const m of text.matchAll(INLINE)) {
    if (m.index > last) out.push({ kind: 'text', text: text.slice(last, m.index) });
    if (m[1] !== undefined) out.push({ kind: 'strong', text: m[1] });
    else if (m[2] !== undefined) out.push({ kind: 'em', text: m[2] });
    else {
      const g = GLOSSARY_LINK.exec(m[4]);
      if (g) out.push({ kind: 'term', label: m[3], id: g[1] });
      else {
        links.push({ label: m[3], target: m[4] });
        out.push({ kind: 'text', text: m[3] });
      }
    }
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push({ kind: 'text', text: text.slice(last) });
  return out;
}

const BULLET = /^\s*[-*]\s+(.*)$/;
const NUMBERED = /^\s*\d{1,3}[.)]\s+(.*)$/;

/** Blocks of a tour text; `links` collects the links that are not glossary terms. */
export function parseMarkdown(text: string, links: LinkProblem[] = []): Block[] {
  const blocks: Block[] = [];
  let para: string[] = [];
  let list: { kind: 'ul' | 'ol'; items: string[] } | null = null;
  const flush = () => {
    if (para.length) blocks.push({ kind: 'p', inline: parseInline(para.join(' '), links) });
    if (list) blocks.push({ kind: list.kind, items: list.items.map((t) => parseInline(t, links)) });
    para = [];
    list = null;
  };
  for (const line of text.split('\n')) {
    const b = BULLET.exec(line);
    const n = b ? null : NUMBERED.exec(line);
    if (b || n) {
      const kind = b ? 'ul' : 'ol';
      if (para.length || (list && list.kind !== kind)) flush();
      list ??= { kind, items: [] };
      list.items.push((b ?? n)![1]);
    } else if (line.trim() === '') flush();
    else if (list && /^\s+/.test(line)) list.items[list.items.length - 1] += ' ' + line.trim();
    else {
      if (list) flush();
      para.push(line.trim());
    }
  }
  flush();
  return blocks;
}
