/**
 * The one behaviour suite for MessageBus. Each adapter's test file calls busContract with a
 * factory; every test opens its own bus and uses its own queue and topic names.
 */
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { BusUnavailableError, RequestTimeoutError } from '../src/bus.port.ts';
import type { DeadLetter, Delivery, MessageBus } from '../src/bus.port.ts';
import { gate, waitUntil } from './wait-until.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const unique = (label: string): string => `${label}-${randomUUID().slice(0, 8)}`;
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export function busContract(name: string, makeBus: () => Promise<MessageBus>): void {
  describe(`MessageBus contract: ${name}`, () => {
    const buses: MessageBus[] = [];
    async function open(): Promise<MessageBus> {
      const bus = await makeBus();
      buses.push(bus);
      return bus;
    }
    afterEach(async () => {
      await Promise.all(buses.splice(0).map((bus) => bus.close()));
    });

    async function takeAllDeadLetters(bus: MessageBus, queue: string, count: number): Promise<DeadLetter[]> {
      const letters: DeadLetter[] = [];
      await waitUntil(async () => (letters.push(...(await bus.takeDeadLetters(queue, 100))), letters.length >= count), {
        what: 'dead letters',
      });
      return letters;
    }

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
      await waitUntil(() => received.length === 2, { what: 'two deliveries' });
      expect(received[0]).toEqual({
        topic,
        payload: { id: 1, name: 'Ada' },
        messageId: 'm-1',
        headers: { tenant: 't1' },
        attempt: 1,
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
      await waitUntil(() => received.includes(`${queue}-log.end`), { what: 'sentinel' });
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
      await waitUntil(() => got[left]?.length === 3 && got[right]?.length === 3, { what: 'both queues' });
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
      await waitUntil(() => seen.a.length + seen.b.length >= ids.length, { what: 'all jobs' });
      expect([...seen.a, ...seen.b].sort()).toEqual([...ids].sort());
      expect(seen.a.length).toBeGreaterThan(0);
      expect(seen.b.length).toBeGreaterThan(0);
    });

    it('keeps at most prefetch handlers running per consumer', async () => {
      const bus = await open();
      const queue = unique('prefetch');
      const total = 12;
      let running = 0;
      let peak = 0;
      let started = 0;
      let done = 0;
      await bus.consume({ queue, topics: [queue], prefetch: 3 }, async () => {
        running += 1;
        started += 1;
        peak = Math.max(peak, running);
        // Hold each handler until the consumer is full (or nothing more can come), so a
        // broken bound shows as a peak above 3 rather than depending on timing.
        await waitUntil(() => running >= 3 || started >= total, { what: 'a full consumer', intervalMs: 2 });
        running -= 1;
        done += 1;
      });
      await Promise.all(Array.from({ length: total }, (_, i) => bus.publish(queue, i)));
      await waitUntil(() => done === total, { what: 'all handled' });
      expect(peak).toBe(3);
    });

    it('redelivers a failed message with the attempt counted up', async () => {
      const bus = await open();
      const queue = unique('retry');
      const attempts: number[] = [];
      await bus.consume({ queue, topics: [queue], prefetch: 1, maxAttempts: 3 }, async (d) => {
        attempts.push(d.attempt);
        if (d.attempt === 1) throw new Error('flaky');
        return 'ok';
      });
      await bus.publish(queue, { x: 1 });
      await waitUntil(() => attempts.length === 2, { what: 'the redelivery' });
      expect(attempts).toEqual([1, 2]);
      expect(await bus.takeDeadLetters(queue, 10)).toEqual([]);
    });

    it('dead-letters after maxAttempts with the last error as reason', async () => {
      const bus = await open();
      const queue = unique('dlq');
      const attempts = new Map<string, number[]>();
      await bus.consume({ queue, topics: [`${queue}.job`], prefetch: 2, maxAttempts: 3 }, async (d) => {
        attempts.set(d.messageId, [...(attempts.get(d.messageId) ?? []), d.attempt]);
        throw new Error(`boom on attempt ${d.attempt}`);
      });
      for (const n of [1, 2, 3]) await bus.publish(`${queue}.job`, { n }, { messageId: `dead-${n}` });
      const letters = await takeAllDeadLetters(bus, queue, 3);
      expect(letters.sort((a, b) => a.messageId.localeCompare(b.messageId))).toEqual(
        [1, 2, 3].map((n) => ({
          payload: { n },
          topic: `${queue}.job`,
          messageId: `dead-${n}`,
          reason: 'boom on attempt 3',
        })),
      );
      expect([...attempts.values()]).toEqual([
        [1, 2, 3],
        [1, 2, 3],
        [1, 2, 3],
      ]);
      expect(await bus.takeDeadLetters(queue, 10)).toEqual([]);
    });

    it('takes at most `limit` dead letters per call', async () => {
      const bus = await open();
      const queue = unique('dlq-limit');
      let failures = 0;
      await bus.consume({ queue, topics: [queue], prefetch: 5, maxAttempts: 1 }, async () => {
        failures += 1;
        throw new Error('rejected');
      });
      for (const n of [1, 2, 3]) await bus.publish(queue, n);
      await waitUntil(() => failures === 3, { what: 'three failures' });
      const batches: unknown[][] = [];
      await waitUntil(async () => {
        const batch = await bus.takeDeadLetters(queue, 2);
        if (batch.length > 0) batches.push(batch.map((letter) => letter.payload));
        return batches.flat().length >= 3;
      });
      expect(batches.every((batch) => batch.length <= 2)).toBe(true);
      expect(batches.flat().sort()).toEqual([1, 2, 3]);
      expect(await bus.takeDeadLetters(queue, 2)).toEqual([]);
    });

    it('answers request() with the handler value, matched per request', async () => {
      const bus = await open();
      const queue = unique('rpc');
      await bus.consume({ queue, topics: [`${queue}.sum`], prefetch: 10 }, async (d) => {
        const { a, b } = d.payload as { a: number; b: number };
        return { sum: a + b, trace: d.headers['trace'] };
      });
      const answers = await Promise.all(
        [1, 2, 3, 4, 5].map((a) =>
          bus.request(`${queue}.sum`, { a, b: 10 }, { timeoutMs: 5000, headers: { trace: `t${a}` } }),
        ),
      );
      expect(answers).toEqual([1, 2, 3, 4, 5].map((a) => ({ sum: a + 10, trace: `t${a}` })));
    });

    it('rejects request() with RequestTimeoutError and drops the late reply', async () => {
      const bus = await open();
      const queue = unique('rpc-slow');
      const slow = gate();
      let finished = 0;
      await bus.consume({ queue, topics: [queue], prefetch: 5 }, async (d) => {
        if (d.payload === 'slow') await slow.opened;
        finished += 1;
        return `reply to ${String(d.payload)}`;
      });
      const started = Date.now();
      await expect(bus.request(queue, 'slow', { timeoutMs: 300 })).rejects.toBeInstanceOf(RequestTimeoutError);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      slow.open();
      await waitUntil(() => finished === 1, { what: 'the late handler' });
      await expect(bus.request(queue, 'fast', { timeoutMs: 5000 })).resolves.toBe('reply to fast');
      await expect(bus.request(unique('nobody'), 1, { timeoutMs: 200 })).rejects.toBeInstanceOf(RequestTimeoutError);
    });

    it('reports depth of waiting messages, 0 for an unknown queue', async () => {
      const bus = await open();
      const queue = unique('depth');
      const consumer = await bus.consume({ queue, topics: [queue], prefetch: 1 }, async () => {});
      await consumer.cancel();
      for (const n of [1, 2, 3, 4]) await bus.publish(queue, n);
      await waitUntil(async () => (await bus.depth(queue)) === 4, { what: 'depth 4' });
      expect(await bus.depth(unique('missing'))).toBe(0);
      const received: unknown[] = [];
      await bus.consume({ queue, topics: [queue], prefetch: 4 }, async (d) => void received.push(d.payload));
      await waitUntil(() => received.length === 4, { what: 'the backlog' });
      await waitUntil(async () => (await bus.depth(queue)) === 0, { what: 'depth 0' });
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
      await waitUntil(() => events.length === 1, { what: 'the handler to start' });
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
