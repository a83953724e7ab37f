// A device of channels x dies stepped op by op (issue 40, item 4) in a worker of its own
// (deviceWorker.ts, its own wasm instance and one DeviceSession): what goes in and out.
// The moment is the core's (generated from ssd_step::DeviceMoment).
import type { DeviceMoment } from './generated/DeviceMoment';
import type { TraceOptions } from './traceTypes';
export type { DeviceMoment } from './generated/DeviceMoment';
export type { DeviceOp } from './generated/DeviceOp';
export type { DieMoment } from './generated/DieMoment';
export type { DieQueueItem } from './generated/DieQueueItem';

/** The device's shape as the scenario form and links carry it (ssd::Shape). */
export interface DeviceShape {
  channels: number;
  diesPerChannel: number;
  stripe: 'page' | 'block';
  /** the device's operation shown (links and scenario files; absent: the first); with `moves`, the recorded
   * run's operation the first power cut was made at */
  cursor?: number;
  /** what was done on the device since `cursor` (a power cut and what followed it; absent: nothing):
   * a link after a cut replays it (device/devicePath.ts) */
  moves?: DeviceMove[];
}

/** A move on the device after a power cut: the power buttons, or n steps (n > 0) or -n steps back (n < 0). */
export type DeviceMove = 'cut' | 'recover' | 'recover_whole' | number;

/** A device shape to compare: C channels x W dies per channel (the stripe is the scheme's). */
export interface ShapeSpec {
  channels: number;
  diesPerChannel: number;
}

/** The compare view's device comparison as links carry it (CompareSpec.devices). */
export interface DevicesSpec {
  scheme: string;
  shapes: ShapeSpec[];
  /** host requests per second, Poisson arrivals (absent: the scenario's own timing) */
  rate?: number;
}

/** An uploaded file the scenario's workload names (its parser id, the file, the options it was read with), read
 * again in the device worker (trace/keptUploads.ts) */
export interface UploadedTrace {
  pid: number;
  file: Blob;
  options: TraceOptions;
  /** e2e only (docs/ssd.md): the reader waits after its first chunk until `release` */
  hold?: boolean;
}

export type DeviceRequest =
  /** `trace`: the workload is that uploaded file (the device view and the compare's shapes) */
  | { kind: 'open'; scenario: unknown; shape: DeviceShape; trace?: UploadedTrace }
  | { kind: 'step' }
  | { kind: 'back' }
  | { kind: 'goto'; cursor: number }
  /** power: cut at the moment shown, recover (then Step reveals it), recover whole (x-api2.md) */
  | { kind: 'cut' }
  | { kind: 'recover' }
  | { kind: 'recover_whole' }
  /** the moves of a link made after a power cut, made one after the other: one reply, the moment they reach */
  | { kind: 'replay'; moves: DeviceMove[] }
  /** a whole run of a device (the compare's device shapes): `device_run`'s JSON; the open session is untouched */
  | { kind: 'run'; scenario: unknown; space: number; trace?: UploadedTrace }
  /** the stripe unit a scheme needs on several dies (`device_stripe_for`) */
  | { kind: 'stripe'; scheme: string };

/** One die's chip arrays (the grids' ChipState). */
export interface DieArrays {
  pageStates: Uint8Array;
  pageLpns: Uint32Array;
  blockRoles: Uint8Array;
  eraseCounts: Uint32Array;
  owners: Int32Array;
}

/** Sent while an uploaded file is read (after each chunk), before the request's reply. */
export interface DeviceReadProgress {
  kind: 'progress';
  /** bytes of the file read so far, of `size` */
  bytes: number;
  size: number;
  lines: number;
}

export type DeviceReply =
  | { kind: 'moment'; moment: DeviceMoment; dies: DieArrays[]; moved: boolean }
  | { kind: 'run'; json: string }
  | { kind: 'stripe'; stripe: 'page' | 'block' }
  | { kind: 'error'; message: string };

/** e2e only (docs/ssd.md, "Tests"): replies held while `__ftlscopeHoldDeviceReplies` is true, let go by
 * `__ftlscopeReleaseDeviceReplies()`. Nothing in the app, a link or a file sets it. */
interface ReplyHold {
  __ftlscopeHoldDeviceReplies?: boolean;
  __ftlscopeReleaseDeviceReplies?: () => void;
}

/** A worker holding one device session; requests are answered in order. */
export class DeviceClient {
  private worker: Worker;
  private queue: ((r: DeviceReply) => void)[] = [];
  /** Why the worker can answer no more (it failed): every request is answered with it. */
  private broken: string | null = null;
  /** Replies held by the e2e hook (ReplyHold). */
  private held: DeviceReply[] = [];
  /** Progress of reading an uploaded file (not a reply: the request's reply follows). */
  onProgress: ((p: DeviceReadProgress) => void) | null = null;

  constructor() {
    this.worker = new Worker(new URL('./deviceWorker.ts', import.meta.url), {
      type: 'module',
      name: 'ftlscope-device',
    });
    this.worker.addEventListener('message', (ev: MessageEvent<DeviceReply | DeviceReadProgress>) => {
      if (ev.data.kind === 'progress') this.onProgress?.(ev.data);
      else this.reply(ev.data);
    });
    // A reply that could not be read, or a worker that failed, answers with a message the view
    // shows: a request never waits for ever on a reply that will not come (issue 37, session 24).
    this.worker.addEventListener('messageerror', () =>
      this.reply({ kind: 'error', message: 'a reply of the device worker could not be read' }),
    );
    this.worker.addEventListener('error', (ev: ErrorEvent) =>
      this.fail(
        `the device worker stopped${ev.message ? `: ${ev.message}` : ''}; close the device view and open it again`,
      ),
    );
  }

  private reply(r: DeviceReply): void {
    const hook = globalThis as ReplyHold;
    if (hook.__ftlscopeHoldDeviceReplies === true) {
      const held = this.held;
      held.push(r);
      hook.__ftlscopeReleaseDeviceReplies = () => {
        hook.__ftlscopeHoldDeviceReplies = false;
        for (const h of held.splice(0)) this.reply(h);
      };
      return;
    }
    this.queue.shift()?.(r);
  }

  private fail(message: string): void {
    this.broken = message;
    this.worker.terminate();
    for (const q of this.queue.splice(0)) q({ kind: 'error', message });
  }

  request(r: DeviceRequest): Promise<DeviceReply> {
    if (this.broken) return Promise.resolve({ kind: 'error', message: this.broken });
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.worker.postMessage(r);
    });
  }

  /** Lets a reader held after its first chunk (`UploadedTrace.hold`, e2e only) go on: no reply. */
  release(): void {
    this.worker.postMessage({ kind: 'release' });
  }

  close(): void {
    this.worker.terminate();
    for (const q of this.queue.splice(0)) q({ kind: 'error', message: 'closed' });
  }
}
