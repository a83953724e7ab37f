// What several tours share: the classroom chip and a pattern scenario on it, and BAST's
// thrashing pattern (the BAST tour shows it, the FAST tour runs it again on FAST).
import type { Scenario } from '../../scenario/model';

export const classroom = { preset: 'classroom' as const, blocks: 16, pages_per_block: 4 };

export function pattern(scheme: string, params: Scenario['params'], text: string): Scenario {
  return { scheme, params, chip: { ...classroom }, workload: { kind: 'pattern', text } };
}

export const THRASH = 'w0-15 S0 S4 S8 S12 S0 S4 S8 S12';
