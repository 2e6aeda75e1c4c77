import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAuditLog, createAuditRouter } from '@skiptrace/audit';
import request from 'supertest';
import { createHarness, testAuth, type Harness } from './harness.ts';

/**
 * GET /api/v1/audit through the gateway: an erasure is recorded without the erased data,
 * a refused call is recorded as access.denied, the filters and the cursor work, and bad
 * filters are 400 with the documented error body.
 */
describe('the audit log API', () => {
  let h: Harness;
  const api = (method: 'get' | 'post' | 'delete', path: string, token = 'Bearer acme:read,write,admin:owner') =>
    request(h.app)[method](`/api/v1${path}`).set('Authorization', token);

  beforeAll(async () => {
    h = await createHarness(2_000, 0, ({ db }) => ({
      '/audit': createAuditRouter({ audit: createAuditLog(db), requireScope: testAuth.requireScope }),
    }));
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it('keeps the entry of an erased result and nothing of its data', async () => {
    const traced = await api('post', '/property/skiptrace').send({
      street_address: '1 Match St',
      city: 'Austin',
      state: 'TX',
      zip_code: '78701',
    });
    expect(traced.status).toBe(200);
    expect(JSON.stringify(traced.body)).toContain('2125550142');
    expect((await api('delete', `/plants/${traced.body.id}`)).status).toBe(204);
    const res = await api('get', '/audit?action=result.erased');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        action: 'result.erased',
        actor: { type: 'user', id: 'usr_test', email: null },
        client_id: 'test',
        target: { type: 'property', id: String(traced.body.id) },
        source_address: expect.any(String),
      }),
    ]);
    const everything = JSON.stringify((await api('get', '/audit')).body);
    for (const erased of ['Match St', '2125550142', 'Jane', 'Roe', '78701']) expect(everything).not.toContain(erased);
  });

  it('records a refused call, and the viewer is refused the log itself', async () => {
    const refused = await api('get', '/audit', 'Bearer acme:read,write,admin:viewer');
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({
      error: 1102,
      message: 'this operation needs the admin role or above; you are viewer',
    });
    const [entry] = (await api('get', '/audit?action=access.denied')).body.data;
    expect(entry).toMatchObject({
      target: { type: 'route', id: 'GET /api/v1/audit' },
      details: { error: 'insufficient_role', role: 'viewer' },
    });
  });

  it('pages with the cursor and filters by actor and time', async () => {
    const first = await api('get', '/audit?limit=1');
    expect(first.body.data).toHaveLength(1);
    const next = first.headers['x-next-cursor'];
    expect(first.headers.link).toContain('rel="next"');
    const second = await api('get', `/audit?limit=1&cursor=${next}`);
    expect(Number(second.body.data[0].id)).toBeLessThan(Number(first.body.data[0].id));
    expect((await api('get', '/audit?actor=usr_test')).body.data.length).toBe(2);
    expect((await api('get', '/audit?actor=someone-else')).body.data).toEqual([]);
    expect((await api('get', '/audit?from=2999-01-01T00:00:00Z')).body.data).toEqual([]);
    expect((await api('get', '/audit?to=2000-01-01T00:00:00Z')).body.data).toEqual([]);
  });

  it.each([
    ['from=yesterday', 'from must be an ISO 8601 date-time'],
    ['action=user.deleted', 'action'],
    ['limit=0', 'limit must be at least 1'],
    ['cursor=bm9wZQ', 'cursor is not valid'],
  ])('answers ?%s with 400 invalid_parameter', async (query, message) => {
    const res = await api('get', `/audit?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(1002);
    expect(res.body.message).toContain(message);
  });
});
