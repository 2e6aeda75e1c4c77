// @run-alone: stops and starts the broker.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBatchRows } from '@skiptrace/batches';
import type { PropertyResponse } from '@skiptrace/contracts';
import { importContacts } from '@skiptrace/contacts';
import {
  createContactTraceEngine,
  createRecoverySweep,
  createTraceWorker,
  getProperty,
  insertProperty,
} from '@skiptrace/core';
import { demoQueryFor, generateContacts } from '@skiptrace/demo';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';
import {
  createTestDatabaseUrl,
  createTestVhost,
  startRabbit,
  stopRabbit,
  waitUntil,
  type TestDatabase,
  type TestVhost,
} from '@skiptrace/testing';

// The worker against real PostgreSQL and RabbitMQ: redelivery, poison messages,
// competing workers, the outbox recovery sweep and a broker restart.
const logger = silentLogger();
const seed = 7;
const contacts = [...generateContacts({ rows: 200, seed })];
let testDb: TestDatabase;
let vhost: TestVhost;
let db: Database;
let bus: MessageBus;
const workers: ReturnType<typeof createTraceWorker>[] = [];

function startWorker(b: MessageBus) {
  const w = createTraceWorker({
    db,
    bus: b,
    engine: createContactTraceEngine(db),
    logger,
    config: { prefetch: 16, maxAttempts: 3 },
  });
  workers.push(w);
  return w.start().then(() => w);
}

beforeAll(async () => {
  testDb = await createTestDatabaseUrl('worker_int');
  vhost = await createTestVhost('worker');
  db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  async function* ndjson() {
    for (const row of contacts) yield `${JSON.stringify(row)}\n`;
  }
  await importContacts(db, ndjson(), { format: 'ndjson', source: 'test' });
  bus = await createBus({ amqpUrl: vhost.url });
  await startWorker(bus);
}, 60_000);

afterAll(async () => {
  for (const w of workers) await w.stop();
  await bus?.close();
  await db?.close();
  await vhost?.drop();
  await testDb?.drop();
});

async function submit(i: number) {
  const property = demoQueryFor(contacts[i]!);
  const row = await insertProperty(db, 'acct-1', property);
  const job = { propertyId: Number(row.id), accountId: 'acct-1', property, requestedAt: new Date().toISOString() };
  return { row, job };
}

/** A stored row of this test's account (all single traces). */
const stored = (id: string) => getProperty(db, createBatchRows({ db, bus }), 'acct-1', id);
const statusOf = async (id: string) => (await stored(id))?.status;

describe('worker over RabbitMQ and PostgreSQL', () => {
  it('replies with the traced result and stores it', async () => {
    const { row, job } = await submit(0);
    const reply = (await bus.request('job.skiptrace', job, { timeoutMs: 10_000 })) as PropertyResponse;
    expect(reply).toMatchObject({ id: Number(row.id), status: 'completed' });
    expect(reply.results[0]!.phones.length).toBeGreaterThan(0);
    expect(await statusOf(row.id)).toBe('completed');
  });

  it('treats a redelivered job as harmless: the stored result does not change', async () => {
    const { row, job } = await submit(1);
    const first = (await bus.request('job.skiptrace', job, { timeoutMs: 10_000 })) as PropertyResponse;
    const again = (await bus.request('job.skiptrace', job, { timeoutMs: 10_000 })) as PropertyResponse;
    expect(again.completed_at).toBe(first.completed_at);
    expect(again.results).toEqual(first.results);
    expect(await statusOf(row.id)).toBe('completed');
  });

  it('dead-letters a poison message with its reason instead of looping', async () => {
    // @ts-expect-error a payload that does not fit the catalogue: a compile error, and dead-lettered at run time
    await bus.publish('job.skiptrace', { propertyId: 'not-a-number' });
    const dead = await waitUntil(
      async () => {
        const letters = await bus.takeDeadLetters('skiptrace.jobs', 10);
        return letters.length ? letters : undefined;
      },
      { timeoutMs: 20_000, message: 'poison message in skiptrace.jobs.dlq' },
    );
    expect(dead[0]!.reason).toMatch(/propertyId/);
  });

  it('handles packed jobs one by one: each caller gets its own reply, a poison job is dead-lettered alone', async () => {
    const jobs = await Promise.all(Array.from({ length: 12 }, (_, i) => submit(80 + i)));
    // As the gateway sends them: requests of one turn share one broker message (job.skiptrace packs).
    const replies = Promise.all(
      jobs.map(({ job }) =>
        bus.request('job.skiptrace', job, { timeoutMs: 10_000, messageId: `trace-${job.propertyId}` }),
      ),
    );
    // @ts-expect-error a payload that does not fit the catalogue
    const poison = bus.publish('job.skiptrace', { propertyId: 'not-a-number' }, { messageId: 'poison' });
    const healthy = bus.publish('job.skiptrace', jobs[0]!.job, { messageId: 'again' });
    const answered = await replies;
    await Promise.all([poison, healthy]);
    expect(answered.map((r) => r.id)).toEqual(jobs.map(({ row }) => Number(row.id)));
    expect(answered.every((r) => r.status === 'completed' || r.status === 'no_match')).toBe(true);
    const dead = await waitUntil(
      async () => {
        const letters = await bus.takeDeadLetters('skiptrace.jobs', 10);
        return letters.length ? letters : undefined;
      },
      { timeoutMs: 20_000, message: 'the poison job in skiptrace.jobs.dlq' },
    );
    expect(dead.map((d) => d.messageId)).toEqual(['poison']);
    // The redelivered healthy job found its result stored and did not change it.
    const row = await stored(jobs[0]!.row.id);
    expect(row?.completed_at?.toISOString()).toBe(answered[0]!.completed_at);
  });

  it('lets two workers share the queue and finish every job', async () => {
    const second = await createBus({ amqpUrl: vhost.url });
    await startWorker(second);
    const jobs = await Promise.all(Array.from({ length: 40 }, (_, i) => submit(10 + i)));
    await Promise.all(
      jobs.map(({ job }) => bus.publish('job.skiptrace', job, { messageId: `trace-${job.propertyId}` })),
    );
    await waitUntil(
      async () => {
        const { rows } = await db.query<{ n: string }>(
          `SELECT count(*) AS n FROM properties WHERE id = ANY($1::bigint[]) AND status <> 'pending'`,
          [jobs.map(({ row }) => row.id)],
        );
        return Number(rows[0]!.n) === jobs.length;
      },
      { timeoutMs: 20_000, message: 'all 40 jobs traced' },
    );
    await workers.pop()!.stop();
    await second.close();
  });

  it('republishes a property stored but never published (outbox recovery sweep)', async () => {
    const { row } = await submit(60);
    await db.query(`UPDATE properties SET created_at = now() - interval '5 minutes' WHERE id = $1`, [row.id]);
    const sweep = createRecoverySweep(db, bus, logger, { intervalMs: 60_000, staleAfterMs: 60_000, batchSize: 10 });
    expect(await sweep.sweepOnce()).toBe(1);
    await waitUntil(async () => (await statusOf(row.id)) === 'completed', { message: 'swept row traced' });
    expect(await sweep.sweepOnce()).toBe(0);
  });

  it('resumes consuming after a broker restart', async () => {
    try {
      await stopRabbit();
    } finally {
      await startRabbit();
    }
    const { row, job } = await submit(70);
    await waitUntil(() => bus.isReady(), { timeoutMs: 30_000, message: 'bus reconnected' });
    await bus.publish('job.skiptrace', job, { messageId: `trace-${job.propertyId}` });
    await waitUntil(async () => (await statusOf(row.id)) === 'completed', {
      timeoutMs: 30_000,
      message: 'job traced after restart',
    });
  }, 90_000);
});
