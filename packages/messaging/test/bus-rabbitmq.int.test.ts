import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import amqp from 'amqplib';
import { BusUnavailableError, type DeadLetter } from '../src/bus.port.ts';
import { createBus, createRabbitBus } from '../src/index.ts';
import { coalesceFrameWrites } from '../src/rabbitmq-write-coalescing.ts';
import { busContract } from './bus.contract.ts';
import { createTestVhost, ensureBrokerRunning, holdBrokerLock } from './rabbitmq-admin.ts';
import type { TestVhost } from './rabbitmq-admin.ts';
import { waitUntil } from '@skiptrace/testing';

let vhost: TestVhost;
let releaseBroker: () => Promise<void>;
beforeAll(async () => {
  releaseBroker = await holdBrokerLock('shared');
  await ensureBrokerRunning();
  vhost = await createTestVhost('bus-contract');
}, 180_000);
afterAll(async () => {
  await vhost.remove();
  await releaseBroker();
}, 60_000);

busContract('rabbitmq', () => createRabbitBus({ url: vhost.url, exchange: 'contract' }));

describe('createRabbitBus', () => {
  it('is chosen by createBus when an AMQP URL is configured', async () => {
    const bus = await createBus({ amqpUrl: vhost.url });
    expect(bus.kind).toBe('rabbitmq');
    expect(bus.isReady()).toBe(true);
    await bus.close();
  });

  it('fails with BusUnavailableError when the broker cannot be reached in time', async () => {
    const started = Date.now();
    const connecting = createRabbitBus({ url: 'amqp://guest:guest@127.0.0.1:1', connectTimeoutMs: 500 });
    await expect(connecting).rejects.toBeInstanceOf(BusUnavailableError);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('packing on RabbitMQ', () => {
  it('sends the packed messages of one turn as one broker message, a lone one as plain JSON', async () => {
    const bus = await createRabbitBus({ url: vhost.url, exchange: 'packs' });
    try {
      const queue = `packs-${Date.now()}`;
      await (await bus.consume({ queue, topics: [queue], prefetch: 1 }, async () => {})).cancel();
      await Promise.all(Array.from({ length: 50 }, (_, n) => bus.publish(queue, n, { pack: true })));
      expect(await bus.depth(queue)).toBe(1);
      await bus.publish(queue, 'alone', { pack: true });
      expect(await bus.depth(queue)).toBe(2);
      const model = await amqp.connect(vhost.url);
      const channel = await model.createChannel();
      const pack = await channel.get(queue, { noAck: true });
      const plain = await channel.get(queue, { noAck: true });
      await model.close();
      expect(pack && pack.properties.contentType).toBe('application/vnd.skiptrace.pack+json');
      expect(pack && JSON.parse(pack.content.toString()).map((e: { payload: number }) => e.payload)).toEqual(
        Array.from({ length: 50 }, (_, n) => n),
      );
      expect(plain && plain.properties.contentType).toBe('application/json');
      expect(plain && JSON.parse(plain.content.toString())).toBe('alone');
    } finally {
      await bus.close();
    }
  });

  it('reads every message of a pack the broker dead-lettered whole (a consumer that never settles it)', async () => {
    const bus = await createRabbitBus({ url: vhost.url, exchange: 'packs' });
    const model = await amqp.connect(vhost.url);
    try {
      const queue = `packs-crash-${Date.now()}`;
      await (await bus.consume({ queue, topics: [queue], prefetch: 1, maxAttempts: 2 }, async () => {})).cancel();
      await Promise.all(['a', 'b', 'c'].map((id) => bus.publish(queue, { id }, { pack: true, messageId: id })));
      // Stands in for a worker that crashes on the pack: delivered, never acked, twice.
      const channel = await model.createChannel();
      for (let i = 0; i < 2; i++) {
        const message = await channel.get(queue, { noAck: false });
        expect(message).not.toBe(false);
        if (message) channel.nack(message, false, true);
      }
      const letters: DeadLetter[] = [];
      await waitUntil(async () => (letters.push(...(await bus.takeDeadLetters(queue, 1))), letters.length >= 3), {
        message: 'the dead-lettered pack',
      });
      expect(letters.sort((x, y) => x.messageId.localeCompare(y.messageId))).toEqual(
        ['a', 'b', 'c'].map((id) => ({ payload: { id }, topic: queue, messageId: id, reason: 'delivery_limit' })),
      );
    } finally {
      await model.close();
      await bus.close();
    }
  });
});

describe('coalesceFrameWrites', () => {
  it('hands the frames of one multiplexer pass to the socket in one write, in order', async () => {
    const model = await amqp.connect(vhost.url);
    try {
      expect(coalesceFrameWrites(model)).toBe(true);
      const socket = (model as unknown as { connection: { stream: Record<string, unknown> } }).connection.stream;
      let writes = 0;
      for (const name of ['_write', '_writev']) {
        const original = socket[name] as (...args: unknown[]) => unknown;
        socket[name] = function (this: unknown, ...args: unknown[]) {
          writes += 1;
          return original.apply(this, args);
        };
      }
      const channel = await model.createChannel();
      const { queue } = await channel.assertQueue('', { exclusive: true });
      writes = 0;
      for (let i = 0; i < 200; i++) channel.sendToQueue(queue, Buffer.from(String(i)));
      const received: string[] = [];
      await new Promise<void>((resolve) => {
        void channel.consume(
          queue,
          (message) => {
            if (message) received.push(message.content.toString());
            if (received.length === 200) resolve();
          },
          { noAck: true },
        );
      });
      expect(received).toEqual(Array.from({ length: 200 }, (_, i) => String(i)));
      // 200 publishes in one pass: uncorked that was 201 writes (measured).
      expect(writes).toBeLessThan(20);
    } finally {
      await model.close();
    }
  });
});
