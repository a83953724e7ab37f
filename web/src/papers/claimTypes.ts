// The shape of a paper's claim beside our figure (claims.ts lists them; one file per paper
// in claims/).
import type { Scenario } from '../scenario/model';
import type { WasmSession } from '../sim/protocol';

export type Paper = 'FAST' | 'KRAFT' | 'RFTL' | 'FastCheck' | 'LTFTL';

export type Verdict = 'matches' | 'close' | 'differs' | 'paper inconsistent';

/** What a scenario's run gives the measure: the core's metrics JSON and the page states. */
export interface RunResult {
  // The core's metrics JSON (docs/cli.md field names).
  metrics: Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  pageStates: Uint8Array;
}

/** The few Session methods a claim's probe may use (the wasm Session has them all). */
export type SessionLike = Pick<WasmSession, 'goto' | 'power_cut' | 'recover' | 'recovering' | 'step_op' | 'metrics'>;

export interface Claim {
  id: string;
  paper: Paper;
  /** section, table or figure */
  where: string;
  claim: string;
  /** the paper's figure, as the paper states it */
  paperFigure: string;
  /** our figure (what the core gives for `scenario`, checked by the test) */
  ours: number;
  unit: string;
  /** relative tolerance of the check against the core (0: exact) */
  tolerance: number;
  verdict: Verdict;
  /** why it matches or differs (docs/schemes/*.md has the details) */
  note: string;
  /** the doc that discusses it */
  doc: string;
  /** the scenario our figure comes from; the page's Open button loads it */
  scenario?: Scenario;
  /** a second run the measure compares against (e.g. the other scheme) */
  baseline?: Scenario;
  measure?: (run: RunResult, baseline?: RunResult) => number;
  /** instead of `measure`: drive a Session of the scenario (e.g. cut power and recover) */
  probe?: (session: SessionLike) => number;
  /** the CLI command (when it is not the scenario's own `ftl run`) */
  command?: string;
  /** the Rust test that pins a claim without a scenario */
  pinnedBy?: string;
}
