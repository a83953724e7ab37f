// The device view's requests to its worker (issue 37, session 24): one at a time, in the
// order they were made. A click while a move is in flight waits its turn and is sent when
// the reply comes: a click is never dropped (the view said nothing when it was: "I clicked
// Step and nothing happened"). The one thing dropped is a held key's repeat while a move is
// in flight: a held → would queue moves faster than the device draws them (a step of 8
// dies takes up to ~1.3 s on a loaded machine), and the user lets go to stop.
import type { DeviceReply, DeviceRequest } from '../sim/deviceTypes';

export interface DeviceRequester {
  request(r: DeviceRequest): Promise<DeviceReply>;
}

export class DeviceSender {
  private waiting: DeviceRequest[] = [];
  private busy = false;
  private closed = false;
  private told = 0;

  constructor(
    private readonly client: DeviceRequester,
    /** each reply with the request it answers, in order */
    private readonly onReply: (reply: DeviceReply, req: DeviceRequest) => void,
    /** how many requests wait behind the one in flight, when that changes (the view shows it) */
    private readonly onWaiting: (n: number) => void = () => undefined,
  ) {}

  /** Sends `r`, or queues it behind the move in flight. `repeat`: a held key's repeat, dropped
   * while a move is in flight. Whether it was taken. */
  send(r: DeviceRequest, repeat = false): boolean {
    if (this.closed || (repeat && this.busy)) return false;
    this.waiting.push(r);
    if (this.busy) this.tell();
    else this.next();
    return true;
  }

  /** Requests waiting behind the one in flight. */
  get queued(): number {
    return this.waiting.length;
  }

  /** The view closed or reopened: nothing more is sent (the client's own close answers what is in flight). */
  close(): void {
    this.closed = true;
    this.waiting = [];
  }

  private tell(): void {
    if (this.waiting.length === this.told) return;
    this.told = this.waiting.length;
    this.onWaiting(this.told);
  }

  private next(): void {
    const r = this.waiting.shift();
    if (!r || this.closed) {
      this.busy = false;
      return;
    }
    this.busy = true;
    this.tell();
    void this.client
      .request(r)
      .then(
        (reply) => this.onReply(reply, r),
        (e: unknown) => this.onReply({ kind: 'error', message: e instanceof Error ? e.message : String(e) }, r),
      )
      .finally(() => this.next());
  }
}
