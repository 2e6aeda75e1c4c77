import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { ERROR_CODES, WebhookEndpoint, WebhookEndpointWithSecret } from '@skiptrace/contracts';
import { createHarness, type Harness } from './harness.ts';

const A = { 'x-test-account': 'acct_a' };
const B = { 'x-test-account': 'acct_b' };

describe('webhooks API', () => {
  let h: Harness;
  let strict: Harness['app'];
  beforeAll(async () => {
    h = await createHarness();
    strict = h.appWith({ allowPrivate: false }, async (host) => {
      if (host === 'internal.example.com') return [{ address: '10.1.2.3', family: 4 }];
      if (host === 'hooks.example.com') return [{ address: '93.184.215.14', family: 4 }];
      throw Object.assign(new Error('ENOTFOUND'), { code: 'ENOTFOUND' });
    });
  }, 30_000);
  afterAll(() => h.close());

  const create = (body: unknown, headers = A, app = h.app) =>
    request(app)
      .post('/api/v1/webhooks/endpoints')
      .set(headers)
      .send(body as object);

  it('creates an endpoint and shows its secret once', async () => {
    const res = await create({ url: 'http://127.0.0.1:9/plant/webhook', events: ['plant.added'], description: 'crm' });
    expect(res.status).toBe(201);
    const body = WebhookEndpointWithSecret.parse(res.body);
    expect(body).toMatchObject({ url: 'http://127.0.0.1:9/plant/webhook', events: ['plant.added'], enabled: true });
    expect(body.secret).toMatch(/^whsec_/);
    expect(res.headers.location).toBe(`/api/v1/webhooks/endpoints/${body.id}`);
    const got = await request(h.app).get(`/api/v1/webhooks/endpoints/${body.id}`).set(A);
    expect(got.status).toBe(200);
    expect(WebhookEndpoint.strict().parse(got.body)).toEqual(WebhookEndpoint.parse(body));
    expect(got.body.secret).toBeUndefined();
  });

  it('takes a signing secret chosen by the caller (a receiver configured first), whsec_ and at least 24 bytes', async () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const res = await create({ url: 'http://127.0.0.1:9/', secret });
    expect(res.status).toBe(201);
    expect(res.body.secret).toBe(secret);
    for (const bad of [
      'whsec_c2hvcnQ=',
      Buffer.alloc(32, 7).toString('base64'),
      'whsec_ not base64 at all !!!!!!!!!!!!',
    ]) {
      const refused = await create({ url: 'http://127.0.0.1:9/', secret: bad });
      expect(refused.status).toBe(400);
      expect(refused.body.message).toMatch(/^secret:/);
    }
  });

  it('every event type of the table in docs/webhooks.md can be subscribed to, webhook.test included', async () => {
    const doc = readFileSync(new URL('../../../docs/webhooks.md', import.meta.url), 'utf8');
    const table = doc.slice(doc.indexOf('| Event type'), doc.indexOf('\n\n', doc.indexOf('| Event type')));
    const documented = [...table.matchAll(/^\| `([a-z.]+)`/gm)].map((m) => m[1]);
    expect(documented).toEqual(expect.arrayContaining(['plant.added', 'webhook.test']));
    const res = await create({ url: 'http://127.0.0.1:9/all', events: documented });
    expect(res.status).toBe(201);
    expect(res.body.events).toEqual(documented);
    const testsOnly = await create({ url: 'http://127.0.0.1:9/tests', events: ['webhook.test'] });
    expect(testsOnly.status).toBe(201);
  });

  it('names every bad field in one validation error', async () => {
    const res = await create({ url: 'ftp://example.com/x', events: ['plant.deleted'], extra: 1 });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(ERROR_CODES.validation_failed.code);
    expect(res.body.message).toMatch(/url: must be an absolute http or https URL/);
    expect(res.body.message).toMatch(/events\.0/);
    expect(res.body.message).toMatch(/unknown field\(s\) extra/);
    expect((await create({})).body.message).toMatch(/url:/);
    expect((await create({ url: 'https://u:p@example.com/' })).body.message).toMatch(/credentials/);
  });

  it('refuses private targets at create time unless allowed', async () => {
    for (const url of [
      'http://127.0.0.1/x',
      'http://[::1]/x',
      'http://169.254.169.254/latest',
      'https://internal.example.com/h',
      // IPv4-translated, NAT64 and 6to4 forms of private addresses (the adversarial run's 201s).
      'http://[::ffff:0:127.0.0.1]/',
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[::ffff:0:10.0.0.1]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:a00:1::1]/',
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'http://0x7f000001/',
    ]) {
      const res = await create({ url }, A, strict);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/^url: .*not a public address/);
    }
    expect((await create({ url: 'https://nowhere.invalid/h' }, A, strict)).body.message).toBe(
      'url: host cannot be resolved',
    );
    expect((await create({ url: 'https://hooks.example.com/h' }, A, strict)).status).toBe(201);
  });

  it('needs admin to administer endpoints, write to test and resend, read to look (#22 defect 2)', async () => {
    const writer = { ...A, 'x-test-scopes': 'read write' } as typeof A;
    const denied = await create({ url: 'http://127.0.0.1:9/x' }, writer);
    expect(denied.status).toBe(403);
    expect(denied.body.error).toBe(ERROR_CODES.insufficient_scope.code);
    const { body } = await create({ url: 'http://127.0.0.1:9/x' });
    const path = `/api/v1/webhooks/endpoints/${body.id}`;
    for (const call of [
      request(h.app).patch(path).send({ url: 'http://127.0.0.1:9/y' }),
      request(h.app).post(`${path}/rotate-secret`),
      request(h.app).delete(path),
    ]) {
      const res = await call.set(writer);
      expect({ status: res.status, error: res.body.error }).toEqual({
        status: 403,
        error: ERROR_CODES.insufficient_scope.code,
      });
    }
    expect((await request(h.app).post(`${path}/test`).set(writer)).status).toBe(202);
    expect((await request(h.app).get(path).set(writer)).body.url).toBe('http://127.0.0.1:9/x');
    const list = await request(h.app)
      .get('/api/v1/webhooks/endpoints')
      .set({ ...A, 'x-test-scopes': 'write' });
    expect(list.status).toBe(403);
    expect((await request(h.app).get('/api/v1/webhooks/endpoints')).status).toBe(401);
  });

  it('keeps accounts apart: another account gets 404', async () => {
    const { body } = await create({ url: 'http://127.0.0.1:9/x' });
    const paths = ['', '/deliveries'];
    for (const p of paths) {
      const res = await request(h.app).get(`/api/v1/webhooks/endpoints/${body.id}${p}`).set(B);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: ERROR_CODES.not_found.code, message: 'webhook endpoint not found' });
    }
    expect(
      (await request(h.app).patch(`/api/v1/webhooks/endpoints/${body.id}`).set(B).send({ enabled: false })).status,
    ).toBe(404);
    expect((await request(h.app).delete(`/api/v1/webhooks/endpoints/${body.id}`).set(B)).status).toBe(404);
    expect((await request(h.app).post(`/api/v1/webhooks/endpoints/${body.id}/rotate-secret`).set(B)).status).toBe(404);
    const listB = await request(h.app).get('/api/v1/webhooks/endpoints').set(B);
    expect(listB.body.data.map((e: { id: string }) => e.id)).not.toContain(body.id);
    const listA = await request(h.app).get('/api/v1/webhooks/endpoints').set(A);
    expect(listA.body.data.map((e: { id: string }) => e.id)).toContain(body.id);
  });

  it('patches url, events, description and enabled', async () => {
    const { body } = await create({ url: 'http://127.0.0.1:9/x', events: ['plant.added'], description: 'd' });
    const url = `/api/v1/webhooks/endpoints/${body.id}`;
    let res = await request(h.app).patch(url).set(A).send({ enabled: false, events: null });
    expect(res.body).toMatchObject({ enabled: false, disabled_reason: 'manual', events: null, description: 'd' });
    res = await request(h.app)
      .patch(url)
      .set(A)
      .send({ enabled: true, url: 'http://127.0.0.1:10/y', description: null });
    expect(res.body).toMatchObject({
      enabled: true,
      disabled_reason: null,
      url: 'http://127.0.0.1:10/y',
      description: null,
    });
    expect((await request(h.app).patch(url).set(A).send({ enabled: 'yes' })).body.message).toMatch(/^enabled:/);
  });

  it('rotates the secret with a 24 h overlap and deletes', async () => {
    const { body } = await create({ url: 'http://127.0.0.1:9/x' });
    const res = await request(h.app).post(`/api/v1/webhooks/endpoints/${body.id}/rotate-secret`).set(A);
    expect(res.status).toBe(200);
    expect(res.body.secret).toMatch(/^whsec_/);
    expect(res.body.secret).not.toBe(body.secret);
    const overlap = Date.parse(res.body.previous_secret_expires_at) - h.clock.now();
    expect(Math.abs(overlap - 24 * 3_600_000)).toBeLessThan(5_000);
    expect((await request(h.app).delete(`/api/v1/webhooks/endpoints/${body.id}`).set(A)).status).toBe(204);
    expect((await request(h.app).get(`/api/v1/webhooks/endpoints/${body.id}`).set(A)).status).toBe(404);
  });

  it('validates query parameters', async () => {
    const { body } = await create({ url: 'http://127.0.0.1:9/x' });
    const bad = await request(h.app).post(`/api/v1/webhooks/endpoints/${body.id}/recover?since=yesterday`).set(A);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(ERROR_CODES.invalid_parameter.code);
    const limit = await request(h.app).get(`/api/v1/webhooks/endpoints/${body.id}/deliveries?limit=0`).set(A);
    expect(limit.body.message).toMatch(/^limit:/);
    expect((await request(h.app).post('/api/v1/webhooks/deliveries/msg_nope/replay').set(A)).status).toBe(404);
  });
});
