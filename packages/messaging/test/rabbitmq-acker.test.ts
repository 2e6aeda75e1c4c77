import { describe, expect, it } from '@jest/globals';
import { createAcker } from '../src/rabbitmq-acker.ts';

function fakeChannel() {
  const acks: [number, boolean][] = [];
  return {
    acks,
    ack: (m: { fields: { deliveryTag: number } }, allUpTo = false) => acks.push([m.fields.deliveryTag, allUpTo]),
  };
}
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('createAcker', () => {
  it('acks a run of finished deliveries at the head with one multiple ack', async () => {
    const ch = fakeChannel();
    const acker = createAcker(ch, () => true);
    for (const tag of [1, 2, 3]) acker.received(tag);
    for (const tag of [2, 1, 3]) acker.ack(tag);
    await turn();
    expect(ch.acks).toEqual([[3, true]]);
  });

  it('acks a lone finished delivery without multiple', async () => {
    const ch = fakeChannel();
    const acker = createAcker(ch, () => true);
    acker.received(7);
    acker.ack(7);
    await turn();
    expect(ch.acks).toEqual([[7, false]]);
  });

  it('never covers a delivery still in progress, and does not hold the ones finished behind it', async () => {
    const ch = fakeChannel();
    const acker = createAcker(ch, () => true);
    for (const tag of [1, 2, 3, 4, 5]) acker.received(tag);
    for (const tag of [1, 2, 4, 5]) acker.ack(tag); // 3 is slow
    await turn();
    expect(ch.acks).toEqual([
      [2, true],
      [4, false],
      [5, false],
    ]);
    acker.received(6);
    acker.ack(6);
    acker.ack(3);
    await turn();
    // 4 and 5 are settled already, so "up to 6" covers exactly 3 and 6.
    expect(ch.acks.slice(3)).toEqual([[6, true]]);
  });

  it('skips deliveries settled by a nack', async () => {
    const ch = fakeChannel();
    const acker = createAcker(ch, () => true);
    for (const tag of [1, 2, 3]) acker.received(tag);
    acker.settled(1);
    acker.ack(2);
    acker.ack(3);
    await turn();
    expect(ch.acks).toEqual([[3, true]]);
  });

  it('flush() sends the waiting acks at once', () => {
    const ch = fakeChannel();
    const acker = createAcker(ch, () => true);
    acker.received(1);
    acker.ack(1);
    acker.flush();
    expect(ch.acks).toEqual([[1, false]]);
  });

  it('sends nothing once the channel is closed (the broker has requeued the deliveries)', async () => {
    const ch = fakeChannel();
    let open = true;
    const acker = createAcker(ch, () => open);
    acker.received(1);
    acker.ack(1);
    open = false;
    await turn();
    expect(ch.acks).toEqual([]);
  });
});
