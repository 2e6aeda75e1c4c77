import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { eraseProperty } from '@skiptrace/core';
import { createBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import { createPostgresDatabase } from '@skiptrace/storage';
import { createTestDatabaseUrl, createTestVhost, waitUntil } from '@skiptrace/testing';
import request from 'supertest';
import { createBatchChunkHandler, createBatchRows, startBatchWorker } from '../src/index.ts';
import { describeBatchContract } from './batches.contract.ts';
import { buildApp, fakeEngine, sampleCsv } from './harness.ts';

async function openReal(prefix: string) {
  const testDb = await createTestDatabaseUrl(prefix);
  const vhost = await createTestVhost(prefix);
  const db = createPostgresDatabase({ url: testDb.url });
  await db.migrate();
  const bus = await createBus({ amqpUrl: vhost.url });
  return { db, bus, testDb, vhost };
}

/** A fresh database and vhost for the describe block it is called in, closed after it. */
function realSystem(prefix: string): Awaited<ReturnType<typeof openReal>> {
  const system = {} as Awaited<ReturnType<typeof openReal>>;
  beforeAll(async () => {
    Object.assign(system, await openReal(prefix));
  });
  afterAll(async () => {
    await system.bus?.close();
    await system.db?.close();
    await system.testDb?.drop();
    await system.vhost?.drop();
  });
  return system;
}

describeBatchContract('PostgreSQL + RabbitMQ', async () => {
  const { db, bus, testDb, vhost } = await openReal('batches_contract');
  return {
    db,
    bus,
    async close() {
      await bus.close();
      await db.close();
      await testDb.drop();
      await vhost.drop();
    },
  };
});

describe('batch worker crash (PostgreSQL + RabbitMQ)', () => {
  jest.setTimeout(60_000);
  const system = realSystem('batches_crash');

  it('a worker killed with unacked chunks loses no row and counts none twice', async () => {
    const { db, bus, testDb, vhost } = system;
    const child = spawn(
      process.execPath,
      [fileURLToPath(new URL('./fixtures/batch-worker.process.ts', import.meta.url))],
      {
        env: { ...process.env, DATABASE_URL: testDb.url, AMQP_URL: vhost.url, TRACE_DELAY_MS: '150' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    await once(child.stdout!, 'data');
    const app = buildApp(db, bus, { chunkSize: 10, chunksInFlight: 4 });
    const res = await request(app)
      .post('/api/v1/property/skiptrace/batches')
      .set('Content-Type', 'text/csv')
      .send(sampleCsv(300));
    expect(res.status).toBe(202);
    const id = res.body.id as string;
    const progress = async () =>
      (await request(app).get(`/api/v1/property/skiptrace/batches/${id}`)).body as Record<string, number | string>;
    await waitUntil(async () => Number((await progress()).processed) >= 40, { timeoutMs: 30_000 });
    child.kill('SIGKILL');
    await once(child, 'exit');
    const midway = await progress();
    expect(midway.status).toBe('running');
    expect(Number(midway.processed)).toBeLessThan(270);

    const engine = fakeEngine();
    const worker = await startBatchWorker({
      db,
      bus,
      engine,
      logger: silentLogger(),
      config: { prefetch: 4, sweepIntervalMs: 200, staleChunkMs: 1_000 },
    });
    try {
      await waitUntil(async () => (await progress()).status === 'completed', { timeoutMs: 40_000 });
    } finally {
      await worker.stop();
    }
    expect(await progress()).toMatchObject({ total: 300, rejected: 30, processed: 270, matched: 270, failed: 0 });
    const { rows } = await db.query<{ status: string; n: number }>(
      `SELECT r.status, count(*)::int AS n FROM properties p
       LEFT JOIN batch_results r ON r.batch_id = $1::bigint AND r.row_number = p.row_number
       WHERE p.batch_id = $1::text GROUP BY r.status`,
      [id],
    );
    expect(rows).toEqual([{ status: 'completed', n: 270 }]);
  });
});

describe('chunks of one batch store in parallel (PostgreSQL + RabbitMQ)', () => {
  const system = realSystem('batches_parallel');

  it('a chunk stores while another is storing; an erase waits for the chunks storing, and they for it', async () => {
    const { db, bus } = system;
    // Nobody consumes the chunk jobs: the test drives the handler. Chunks 1–5, 6–10, 11–15, 16–20.
    // A window of 2: each of the first two chunks hands on the next (none checks completion,
    // which would wait for the lock holder below).
    const app = buildApp(db, bus, { chunkSize: 5, chunksInFlight: 2 });
    const res = await request(app)
      .post('/api/v1/property/skiptrace/batches')
      .set('Content-Type', 'text/csv')
      .send(sampleCsv(20))
      .expect(202);
    const id = res.body.id as string;
    const handler = createBatchChunkHandler({ db, bus, engine: fakeEngine(), logger: silentLogger() });
    const chunk = (fromRow: number) =>
      handler({
        topic: 'job.batch.chunk',
        payload: { batchId: id, accountId: 'acct-1', fromRow, toRow: fromRow + 4 },
        messageId: `batch:${id}:${fromRow}`,
        headers: {},
        attempt: 1,
        reply: () => {},
      });
    const progress = async () =>
      (await request(app).get(`/api/v1/property/skiptrace/batches/${id}`)).body as Record<string, number | string>;
    const settled = (p: Promise<unknown>) =>
      Promise.race([p.then(() => true), new Promise((r) => setTimeout(r, 300, false))]);

    await chunk(1); // the batch is running
    // Another chunk in the middle of storing holds the batch row in share mode.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const storing = db.transaction(async (tx) => {
      await tx.query(`SELECT 1 FROM batches WHERE id = $1 FOR SHARE`, [id]);
      locked();
      await held;
    });
    await isLocked;
    await chunk(6); // does not wait for it
    expect(await progress()).toMatchObject({ status: 'running', processed: 9, matched: 9 });
    const { rows } = await db.query<{ id: string }>(
      `SELECT id FROM properties WHERE batch_id = $1 AND row_number = 13`,
      [id],
    );
    const erasing = eraseProperty(db, createBatchRows({ db, bus }), 'acct-1', rows[0]!.id);
    expect(await settled(erasing)).toBe(false); // waits for the chunk storing
    release();
    await storing;
    expect(await erasing).toBe(true);
    for (const from of [11, 16]) await chunk(from);
    // Rows 10 and 20 were rejected at upload, 13 erased while waiting: 17 traced, 1 erased.
    expect(await progress()).toMatchObject({
      status: 'completed',
      total: 20,
      rejected: 2,
      processed: 18,
      matched: 17,
      erased: 1,
    });
  });
});
