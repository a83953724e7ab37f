// "Same log-block budget" (issue 27): one log-block count for every run whose scheme has
// log blocks, as the KRAFT paper compares FAST, KAST and FFTL (128 log blocks each). The
// core's default is already one rule for every hybrid scheme (registry::HYBRID_LOG_BLOCKS);
// this sets an explicit, equal count on every such run.
import { useId, useState } from 'react';
import { paramSpec } from '../scenario/model';
import { runParams, type Run } from './compare';

export function SameBudgetField({ runs, onRuns }: { runs: Run[]; onRuns: (runs: Run[]) => void }) {
  const id = useId();
  const hybrid = (r: Run) => runParams(r.scheme).some((p) => p.key === 'log_blocks');
  const [n, setN] = useState<number>(paramSpec('log_blocks').default ?? 4);
  if (!runs.some(hybrid)) return null;
  const counts = new Set(runs.filter(hybrid).map((r) => r.params.log_blocks ?? 'default'));
  return (
    <div className="same-budget" data-testid="same-budget">
      <label htmlFor={id}>Same log-block budget</label>{' '}
      <input
        id={id}
        type="number"
        min={1}
        step={1}
        value={n}
        onChange={(e) => setN(Math.max(1, Math.floor(Number(e.target.value) || 1)))}
        data-testid="same-budget-count"
      />{' '}
      <button
        type="button"
        onClick={() => onRuns(runs.map((r) => (hybrid(r) ? { ...r, params: { ...r.params, log_blocks: n } } : r)))}
        data-testid="same-budget-apply"
      >
        for every run with log blocks
      </button>{' '}
      <span className="muted" data-testid="same-budget-state">
        {counts.size <= 1
          ? 'every such run has the same log-block count (empty = the core’s one default for hybrid schemes)'
          : `log-block counts differ: ${[...counts].join(', ')}`}
      </span>
    </div>
  );
}
