// Glossary terms: a term wherever the app shows it (tour text, legend, metrics, headings,
// narration) is an inline button (a span with the button role, so it wraps). Hover or focus shows its definition in a tip (one tip for the
// page, in the top layer so no scrolling box clips it); a click opens the whole glossary
// at that entry (the header's Glossary popover; Escape and light dismiss come with it).
import { Fragment } from 'react';
import { GLOSSARY, splitTerms, type GlossaryEntry } from './glossary';

const TIP_ID = 'glossary-tip';
const GLOSSARY_ID = 'glossary-popover';

/** The page's one definition tip (created on first use, outside React's tree). */
function tip(): HTMLElement {
  let el = document.getElementById(TIP_ID);
  if (!el) {
    el = document.createElement('div');
    el.id = TIP_ID;
    el.className = 'term-tip';
    el.setAttribute('role', 'tooltip');
    el.setAttribute('popover', 'manual');
    el.dataset.testid = 'glossary-tip';
    document.body.appendChild(el);
  }
  return el;
}

// True while the glossary opens: focus moves inside it, and no tip may open meanwhile
// (a popover cannot be shown during another's show).
let opening = false;

function showTip(button: HTMLElement, entry: GlossaryEntry) {
  if (opening) return;
  const el = tip();
  el.replaceChildren();
  const strong = document.createElement('strong');
  strong.textContent = `${entry.term}. `;
  el.append(strong, entry.definition, ' ');
  const more = document.createElement('em');
  more.textContent = '(Click: the glossary.)';
  el.append(more);
  el.dataset.term = entry.id;
  if (!el.matches(':popover-open')) {
    try {
      el.showPopover();
    } catch {
      return; // another popover is being shown: no tip this time
    }
  }
  // Below the term, or above it when there is no room; kept inside the window.
  const r = button.getBoundingClientRect();
  const w = Math.min(el.offsetWidth, window.innerWidth - 16);
  const left = Math.max(8, Math.min(r.left, window.innerWidth - w - 8));
  const below = r.bottom + 6 + el.offsetHeight <= window.innerHeight;
  el.style.left = `${left}px`;
  el.style.top = `${below ? r.bottom + 6 : Math.max(8, r.top - 6 - el.offsetHeight)}px`;
}

function hideTip() {
  const el = document.getElementById(TIP_ID);
  if (el?.matches(':popover-open')) el.hidePopover();
}

/** Open the whole glossary at an entry; false when the page has none (embed, print). */
export function openGlossary(id: string): boolean {
  const pop = document.getElementById(GLOSSARY_ID);
  if (!pop) return false;
  hideTip();
  opening = true;
  try {
    if (!pop.matches(':popover-open')) pop.showPopover();
  } finally {
    opening = false;
  }
  pop.querySelectorAll('.current').forEach((e) => e.classList.remove('current'));
  const dt = pop.querySelector<HTMLElement>(`[data-entry="${id}"]`);
  if (dt) {
    dt.classList.add('current');
    (dt.nextElementSibling as HTMLElement | null)?.classList.add('current');
    dt.scrollIntoView({ block: 'center' });
    opening = true;
    dt.focus({ preventScroll: true });
    opening = false;
  }
  return true;
}

export function GlossaryTerm({ entry, children }: { entry: GlossaryEntry; children: string }) {
  const open = (el: HTMLElement) => {
    if (!openGlossary(entry.id)) showTip(el, entry);
  };
  // An inline element, not a <button>: a button is an atomic inline box, so a term of
  // several words ("flash translation layer") moved whole to the next line and left a short,
  // ragged line before it; a span wraps like the words around it. It keeps a button's
  // role, name (its words), focus and keys: Enter and Space open the glossary.
  return (
    <span
      role="button"
      tabIndex={0}
      className="term"
      data-term={entry.id}
      // The visible word is the name (headings and labels read as written); the tip describes it.
      aria-describedby={TIP_ID}
      onMouseEnter={(e) => showTip(e.currentTarget, entry)}
      onFocus={(e) => showTip(e.currentTarget, entry)}
      onMouseLeave={hideTip}
      onBlur={hideTip}
      onKeyDown={(e) => {
        if (e.key === 'Escape') hideTip();
        else if (e.key === 'Enter' || e.key === ' ') {
          // Space would scroll the page (or play, App's key); Enter would submit a form
          e.preventDefault();
          e.stopPropagation();
          open(e.currentTarget);
        }
      }}
      onClick={(e) => {
        // inside a <label> a click would also focus (or toggle) its control
        e.preventDefault();
        e.stopPropagation();
        open(e.currentTarget);
      }}
    >
      {children}
    </span>
  );
}

/** Running text with its glossary terms as inline buttons (each entry at its first appearance). */
export function WithGlossary({ text }: { text: string }) {
  return (
    <>
      {splitTerms(text).map((p, i) => (
        <Fragment key={i}>{p.entry ? <GlossaryTerm entry={p.entry}>{p.text}</GlossaryTerm> : p.text}</Fragment>
      ))}
    </>
  );
}

/** A label (legend entry, metric, heading): its terms linked, its case kept. */
export function LabelTerm({ label }: { label: string }) {
  return <WithGlossary text={label} />;
}

/** The whole glossary, for the header's Glossary popover. */
export function GlossaryButton() {
  return (
    <>
      <button
        type="button"
        popoverTarget={GLOSSARY_ID}
        data-testid="glossary-toggle"
        title="The words of the papers, explained"
      >
        Glossary
      </button>
      <div id={GLOSSARY_ID} popover="auto" className="glossary-popover" data-testid="glossary">
        <h2>Glossary</h2>
        <dl>
          {GLOSSARY.map((e) => (
            <Fragment key={e.id}>
              <dt data-entry={e.id} data-testid={`glossary-${e.id}`} tabIndex={-1}>
                {e.term}
              </dt>
              <dd>{e.definition}</dd>
            </Fragment>
          ))}
        </dl>
        <button type="button" popoverTarget={GLOSSARY_ID} popoverTargetAction="hide">
          Close
        </button>
      </div>
    </>
  );
}
