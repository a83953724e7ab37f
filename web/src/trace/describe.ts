import { chipSpec, describeScenario, schemeSpec, type Scenario } from '../scenario/model';
import { isUploadWorkload } from './types';

/** describeScenario, plus uploaded traces (which the scenario model does not know on main). */
export function describeWithTrace(s: Scenario): string {
  const w: unknown = s.workload;
  if (!isUploadWorkload(w)) return describeScenario(s);
  const chip = chipSpec(s.chip.preset);
  const geometry = `${s.chip.blocks ?? chip?.blocks}×${s.chip.pages_per_block ?? chip?.pages_per_block}`;
  return `${schemeSpec(s.scheme)?.label ?? s.scheme} · ${s.chip.preset} ${geometry} · trace “${w.name}” (${w.fit === 'none' ? 'no fit' : `fit ${w.fit}`})`;
}
