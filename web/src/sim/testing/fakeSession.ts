// A small TypeScript stand-in for the wasm Session (page mapping, greedy GC) used by
// unit tests of the worker host and client. It follows docs/session-api.md closely
// enough to exercise the protocol; the Rust core is the real simulator.
import type { QueueView, SessionConstructor, SessionInfo, SimEvent } from '../protocol';
import type { SchemeView } from '../generated/SchemeView';

interface Req {
  op: 'r' | 'w';
  lpn: number;
}

interface State {
  states: Uint8Array;
  lpns: Uint32Array;
  roles: Uint8Array;
  erases: Uint32Array;
  map: Int32Array;
  active: number;
  next: number;
  programs: number;
  reads: number;
  eraseCount: number;
  hostWrites: number;
  hostReads: number;
}

const NONE = 0xffffffff;

/** Events the fake writes: the generated SimEvent with its optional places left out. */
type FakeEvent = Omit<SimEvent, 'pbn' | 'page' | 'lpn' | 'cause'> & Partial<SimEvent>;

/** The host's Session constructor, backed by a fake (or a subclass of it). */
export function fakeCore(C: typeof FakeSession): SessionConstructor {
  return C as unknown as SessionConstructor;
}

export class FakeSession {
  readonly blocks: number;
  readonly ppb: number;
  readonly logical: number;
  private reqs: Req[];
  private st!: State;
  private done = 0;
  private ops: { ev: FakeEvent; apply: (st: State) => void }[] = [];
  private cursor = 0;
  private lastEvents: FakeEvent[] = [];
  freed = false;

  constructor(json: string) {
    const sc = JSON.parse(json);
    if (sc.scheme !== 'page') throw new Error(`unknown scheme "${sc.scheme}"`);
    this.blocks = sc.chip?.blocks ?? 16;
    this.ppb = sc.chip?.pages_per_block ?? 4;
    const op = sc.params?.op ?? 0.25;
    this.logical = Math.max(1, Math.floor(this.blocks * this.ppb * (1 - op)));
    const w = sc.workload ?? { kind: 'sequential', n: 10 };
    if (w.kind === 'pattern') {
      this.reqs = [...String(w.text).matchAll(/([rw])(\d+)/g)].map((m) => ({
        op: m[1] as 'r' | 'w',
        lpn: Number(m[2]),
      }));
      if (!this.reqs.length) throw new Error('pattern: no requests');
    } else {
      let x = (w.seed ?? 1) >>> 0 || 1;
      const rnd = () => ((x = (x * 1103515245 + 12345) >>> 0), x / 2 ** 32);
      this.reqs = Array.from({ length: w.n }, (_, i) => ({
        op: w.kind !== 'sequential' && rnd() < (w.read_ratio ?? 0) ? ('r' as const) : ('w' as const),
        lpn: w.kind === 'sequential' ? i % this.logical : Math.floor(rnd() * this.logical),
      }));
    }
    this.reset();
  }

  private reset() {
    const pages = this.blocks * this.ppb;
    this.st = {
      states: new Uint8Array(pages),
      lpns: new Uint32Array(pages).fill(NONE),
      roles: new Uint8Array(this.blocks),
      erases: new Uint32Array(this.blocks),
      map: new Int32Array(this.logical).fill(-1),
      active: 0,
      next: 0,
      programs: 0,
      reads: 0,
      eraseCount: 0,
      hostWrites: 0,
      hostReads: 0,
    };
    this.st.roles[0] = 2;
    this.done = 0;
    this.ops = [];
    this.cursor = 0;
    this.lastEvents = [];
  }

  /** Plan a request's operations against a scratch copy of the state. */
  private plan(req: Req): { ev: FakeEvent; apply: (st: State) => void }[] {
    const out: { ev: FakeEvent; apply: (st: State) => void }[] = [];
    const sim = structuredClone(this.st);
    const push = (ev: FakeEvent, apply: (st: State) => void) => {
      out.push({ ev, apply });
      apply(sim);
    };
    const program = (lpn: number, cause: string) => {
      if (sim.next >= this.ppb) {
        const free = [...sim.roles].findIndex((r) => r === 0);
        push({ kind: 'note', cause, text: `block ${free} becomes the write frontier` }, (s) => {
          s.roles[s.active] = 1;
          s.roles[free] = 2;
          s.active = free;
          s.next = 0;
        });
      }
      const ppn = sim.active * this.ppb + sim.next;
      const old = sim.map[lpn];
      push({ kind: 'program', pbn: sim.active, page: sim.next, lpn, cause, text: `program LPN ${lpn}` }, (s) => {
        if (old >= 0) s.states[old] = 2;
        s.states[ppn] = 1;
        s.lpns[ppn] = lpn;
        s.map[lpn] = ppn;
        s.next++;
        s.programs++;
      });
    };
    if (req.op === 'r') {
      const ppn = sim.map[req.lpn];
      if (ppn >= 0) {
        push(
          {
            kind: 'read',
            pbn: Math.floor(ppn / this.ppb),
            page: ppn % this.ppb,
            lpn: req.lpn,
            cause: 'host',
            text: `read LPN ${req.lpn}`,
          },
          (s) => {
            s.reads++;
            s.hostReads++;
          },
        );
      } else {
        push({ kind: 'note', cause: 'host', text: `LPN ${req.lpn} never written` }, (s) => s.hostReads++);
      }
      return out;
    }
    const freeBlocks = [...sim.roles].filter((r) => r === 0).length;
    if (freeBlocks <= 1 && sim.next >= this.ppb) {
      let victim = -1;
      let best = Infinity;
      for (let b = 0; b < this.blocks; b++) {
        if (sim.roles[b] !== 1) continue;
        const valid = sim.states.subarray(b * this.ppb, (b + 1) * this.ppb).filter((x) => x === 1).length;
        if (valid < best) [best, victim] = [valid, b];
      }
      if (victim >= 0) {
        push(
          { kind: 'note', pbn: victim, cause: 'gc', text: `GC: victim block ${victim} has ${best} valid pages` },
          () => {},
        );
        for (let p = 0; p < this.ppb; p++) {
          const ppn = victim * this.ppb + p;
          if (sim.states[ppn] === 1) program(sim.lpns[ppn], 'gc copy');
        }
        push({ kind: 'erase', pbn: victim, cause: 'gc', text: `erase block ${victim}` }, (s) => {
          for (let p = 0; p < this.ppb; p++) {
            s.states[victim * this.ppb + p] = 0;
            s.lpns[victim * this.ppb + p] = NONE;
          }
          s.roles[victim] = 0;
          s.erases[victim]++;
          s.eraseCount++;
        });
      }
    }
    program(req.lpn, 'host');
    out[out.length - 1].apply = ((inner) => (s: State) => {
      inner(s);
      s.hostWrites++;
    })(out[out.length - 1].apply);
    return out;
  }

  info(): SessionInfo {
    return {
      scheme: 'page',
      scheme_label: 'Page mapping (greedy GC)',
      chip: {
        name: 'classroom',
        blocks: this.blocks,
        pages_per_block: this.ppb,
        page_bytes: 2048,
        spare_bytes: 64,
        timing: { read_us: 25, read_oob_us: 10, program_us: 200, erase_us: 1500 },
      },
      logical_pages: this.logical,
      total_requests: this.reqs.length,
      params: {},
    } as unknown as SessionInfo;
  }
  step() {
    return this.done;
  }
  total() {
    return this.reqs.length;
  }
  op_cursor() {
    return this.ops.length ? this.cursor : 0;
  }
  op_count() {
    return this.ops.length;
  }
  step_op() {
    if (!this.ops.length) {
      if (this.done >= this.reqs.length) return false;
      this.ops = this.plan(this.reqs[this.done]);
      this.cursor = 0;
      this.lastEvents = [];
    }
    const op = this.ops[this.cursor++];
    op.apply(this.st);
    this.lastEvents.push(op.ev);
    if (this.cursor >= this.ops.length) {
      this.done++;
      this.ops = [];
      this.cursor = 0;
    }
    return true;
  }
  step_request() {
    if (!this.ops.length && this.done >= this.reqs.length) return false;
    const start = this.done;
    while (this.done === start && this.step_op());
    return true;
  }
  run(n: number) {
    let k = 0;
    while (k < n && this.step_request()) k++;
    return k;
  }
  run_ahead(n: number) {
    return this.run(n);
  }
  seek(step: number) {
    this.reset();
    this.run(step);
  }
  /** Nothing to prepare: the fake's Back copies nothing. */
  prepare_back() {
    return false;
  }
  /** Nothing to prepare, in parts: no part left. */
  prepare_back_part() {
    return false;
  }
  back_op() {
    if (this.done === 0 && this.cursor === 0) return false;
    if (this.ops.length) {
      const target = this.cursor - 1;
      this.seek(this.done);
      for (let i = 0; i < target; i++) this.step_op();
    } else {
      this.seek(this.done - 1);
    }
    return true;
  }
  page_states() {
    return this.st.states.slice();
  }
  page_lpns() {
    return this.st.lpns.slice();
  }
  block_roles() {
    return this.st.roles.slice();
  }
  block_erase_counts() {
    return this.st.erases.slice();
  }
  block_owners() {
    return new Int32Array(this.blocks).fill(-1);
  }
  metrics() {
    const e = [...this.st.erases];
    return JSON.stringify({
      scheme: 'page',
      host_reads: this.st.hostReads,
      host_writes: this.st.hostWrites,
      page_reads: this.st.reads,
      oob_reads: 0,
      page_programs: this.st.programs,
      erases: this.st.eraseCount,
      write_amplification: this.st.hostWrites ? this.st.programs / this.st.hostWrites : 0,
      elapsed_us: this.st.programs * 200 + this.st.reads * 25 + this.st.eraseCount * 1500,
      latency_us: {
        read: { best: 25, mean: 25, p99: 25, worst: 25 },
        write: { best: 200, mean: 250, p99: 2100, worst: 2300 },
      },
      erase_count: { min: Math.min(...e), max: Math.max(...e), mean: e.reduce((a, b) => a + b, 0) / e.length },
      merges: { switch: 0, partial: 0, full: 0 },
      wrong_reads: 0,
    });
  }
  events() {
    return JSON.stringify(this.lastEvents);
  }
  narration() {
    const ev = this.lastEvents[this.lastEvents.length - 1];
    return ev ? `${ev.text} (${ev.cause})` : '';
  }
  view(): SchemeView {
    return {
      panels: [
        {
          title: 'Page map (LPN → PPN)',
          data: {
            kind: 'table',
            columns: ['LPN', 'PPN'],
            rows: [...this.st.map].flatMap((p, l) => (p >= 0 ? [[l, p]] : [])),
          },
        },
      ],
      powered: true,
    };
  }
  free() {
    this.freed = true;
  }
  [Symbol.dispose]() {
    this.free();
  }
  // The rest of the wasm Session's methods, as a page-mapping run without power cuts,
  // timelines or shared blocks answers them.
  block_owner_sets(): Record<string, number[]> {
    return {};
  }
  powered() {
    return true;
  }
  recovering() {
    return false;
  }
  victims() {
    return new Uint32Array(0);
  }
  cut_requests() {
    return new Uint32Array(0);
  }
  queue(): QueueView {
    return { model: 'closed', now_us: 0, serving: null, waiting: [], more: 0, note: null };
  }
  take_delta() {
    return { full: () => true, free: () => undefined };
  }
  record_timeline(_on: boolean) {}
  timeline() {
    return new Uint32Array(0);
  }
  latency_histogram() {
    return { read: [], write: [] };
  }
  markers() {
    return new Uint32Array(0);
  }
  log_upto() {
    return this.done;
  }
  series() {
    return [];
  }
  goto(step: number, ops: number) {
    this.seek(step);
    for (let i = 0; i < ops && this.step_op(); i++);
  }
  verdict() {
    return null;
  }
}
