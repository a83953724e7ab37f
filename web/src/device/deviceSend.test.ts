// The device view's request queue (deviceSend.ts): a click while a move is in flight is
// sent after it, never dropped; only a held key's repeat is. The worker's replies are
// held by the fake client and let go one by one, so the race is made on purpose.
import { describe, expect, it } from 'vitest';
import type { DeviceReply, DeviceRequest } from '../sim/deviceTypes';
import { DeviceSender } from './deviceSend';

/** A client whose replies wait until `answer()`: the requests it has been sent, in order. */
function heldClient() {
  const sent: DeviceRequest[] = [];
  const held: ((r: DeviceReply) => void)[] = [];
  return {
    sent,
    request(r: DeviceRequest) {
      sent.push(r);
      return new Promise<DeviceReply>((resolve) => held.push(resolve));
    },
    /** answers the oldest request with an error carrying `tag`, then lets the queue move */
    async answer(tag: string) {
      held.shift()!({ kind: 'error', message: tag });
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
    get inFlight() {
      return held.length;
    },
  };
}

function setup() {
  const client = heldClient();
  const replies: string[] = [];
  const waiting: number[] = [];
  const sender = new DeviceSender(
    client,
    (reply, req) => replies.push(`${req.kind}:${reply.kind === 'error' ? reply.message : reply.kind}`),
    (n) => waiting.push(n),
  );
  return { client, replies, waiting, sender };
}

describe('DeviceSender', () => {
  it('sends a second Step clicked while the first is in flight once the first is answered', async () => {
    const { client, replies, waiting, sender } = setup();
    expect(sender.send({ kind: 'step' })).toBe(true);
    expect(sender.send({ kind: 'step' })).toBe(true);
    // One request at a time: the second waits, and the view is told so.
    expect(client.sent).toHaveLength(1);
    expect(sender.queued).toBe(1);
    expect(waiting).toEqual([1]);
    await client.answer('first');
    expect(client.sent).toHaveLength(2);
    expect(sender.queued).toBe(0);
    expect(waiting).toEqual([1, 0]);
    await client.answer('second');
    expect(replies).toEqual(['step:first', 'step:second']);
    expect(client.inFlight).toBe(0);
  });

  it('keeps the order of different moves clicked during a step (Step, Cut, Back)', async () => {
    const { client, replies, sender } = setup();
    sender.send({ kind: 'step' });
    sender.send({ kind: 'cut' });
    sender.send({ kind: 'back' });
    await client.answer('a');
    await client.answer('b');
    await client.answer('c');
    expect(client.sent.map((r) => r.kind)).toEqual(['step', 'cut', 'back']);
    expect(replies).toEqual(['step:a', 'cut:b', 'back:c']);
  });

  it("drops a held key's repeat while a move is in flight, not a key pressed again", async () => {
    const { client, sender } = setup();
    expect(sender.send({ kind: 'step' }, true)).toBe(true); // idle: even a repeat is sent
    expect(sender.send({ kind: 'step' }, true)).toBe(false);
    expect(sender.send({ kind: 'step' })).toBe(true);
    expect(sender.queued).toBe(1);
    await client.answer('x');
    await client.answer('y');
    expect(client.sent).toHaveLength(2);
  });

  it('sends nothing more once closed (the view reopened or closed)', async () => {
    const { client, replies, sender } = setup();
    sender.send({ kind: 'step' });
    sender.send({ kind: 'step' });
    sender.close();
    expect(sender.send({ kind: 'step' })).toBe(false);
    await client.answer('closed');
    expect(client.sent).toHaveLength(1);
    expect(replies).toEqual(['step:closed']);
  });
});
