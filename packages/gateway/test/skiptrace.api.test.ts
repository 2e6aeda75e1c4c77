import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { DatabaseUnavailableError } from '@skiptrace/storage';
import request from 'supertest';
import { createHarness, fakeEngine, type Harness } from './harness.ts';

const ALICE = 'Bearer acct-alice:read,write';
const BOB = 'Bearer acct-bob:read,write';
const READ_ONLY = 'Bearer acct-alice:read';
const property = { street_address: '1 Match St', city: 'Austin', state: 'TX', zip_code: '78701' };

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  fakeEngine.fail = false;
});

const post = (body: unknown, auth = ALICE) =>
  request(h.app)
    .post('/api/v1/property/skiptrace')
    .set('Authorization', auth)
    .send(body as object);

describe('POST /property/skiptrace', () => {
  it('answers the traced result with its int64 id', async () => {
    const res = await post({ ...property, first_name: 'Jane', last_name: 'Roe' }).expect(200);
    expect(res.body).toMatchObject({ status: 'completed', property: { city: 'Austin' } });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.results[0]).toMatchObject({ first_name: 'Jane', confidence: 0.95 });
    expect(res.body.results[0].phones[0]).toEqual({
      number: '+12125550142',
      type: 'mobile',
      dnc: false,
      litigator: false,
    });
  });

  it('answers no_match with an empty result list and a reason', async () => {
    const res = await post({ ...property, street_address: '9 Nowhere Rd' }).expect(200);
    expect(res.body).toMatchObject({ status: 'no_match', results: [], error: 'no owner found' });
  });

  it('names every bad field in one 400', async () => {
    const res = await post({ street_address: '', city: 'Austin', state: 'Narnia', zip_code: '12' }).expect(400);
    expect(res.body.error).toBe(1000);
    expect(res.body.message).toMatch(/street_address/);
    expect(res.body.message).toMatch(/state/);
    expect(res.body.message).toMatch(/zip_code/);
  });

  it('rejects invalid JSON, wrong content type and oversized bodies with the Error body', async () => {
    const bad = await request(h.app)
      .post('/api/v1/property/skiptrace')
      .set('Authorization', ALICE)
      .set('Content-Type', 'application/json')
      .send('{"street_address":')
      .expect(400);
    expect(bad.body).toEqual({ error: 1001, message: expect.any(String) });
    const text = await request(h.app)
      .post('/api/v1/property/skiptrace')
      .set('Authorization', ALICE)
      .set('Content-Type', 'text/plain')
      .send('hello')
      .expect(415);
    expect(text.body.error).toBe(1003);
    const big = await post({ ...property, city: 'x'.repeat(20_000) }).expect(413);
    expect(big.body.error).toBe(1004);
  });

  it('needs the write scope', async () => {
    const res = await post(property, READ_ONLY).expect(403);
    expect(res.body.error).toBe(1101);
  });

  it('honours Idempotency-Key: same body → same response, different body → 409', async () => {
    const first = await post(property).set('Idempotency-Key', 'k-1').expect(200);
    const again = await post(property).set('Idempotency-Key', 'k-1').expect(200);
    expect(again.body.id).toBe(first.body.id);
    const conflict = await post({ ...property, city: 'Dallas' })
      .set('Idempotency-Key', 'k-1')
      .expect(409);
    expect(conflict.body.error).toBe(1005);
  });

  it('records a failure after the last attempt instead of retrying forever', async () => {
    fakeEngine.fail = true;
    const res = await post(property).expect(200);
    // The engine failed on both attempts: the row is failed, and GET says so.
    const got = await request(h.app).get(`/api/v1/property/skiptrace/${res.body.id}`).set('Authorization', ALICE);
    expect(got.body).toMatchObject({ status: 'failed', error: expect.stringMatching(/failed/) });
    const dead = await h.bus.takeDeadLetters('skiptrace.jobs', 10);
    expect(dead.map((d) => d.reason)).toContain('contact store unreachable');
  });
});

describe('pending, polling and listing', () => {
  it('answers pending when the deadline passes, and the result arrives later', async () => {
    const slow = await createHarness(50);
    let release!: () => void;
    fakeEngine.hold = new Promise((r) => (release = r));
    try {
      const res = await request(slow.app)
        .post('/api/v1/property/skiptrace')
        .set('Authorization', ALICE)
        .send(property)
        .expect(200);
      expect(res.body.status).toBe('pending');
      release();
      let status = 'pending';
      for (let i = 0; i < 100 && status === 'pending'; i++) {
        const got = await request(slow.app)
          .get(`/api/v1/property/skiptrace/${res.body.id}`)
          .set('Authorization', ALICE);
        status = got.body.status;
        if (status === 'pending') await new Promise((r) => setImmediate(r));
      }
      expect(status).toBe('completed');
    } finally {
      release();
      fakeEngine.hold = undefined;
      await slow.close();
    }
  });

  it('lists newest first with a cursor in a header and bounds limit', async () => {
    for (let i = 0; i < 3; i++) await post({ ...property, street_address: `${i} Match St` }, BOB).expect(200);
    const page1 = await request(h.app).get('/api/v1/property/skiptrace?limit=2').set('Authorization', BOB).expect(200);
    expect(page1.body).toHaveLength(2);
    expect(page1.body[0].id).toBeGreaterThan(page1.body[1].id);
    const cursor = page1.headers['x-next-cursor'];
    expect(cursor).toBeTruthy();
    const page2 = await request(h.app)
      .get(`/api/v1/property/skiptrace?limit=2&cursor=${cursor}`)
      .set('Authorization', BOB)
      .expect(200);
    expect(page2.body).toHaveLength(1);
    expect(page2.headers['x-next-cursor']).toBeUndefined();
    for (const bad of ['0', '501', 'abc', '1.5']) {
      const res = await request(h.app).get(`/api/v1/property/skiptrace?limit=${bad}`).set('Authorization', BOB);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(1002);
    }
  });

  it("keeps results private: another account's id is 404", async () => {
    const mine = await post(property).expect(200);
    const res = await request(h.app).get(`/api/v1/property/skiptrace/${mine.body.id}`).set('Authorization', BOB);
    expect(res.status).toBe(404);
    expect(res.body.error).toBe(1200);
  });
});

describe('DELETE /plants/{id}', () => {
  it('erases the property and its results', async () => {
    const mine = await post(property).expect(200);
    await request(h.app).delete(`/api/v1/plants/${mine.body.id}`).set('Authorization', BOB).expect(404);
    await request(h.app).delete(`/api/v1/plants/${mine.body.id}`).set('Authorization', ALICE).expect(204);
    await request(h.app).get(`/api/v1/property/skiptrace/${mine.body.id}`).set('Authorization', ALICE).expect(404);
    const { rows } = await h.db.query('SELECT 1 FROM properties WHERE id = $1', [mine.body.id]);
    expect(rows).toHaveLength(0);
  });

  it('rejects a malformed id with 400', async () => {
    for (const id of ['abc', '-1', '0', '99999999999999999999']) {
      const res = await request(h.app).delete(`/api/v1/plants/${id}`).set('Authorization', ALICE);
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(1002);
    }
  });
});

describe('edges', () => {
  it('answers 401 without a token and 404 for unknown routes with the Error body', async () => {
    const anon = await request(h.app).get('/api/v1/property/skiptrace').expect(401);
    expect(anon.body.error).toBe(1100);
    const unknown = await request(h.app).get('/api/v1/nope').set('Authorization', ALICE).expect(404);
    expect(unknown.body.error).toBe(1200);
  });

  it('limits requests per account with 429, Retry-After and the Error body', async () => {
    const limited = await createHarness(2_000, 3);
    try {
      for (let i = 0; i < 3; i++) {
        await request(limited.app).get('/api/v1/property/skiptrace').set('Authorization', ALICE).expect(200);
      }
      const res = await request(limited.app).get('/api/v1/property/skiptrace').set('Authorization', ALICE);
      expect(res.status).toBe(429);
      expect(res.body.error).toBe(1300);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      // Another account has its own budget.
      await request(limited.app).get('/api/v1/property/skiptrace').set('Authorization', BOB).expect(200);
    } finally {
      await limited.close();
    }
  });

  it('serves the OpenAPI document without a token', async () => {
    const res = await request(h.app).get('/api/v1/openapi.json').expect(200);
    expect(res.body.openapi).toBe('3.1.0');
  });

  it('builds absolute URLs from configuration, never from Host (#22 item 5)', async () => {
    const res = await request(h.app)
      .get('/api/v1/openapi.json')
      .set('Host', 'evil.example')
      .set('X-Forwarded-Host', 'evil.example')
      .expect(200);
    expect(JSON.stringify(res.body)).not.toContain('evil.example');
    expect(res.body.servers).toEqual([expect.objectContaining({ url: 'http://test/api/v1' })]);
  });

  it('answers 503 with Retry-After when the database reports itself unavailable', async () => {
    const broken = await createHarness();
    broken.db.query = () => Promise.reject(new DatabaseUnavailableError('connection refused'));
    const res = await request(broken.app).get('/api/v1/property/skiptrace').set('Authorization', ALICE);
    expect(res.status).toBe(503);
    expect(res.body.error).toBe(1503);
    expect(res.headers['retry-after']).toBeDefined();
    await broken.close();
  });
});
