// What the claims of several papers share: the classroom chip and the measures read from a
// run's metrics.
import type { Scenario } from '../../scenario/model';
import type { RunResult } from '../claimTypes';

export const classroom = (blocks = 16): Scenario['chip'] => ({ preset: 'classroom', blocks, pages_per_block: 4 });
export const wAvg = (r: RunResult) => r.metrics.latency_us.write.mean as number;
export const erases = (r: RunResult) => r.metrics.erases as number;
