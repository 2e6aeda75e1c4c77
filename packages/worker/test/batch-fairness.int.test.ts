/**
 * Fairness against real PostgreSQL and RabbitMQ: while one worker process traces a
 * 20,000-row batch, synchronous skip traces (the gateway's bus.request flow, answered by
 * the real worker service in the same process, as src/main.ts wires it)
 * are still answered promptly, and a small batch of another account submitted after the
 * big one finishes first.
 */
// @run-alone: times synchronous answers during a batch: other files' load would be measured too.
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { PropertyResponse } from '@skiptrace/contracts';
import { createTraceWorker, insertProperty } from '@skiptrace/core';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import { createPostgresDatabase, type Database } from '@skiptrace/storage';
import {
  createTestDatabaseUrl,
  createTestVhost,
  waitUntil,
  type TestDatabase,
  type TestVhost,
} from '@skiptrace/testing';
import request from 'supertest';
import { startBatchWorker, type BatchWorker } from '@skiptrace/batches';
import { buildApp, fakeEngine } from '@skiptrace/batches/test-harness';

const V1 = '/api/v1/property/skiptrace/batches';
const BIG = 20_000;
/** The bound each synchronous call must meet while the batch runs, ms. */
const SYNC_BOUND_MS = 2_000;

/** Distinct streets per test, so that no batch is served from an earlier one's stored results. */
function csvOf(n: number, street: string): string {
  let out = 'street_address,city,state,zip_code,first_name,last_name\n';
  for (let i = 1; i <= n; i++) out += `${i} ${street},Austin,TX,${78700 + (i % 90)},Ann,Lee${i}\n`;
  return out;
}

describe('fairness under a 20,000-row batch (PostgreSQL + RabbitMQ)', () => {
  jest.setTimeout(120_000);
  let db: Database;
  let bus: MessageBus;
  let testDb: TestDatabase;
  let vhost: TestVhost;
  let batchWorker: BatchWorker;
  let syncWorker: ReturnType<typeof createTraceWorker>;
  let app: ReturnType<typeof buildApp>;
  // 40 ms per call stands in for contact matching; a chunk of 500 rows takes 1.5 s, which
  // keeps the batch (40 chunks, 4 at a time) running for 15 s at least: at 400 and 800 ms
  // (4 and 8 s) fresh-clone CI runs at load 5–11 saw the big batch finish before the small
  // one, uploaded in the same process meanwhile, had been stored and traced.
  const engine = fakeEngine({ delayMs: 40 });
  const chunkEngine = fakeEngine({ delayMs: 1_500 });

  beforeAll(async () => {
    testDb = await createTestDatabaseUrl('batches_fairness');
    vhost = await createTestVhost('batches-fairness');
    db = createPostgresDatabase({ url: testDb.url });
    await db.migrate();
    bus = await createBus({ amqpUrl: vhost.url });
    const logger = silentLogger();
    syncWorker = createTraceWorker({ db, bus, engine, logger, config: { prefetch: 10, maxAttempts: 2 } });
    await syncWorker.start();
    batchWorker = await startBatchWorker({ db, bus, engine: chunkEngine, logger, config: { sweepIntervalMs: 0 } });
    app = buildApp(db, bus, { maxRows: BIG });
  });
  afterAll(async () => {
    await batchWorker?.stop();
    await syncWorker?.stop();
    await bus?.close();
    await db?.close();
    await testDb?.drop();
    await vhost?.drop();
  });

  const upload = (csv: string, account: string) =>
    request(app).post(V1).set('Content-Type', 'text/csv').set('X-Test-Account', account).send(csv);
  const progress = async (id: string, account: string) =>
    (await request(app).get(`${V1}/${id}`).set('X-Test-Account', account)).body as {
      status: string;
      processed: number;
      completed_at?: string;
    };

  /** The gateway's synchronous flow: store the property, then request the trace and wait for the reply. */
  async function syncTrace(accountId: string, street: string) {
    const property = { street_address: street, city: 'Dallas', state: 'TX', zip_code: '75201' };
    const started = performance.now();
    const row = await insertProperty(db, accountId, property);
    const reply = (await bus.request(
      'job.skiptrace',
      { propertyId: Number(row.id), accountId, property, requestedAt: new Date().toISOString() },
      { messageId: `trace-${row.id}`, timeoutMs: 10_000 },
    )) as PropertyResponse;
    return { status: reply.status, ms: performance.now() - started };
  }

  it('answers synchronous skip traces within 2 s each while the batch runs', async () => {
    const res = await upload(csvOf(BIG, 'Sync Rd'), 'acct-big');
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    await waitUntil(async () => (await progress(id, 'acct-big')).processed > 0, {
      timeoutMs: 30_000,
      message: 'the batch started',
    });
    const calls: { status: string; ms: number }[] = [];
    for (let i = 0; i < 10; i++) {
      calls.push(await syncTrace('acct-sync', i % 2 === 0 ? `${i} Match St` : `${i} NOMATCH Ln`));
    }
    // Read after the last reply: the calls really overlapped the batch.
    const during = await progress(id, 'acct-big');
    expect(during.status).toBe('running');
    expect(during.processed).toBeLessThan(BIG);
    for (const call of calls) {
      expect(['completed', 'no_match']).toContain(call.status);
      expect(call.ms).toBeLessThan(SYNC_BOUND_MS);
    }
    await waitUntil(async () => (await progress(id, 'acct-big')).status === 'completed', {
      timeoutMs: 90_000,
      message: 'the big batch completed',
    });
    expect(await progress(id, 'acct-big')).toMatchObject({ processed: BIG });
  });

  it("finishes another account's small batch, submitted later, before the big one", async () => {
    const big = await upload(csvOf(BIG, 'Window Rd'), 'acct-big');
    expect(big.status).toBe(202);
    await waitUntil(async () => (await progress(big.body.id, 'acct-big')).processed > 0, {
      timeoutMs: 30_000,
      message: 'the big batch started',
    });
    const small = await upload(csvOf(50, 'Small Rd'), 'acct-small');
    expect(small.status).toBe(202);
    await waitUntil(async () => (await progress(small.body.id, 'acct-small')).status === 'completed', {
      timeoutMs: 60_000,
      message: 'the small batch completed',
    });
    const bigThen = await progress(big.body.id, 'acct-big');
    expect(bigThen.status).toBe('running');
    expect(bigThen.processed).toBeLessThan(BIG);
    await waitUntil(async () => (await progress(big.body.id, 'acct-big')).status === 'completed', {
      timeoutMs: 90_000,
      message: 'the big batch completed',
    });
    const bigDone = await progress(big.body.id, 'acct-big');
    const smallDone = await progress(small.body.id, 'acct-small');
    expect(Date.parse(smallDone.completed_at!)).toBeLessThan(Date.parse(bigDone.completed_at!));
  });
});
