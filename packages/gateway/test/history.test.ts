import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createBatchesRouter, createBatchRows, startBatchWorker, type BatchWorker } from '@skiptrace/batches';
import { searchProperties } from '@skiptrace/core';
import { silentLogger } from '@skiptrace/runtime';
import { waitUntil } from '@skiptrace/testing';
import request from 'supertest';
import { createHarness, fakeEngine, testAuth, type Harness } from './harness.ts';

/**
 * History search (GET /property/skiptrace with filters) through the gateway as the standalone
 * composes it: synchronous results and the rows of a traced batch, each filter on its own and
 * combined, the cursor over a filtered list, the scan budget, and refused filters.
 */
describe('GET /property/skiptrace filters (History)', () => {
  let h: Harness;
  let worker: BatchWorker;
  const AUTH = 'Bearer dana:read,write';
  let batchId: string;
  const ids: Record<string, number> = {};

  const api = (path: string, auth = AUTH) => request(h.app).get(`/api/v1${path}`).set('Authorization', auth);
  const search = async (query: string) => {
    const res = await api(`/property/skiptrace?${query}`);
    expect(res.status).toBe(200);
    return res.body as { id: number; property: { street_address: string } }[];
  };
  const streets = async (query: string) => (await search(query)).map((r) => r.property.street_address);

  beforeAll(async () => {
    h = await createHarness(2_000, 0, ({ db, bus, logger }) => ({
      '/': createBatchesRouter({ db, bus, auth: testAuth, logger }),
    }));
    worker = await startBatchWorker({
      db: h.db,
      bus: h.bus,
      engine: fakeEngine,
      logger: silentLogger(),
      config: { sweepIntervalMs: 0 },
    });
    const trace = (body: object) =>
      request(h.app).post('/api/v1/property/skiptrace').set('Authorization', AUTH).send(body).expect(200);
    ids.elm = (
      await trace({
        street_address: '12 North Elm Street',
        city: 'Dallas',
        state: 'TX',
        zip_code: '752011234',
        first_name: 'Bob',
        last_name: 'Stone',
      })
    ).body.id;
    ids.match = (await trace({ street_address: '1 Match St', city: 'Austin', state: 'TX', zip_code: '78701' })).body.id;
    // Another account's row never shows.
    await request(h.app)
      .post('/api/v1/property/skiptrace')
      .set('Authorization', 'Bearer erin:read,write')
      .send({ street_address: '1 Match St', city: 'Austin', state: 'TX', zip_code: '78701' })
      .expect(200);
    const csv =
      'Address,City,State,Zip,First,Last\n5 Match Ave,Houston,TX,77001,Ann,Lee\n7 Oak Rd,Houston,TX,77002,Cy,Young\n';
    const up = await request(h.app)
      .post('/api/v1/property/skiptrace/batches?name=houston.csv')
      .set('Authorization', AUTH)
      .set('Content-Type', 'text/csv')
      .send(csv);
    expect(up.status).toBe(202);
    batchId = up.body.id;
    await waitUntil(
      async () =>
        (await api(`/property/skiptrace/batches/${batchId}`)).body.status === 'completed' ? true : undefined,
      { message: 'batch completed' },
    );
    // The Dallas row was made in January.
    await h.db.query(`UPDATE properties SET created_at = '2026-01-15T12:00:00Z' WHERE id = $1`, [ids.elm]);
  }, 60_000);
  afterAll(async () => {
    await worker?.stop();
    await h?.close();
  });

  it('lists everything without a filter, each entry with its batch and its address in USPS form', async () => {
    const all = await api('/property/skiptrace');
    expect(all.body.map((r: { property: { street_address: string } }) => r.property.street_address)).toEqual([
      '7 Oak Rd',
      '5 Match Ave',
      '1 Match St',
      '12 North Elm Street',
    ]);
    expect(all.body[0]).toMatchObject({ batch_id: batchId, status: 'no_match' });
    expect(all.body[3].batch_id).toBeUndefined();
    expect(all.body[3].standardized_address).toEqual({
      street_address: '12 N ELM ST',
      city: 'DALLAS',
      state: 'TX',
      zip_code: '75201',
    });
  });

  it('filters by address in USPS form, by name given or found, by phone, batch, status and dates', async () => {
    expect(await streets('address=12%20north%20elm%20st')).toEqual(['12 North Elm Street']);
    expect(await streets('address=N%20Elm%20Street%20Dallas')).toEqual(['12 North Elm Street']);
    expect(await streets('address=elm%2075201')).toEqual(['12 North Elm Street']);
    expect(await streets('address=elm%2075201-1234')).toEqual(['12 North Elm Street']);
    expect(await streets('address=elm%20752011234')).toEqual(['12 North Elm Street']);
    expect(await streets('address=houston')).toEqual(['7 Oak Rd', '5 Match Ave']);
    expect(await streets('address=770')).toEqual(['7 Oak Rd', '5 Match Ave']);
    expect(await streets('address=elm%20dallas%20ca')).toEqual([]);
    // The owner's name as given, or a person found (the fake engine finds Jane Roe at "… Match …").
    expect(await streets('name=bob%20stone')).toEqual(['12 North Elm Street']);
    expect(await streets('name=ann')).toEqual(['5 Match Ave']);
    expect(await streets('name=jane%20roe')).toEqual(['5 Match Ave', '1 Match St']);
    expect(await streets('phone=(212)%20555-0142')).toEqual(['5 Match Ave', '1 Match St']);
    expect(await streets('phone=%2B12125550199')).toEqual([]);
    expect(await streets(`batch=${batchId}`)).toEqual(['7 Oak Rd', '5 Match Ave']);
    expect(await streets('status=no_match')).toEqual(['7 Oak Rd', '12 North Elm Street']);
    expect(await streets(`status=completed&batch=${batchId}`)).toEqual(['5 Match Ave']);
    expect(await streets('from=2026-01-01&to=2026-01-31')).toEqual(['12 North Elm Street']);
    expect(await streets('to=2026-01-15')).toEqual(['12 North Elm Street']);
    expect(await streets('from=2026-01-16T00:00:00Z')).toEqual(['7 Oak Rd', '5 Match Ave', '1 Match St']);
    expect(await streets('status=pending')).toEqual([]);
  });

  it('pages a filtered list with X-Next-Cursor, the filters kept in the Link', async () => {
    const page1 = await api('/property/skiptrace?status=no_match&limit=1');
    expect(page1.body.map((r: { property: { street_address: string } }) => r.property.street_address)).toEqual([
      '7 Oak Rd',
    ]);
    const cursor = page1.headers['x-next-cursor'];
    expect(cursor).toBeTruthy();
    expect(page1.headers.link).toContain('status=no_match');
    const page2 = await api(`/property/skiptrace?status=no_match&limit=1&cursor=${cursor}`);
    expect(page2.body.map((r: { property: { street_address: string } }) => r.property.street_address)).toEqual([
      '12 North Elm Street',
    ]);
    expect(page2.headers['x-next-cursor']).toBeUndefined();
    // Within a batch the cursor goes on from its row.
    const b1 = await api(`/property/skiptrace?batch=${batchId}&limit=1`);
    const b2 = await api(`/property/skiptrace?batch=${batchId}&limit=1&cursor=${b1.headers['x-next-cursor']}`);
    expect([...b1.body, ...b2.body].map((r) => r.property.street_address)).toEqual(['7 Oak Rd', '5 Match Ave']);
  });

  it('examines at most the scan budget a page: a short page carries the cursor to search on', async () => {
    // Newest first: the two batch rows, then "1 Match St" (budget spent), then the Dallas row.
    const batchRows = createBatchRows({ db: h.db, bus: h.bus });
    const first = await searchProperties(h.db, batchRows, 'dana', { name: 'bob' }, 10, undefined, 3);
    expect(first.rows).toEqual([]);
    expect(first.next).toBe(String(ids.match));
    const second = await searchProperties(h.db, batchRows, 'dana', { name: 'bob' }, 10, first.next, 3);
    expect(second.rows.map((r) => r.street_address)).toEqual(['12 North Elm Street']);
    expect(second.next).toBeUndefined();
  });

  it('refuses a malformed filter with 400 invalid_parameter naming it', async () => {
    const cases: [string, string][] = [
      ['status=done', 'status: must be one of pending, completed, no_match, failed'],
      ['phone=call%20me', 'phone: must be a US phone number'],
      ['from=yesterday', 'from: must be a date'],
      ['from=2026-02-01&to=2026-01-01', 'from: from must be before to'],
      ['batch=abc', 'batch: must be a batch id'],
      ['address=', 'address: must not be empty'],
      [`name=${'x'.repeat(101)}`, 'name: must be at most 100 characters'],
      ['status=completed&status=failed', 'status'],
    ];
    for (const [query, message] of cases) {
      const res = await api(`/property/skiptrace?${query}`);
      expect({ query, status: res.status, body: res.body }).toEqual({
        query,
        status: 400,
        body: { error: 1002, message: expect.stringContaining(message) },
      });
    }
  });
});
