/** One plain-words line about the last revealed flash operation. */
export function Narration({ text, step, total, opCursor, opCount }: { text: string; step: number; total: number; opCursor: number; opCount: number }) {
  let fallback = 'Press Step op (→) or Play (Space) to watch the FTL work.';
  if (step >= total && total > 0) fallback = 'The workload is finished. Step back (←), scrub, or change the scenario.';
  return (
    <p className="narration" data-testid="narration" aria-live="polite">
      <span className="narration-where">
        {opCount > 0 ? `op ${opCursor}/${opCount}` : step > 0 ? 'request done' : 'start'}
      </span>
      <span className="narration-text">{text || fallback}</span>
    </p>
  );
}
