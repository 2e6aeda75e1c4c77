/**
 * The bus typed by a message catalogue (catalogueBus): what it adds to the transport —
 * packing from the catalogue, queue bindings from it, validation of each delivery — at run
 * time, and at compile time the mismatches it refuses. The `@ts-expect-error` lines are
 * checked by `./run typecheck`: if one of them stopped being an error, typecheck fails.
 */
import { describe, expect, it } from '@jest/globals';
import { z } from 'zod';
import { MESSAGES, type MessageCatalogue } from '@skiptrace/contracts';
import { waitUntil } from '@skiptrace/testing';
import type { BusTransport, PublishOptions } from '../src/bus.port.ts';
import { catalogueBus, createBus, createMemoryBus, type MessageBus } from '../src/index.ts';

const TEST = {
  'job.square': {
    schema: z.object({ n: z.number() }),
    reply: z.object({ square: z.number() }),
    queue: 'math',
    pack: true,
  },
  'job.log': { schema: z.object({ line: z.string() }), queue: 'math', pack: false },
  'event.seen': { schema: z.object({ at: z.string() }), queue: 'audit', pack: false },
} as const satisfies MessageCatalogue;

/** A transport that records what the typed bus asks of it. */
function recording(inner: BusTransport) {
  const published: { topic: string; options: PublishOptions | undefined }[] = [];
  const consumed: { queue: string; topics: string[] }[] = [];
  const transport: BusTransport = {
    ...inner,
    kind: inner.kind,
    publish: (topic, payload, options) => (published.push({ topic, options }), inner.publish(topic, payload, options)),
    request: (topic, payload, options) => (published.push({ topic, options }), inner.request(topic, payload, options)),
    consume: (options, handler) => (
      consumed.push({ queue: options.queue, topics: options.topics }),
      inner.consume(options, handler)
    ),
    takeDeadLetters: (queue, limit) => inner.takeDeadLetters(queue, limit),
    depth: (queue) => inner.depth(queue),
    isReady: () => inner.isReady(),
    close: () => inner.close(),
  };
  return { transport, published, consumed };
}

describe('catalogueBus', () => {
  it('binds each queue to the catalogue messages for it, and packs what the catalogue says', async () => {
    const { transport, published, consumed } = recording(createMemoryBus());
    const bus = catalogueBus(TEST, transport);
    const lines: string[] = [];
    await bus.consume('math', { prefetch: 4 }, async (d) => {
      if (d.topic === 'job.square') return { square: d.payload.n * d.payload.n };
      lines.push(d.payload.line);
      return undefined;
    });
    expect(consumed).toEqual([{ queue: 'math', topics: ['job.square', 'job.log'] }]);
    await expect(bus.request('job.square', { n: 7 }, { timeoutMs: 2000, messageId: 'sq-7' })).resolves.toEqual({
      square: 49,
    });
    await bus.publish('job.log', { line: 'hello' });
    await waitUntil(() => lines.length === 1);
    expect(lines).toEqual(['hello']);
    expect(published.map(({ topic, options }) => [topic, options?.pack, options?.messageId])).toEqual([
      ['job.square', true, 'sq-7'],
      ['job.log', false, undefined],
    ]);
    await bus.close();
  });

  it('validates every delivery: a payload that does not fit is dead-lettered with the reason, never handled', async () => {
    const transport = createMemoryBus();
    const bus = catalogueBus(TEST, transport);
    const seen: string[] = [];
    await bus.consume('audit', { prefetch: 1, maxAttempts: 2 }, async (d) => void seen.push(d.payload.at));
    await transport.publish('event.seen', { at: 42 }, { messageId: 'bad' });
    await bus.publish('event.seen', { at: 'noon' });
    const letters = await waitUntil(async () => {
      const taken = await bus.takeDeadLetters('audit', 10);
      return taken.length ? taken : undefined;
    });
    expect(letters).toMatchObject([{ messageId: 'bad', topic: 'event.seen', payload: { at: 42 } }]);
    expect(letters[0]!.reason).toBe('event.seen payload: at: Invalid input: expected string, received number');
    expect(seen).toEqual(['noon']);
    await bus.close();
  });

  it('refuses, when consuming, a message the catalogue sends to another queue', async () => {
    const transport = createMemoryBus();
    const bus = catalogueBus(TEST, transport);
    // A stray binding (an operator's, or an older version's) routes job.log into audit too.
    const stray = await transport.consume(
      { queue: 'audit', topics: ['job.log'], prefetch: 1, maxAttempts: 1 },
      async () => {},
    );
    await stray.cancel();
    let handled = 0;
    await bus.consume('audit', { prefetch: 1, maxAttempts: 1 }, async () => void handled++);
    await bus.publish('job.log', { line: 'stray' }, { messageId: 'stray' });
    const letters = await waitUntil(async () => {
      const taken = await bus.takeDeadLetters('audit', 10);
      return taken.length ? taken : undefined;
    });
    expect(letters).toMatchObject([{ messageId: 'stray', topic: 'job.log' }]);
    expect(letters[0]!.reason).toMatch(/job\.log is not a message of queue audit/);
    expect(handled).toBe(0);
    await bus.close();
  });
});

describe('the SkipTrace catalogue at the bus port', () => {
  it('binds each queue to its messages, as written once in MESSAGES', async () => {
    const bus: MessageBus = await createBus();
    expect(bus.kind).toBe('memory');
    await bus.close();
    expect(Object.entries(MESSAGES).map(([name, entry]) => [name, entry.queue, entry.pack])).toEqual([
      ['job.skiptrace', 'skiptrace.jobs', true],
      ['job.batch.chunk', 'skiptrace.batch-chunks', false],
      ['event.plant.added', 'webhooks.events', true],
      ['event.skiptrace.completed', 'webhooks.events', true],
      ['event.batch.completed', 'webhooks.events', false],
      ['event.quota.warning', 'webhooks.events', false],
    ]);
  });
});

/** Compile-time cases only: never called, type-checked by `./run typecheck`. */
export async function compileTimeCases(bus: MessageBus): Promise<void> {
  const property = { street_address: '1 Main St', city: 'Austin', state: 'TX', zip_code: '78701' };
  const job = { propertyId: 1, accountId: 'a', property, requestedAt: '2026-01-01T00:00:00Z' };
  await bus.publish('job.skiptrace', job);
  const reply = await bus.request('job.skiptrace', job, { timeoutMs: 1 });
  const id: number = reply.id;
  void id;
  // @ts-expect-error a payload of the wrong type
  await bus.publish('job.skiptrace', { ...job, propertyId: '1' });
  // @ts-expect-error a payload missing a field
  await bus.publish('job.batch.chunk', { batchId: 'b', accountId: 'a', fromRow: 1 });
  // @ts-expect-error a message the catalogue does not have
  await bus.publish('job.unknown', {});
  // @ts-expect-error the payload of another message
  await bus.publish('event.plant.added', job);
  // @ts-expect-error nobody answers a request for a batch chunk (its entry has no reply)
  await bus.request('job.batch.chunk', { batchId: 'b', accountId: 'a', fromRow: 1, toRow: 2 }, { timeoutMs: 1 });
  // @ts-expect-error packing is the catalogue's decision
  await bus.publish('job.skiptrace', job, { pack: false });
  // @ts-expect-error a queue the catalogue does not have
  await bus.consume('skiptrace.unknown', { prefetch: 1 }, async () => {});
  // @ts-expect-error a queue the catalogue does not have
  await bus.depth('test.batch-completed');
  await bus.consume('skiptrace.jobs', { prefetch: 1 }, async (d) => {
    const accountId: string = d.payload.accountId;
    void accountId;
    // @ts-expect-error the reply of job.skiptrace is a PropertyResponse
    d.reply({ square: 1 });
    // @ts-expect-error a chunk field: not in a skiptrace job
    void d.payload.fromRow;
    return undefined;
  });
  // @ts-expect-error the handler of skiptrace.jobs answers with a PropertyResponse, not a number
  await bus.consume('skiptrace.jobs', { prefetch: 1 }, async () => 42);
  await bus.consume('webhooks.events', { prefetch: 1 }, async (d) => {
    if (d.topic === 'event.batch.completed') {
      const status: string = d.payload.data.status;
      void status;
    }
    // @ts-expect-error only events are bound to webhooks.events
    if (d.topic === 'job.skiptrace') return;
  });
}
