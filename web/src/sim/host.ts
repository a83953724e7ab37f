// The worker-side logic, independent of the Worker global so it can be unit tested
// with a fake Session: it owns the Sessions and answers one Request with one Response.
import { LEAN_PAGES, diffStates, noChange, readDelta } from './patch';
import type { Session, plan_runs } from './pkg/ftlscope_wasm';
import type {
  ChipDelta,
  Command,
  CreateResult,
  RunAheadResult,
  Thumb,
  RunLog,
  Request,
  Response,
  SessionConstructor,
  Snapshot,
  StepResult,
  Metrics,
  SimEvent,
} from './protocol';
import { TRACE_COMMANDS, TraceHost } from './traceHost';
import { Revival, errorMessage, isTrap } from './revival';
import { isUploadWorkload, type TraceCommand, type TraceCore } from './traceTypes';
import { associativitySeries, schemeData, startTimeline, workloadPattern } from './schemeHost';
import { PAGE_COMMANDS, PageHost, type PageCommand } from './pageHost';
import { summarise } from './summarise';
import { runAhead } from './runAhead';

export { errorMessage, LEAN_PAGES, summarise };

/** The per-step getters whose JSON text is faster than a typed value (docs/session-api.md). */
export function parseJson<T>(text: string, what: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new Error(`the core returned invalid ${what} JSON: ${errorMessage(e)}`);
  }
}

/** Shared log blocks' owners; left out of the snapshot when no block has several. */
function ownerSets(s: Session): { ownerSets?: Record<string, number[]> } {
  const sets = s.block_owner_sets();
  return Object.keys(sets).length > 0 ? { ownerSets: sets } : {};
}

/** Moves after which the idle worker makes the next Back's state (`SessionHost.idle`). */
const PREPARES_BACK = new Set<Request['type']>(['create', 'step_op', 'step_request', 'back_op', 'seek', 'goto']);
/** Chips with more pages than this get per-block summaries in compare (as the single view's canvas threshold). */
const LEAN_THUMB = 4096;
function cutRequests(s: Session): Snapshot['cutRequests'] {
  const flat = s.cut_requests();
  const out: NonNullable<Snapshot['cutRequests']> = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push({ index: flat[i], survived: flat[i + 1] === 1 });
  return out;
}

/**
 * The moment shown; `lean` leaves page LPNs out on huge chips (playback), `delta` carries
 * a change instead of the chip's arrays (which are then empty: sim/patch.ts rebuilds them).
 */
export function takeSnapshot(s: Session, lean = false, delta?: ChipDelta): Snapshot {
  const pageStates = delta ? new Uint8Array(0) : s.page_states();
  const skipLpns = delta || (lean && pageStates.length > LEAN_PAGES);
  return {
    step: s.step(),
    total: s.total(),
    opCursor: s.op_cursor(),
    opCount: s.op_count(),
    pageStates,
    pageLpns: skipLpns ? new Uint32Array(0) : s.page_lpns(),
    blockRoles: delta ? new Uint8Array(0) : s.block_roles(),
    eraseCounts: delta ? new Uint32Array(0) : s.block_erase_counts(),
    owners: delta ? new Int32Array(0) : s.block_owners(),
    ...(delta ? { chipDelta: delta } : ownerSets(s)),
    metrics: parseJson<Metrics>(s.metrics(), 'metrics'),
    events: parseJson<SimEvent[]>(s.events(), 'events'),
    narration: s.narration(),
    view: s.view(),
    powered: s.powered(),
    recovering: s.recovering(),
    victims: Array.from(s.victims()),
    cutRequests: cutRequests(s),
    queue: s.queue(),
  };
}

/** Buffers to transfer (not copy) to the page. */
export function snapshotTransferables(snap: Snapshot): ArrayBuffer[] {
  const arrays = [snap.pageStates, snap.pageLpns, snap.blockRoles, snap.eraseCounts, snap.owners];
  const buffers = new Set<ArrayBuffer>();
  for (const a of arrays) {
    // Only whole, non-shared buffers: a view into wasm memory must never be transferred.
    if (a.buffer instanceof ArrayBuffer && a.byteOffset === 0 && a.byteLength === a.buffer.byteLength) {
      buffers.add(a.buffer);
    }
  }
  return [...buffers];
}

export class SessionHost {
  private sessions = new Map<number, Session>();
  /** Huge chips: the page states last sent per Session (the base of the next patch). */
  private sentStates = new Map<number, Uint8Array>();
  /** Huge chips whose page holds the whole chip as last sent: op steps send deltas. */
  private synced = new Set<number>();
  /** Run to end: the moment the page showed at the first chunk (a goto back sends no chip). */
  private aheadFrom = new Map<number, { step: number; ops: number }>();
  private nextSid = 1;
  /** uploaded traces and their parsers (web/src/trace) */
  readonly traces: TraceHost;
  /** predictions and printed stops (pageHost.ts) */
  private readonly pages = new PageHost(() => this.getSessionClass(), takeSnapshot);
  private readonly revival: Revival;

  constructor(
    private readonly getSessionClass: () => Promise<SessionConstructor>,
    getTraceCore: () => Promise<TraceCore> = () => Promise.reject(new Error('trace parsing is not available')),
    /** the core's plan_runs (compare / sweep: each run's chip and workload space, planned alone) */
    private readonly getPlan: () => Promise<typeof plan_runs> = () =>
      Promise.reject(new Error('this build of the core cannot plan a comparison')),
    resetCore?: () => void,
    /**
     * Whether a scheme's panels show each request's response time (the core's catalog:
     * the `response_times` panel, RFTL-like schemes). Only those Sessions record the
     * per-request timeline, its one reader (`scheme_data`): recording it keeps the run off
     * the scheme's closed loop (page mapping's Run to end of 1 M requests in wasm: ~3x the
     * CPU; issue 37 item 4). Absent: every Session records it.
     */
    private readonly showsResponseTimes: (scheme: string) => boolean = () => true,
  ) {
    this.traces = new TraceHost(getTraceCore);
    this.revival = new Revival(getSessionClass, resetCore);
  }

  /** Answer one request; never throws. */
  async handle(req: Request): Promise<Response> {
    try {
      const result = await this.dispatch(req);
      if ('sid' in req) this.revival.moved(req.sid, this.sessions.get(req.sid));
      return { id: req.id, ok: true, result };
    } catch (e) {
      if (isTrap(e)) {
        const then = await this.revive('sid' in req ? req.sid : undefined);
        return {
          id: req.id,
          ok: false,
          error: `The simulator crashed (${errorMessage(e)}); this is a bug in the core. ${then}`,
        };
      }
      return { id: req.id, ok: false, error: errorMessage(e) };
    }
  }

  /** A trap poisons the whole instance (revival.ts): restart it, rebuild the rest. */
  private revive(sid: number | undefined): Promise<string> {
    return this.revival.revive(this.sessions, sid, () => {
      [this.sentStates, this.synced] = [new Map(), new Set()];
      this.traces.reset();
      this.pages.reset();
    });
  }

  /** Idle after a move by hand: a part (a few ms) of the next Back's state (issue 37 item 3); true while parts are left, null after a request that moves nothing. */
  async idle(req: Request, res: Response): Promise<boolean | null> {
    if (!res.ok || !PREPARES_BACK.has(req.type)) return null;
    const sid = req.type === 'create' ? (res.result as CreateResult).sid : 'sid' in req ? req.sid : -1;
    try {
      return this.sessions.get(sid)?.prepare_back_part() ?? false;
    } catch (e) {
      if (isTrap(e)) await this.revive(sid);
    }
    return false;
  }

  private session(sid: number): Session {
    const s = this.sessions.get(sid);
    if (!s) throw new Error(`no session ${sid} (it was closed or never created)`);
    return s;
  }

  private stepped(s: Session, moved: boolean, sid?: number): StepResult {
    return { moved, snapshot: this.changeOrFull(s, sid) };
  }

  /**
   * Huge chips the page holds whole: only what the move changed (the core's delta,
   * issue 26); otherwise, or when the core lost track (a seek, a run), the whole moment.
   */
  private changeOrFull(s: Session, sid: number | undefined, lean = false): Snapshot {
    if (sid !== undefined && this.synced.has(sid)) {
      const d = readDelta(s);
      // The page's arrays move on from deltas: a playback patch must start from a full snapshot.
      if (d) this.sentStates.delete(sid);
      if (d) return takeSnapshot(s, lean, d);
      return this.remember(sid, takeSnapshot(s), s, true);
    }
    return this.remember(sid, takeSnapshot(s), s);
  }

  /**
   * A full snapshot of a huge chip: keep a copy of its page states as the next base, and
   * make it the base of the core's next delta (`tracked`: the core just did).
   */
  private remember(sid: number | undefined, snap: Snapshot, s?: Session, tracked = false): Snapshot {
    if (sid !== undefined && snap.pageStates.length > LEAN_PAGES) {
      this.sentStates.set(sid, snap.pageStates.slice());
      if (s && snap.pageLpns.length === snap.pageStates.length) {
        if (!tracked) s.take_delta().free();
        this.synced.add(sid);
      }
    }
    return snap;
  }

  /** Playback of a huge chip: send only the changed pages when few changed. */
  private patched(sid: number, snap: Snapshot): Snapshot {
    if (snap.pageStates.length <= LEAN_PAGES) return snap;
    const prev = this.sentStates.get(sid);
    const patch = prev ? diffStates(prev, snap.pageStates) : null;
    this.synced.delete(sid); // playback snapshots leave LPNs out
    if (!patch) return this.remember(sid, snap);
    this.sentStates.set(sid, snap.pageStates);
    return { ...snap, pageStates: new Uint8Array(0), pagePatch: patch };
  }

  private async dispatch(cmd: Command): Promise<unknown> {
    // Anything but more chunks, the run log or the return moves the Session elsewhere.
    if ('sid' in cmd && cmd.type !== 'run_ahead' && cmd.type !== 'run_log' && cmd.type !== 'goto') {
      this.aheadFrom.delete(cmd.sid);
    }
    if (TRACE_COMMANDS.has(cmd.type)) return this.traces.handle(cmd as TraceCommand);
    if (PAGE_COMMANDS.has(cmd.type)) return this.pages.handle(cmd as PageCommand);
    switch (cmd.type) {
      case 'create': {
        const SessionClass = await this.getSessionClass();
        const upload = isUploadWorkload((cmd.scenario as { workload?: unknown } | null)?.workload);
        const s = upload ? await this.traces.session(cmd.scenario) : new SessionClass(JSON.stringify(cmd.scenario));
        try {
          const info = s.info();
          const timeline = this.showsResponseTimes(info.scheme);
          if (timeline) startTimeline(s, info.total_requests);
          const sid = this.nextSid++;
          this.sessions.set(sid, s);
          this.revival.created(sid, upload ? null : cmd.scenario, timeline);
          const result: CreateResult = { sid, info, snapshot: this.remember(sid, takeSnapshot(s), s) };
          return result;
        } catch (e) {
          s.free();
          throw e;
        }
      }
      case 'dispose': {
        this.sessions.get(cmd.sid)?.free();
        this.sessions.delete(cmd.sid);
        this.revival.disposed(cmd.sid);
        this.sentStates.delete(cmd.sid);
        this.synced.delete(cmd.sid);
        return null;
      }
      case 'snapshot': {
        const s = this.session(cmd.sid);
        return this.remember(cmd.sid, takeSnapshot(s), s);
      }
      case 'step_op': {
        const s = this.session(cmd.sid);
        return this.stepped(s, s.step_op(), cmd.sid);
      }
      case 'step_request': {
        const s = this.session(cmd.sid);
        return this.stepped(s, s.step_request(), cmd.sid);
      }
      case 'back_op': {
        const s = this.session(cmd.sid);
        return this.stepped(s, s.back_op(), cmd.sid);
      }
      case 'seek': {
        const s = this.session(cmd.sid);
        const target = Math.max(0, Math.min(Math.floor(cmd.step), s.total()));
        const before = s.step();
        s.seek(target);
        return this.stepped(s, s.step() !== before || target === before, cmd.sid);
      }
      case 'advance': {
        const s = this.session(cmd.sid);
        const count = Math.max(1, Math.floor(cmd.count));
        let moved = false;
        if (cmd.unit === 'op') {
          for (let i = 0; i < count; i++) {
            if (!s.step_op()) break;
            moved = true;
          }
        } else {
          // Finish a half-revealed request first so that run() starts on a boundary.
          if (s.op_cursor() > 0 && s.op_cursor() < s.op_count()) {
            moved = s.step_request() || moved;
          }
          if (count > 1) moved = s.run(count - 1) > 0 || moved;
          moved = s.step_request() || moved;
        }
        const d = this.synced.has(cmd.sid) ? readDelta(s) : null;
        if (d) this.sentStates.delete(cmd.sid);
        return { moved, snapshot: d ? takeSnapshot(s, true, d) : this.patched(cmd.sid, takeSnapshot(s, true)) };
      }
      case 'goto': {
        const s = this.session(cmd.sid);
        const target = Math.max(0, Math.min(Math.floor(cmd.step), s.total()));
        const ops = Math.max(0, Math.floor(cmd.ops));
        const from = this.aheadFrom.get(cmd.sid);
        this.aheadFrom.delete(cmd.sid);
        s.goto(target, ops);
        if (from && from.step === target && from.ops === ops && this.synced.has(cmd.sid)) {
          // Back from Run to end to the moment the page holds (the run is deterministic): no
          // chip (4 M pages: 21.6 MB and a full redraw; issue 37); the next delta starts here.
          s.take_delta().free();
          return { moved: true, snapshot: takeSnapshot(s, false, noChange()) };
        }
        return this.stepped(s, true, cmd.sid);
      }
      case 'run_log': {
        const s = this.session(cmd.sid);
        const log: RunLog = {
          markers: s.markers(),
          logUpto: s.log_upto(),
          series: s.series(),
          latency: s.latency_histogram(),
        };
        return log;
      }
      case 'run_ahead': {
        const s = this.session(cmd.sid);
        if (!this.aheadFrom.has(cmd.sid)) this.aheadFrom.set(cmd.sid, { step: s.step(), ops: s.op_cursor() });
        // Finish a half-revealed request so run() starts on a boundary.
        if (s.op_cursor() > 0 && s.op_cursor() < s.op_count()) s.step_request();
        const ran = runAhead(s, Math.max(1, Math.floor(cmd.count)), cmd.ms);
        const result: RunAheadResult = { ran, step: s.step(), total: s.total() };
        return result;
      }
      case 'run': {
        const s = this.session(cmd.sid);
        if (s.op_cursor() > 0 && s.op_cursor() < s.op_count()) s.step_request();
        s.run(Math.max(0, Math.floor(cmd.count)));
        return { step: s.step(), total: s.total(), metrics: parseJson<Metrics>(s.metrics(), 'metrics') };
      }
      case 'series': {
        return this.session(cmd.sid).series();
      }
      case 'plan': {
        const plan = await this.getPlan();
        return plan(JSON.stringify(cmd.runs), cmd.fit, cmd.need, cmd.space ?? 0);
      }
      case 'thumb': {
        const s = this.session(cmd.sid);
        const target = Math.max(0, Math.min(Math.floor(cmd.step), s.total()));
        if (s.step() !== target || (s.op_cursor() > 0 && s.op_cursor() < s.op_count())) s.seek(target);
        const pageStates = s.page_states();
        const blockRoles = s.block_roles();
        const cells = cmd.cells && pageStates.length > LEAN_THUMB ? Math.max(1, Math.floor(cmd.cells)) : undefined;
        const t: Thumb = {
          step: s.step(),
          total: s.total(),
          pageStates: cells ? summarise(pageStates, blockRoles.length, cells) : pageStates,
          // LPNs only where the grid writes them (small chips drawn as SVG).
          pageLpns: pageStates.length <= LEAN_THUMB ? s.page_lpns() : new Uint32Array(0),
          blockRoles,
          eraseCounts: s.block_erase_counts(),
          owners: cells ? new Int32Array(0) : s.block_owners(),
          metrics: parseJson<Metrics>(s.metrics(), 'metrics'),
        };
        if (cells) t.cells = cells;
        return t;
      }
      case 'latency':
        return this.session(cmd.sid).latency_histogram();
      case 'scheme_data':
        return schemeData(this.session(cmd.sid), cmd.bins, cmd.upto);
      case 'power_cut': {
        const s = this.session(cmd.sid);
        s.power_cut();
        return this.stepped(s, true);
      }
      case 'recover': {
        const s = this.session(cmd.sid);
        s.recover();
        return this.stepped(s, true);
      }
      case 'verdict':
        return this.session(cmd.sid).verdict();
      case 'crash_here':
        return this.session(cmd.sid).crash_here();
      case 'associativity_series':
        return associativitySeries(this.session(cmd.sid), cmd.points);
      case 'workload_pattern':
        return workloadPattern(this.session(cmd.sid), cmd.from, cmd.to);
      default: {
        const unknown = cmd as { type?: unknown };
        throw new Error(`unknown command ${String(unknown.type)}`);
      }
    }
  }
}
