/**
 * Part of the BusTransport contract (see bus.contract.ts): messages published with
 * `pack: true`. Whether an adapter packs them is its own business (the in-process bus
 * never does); what a consumer sees must be the same as for messages sent one by one.
 */
import { expect, it } from '@jest/globals';
import type { Delivery, BusTransport } from '../src/bus.port.ts';
import { jsonText } from '../src/json-text.ts';
import { waitUntil } from '@skiptrace/testing';
import { peakHandlers, unique } from './test-helpers.ts';

const count = (list: unknown[], value: unknown) => list.filter((v) => v === value).length;

/** Registers the cases inside busContract's describe; `open` gives a bus closed after each test. */
export function packCases(open: () => Promise<BusTransport>): void {
  it('delivers packed messages one by one, with their ids and headers, to every bound queue', async () => {
    const bus = await open();
    const [left, right] = [unique('pack-left'), unique('pack-right')];
    const topic = `${left}.event`;
    const got: Record<string, Delivery[]> = { [left]: [], [right]: [] };
    for (const queue of [left, right]) {
      await bus.consume({ queue, topics: [topic], prefetch: 50 }, async (d) => void got[queue]!.push(d));
    }
    const ids = Array.from({ length: 20 }, (_, i) => i);
    await Promise.all(
      ids.map((n) => bus.publish(topic, { n }, { pack: true, messageId: `p-${n}`, headers: { n: String(n) } })),
    );
    await waitUntil(() => got[left]!.length === 20 && got[right]!.length === 20, { message: 'both queues' });
    for (const queue of [left, right]) {
      const sorted = [...got[queue]!].sort((a, b) => (a.payload as { n: number }).n - (b.payload as { n: number }).n);
      expect(sorted.map((d) => ({ ...d, reply: undefined }))).toEqual(
        ids.map((n) => ({ topic, payload: { n }, messageId: `p-${n}`, headers: { n: String(n) }, attempt: 1 })),
      );
    }
  });

  it('retries only the packed message that failed, with its topic and attempt count', async () => {
    const bus = await open();
    const queue = unique('pack-retry');
    const topic = `${queue}.job`;
    const calls: string[] = [];
    const retried: Delivery[] = [];
    await bus.consume({ queue, topics: [topic], prefetch: 20, maxAttempts: 3 }, async (d) => {
      calls.push(d.messageId);
      if (d.messageId === 'r-3' && d.attempt === 1) throw new Error('flaky');
      if (d.messageId === 'r-3') retried.push(d);
    });
    await Promise.all(
      Array.from({ length: 10 }, (_, n) => bus.publish(topic, { n }, { pack: true, messageId: `r-${n}` })),
    );
    await waitUntil(() => retried.length === 1, { message: 'the retry' });
    expect(retried[0]).toMatchObject({ topic, payload: { n: 3 }, attempt: 2, headers: {} });
    expect(calls).toHaveLength(11);
    for (let n = 0; n < 10; n++) expect(count(calls, `r-${n}`)).toBe(n === 3 ? 2 : 1);
  });

  it('dead-letters only the packed message that keeps failing, with its reason', async () => {
    const bus = await open();
    const queue = unique('pack-dlq');
    const topic = `${queue}.job`;
    const attempts: number[] = [];
    let others = 0;
    await bus.consume({ queue, topics: [topic], prefetch: 20, maxAttempts: 3 }, async (d) => {
      if (d.messageId !== 'd-1') return void (others += 1);
      attempts.push(d.attempt);
      throw new Error(`boom on attempt ${d.attempt}`);
    });
    await Promise.all([0, 1, 2, 3].map((n) => bus.publish(topic, { n }, { pack: true, messageId: `d-${n}` })));
    const letters: unknown[] = [];
    await waitUntil(async () => (letters.push(...(await bus.takeDeadLetters(queue, 10))), letters.length >= 1), {
      message: 'the dead letter',
    });
    expect(letters).toEqual([{ payload: { n: 1 }, topic, messageId: 'd-1', reason: 'boom on attempt 3' }]);
    expect(attempts).toEqual([1, 2, 3]);
    expect(others).toBe(3);
  });

  it('answers packed requests each with its own reply', async () => {
    const bus = await open();
    const queue = unique('pack-rpc');
    await bus.consume({ queue, topics: [`${queue}.double`], prefetch: 100 }, async (d) => {
      const n = d.payload as number;
      if (n % 2 === 0) d.reply({ early: n * 2 });
      return { late: n * 2 };
    });
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, n) => bus.request(`${queue}.double`, n, { timeoutMs: 5000, pack: true })),
    );
    expect(answers).toEqual(Array.from({ length: 30 }, (_, n) => (n % 2 === 0 ? { early: n * 2 } : { late: n * 2 })));
  });

  it('answers requestJson with the JSON text each reply was encoded to, packed or not', async () => {
    const bus = await open();
    const queue = unique('pack-json');
    // Non-ASCII text, so a pack's byte offsets differ from its character offsets.
    const reply = (n: number) => ({ n, name: `Zoë ${'é'.repeat(n)} “${n}”`, list: [n, n / 3] });
    await bus.consume({ queue, topics: [`${queue}.name`], prefetch: 100 }, async (d) => {
      const n = d.payload as number;
      if (n % 3 === 0) d.reply(jsonText(reply(n)));
      return reply(n);
    });
    const texts = await Promise.all(
      Array.from({ length: 30 }, (_, n) => bus.requestJson(`${queue}.name`, n, { timeoutMs: 5000, pack: true })),
    );
    const alone = await bus.requestJson(`${queue}.name`, 31, { timeoutMs: 5000 });
    expect([...texts, alone].map((json) => json.toString('utf8'))).toEqual(
      [...Array.from({ length: 30 }, (_, n) => n), 31].map((n) => JSON.stringify(reply(n))),
    );
  });

  it('keeps at most prefetch handlers running when messages arrive packed', async () => {
    expect(await peakHandlers(await open(), { prefetch: 3, total: 12, pack: true })).toBe(3);
  });
}
