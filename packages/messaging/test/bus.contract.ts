/**
 * The one behaviour suite for BusTransport. Each adapter's test file calls busContract with a
 * factory; every test opens its own bus and uses its own queue and topic names. The
 * retry, dead-letter and request/reply cases live in bus.contract-retries.ts, the packed
 * ones in bus.contract-packs.ts.
 */
import { afterEach, describe, expect, it } from '@jest/globals';
import { BusUnavailableError } from '../src/bus.port.ts';
import type { Delivery, BusTransport } from '../src/bus.port.ts';
import { packCases } from './bus.contract-packs.ts';
import { retryAndReplyCases } from './bus.contract-retries.ts';
import { waitUntil } from '@skiptrace/testing';
import { gate, peakHandlers, unique } from './test-helpers.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function busContract(name: string, makeBus: () => Promise<BusTransport>): void {
  describe(`BusTransport contract: ${name}`, () => {
    const buses: BusTransport[] = [];
    async function open(): Promise<BusTransport> {
      const bus = await makeBus();
      buses.push(bus);
      return bus;
    }
    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
    });

    it('delivers payload, headers and messageId, never inside publish()', async () => {
      const bus = await open();
      const queue = unique('roundtrip');
      const topic = `${queue}.created`;
      const received: Delivery[] = [];
      await bus.consume({ queue, topics: [topic], prefetch: 10 }, async (delivery) => void received.push(delivery));
      const first = bus.publish(topic, { id: 1, name: 'Ada' }, { messageId: 'm-1', headers: { tenant: 't1' } });
      expect(received).toHaveLength(0);
      await first;
      await bus.publish(topic, [1, 2]);
      await waitUntil(() => received.length === 2, { message: 'two deliveries' });
      expect(received[0]).toEqual({
        topic,
        payload: { id: 1, name: 'Ada' },
        messageId: 'm-1',
        headers: { tenant: 't1' },
        attempt: 1,
        reply: expect.any(Function),
      });
      expect(received[1]).toMatchObject({ topic, payload: [1, 2], headers: {}, attempt: 1 });
      expect(received[1]?.messageId).toMatch(UUID);
    });

    it('routes by topic pattern: * is one word, # zero or more', async () => {
      const bus = await open();
      const queue = unique('patterns');
      const received: string[] = [];
      await bus.consume(
        { queue, topics: [`${queue}.*.added`, `${queue}-log.#`], prefetch: 10 },
        async (d) => void received.push(d.topic),
      );
      const topics = [
        `${queue}.plant.added`,
        `${queue}.plant.removed`,
        `${queue}.a.b.added`,
        `${queue}-log`,
        `${queue}-log.x.y`,
      ];
      for (const topic of topics) await bus.publish(topic, null);
      await bus.publish(`${queue}-log.end`, null); // FIFO: once this arrives, nothing earlier is pending
      await waitUntil(() => received.includes(`${queue}-log.end`), { message: 'sentinel' });
      expect(received).toEqual([`${queue}.plant.added`, `${queue}-log`, `${queue}-log.x.y`, `${queue}-log.end`]);
    });

    it('fans a topic out to every queue bound to it', async () => {
      const bus = await open();
      const [left, right] = [unique('fan-left'), unique('fan-right')];
      const topic = `${left}.event`;
      const got: Record<string, unknown[]> = { [left]: [], [right]: [] };
      for (const queue of [left, right]) {
        await bus.consume({ queue, topics: [topic], prefetch: 5 }, async (d) => void got[queue]?.push(d.payload));
      }
      for (const n of [1, 2, 3]) await bus.publish(topic, { n });
      await waitUntil(() => got[left]?.length === 3 && got[right]?.length === 3, { message: 'both queues' });
      expect(got[left]).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(got[right]).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
    });

    it('shares one queue between competing consumers, each message handled once', async () => {
      const bus = await open();
      const queue = unique('compete');
      const seen: Record<'a' | 'b', string[]> = { a: [], b: [] };
      for (const who of ['a', 'b'] as const) {
        await bus.consume({ queue, topics: [queue], prefetch: 1 }, async (d) => {
          seen[who].push(d.messageId);
          await pause(5);
        });
      }
      const ids = Array.from({ length: 40 }, (_, i) => `job-${i}`);
      await Promise.all(ids.map((messageId) => bus.publish(queue, { messageId }, { messageId })));
      await waitUntil(() => seen.a.length + seen.b.length >= ids.length, { message: 'all jobs' });
      expect([...seen.a, ...seen.b].sort()).toEqual([...ids].sort());
      expect(seen.a.length).toBeGreaterThan(0);
      expect(seen.b.length).toBeGreaterThan(0);
    });

    it('keeps at most prefetch handlers running per consumer', async () => {
      expect(await peakHandlers(await open(), { prefetch: 3, total: 12, pack: false })).toBe(3);
    });

    retryAndReplyCases(open);
    packCases(open);

    it('reports depth of waiting messages, 0 for an unknown queue', async () => {
      const bus = await open();
      const queue = unique('depth');
      const consumer = await bus.consume({ queue, topics: [queue], prefetch: 1 }, async () => {});
      await consumer.cancel();
      for (const n of [1, 2, 3, 4]) await bus.publish(queue, n);
      await waitUntil(async () => (await bus.depth(queue)) === 4, { message: 'depth 4' });
      expect(await bus.depth(unique('missing'))).toBe(0);
      const received: unknown[] = [];
      await bus.consume({ queue, topics: [queue], prefetch: 4 }, async (d) => void received.push(d.payload));
      await waitUntil(() => received.length === 4, { message: 'the backlog' });
      await waitUntil(async () => (await bus.depth(queue)) === 0, { message: 'depth 0' });
    });

    it('refuses to redeclare a queue with another maxAttempts', async () => {
      const bus = await open();
      const queue = unique('args');
      await bus.consume({ queue, topics: [queue], prefetch: 1, maxAttempts: 3 }, async () => {});
      await expect(
        bus.consume({ queue, topics: [queue], prefetch: 1, maxAttempts: 4 }, async () => {}),
      ).rejects.toThrow();
      await expect(bus.consume({ queue, topics: [queue], prefetch: 0 }, async () => {})).rejects.toThrow(RangeError);
      expect(bus.isReady()).toBe(true);
    });

    it('close() waits for the in-flight handler, then refuses work; idempotent', async () => {
      const bus = await open();
      const queue = unique('close');
      const events: string[] = [];
      const hold = gate();
      await bus.consume({ queue, topics: [queue], prefetch: 1 }, async () => {
        events.push('handler started');
        await hold.opened;
        events.push('handler done');
      });
      await bus.publish(queue, 'work');
      await waitUntil(() => events.length === 1, { message: 'the handler to start' });
      const closing = bus.close().then(() => events.push('closed'));
      setTimeout(hold.open, 200);
      await closing;
      expect(events).toEqual(['handler started', 'handler done', 'closed']);
      expect(bus.isReady()).toBe(false);
      await expect(bus.publish(queue, 'late')).rejects.toBeInstanceOf(BusUnavailableError);
      await bus.close();
      const after = await open();
      expect(await after.depth(queue)).toBe(0);
    });
  });
}
