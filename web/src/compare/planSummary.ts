// One line saying what a comparison's plan decided (each run's chip and workload space,
// planned from that run alone; the trace fit).
import type { Scenario } from '../scenario/model';
import type { PlanResult } from './runner';

const n = (v: number) => v.toLocaleString('en-US');

/** "Each run planned alone: workload in each run's own logical space (page 49,152 pages, …) · …" */
export function planSummary(p: PlanResult, base: Scenario): string {
  const ok = p.plan.runs.filter((r) => !r.error);
  const chips = new Set(ok.map((r) => `${n(r.blocks)} blocks × ${r.pages_per_block} pages`));
  const spaces = new Set(ok.map((r) => r.workload_pages));
  const parts = [
    chips.size === 1 ? `Chip ${base.chip.preset} ${[...chips][0]}` : `Chips: ${[...chips].join('; ')}`,
    p.plan.space !== null && p.spaceMode === 'common'
      ? `workload space ${n(p.plan.space)} pages for every run, the smallest own space among them (one request list; "each scheme's own space" for the paper defaults)`
      : p.plan.space !== null
        ? `workload space ${n(p.plan.space)} pages for every run (one request list)`
        : spaces.size === 1
          ? `workload in each run's own logical space (${n(ok[0]?.workload_pages ?? 0)} pages for all)`
          : `workload in each run's own logical space (${[...spaces].map((s) => n(s ?? 0)).join('; ')} pages): request lists differ; give a workload space for one list`,
  ];
  if (p.trace) {
    const fp = (p.trace as { fitted_footprint_pages?: number }).fitted_footprint_pages;
    parts.push(
      `footprint ${fp?.toLocaleString('en-US') ?? '?'} distinct pages in ${p.trace.fitted_footprint_blocks?.toLocaleString('en-US') ?? '?'} logical blocks (first run)`,
    );
    if (p.trace.fit_note) parts.push(p.trace.fit_note);
  }
  return parts.join(' · ');
}
