/**
 * Back-pressure: many concurrent publishes never put more than confirmWindow messages
 * on the wire unconfirmed, large messages that fill the socket buffer ('drain') do not
 * wedge, and everything published is consumed.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createRabbitBus } from '../src/bus-rabbitmq.ts';
import { createTestVhost, ensureBrokerRunning, holdBrokerLock } from './rabbitmq-admin.ts';
import type { TestVhost } from './rabbitmq-admin.ts';
import { waitUntil } from '@skiptrace/testing';

let vhost: TestVhost;
let releaseBroker: () => Promise<void>;
beforeAll(async () => {
  releaseBroker = await holdBrokerLock('shared');
  await ensureBrokerRunning();
  vhost = await createTestVhost('backpressure');
}, 180_000);
afterAll(async () => {
  await vhost.remove();
  await releaseBroker();
}, 60_000);

// These measure the window and the drain, not the deadline: on a loaded machine (load
// 10 on two cores) the last of 20,000 publishes waits past the default 5 s for its confirm.
const patient = { publishTimeoutMs: 60_000 };

describe('RabbitMQ bus back-pressure', () => {
  it('keeps unconfirmed publishes within the window for 20,000 concurrent publishes; all are consumed', async () => {
    const window = 200;
    const total = 20_000;
    const bus = await createRabbitBus({ url: vhost.url, exchange: 'backpressure', confirmWindow: window, ...patient });
    try {
      const queue = `window-${Date.now()}`;
      const consumed = new Set<number>();
      await bus.consume({ queue, topics: [queue], prefetch: 500 }, async (d) => void consumed.add(d.payload as number));
      let peak = 0;
      const sample = (): void => {
        peak = Math.max(peak, bus.inFlight());
      };
      const sampler = setInterval(sample, 1);
      try {
        await Promise.all(Array.from({ length: total }, (_, i) => bus.publish(queue, i).finally(sample)));
      } finally {
        clearInterval(sampler);
      }
      // The bound held, and was reached: the window, not the broker, limited the publisher.
      expect(peak).toBe(window);
      expect(bus.inFlight()).toBe(0);
      await waitUntil(() => consumed.size === total, { timeoutMs: 60_000, message: 'all messages consumed' });
    } finally {
      await bus.close();
    }
  }, 120_000);

  it('holds publishes until drain when the channel buffer fills, without wedging', async () => {
    const logged: string[] = [];
    const record = (_obj: object, msg: string): void => void logged.push(msg);
    const logger = { debug: record, info: record, warn: record, error: record };
    const bus = await createRabbitBus({ url: vhost.url, exchange: 'backpressure', logger, ...patient });
    try {
      const queue = `drain-${Date.now()}`;
      // 270 KiB is 3 body frames plus a header frame; 600 at once (2,400 frames) overflow
      // amqplib's channel buffer (1,024 frames each side of a PassThrough), so publish() says false.
      const blob = 'x'.repeat(270 * 1024);
      let consumed = 0;
      await bus.consume({ queue, topics: [queue], prefetch: 50 }, async (d) => {
        if ((d.payload as { blob: string }).blob.length === blob.length) consumed += 1;
      });
      await Promise.all(Array.from({ length: 600 }, (_, n) => bus.publish(queue, { n, blob })));
      expect(logged).toContain('channel buffer full; holding publishes until drain');
      await waitUntil(() => consumed === 600, { timeoutMs: 60_000, message: 'all large messages consumed' });
    } finally {
      await bus.close();
    }
  }, 120_000);
});
