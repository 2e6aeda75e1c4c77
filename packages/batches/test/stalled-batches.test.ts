/**
 * Batches never stall silently: chunk jobs lost on the broker (here: published while no
 * consumer had declared the chunk queue, which the in-process bus drops, as RabbitMQ drops
 * a purged or stolen message) are republished by the sweep until the batch completes, and
 * a batch whose chunk cannot finish is failed with a reason and a batch.completed event.
 */
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { silentLogger } from '@skiptrace/runtime';
import { createDatabase, type Database } from '@skiptrace/storage';
import request from 'supertest';
import { BATCH_COLUMNS, BATCH_FROM } from '../src/batch.repository.ts';
import { UPLOAD_INTERRUPTED } from '../src/dispatch.ts';
import { BATCH_INPUT_COLUMNS } from '@skiptrace/core';
import { startBatchWorker, sweepBatches } from '../src/index.ts';
import { buildApp, fakeEngine, sampleCsv } from './harness.ts';

const V1 = '/api/v1/property/skiptrace/batches';
let db: Database;
let bus: MessageBus;
let events: { data: { id: string; status: string; error?: string } }[];

beforeEach(async () => {
  db = createDatabase({ logger: silentLogger() });
  await db.migrate();
  bus = await createBus({ logger: silentLogger() });
  events = [];
  // Nothing else consumes the events here: the webhook queue is the test's.
  await bus.consume('webhooks.events', { prefetch: 10 }, async (d) => {
    if (d.topic === 'event.batch.completed') events.push(d.payload);
  });
});
afterEach(async () => {
  await bus.close();
  await db.close();
});

async function uploadWithNobodyConsuming(rows: number): Promise<string> {
  const app = buildApp(db, bus, { chunkSize: 5, chunksInFlight: 2 });
  const res = await request(app)
    .post(V1)
    .set('Content-Type', 'text/csv')
    .set('X-Test-Account', 'acct-stall')
    .send(sampleCsv(rows))
    .expect(202);
  return res.body.id as string;
}
const batchStatus = async (id: string) =>
  (
    await db.query<{ status: string; error: string | null; processed: number; failed: number; accepted: number }>(
      `SELECT status, error, processed, failed, total - rejected AS accepted
         FROM (SELECT ${BATCH_COLUMNS} FROM ${BATCH_FROM} WHERE b.id = $1) b`,
      [id],
    )
  ).rows[0]!;
/**
 * The event is published before the batch's status changes, but the in-process bus delivers
 * it on a later turn of the event loop, so the status can be read first: wait up to 1 s.
 */
async function eventDelivered(): Promise<void> {
  for (let i = 0; i < 100 && events.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
}
const sweepOptions = { staleChunkMs: 1, uploadLeaseMs: 3_600_000, maxChunkDispatches: 3 };

describe('stalled batches', () => {
  it('chunk jobs lost on the broker: the sweep republishes them and the batch completes', async () => {
    const id = await uploadWithNobodyConsuming(12);
    expect((await batchStatus(id)).status).toBe('queued');
    const worker = await startBatchWorker({
      db,
      bus,
      engine: fakeEngine(),
      logger: silentLogger(),
      config: { sweepIntervalMs: 0, staleChunkMs: 1, maxChunkDispatches: 3 },
    });
    try {
      for (let i = 0; i < 20 && (await batchStatus(id)).status !== 'completed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 5));
        await worker.sweep();
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const row = await batchStatus(id);
      expect(row).toMatchObject({ status: 'completed', processed: row.accepted, error: null });
      expect(row.accepted).toBeGreaterThan(5);
      await eventDelivered();
      expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ id, status: 'completed' })]);
    } finally {
      await worker.stop();
    }
  });

  it('a chunk that never finishes: after maxChunkDispatches the batch fails with a reason and an event', async () => {
    const id = await uploadWithNobodyConsuming(12);
    const reports = [];
    for (let i = 0; i < 4; i++) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      reports.push(await sweepBatches(db, bus, sweepOptions));
    }
    expect(reports.map((r) => [r.republished, r.failed])).toEqual([
      [2, 0],
      [2, 0],
      [0, 1],
      [0, 0],
    ]);
    const row = await batchStatus(id);
    expect(row).toMatchObject({ status: 'failed', processed: row.accepted, failed: row.accepted });
    expect(row.error).toMatch(/dispatched 3 times without finishing/);
    // Every row has its outcome: a failed batch_results row with the reason.
    const outcomes = await db.query<{ status: string; error: string; n: number }>(
      `SELECT r.status, r.error, count(*)::int AS n FROM properties p
       LEFT JOIN batch_results r ON r.batch_id = $1::bigint AND r.row_number = p.row_number
       WHERE p.batch_id = $1::text GROUP BY 1, 2`,
      [id],
    );
    expect(outcomes.rows).toEqual([{ status: 'failed', error: row.error, n: row.accepted }]);
    await eventDelivered();
    expect(events.map((e) => e.data)).toEqual([expect.objectContaining({ id, status: 'failed', error: row.error })]);
  });
});

describe('uploads are judged by their lease, never by their age (#22 item 9)', () => {
  /** A receiving batch with `rows` stored rows and the given heartbeat and creation ages. */
  async function receiving(rows: number, heartbeatAge: string, createdAge: string): Promise<string> {
    const { rows: created } = await db.query<{ id: string }>(
      `INSERT INTO batches (account_id, format, upload_owner, upload_heartbeat_at, created_at)
       VALUES ('acct-stall', 'csv', 'gone-host:4242:deadbeef', now() - $1::interval, now() - $2::interval) RETURNING id`,
      [heartbeatAge, createdAge],
    );
    const id = created[0]!.id;
    const stored = Array.from({ length: rows }, (_, i) => [
      'acct-stall',
      `${i + 1} Main St`,
      'Austin',
      'TX',
      '78701',
      'Ann',
      'Lee',
      null,
      null,
      id,
      i + 1,
      [`${i + 1} Main St`, 'Austin', 'TX', '78701', 'Ann', 'Lee'],
    ]);
    await db.copyRows('properties', BATCH_INPUT_COLUMNS, stored);
    return id;
  }

  it('an upload whose owner stopped heartbeating is failed with the reason and announced', async () => {
    const id = await receiving(3, '1 minute', '1 minute');
    const report = await sweepBatches(db, bus, { ...sweepOptions, uploadLeaseMs: 20_000 });
    expect(report.interrupted).toBe(1);
    expect(await batchStatus(id)).toMatchObject({
      status: 'failed',
      error: UPLOAD_INTERRUPTED,
      processed: 3,
      failed: 3,
    });
    await eventDelivered();
    expect(events).toEqual([
      expect.objectContaining({ data: expect.objectContaining({ id, status: 'failed', error: UPLOAD_INTERRUPTED }) }),
    ]);
  });

  it('an upload two hours old whose owner still heartbeats is left alone', async () => {
    const id = await receiving(3, '0 seconds', '2 hours');
    const report = await sweepBatches(db, bus, { ...sweepOptions, uploadLeaseMs: 20_000 });
    expect(report.interrupted).toBe(0);
    expect((await batchStatus(id)).status).toBe('receiving');
  });
});
