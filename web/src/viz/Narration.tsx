import { useLayoutEffect, useRef } from 'react';
import { useOverflows } from './useOverflows';
import { WithGlossary } from '../ui/glossary/Glossary';

/**
 * Plain words about the moment shown: the request or recovery, the notes revealed with the
 * last flash operation (one line each) and the operation itself (Session.narration()).
 * A box of fixed height (styles.css) that scrolls when a moment says more: the chip below
 * keeps its place. The newest line (the last: the operation, a torn page, "Valid again")
 * is scrolled into view at each new moment and whenever the box or its text is resized
 * (a text step): whole when it fits the box, else from its start (issue 35).
 */
export function Narration({
  text,
  step,
  total,
  opCursor,
  opCount,
  powered = true,
  recovering = false,
}: {
  text: string;
  step: number;
  total: number;
  opCursor: number;
  opCount: number;
  powered?: boolean;
  recovering?: boolean;
}) {
  let fallback = 'Press Step op (→) or Play (Space) to watch the FTL work.';
  if (step >= total && total > 0) fallback = 'The workload is finished. Step back (←), scrub, or change the scenario.';
  const where = !powered
    ? 'power off'
    : recovering
      ? `recovery op ${opCursor}/${opCount}`
      : opCount > 0
        ? `op ${opCursor}/${opCount}`
        : step > 0
          ? 'request done'
          : 'start';
  const lines = (text || fallback).split('\n');
  const [ref, overflows] = useOverflows<HTMLParagraphElement>(text);
  const newest = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const box = ref.current;
    const line = newest.current;
    if (!box || !line) return;
    const show = () => {
      const b = box.getBoundingClientRect();
      const l = line.getBoundingClientRect();
      const pad = parseFloat(getComputedStyle(box).paddingTop) || 0;
      // the line's place in the box's scrolled content
      const top = l.top - b.top - box.clientTop + box.scrollTop - pad;
      const room = box.clientHeight - 2 * pad;
      box.scrollTop = l.height <= room ? top + l.height - room : top;
    };
    show();
    const ro = new ResizeObserver(show);
    // the box, and its text (a flex item, so a block: an inline line reports no resize)
    ro.observe(box);
    if (line.parentElement) ro.observe(line.parentElement);
    return () => ro.disconnect();
  }, [text, ref]);
  return (
    <p ref={ref} className="narration" data-testid="narration" aria-live="polite" tabIndex={overflows ? 0 : undefined}>
      <span className="narration-where">{where}</span>
      <span className="narration-text">
        {lines.map((l, i) => (
          <span
            key={i}
            className="narration-line"
            ref={i === lines.length - 1 ? newest : undefined}
            data-newest={i === lines.length - 1 ? 'true' : undefined}
          >
            <WithGlossary text={l} />
            {i < lines.length - 1 ? '\n' : null}
          </span>
        ))}
      </span>
    </p>
  );
}
