/** Part of the BusTransport contract (see bus.contract.ts): retries, dead letters, request/reply. */
import { it, expect } from '@jest/globals';
import { RequestTimeoutError } from '../src/bus.port.ts';
import type { DeadLetter, BusTransport } from '../src/bus.port.ts';
import { waitUntil } from '@skiptrace/testing';
import { gate, unique } from './test-helpers.ts';

async function takeAllDeadLetters(bus: BusTransport, queue: string, count: number): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = [];
  await waitUntil(async () => (letters.push(...(await bus.takeDeadLetters(queue, 100))), letters.length >= count), {
    message: 'dead letters',
  });
  return letters;
}

/** Registers the cases inside busContract's describe; `open` gives a bus closed after each test. */
export function retryAndReplyCases(open: () => Promise<BusTransport>): void {
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
    await waitUntil(() => attempts.length === 2, { message: 'the redelivery' });
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
    await waitUntil(() => failures === 3, { message: 'three failures' });
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

  it('sends an early reply() at once; the settled handler then sends no second reply', async () => {
    const bus = await open();
    const queue = unique('rpc-early');
    const rest = gate();
    let settled = false;
    await bus.consume({ queue, topics: [queue], prefetch: 5 }, async (d) => {
      d.reply({ early: d.payload });
      await rest.opened;
      settled = true;
      return { late: d.payload };
    });
    await expect(bus.request(queue, 1, { timeoutMs: 5000 })).resolves.toEqual({ early: 1 });
    expect(settled).toBe(false);
    rest.open();
    await waitUntil(() => settled, { message: 'the handler to settle' });
    await expect(bus.request(queue, 2, { timeoutMs: 5000 })).resolves.toEqual({ early: 2 });
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
    await waitUntil(() => finished === 1, { message: 'the late handler' });
    await expect(bus.request(queue, 'fast', { timeoutMs: 5000 })).resolves.toBe('reply to fast');
    await expect(bus.request(unique('nobody'), 1, { timeoutMs: 200 })).rejects.toBeInstanceOf(RequestTimeoutError);
  });
}
