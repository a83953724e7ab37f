// After a wasm trap (a Rust panic is `unreachable`; a stack overflow inside wasm is a
// RangeError) the instance cannot be trusted: its shadow stack pointer and any object
// borrowed at the time stay as the trap left them, and the next calls fail ("memory
// access out of bounds") — every Session in it, not only the one that trapped (issue 29).
// So the worker re-instantiates the module (wasm-bindgen's __wbg_reset_state, a fresh
// memory) and rebuilds each Session it can from its scenario at the request it had
// reached; uploads and the Session that trapped are dropped with a message.
import type { Session } from './pkg/ftlscope_wasm';
import type { SessionConstructor } from './protocol';
import { startTimeline } from './schemeHost';

export function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  if (typeof e === 'string') return e;
  try {
    return JSON.stringify(e);
  } catch {
    return String(e);
  }
}

/** Whether `e` is a trap of the wasm core (not an error it returned). */
export function isTrap(e: unknown): boolean {
  if (typeof WebAssembly !== 'undefined' && e instanceof WebAssembly.RuntimeError) return true;
  return e instanceof RangeError && /call stack/i.test(e.message);
}

export class Revival {
  /** Scenarios of the Sessions that can be rebuilt (not uploads), by sid. */
  private scenarios = new Map<number, unknown>();
  /** The request each Session had reached after its last successful command. */
  private steps = new Map<number, number>();
  /**
   * The Sessions that recorded the per-request timeline (the worker's rule: only schemes whose
   * panels show response times, SessionHost's `showsResponseTimes`; recording it keeps a run
   * off the scheme's closed loop). A rebuilt Session records it exactly when the old one did.
   */
  private timelines = new Set<number>();

  constructor(
    private readonly getSessionClass: () => Promise<SessionConstructor>,
    /** Re-instantiates the wasm module (absent: sessions are only dropped). */
    private readonly resetCore?: () => void,
  ) {}

  /** A Session made from `scenario` (null: an upload, not rebuilt); `timeline`: it records the timeline. */
  created(sid: number, scenario: unknown | null, timeline: boolean): void {
    if (scenario !== null) this.scenarios.set(sid, scenario);
    if (timeline) this.timelines.add(sid);
  }

  disposed(sid: number): void {
    this.scenarios.delete(sid);
    this.steps.delete(sid);
    this.timelines.delete(sid);
  }

  moved(sid: number, s: Session | undefined): void {
    if (s) this.steps.set(sid, s.step());
  }

  /**
   * After a trap while serving `crashed` (a sid, or none): resets the core, rebuilds
   * the other Sessions into `sessions` at their step, drops the rest (`onReset` forgets
   * what the host kept of the old instance). Returns what to tell the user.
   */
  async revive(sessions: Map<number, Session>, crashed: number | undefined, onReset: () => void): Promise<string> {
    if (!this.resetCore) {
      if (crashed !== undefined) sessions.delete(crashed);
      return 'Apply the scenario again to restart it.';
    }
    this.resetCore();
    onReset();
    const sids = [...sessions.keys()];
    sessions.clear();
    if (crashed !== undefined) this.disposed(crashed);
    let rebuilt = 0;
    for (const sid of sids) {
      const scenario = this.scenarios.get(sid);
      if (scenario === undefined) continue;
      try {
        const SessionClass = await this.getSessionClass();
        const s = new SessionClass(JSON.stringify(scenario));
        if (this.timelines.has(sid)) startTimeline(s, s.info().total_requests);
        s.seek(this.steps.get(sid) ?? 0);
        sessions.set(sid, s);
        rebuilt++;
      } catch {
        this.disposed(sid);
      }
    }
    return `The simulator was restarted (${rebuilt} other open run${rebuilt === 1 ? '' : 's'} rebuilt at the request ${rebuilt === 1 ? 'it' : 'they'} had reached; uploaded traces must be opened again). Apply the scenario again to restart this one.`;
  }
}
