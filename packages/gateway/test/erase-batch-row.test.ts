import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBatchesRouter } from '@skiptrace/batches';
import { waitUntil } from '@skiptrace/testing';
import request from 'supertest';
import { createHarness, testAuth, type Harness } from './harness.ts';

/**
 * DELETE /plants/{id} of a batch row still waiting for its trace, through the gateway as the
 * standalone composes it (no batch worker: every row stays pending). The erased rows are
 * counted (processed, erased), and erasing the last of them completes the batch.
 */
describe('DELETE /plants/{id} of pending batch rows', () => {
  let h: Harness;
  const events: { data: Record<string, unknown> }[] = [];

  beforeAll(async () => {
    h = await createHarness(1_000, 0, ({ db, bus, logger }) => ({
      '/': createBatchesRouter({ db, bus, auth: testAuth, logger }),
    }));
    await h.bus.consume('webhooks.events', { prefetch: 10 }, async (d) => {
      if (d.topic === 'event.batch.completed') events.push(d.payload as { data: Record<string, unknown> });
    });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  const api = (method: 'get' | 'post' | 'delete', path: string) =>
    request(h.app)[method](`/api/v1${path}`).set('Authorization', 'Bearer carol:read,write');

  it('counts each erased row, and the erase of the last one completes the batch with its event', async () => {
    const csv =
      'street_address,city,state,zip_code\n1 Main St,Austin,TX,78701\n,Austin,TX,1\n2 Main St,Austin,TX,78701\n';
    const submitted = await api('post', '/property/skiptrace/batches').set('Content-Type', 'text/csv').send(csv);
    expect(submitted.body).toMatchObject({ accepted: 2, rejected: 1 });
    const id = submitted.body.id as string;
    const { rows } = await h.db.query<{ id: string }>(
      `SELECT id FROM properties WHERE batch_id = $1 ORDER BY row_number`,
      [id],
    );
    expect((await api('delete', `/plants/${rows[0]!.id}`)).status).toBe(204);
    expect((await api('get', `/property/skiptrace/batches/${id}`)).body).toMatchObject({
      status: 'queued',
      total: 3,
      processed: 1,
      erased: 1,
    });
    expect((await api('delete', `/plants/${rows[1]!.id}`)).status).toBe(204);
    expect((await api('get', `/property/skiptrace/batches/${id}`)).body).toMatchObject({
      status: 'completed',
      total: 3,
      processed: 2,
      matched: 0,
      erased: 2,
      rejected: 1,
    });
    await waitUntil(() => events.length === 1, { message: 'batch.completed' });
    expect(events[0]!.data).toMatchObject({ id, status: 'completed', processed: 2, erased: 2 });
    expect((await api('delete', `/plants/${rows[1]!.id}`)).status).toBe(404);
  });
});
