// Tour text on screen and on paper: the Markdown subset (markdown.ts) as React elements.
// Text is always a text node (React escapes it), links only open glossary entries, so a
// tour file from anyone cannot inject markup or send the reader elsewhere.
import { Fragment } from 'react';
import { entryById } from '../ui/glossary/glossary';
import { GlossaryTerm, WithGlossary } from '../ui/glossary/Glossary';
import { MAX_RENDERED, parseMarkdown, type Inline } from './markdown';

function InlineParts({ parts, terms }: { parts: Inline[]; terms: boolean }) {
  return (
    <>
      {parts.map((p, i) => {
        if (p.kind === 'text') return <Fragment key={i}>{terms ? <WithGlossary text={p.text} /> : p.text}</Fragment>;
        if (p.kind === 'em') return <em key={i}>{p.text}</em>;
        if (p.kind === 'strong') return <strong key={i}>{p.text}</strong>;
        const entry = terms ? entryById(p.id) : undefined;
        return entry ? (
          <GlossaryTerm key={i} entry={entry}>
            {p.label}
          </GlossaryTerm>
        ) : (
          <Fragment key={i}>{p.label}</Fragment>
        );
      })}
    </>
  );
}

/**
 * A stop's text: paragraphs and lists, in a div with the given class; glossary terms are
 * buttons unless `terms` is false (paper has no buttons).
 */
export function TourText({
  text,
  className,
  live,
  terms = true,
}: {
  text: string;
  className?: string;
  live?: boolean;
  terms?: boolean;
}) {
  const cut = text.length > MAX_RENDERED;
  const blocks = parseMarkdown(cut ? text.slice(0, MAX_RENDERED) : text);
  return (
    <div className={className} aria-live={live ? 'polite' : undefined} data-testid="tour-text">
      {blocks.map((b, i) =>
        b.kind === 'p' ? (
          <p key={i}>
            <InlineParts parts={b.inline} terms={terms} />
          </p>
        ) : b.kind === 'ul' ? (
          <ul key={i}>
            {b.items.map((item, j) => (
              <li key={j}>
                <InlineParts parts={item} terms={terms} />
              </li>
            ))}
          </ul>
        ) : (
          <ol key={i}>
            {b.items.map((item, j) => (
              <li key={j}>
                <InlineParts parts={item} terms={terms} />
              </li>
            ))}
          </ol>
        ),
      )}
      {cut && <p className="muted">(The text is cut here: it is longer than {MAX_RENDERED} characters.)</p>}
    </div>
  );
}
