// One line saying what a comparison's plan decided (chip, logical space, trace fit).
import type { Scenario } from '../scenario/model';
import type { PlanResult } from './runner';

/** "one chip for every run: 16,384 blocks × 128 pages · workload ... in N logical pages ..." */
export function planSummary(p: PlanResult, base: Scenario): string {
  const first = p.plan.runs.find((r) => !r.error);
  const chip = first ? `${first.blocks.toLocaleString('en-US')} blocks × ${first.pages_per_block} pages` : '—';
  const parts = [
    p.plan.one_chip ? `One chip for every run: ${base.chip.preset} ${chip}` : 'Chips differ only in pages per block',
    `logical space of the workload ${p.plan.logical_pages.toLocaleString('en-US')} pages (the smallest space of the runs)`,
  ];
  if (p.trace) {
    const fp = (p.trace as { fitted_footprint_pages?: number }).fitted_footprint_pages;
    parts.push(
      `footprint ${fp?.toLocaleString('en-US') ?? '?'} distinct pages in ${p.trace.fitted_footprint_blocks?.toLocaleString('en-US') ?? '?'} logical blocks`,
    );
    if (p.trace.fit_note) parts.push(p.trace.fit_note);
  }
  return parts.join(' · ');
}
