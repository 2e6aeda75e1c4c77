/**
 * Stops and starts the broker (the run's RabbitMQ container: docker stop / docker start)
 * under a connected consumer and a steady stream of publishes. Holds the broker lock
 * exclusively so this package's other integration tests are not running against a broker
 * that is going away.
 */
// @run-alone: stops and starts the broker.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BusUnavailableError } from '../src/bus.port.ts';
import { createRabbitBus } from '../src/bus-rabbitmq.ts';
import { createTestVhost, ensureBrokerRunning, holdBrokerLock } from './rabbitmq-admin.ts';
import type { TestVhost } from './rabbitmq-admin.ts';
import { startRabbit, stopRabbit, waitUntil } from '@skiptrace/testing';

let vhost: TestVhost;
beforeAll(async () => {
  await ensureBrokerRunning();
  vhost = await createTestVhost('restart');
}, 180_000);
afterAll(async () => {
  await ensureBrokerRunning();
  await vhost.remove();
}, 180_000);

describe('RabbitMQ bus across a broker restart', () => {
  it('loses no confirmed publish, refuses rather than loses during the outage, and resumes consuming', async () => {
    const bus = await createRabbitBus({ url: vhost.url, exchange: 'restart', publishTimeoutMs: 1000 });
    try {
      const queue = `restart-${Date.now()}`;
      const consumed = new Set<string>();
      await bus.consume({ queue, topics: [queue], prefetch: 50 }, async (d) => void consumed.add(d.messageId));

      const confirmed = new Set<string>();
      const refused: string[] = [];
      const unexpected: unknown[] = [];
      let seq = 0;
      const sentWhileDown = new Set<string>();
      async function publishOne(phase: string): Promise<void> {
        const messageId = `${phase}-${seq++}`;
        if (!bus.isReady()) sentWhileDown.add(messageId);
        try {
          await bus.publish(queue, { messageId }, { messageId });
          confirmed.add(messageId);
        } catch (err) {
          if (err instanceof BusUnavailableError) refused.push(messageId);
          else unexpected.push(err);
        }
      }
      const publishMany = (phase: string, count: number): Promise<void[]> =>
        Promise.all(Array.from({ length: count }, () => publishOne(phase)));

      await publishMany('before', 200);
      expect(confirmed.size).toBe(200);

      // A steady stream of publishes through the outage.
      let streaming = true;
      const inFlight: Array<Promise<void>> = [];
      const stream = (async () => {
        while (streaming) {
          inFlight.push(publishOne('during'));
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();

      const releaseBroker = await holdBrokerLock('exclusive');
      try {
        await stopRabbit();
        await waitUntil(() => !bus.isReady(), { timeoutMs: 30_000, message: 'the bus to notice the outage' });
        // Down for longer than publishTimeoutMs, so the early outage publishes are refused.
        await waitUntil(() => refused.length > 0, { timeoutMs: 30_000, message: 'a publish to be refused' });
        await startRabbit();
      } finally {
        await ensureBrokerRunning();
        await releaseBroker();
      }
      await waitUntil(() => bus.isReady(), { timeoutMs: 60_000, message: 'the bus to reconnect' });
      streaming = false;
      await stream;
      await Promise.all(inFlight);

      const beforeAfter = confirmed.size;
      await publishMany('after', 200);
      expect(confirmed.size).toBe(beforeAfter + 200);
      expect(unexpected).toEqual([]);
      // Only publishes around the outage were refused (BusUnavailableError after publishTimeoutMs);
      // some made while it was down were held and confirmed after the reconnect.
      expect(refused.length).toBeGreaterThan(0);
      expect(refused.every((id) => id.startsWith('during-'))).toBe(true);
      expect([...sentWhileDown].filter((id) => confirmed.has(id)).length).toBeGreaterThan(0);

      // Every confirmed publish (before, during, after) reaches the re-attached consumer.
      await waitUntil(() => [...confirmed].every((id) => consumed.has(id)), {
        timeoutMs: 60_000,
        message: 'every confirmed message to be consumed',
      });
    } finally {
      await bus.close();
    }
  }, 240_000);
});
