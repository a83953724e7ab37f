import { useEffect } from 'react';
import { useOverflows } from './useOverflows';
import { WithGlossary } from '../ui/glossary/Glossary';

/**
 * Plain words about the moment shown: the request or recovery, the notes revealed with the
 * last flash operation (one line each) and the operation itself (Session.narration()).
 * A box of fixed height (styles.css) that scrolls when a moment says more, back to its top
 * at each new moment: the chip below keeps its place.
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
  const [ref, overflows] = useOverflows<HTMLParagraphElement>(text);
  useEffect(() => {
    if (ref.current) ref.current.scrollTop = 0;
  }, [text, ref]);
  return (
    <p ref={ref} className="narration" data-testid="narration" aria-live="polite" tabIndex={overflows ? 0 : undefined}>
      <span className="narration-where">{where}</span>
      <span className="narration-text">
        <WithGlossary text={text || fallback} />
      </span>
    </p>
  );
}
