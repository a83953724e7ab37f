// Glossary popovers: a term in a tour's text is a button; it opens the definition in a
// native popover (light dismiss, Escape, focus return come with it).
import { Fragment, useId } from 'react';
import { GLOSSARY, splitTerms, type GlossaryEntry } from './glossary';

export function GlossaryTerm({ entry, children }: { entry: GlossaryEntry; children: string }) {
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="term"
        popoverTarget={id}
        data-term={entry.id}
        aria-label={`${children}: what is it?`}
      >
        {children}
      </button>
      <span id={id} popover="auto" className="term-popover" role="note" data-testid={`glossary-${entry.id}`}>
        <strong>{entry.term}.</strong> {entry.definition}
      </span>
    </>
  );
}

/** Running text with its glossary terms as popover buttons. */
export function WithGlossary({ text }: { text: string }) {
  return (
    <>
      {splitTerms(text).map((p, i) => (
        <Fragment key={i}>{p.entry ? <GlossaryTerm entry={p.entry}>{p.text}</GlossaryTerm> : p.text}</Fragment>
      ))}
    </>
  );
}

/** The whole glossary, for the header's Glossary popover. */
export function GlossaryButton() {
  const id = useId();
  return (
    <>
      <button type="button" popoverTarget={id} data-testid="glossary-toggle" title="The words of the papers, explained">
        Glossary
      </button>
      <div id={id} popover="auto" className="glossary-popover" data-testid="glossary">
        <h2>Glossary</h2>
        <dl>
          {GLOSSARY.map((e) => (
            <Fragment key={e.id}>
              <dt>{e.term}</dt>
              <dd>{e.definition}</dd>
            </Fragment>
          ))}
        </dl>
        <button type="button" popoverTarget={id} popoverTargetAction="hide">
          Close
        </button>
      </div>
    </>
  );
}
