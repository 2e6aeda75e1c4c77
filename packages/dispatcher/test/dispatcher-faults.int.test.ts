// @run-alone: stops and starts the broker.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { startRabbit, stopRabbit, waitUntil } from '@skiptrace/testing';
import { property } from './flow.ts';
import { createIntHarness, type IntHarness } from './int-harness.ts';
import { startReceiver, type Received, type TestReceiver } from './receiver.ts';

/** Requests per webhook-id, and the most that were in flight at once for any one id. */
function perMessage(receiver: TestReceiver) {
  const counts = new Map<string, number>();
  for (const r of receiver.received)
    counts.set(r.headers['webhook-id'] as string, (counts.get(r.headers['webhook-id'] as string) ?? 0) + 1);
  return counts;
}

/** A receiver that records overlapping requests for the same webhook-id. */
async function overlapReceiver(delayMs: number) {
  const inFlight = new Map<string, number>();
  let overlaps = 0;
  const receiver = await startReceiver((req: Received) => {
    const id = req.headers['webhook-id'] as string;
    const n = (inFlight.get(id) ?? 0) + 1;
    inFlight.set(id, n);
    if (n > 1) overlaps += 1;
    setTimeout(() => inFlight.set(id, (inFlight.get(id) ?? 1) - 1), delayMs);
    return { status: 200, delayMs };
  });
  return { receiver, overlaps: () => overlaps };
}

const publish = (h: IntHarness, account: string, id: number) =>
  h.publisher.publish(
    'event.plant.added',
    { accountId: account, occurredAt: new Date().toISOString(), data: property(id) },
    { messageId: randomUUID() },
  );

/** Messages that have had at least one delivery attempt. */
const attempted = async (h: IntHarness) =>
  Number(
    (await h.db.query<{ n: string }>('SELECT count(*) AS n FROM webhook_messages WHERE attempt_count >= 1')).rows[0]!.n,
  );

const statuses = async (h: IntHarness) =>
  (
    await h.db.query<{ status: string; n: string }>(
      'SELECT status, count(*) AS n FROM webhook_messages GROUP BY status',
    )
  ).rows;

describe('dispatcher against PostgreSQL, Redis and RabbitMQ', () => {
  let h: IntHarness | undefined;
  const receivers: TestReceiver[] = [];
  afterEach(async () => {
    await h?.close();
    h = undefined;
    for (const r of receivers.splice(0)) await r.close();
  });

  it('two dispatchers share the work and never deliver one message concurrently', async () => {
    h = await createIntHarness();
    const { receiver, overlaps } = await overlapReceiver(50);
    receivers.push(receiver);
    const ep = await h.endpoint('acct_pair', receiver.url());
    await h.spawn();
    await h.spawn();
    for (let i = 1; i <= 60; i++) await publish(h, 'acct_pair', i);
    await waitUntil(
      async () => (await statuses(h!)).every((s) => s.status === 'delivered') && receiver.received.length >= 60,
      {
        timeoutMs: 20_000,
      },
    );
    expect(overlaps()).toBe(0);
    expect([...perMessage(receiver).values()].every((n) => n === 1)).toBe(true);
    expect(perMessage(receiver).size).toBe(60);
    const first = receiver.received[0]!;
    expect(new Webhook(ep.secret).verify(first.body, first.headers as Record<string, string>)).toHaveProperty('id');
  });

  it('a killed dispatcher’s in-flight message is taken over after its lease, not before', async () => {
    h = await createIntHarness();
    const receiver = await startReceiver(() => ({ hang: true }));
    receivers.push(receiver);
    await h.endpoint('acct_kill', receiver.url());
    const a = await h.spawn();
    await publish(h, 'acct_kill', 1);
    await waitUntil(() => receiver.received.length === 1);
    const killedAt = Date.now();
    await a.stop({ abort: true }); // as a crash: no attempt recorded, row lease and schedule lease left behind
    receiver.respond = () => ({ status: 200 });
    const b = await h.spawn();
    expect(b.reconciled).toBe(1);
    await waitUntil(() => receiver.received.length === 2, { timeoutMs: 10_000 });
    const [first, second] = receiver.received;
    expect(second!.headers['webhook-id']).toBe(first!.headers['webhook-id']);
    // The lease began when A claimed the message, just before its request arrived.
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(h.config.leaseMs - 200);
    expect(second!.at).toBeGreaterThan(killedAt);
    await waitUntil(async () => (await statuses(h!)).some((s) => s.status === 'delivered'));
  });

  it('rebuilds the schedule from PostgreSQL after Redis lost its data', async () => {
    h = await createIntHarness();
    const receiver = await startReceiver(() => ({ status: 503 }));
    receivers.push(receiver);
    await h.endpoint('acct_redis', receiver.url());
    const a = await h.spawn();
    for (let i = 1; i <= 20; i++) await publish(h, 'acct_redis', i);
    await waitUntil(async () => (await attempted(h!)) === 20);
    await a.stop();
    expect(await h.kv.scheduled(h.config.scheduleName)).toBeGreaterThan(0);
    expect(await h.forgetRedis()).toBeGreaterThan(0);
    expect(await h.kv.scheduled(h.config.scheduleName)).toBe(0);

    receiver.respond = () => ({ status: 200 });
    const b = await h.spawn();
    expect(b.reconciled).toBe(20);
    await waitUntil(async () => (await statuses(h!)).every((s) => s.status === 'delivered'), { timeoutMs: 15_000 });
    const delivered = receiver.received.filter((r) => r.at > 0);
    expect(new Set(delivered.map((r) => r.headers['webhook-id'])).size).toBe(20);
  });

  it('rebuilds the schedule while running when Redis loses its data', async () => {
    h = await createIntHarness({ scheduleCheckMs: 200 });
    const receiver = await startReceiver(() => ({ status: 503 }));
    receivers.push(receiver);
    await h.endpoint('acct_redis_live', receiver.url());
    const a = await h.spawn();
    for (let i = 1; i <= 10; i++) await publish(h, 'acct_redis_live', i);
    await waitUntil(async () => (await attempted(h!)) === 10);
    receiver.respond = () => ({ status: 200 });
    expect(await h.forgetRedis()).toBeGreaterThan(0); // as a restart without persistence
    await waitUntil(async () => (await statuses(h!)).every((s) => s.status === 'delivered'), { timeoutMs: 15_000 });
    expect(a.rebuilds).toBe(1);
    expect(a.reconciled).toBe(10);
  });

  it('keeps delivering across a RabbitMQ restart', async () => {
    h = await createIntHarness();
    const receiver = await startReceiver();
    receivers.push(receiver);
    await h.endpoint('acct_rabbit', receiver.url());
    await h.spawn();
    for (let i = 1; i <= 10; i++) await publish(h, 'acct_rabbit', i);
    await waitUntil(() => receiver.received.length === 10);
    try {
      await stopRabbit();
    } finally {
      await startRabbit();
    }
    await waitUntil(() => h!.publisher.isReady(), { timeoutMs: 30_000 });
    for (let i = 11; i <= 20; i++) await publish(h, 'acct_rabbit', i);
    await waitUntil(() => perMessage(receiver).size === 20, { timeoutMs: 30_000 });
    expect([...perMessage(receiver).values()].every((n) => n === 1)).toBe(true);
    const ids = receiver.received.map((r) => JSON.parse(r.body).id as number).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  }, 120_000);
});
