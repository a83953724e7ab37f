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
  /** the device's operation shown (links and scenario files; absent: the first) */
  cursor?: number;
}

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

export type DeviceRequest =
  | { kind: 'open'; scenario: unknown; shape: DeviceShape }
  | { kind: 'step' }
  | { kind: 'back' }
  | { kind: 'goto'; cursor: number }
  /** power: cut at the moment shown, recover (then Step reveals it), recover whole (x-api2.md) */
  | { kind: 'cut' }
  | { kind: 'recover' }
  | { kind: 'recover_whole' }
  /** a whole run of a device (the compare's device shapes): `device_run`'s JSON; the open session is untouched.
   * `trace`: the uploaded file the scenario's workload names (its parser id, the file, the options it was read
   * with), read again in this worker (trace/keptUploads.ts) */
  | { kind: 'run'; scenario: unknown; space: number; trace?: { pid: number; file: Blob; options: TraceOptions } }
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

export type DeviceReply =
  | { kind: 'moment'; moment: DeviceMoment; dies: DieArrays[]; moved: boolean }
  | { kind: 'run'; json: string }
  | { kind: 'stripe'; stripe: 'page' | 'block' }
  | { kind: 'error'; message: string };

/** A worker holding one device session; requests are answered in order. */
export class DeviceClient {
  private worker: Worker;
  private queue: ((r: DeviceReply) => void)[] = [];

  constructor() {
    this.worker = new Worker(new URL('./deviceWorker.ts', import.meta.url), {
      type: 'module',
      name: 'ftlscope-device',
    });
    this.worker.addEventListener('message', (ev: MessageEvent<DeviceReply>) => this.queue.shift()?.(ev.data));
  }

  request(r: DeviceRequest): Promise<DeviceReply> {
    return new Promise((resolve) => {
      this.queue.push(resolve);
      this.worker.postMessage(r);
    });
  }

  close(): void {
    this.worker.terminate();
    for (const q of this.queue.splice(0)) q({ kind: 'error', message: 'closed' });
  }
}
