// Worker side of the page commands (pageTypes.ts): Sessions of their own, beside the
// app's, so the Session the user steps is never disturbed.
import type { SessionConstructor, Snapshot, WasmSession } from './protocol';
import type { PageCommand, PageResultMap, Prediction, StopSnapshot } from './pageTypes';

export { PAGE_COMMANDS, type PageCommand } from './pageTypes';

export class PageHost {
  /** the prediction Session of the last scenario asked about (a scenario is deterministic, so it reaches the app's state) */
  private predictor: { json: string; session: WasmSession } | null = null;

  constructor(
    private readonly getSessionClass: () => Promise<SessionConstructor>,
    /** host.ts's takeSnapshot (passed in: host.ts imports this file) */
    private readonly takeSnapshot: (s: WasmSession) => Snapshot,
  ) {}

  /** After the wasm instance was reset: its Sessions are gone. */
  reset(): void {
    this.predictor = null;
  }

  async handle(cmd: PageCommand): Promise<PageResultMap<Snapshot>[PageCommand['type']]> {
    const C = await this.getSessionClass();
    switch (cmd.type) {
      case 'predict':
        return this.predict(C, cmd.scenario, cmd.step);
      case 'stop_snapshot':
        return this.stopSnapshot(C, cmd.scenario, cmd.step, cmd.op);
    }
  }

  private predict(C: SessionConstructor, scenario: unknown, step: number): Prediction {
    const json = JSON.stringify(scenario);
    if (!this.predictor || this.predictor.json !== json) {
      this.predictor?.session.free();
      this.predictor = null;
      this.predictor = { json, session: new C(json) };
    }
    const s = this.predictor.session;
    s.seek(step);
    return s.predict_next();
  }

  /** A Session of its own for the moment, freed before the answer goes. */
  private stopSnapshot(C: SessionConstructor, scenario: unknown, step: number, op: number): StopSnapshot<Snapshot> {
    const s = new C(JSON.stringify(scenario));
    try {
      s.goto(step, op);
      const info = s.info();
      return { blocks: info.chip.blocks, pagesPerBlock: info.chip.pages_per_block, snapshot: this.takeSnapshot(s) };
    } finally {
      s.free();
    }
  }
}
