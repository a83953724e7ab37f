// The fit step: where the trace's addresses land in the chosen scheme's logical space
// (compact, fold, scale the chip, or as is), previewed by the core in the worker.
import { useEffect, useState } from 'react';
import type { Scenario } from '../scenario/model';
import type { SimClient } from '../sim/client';
import type { FitResult, TraceFit } from './types';

export const FITS: { id: TraceFit; label: string; help: string }[] = [
  {
    id: 'compact',
    label: 'Compact',
    help: 'renumber the touched logical blocks densely, in first-touch order (keeps locality)',
  },
  { id: 'fold', label: 'Fold', help: 'page modulo the logical space' },
  { id: 'scale', label: 'Scale the chip', help: 'keep the addresses and grow the chip until they fit' },
  { id: 'none', label: 'As is', help: 'only if every address is already inside the logical space' },
];

/** Physical pages of the chip a fit ends on: the core's grown block count after "scale the chip", else the chip's. */
export function chipPagesAfterFit(scaledBlocks: number | null | undefined, blocks: number, ppb: number): number {
  return (scaledBlocks ?? blocks) * ppb;
}

/** The core's fit of the parsed trace `pid` on `scenario` (null while it is being checked). */
export function useTraceFit(client: SimClient, pid: number | null, scenario: (pid: number) => Scenario) {
  // Keyed by what it answers, so an answer for an earlier trace or target never shows.
  const [result, setResult] = useState<{ pid: number; scenario: unknown; fit: FitResult } | null>(null);
  useEffect(() => {
    if (pid === null) return;
    let live = true;
    const s = scenario(pid);
    client.request('trace_fit', { pid, scenario: s }).then(
      (fit) => live && setResult({ pid, scenario, fit }),
      (e: unknown) => live && setResult({ pid, scenario, fit: { ok: false, message: (e as Error).message } }),
    );
    return () => {
      live = false;
    };
  }, [client, pid, scenario]);
  return result && result.pid === pid && result.scenario === scenario ? result.fit : null;
}
