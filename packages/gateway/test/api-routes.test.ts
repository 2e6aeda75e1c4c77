import { brotliCompressSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  createAccounts,
  createClientsRouter,
  createMembersRouter,
  verifySecret,
  type Accounts,
} from '@skiptrace/accounts';
import { createAuditLog, createAuditRouter } from '@skiptrace/audit';
import { createBatchesRouter, createBatchRows } from '@skiptrace/batches';
import {
  API_ROUTES,
  batchesApi,
  clientsApi,
  skiptraceApi,
  usageApi,
  webhooksApi,
  type RouteSpec,
} from '@skiptrace/contracts';
import { createUsage, createUsageRouter } from '@skiptrace/usage';
import { createWebhooksRouter, webhookConfig } from '@skiptrace/webhooks';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createBus } from '@skiptrace/messaging';
import { createHealth, silentLogger } from '@skiptrace/runtime';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import type { Express } from 'express';
import request, { type Response } from 'supertest';
import { createGatewayService } from '../src/gateway.service.ts';
import { testAuth, testHttpConfig } from './harness.ts';

/** The gateway as main.ts and the standalone compose it: skip-trace, batch, webhook and client routes. */
async function composeApi(db: Database, accounts: Accounts): Promise<Express> {
  const logger = silentLogger();
  const bus = await createBus();
  return createGatewayService({
    db,
    bus,
    batchRows: createBatchRows({ db, bus, logger }),
    auth: testAuth,
    logger,
    health: createHealth(),
    kv: createMemoryKeyValue(),
    // The default body limit (MAX_BODY_BYTES, 64 KiB): deep bodies meet the depth limit, not this one.
    config: { ...testHttpConfig(1_000), maxBodyBytes: 64 * 1024 },
    routers: {
      '/': createBatchesRouter({ db, bus, auth: testAuth, logger }),
      '/webhooks': createWebhooksRouter({
        db,
        kv: createMemoryKeyValue(),
        logger,
        config: webhookConfig({ allowPrivate: true }),
        requireScope: testAuth.requireScope,
      }),
      '/clients': createClientsRouter({
        accounts,
        requireScope: testAuth.requireScope,
        logger,
        audit: createAuditLog(db),
      }),
      '/members': createMembersRouter({
        db,
        audit: createAuditLog(db),
        requireScope: testAuth.requireScope,
        issuer: 'http://test',
        logger,
      }),
      '/audit': createAuditRouter({ audit: createAuditLog(db), requireScope: testAuth.requireScope }),
      '/usage': createUsageRouter({
        usage: createUsage(db),
        requireScope: testAuth.requireScope,
        logger,
        rateLimitPerMinute: 0,
      }),
    },
  });
}

interface Layer {
  route?: { path: string; methods: Record<string, boolean> };
  handle: { stack?: Layer[] };
  rawPath?: string;
}

/** Every (METHOD path) the Express app answers, with OpenAPI-style path templates. */
function registeredRoutes(stack: Layer[], prefix = ''): string[] {
  const out: string[] = [];
  for (const layer of stack) {
    if (layer.route) {
      const path = `${prefix}${layer.route.path}`.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
      for (const [method, on] of Object.entries(layer.route.methods))
        if (on) out.push(`${method.toUpperCase()} ${path}`);
    } else if (layer.handle.stack) {
      const mount = typeof layer.rawPath === 'string' && layer.rawPath !== '/' ? layer.rawPath : '';
      out.push(...registeredRoutes(layer.handle.stack, prefix + mount));
    }
  }
  return out;
}

const ALICE_W = 'Bearer alice:read,write';
const ALICE_A = 'Bearer alice:read,write,admin';
const BOB_A = 'Bearer bob:read,write,admin';

let db: Database;
let accounts: Accounts;
let app: Express;
let doc: { paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>> };

beforeAll(async () => {
  db = createPgliteDatabase({});
  await db.migrate();
  accounts = createAccounts(db);
  await accounts.createAccount({ id: 'alice', name: 'Alice' });
  await accounts.createAccount({ id: 'bob', name: 'Bob' });
  app = await composeApi(db, accounts);
  doc = (await request(app).get('/api/v1/openapi.json').expect(200)).body;
}, 60_000);
afterAll(() => db.close());

describe('routes and the OpenAPI document', () => {
  it('documents every route the API answers, and nothing it does not', () => {
    const routes = registeredRoutes((app as unknown as { router: { stack: Layer[] } }).router.stack)
      .filter((r) => r.startsWith('GET /api/v1/openapi.json') === false)
      // The reference page (HTML and its script) describes the API; it is not an operation.
      .filter((r) => !r.startsWith('GET /api/v1/docs'))
      .filter((r) => r.includes(' /api/v1/'));
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} /api/v1${path}`),
    );
    expect(routes.length).toBeGreaterThanOrEqual(API_ROUTES.length);
    expect(routes.sort()).toEqual(documented.sort());
  });

  it('gives every operation its success shape and its Error responses', () => {
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const statuses = Object.keys(op.responses);
        const success = statuses.filter((s) => s.startsWith('2'));
        expect({ op: `${method} ${path}`, success: success.length > 0 }).toEqual({
          op: `${method} ${path}`,
          success: true,
        });
        for (const s of success) if (s !== '204') expect(op.responses[s]!.content).toBeDefined();
        for (const s of ['401', '403']) expect(op.responses[s]!.content).toHaveProperty(['application/json', 'schema']);
      }
    }
  });
});

describe('deeply nested JSON bodies (#22 defect 4)', () => {
  const deep = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
  const bodies = {
    '/property/skiptrace': (levels: number) =>
      `{"street_address":${deep(levels)},"city":"Austin","state":"TX","zip_code":"78701"}`,
    '/webhooks/endpoints': (levels: number) => `{"url":"http://127.0.0.1:9/hook","description":${deep(levels)}}`,
  };
  it.each([2_600, 12_000])('answer 400 naming the limit at %i levels, before the body is parsed', async (levels) => {
    for (const [path, body] of Object.entries(bodies)) {
      const res = await request(app)
        .post(`/api/v1${path}`)
        .set('Authorization', ALICE_A)
        .set('Content-Type', 'application/json')
        .send(body(levels));
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 400,
        body: { error: 1000, message: 'the body nests objects and arrays deeper than 64 levels' },
      });
    }
  });

  it('take 64 levels (and refuse the field for what it is)', async () => {
    const res = await request(app)
      .post('/api/v1/property/skiptrace')
      .set('Authorization', ALICE_A)
      .set('Content-Type', 'application/json')
      .send(bodies['/property/skiptrace'](63));
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/^street_address: /);
  });
});

describe('/api/v1/clients', () => {
  it('creates a client_credentials client and shows its secret once', async () => {
    const created = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_A)
      .send({ name: 'nightly import', scopes: ['read', 'write'] })
      .expect(201);
    expect(created.body).toMatchObject({
      name: 'nightly import',
      grant_types: ['client_credentials'],
      scopes: ['read', 'write'],
      public: false,
    });
    expect(created.headers.location).toBe(`/api/v1/clients/${created.body.client_id}`);
    const stored = await accounts.findClient(created.body.client_id);
    expect(stored?.accountId).toBe('alice');
    expect(await verifySecret(created.body.client_secret, stored!.secretHash!)).toBe(true);

    const list = await request(app).get('/api/v1/clients').set('Authorization', ALICE_A).expect(200);
    const shown = list.body.data.find((c: { client_id: string }) => c.client_id === created.body.client_id);
    expect(shown).toMatchObject({ name: 'nightly import' });
    expect(shown).not.toHaveProperty('client_secret');
  });

  it('defaults to the scopes a trace needs (read write, never admin) and names every bad field', async () => {
    const created = await request(app).post('/api/v1/clients').set('Authorization', ALICE_A).send({ name: 'r' });
    expect(created.body.scopes).toEqual(['read', 'write']);
    expect((await accounts.findClient(created.body.client_id))?.scopes).toBe('read write');
    const empty = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_A)
      .send({ name: 'none', scopes: [] })
      .expect(400);
    expect(empty.body.message).toContain('must name at least one scope');
    const bad = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_A)
      .send({ name: '', scopes: ['superuser'], extra: 1 })
      .expect(400);
    expect(bad.body.error).toBe(1000);
    expect(bad.body.message).toContain('name:');
    expect(bad.body.message).toContain('scopes.0:');
    expect(bad.body.message).toContain('unknown field(s) extra');
  });

  it('rotates the secret: the new one verifies, the old one no longer does', async () => {
    const { body: first } = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_A)
      .send({ name: 'rotating' })
      .expect(201);
    const { body: rotated } = await request(app)
      .post(`/api/v1/clients/${first.client_id}/rotate-secret`)
      .set('Authorization', ALICE_A)
      .expect(200);
    expect(rotated.client_id).toBe(first.client_id);
    expect(rotated.client_secret).not.toBe(first.client_secret);
    const hash = (await accounts.findClient(first.client_id))!.secretHash!;
    expect(await verifySecret(rotated.client_secret, hash)).toBe(true);
    expect(await verifySecret(first.client_secret, hash)).toBe(false);
  });

  it('refuses to rotate a public client (nothing to rotate)', async () => {
    const { client } = await accounts.createClient({
      name: 'console',
      accountId: 'alice',
      public: true,
      grantTypes: ['authorization_code', 'refresh_token'],
      redirectUris: ['http://localhost/console/'],
    });
    const res = await request(app)
      .post(`/api/v1/clients/${client.clientId}/rotate-secret`)
      .set('Authorization', ALICE_A)
      .expect(409);
    expect(res.body.error).toBe(1202);
  });

  it("keeps accounts apart: another account's client is 404 to list, rotate and revoke", async () => {
    const { body } = await request(app).post('/api/v1/clients').set('Authorization', ALICE_A).send({ name: 'mine' });
    const bobList = await request(app).get('/api/v1/clients').set('Authorization', BOB_A).expect(200);
    expect(bobList.body.data).toEqual([]);
    await request(app).post(`/api/v1/clients/${body.client_id}/rotate-secret`).set('Authorization', BOB_A).expect(404);
    await request(app).delete(`/api/v1/clients/${body.client_id}`).set('Authorization', BOB_A).expect(404);
    expect(await accounts.findClient(body.client_id)).toBeDefined();
  });

  it('revokes: the client is gone and a second revoke is 404', async () => {
    const { body } = await request(app).post('/api/v1/clients').set('Authorization', ALICE_A).send({ name: 'old' });
    await request(app).delete(`/api/v1/clients/${body.client_id}`).set('Authorization', ALICE_A).expect(204);
    expect(await accounts.findClient(body.client_id)).toBeUndefined();
    await request(app).delete(`/api/v1/clients/${body.client_id}`).set('Authorization', ALICE_A).expect(404);
  });

  it('needs admin for every call: a write token gets 403 insufficient_scope and changes nothing (#22 defect 2)', async () => {
    const { body } = await request(app).post('/api/v1/clients').set('Authorization', ALICE_A).send({ name: 'kept' });
    const calls = [
      request(app).get('/api/v1/clients'),
      request(app)
        .post('/api/v1/clients')
        .send({ name: 'x', scopes: ['admin'] }),
      request(app).post(`/api/v1/clients/${body.client_id}/rotate-secret`),
      request(app).delete(`/api/v1/clients/${body.client_id}`),
    ];
    for (const call of calls) {
      const denied = await call.set('Authorization', ALICE_W);
      expect({ status: denied.status, error: denied.body.error }).toEqual({ status: 403, error: 1101 });
    }
    const hash = (await accounts.findClient(body.client_id))?.secretHash;
    expect(hash && (await verifySecret(body.client_secret, hash))).toBe(true);
    await request(app).get('/api/v1/clients').expect(401);
  });

  it('lets an admin create a client that holds admin itself', async () => {
    const { body } = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_A)
      .send({ name: 'ops', scopes: ['read', 'admin'] })
      .expect(201);
    expect(body.scopes).toEqual(['read', 'admin']);
  });
});

/** The answer is one the route documents, and its JSON body parses with the documented schema. */
function expectDocumented(route: RouteSpec, res: Response) {
  const documented = route.responses[res.status];
  expect({ operation: route.operationId, status: res.status, documented: documented !== undefined }).toEqual({
    operation: route.operationId,
    status: res.status,
    documented: true,
  });
  if (documented?.schema) {
    const parsed = documented.schema.safeParse(res.body);
    expect({ operation: route.operationId, issues: parsed.error?.issues ?? [] }).toEqual({
      operation: route.operationId,
      issues: [],
    });
  }
  return res;
}

describe('answers match the documented shapes', () => {
  const api = (method: 'get' | 'post' | 'patch' | 'delete', path: string) =>
    request(app)[method](`/api/v1${path}`).set('Authorization', ALICE_A);

  it('skip trace, list, poll and erase', async () => {
    const property = { street_address: '1 Main St', city: 'Austin', state: 'TX', zip_code: '78701' };
    const traced = expectDocumented(skiptraceApi.skipTrace, await api('post', '/property/skiptrace').send(property));
    expectDocumented(skiptraceApi.listSkipTraces, await api('get', '/property/skiptrace?limit=5'));
    expectDocumented(skiptraceApi.getSkipTrace, await api('get', `/property/skiptrace/${traced.body.id}`));
    expectDocumented(skiptraceApi.deletePlant, await api('delete', `/plants/${traced.body.id}`));
  });

  it('batches: submit, status, list, export, cancel, purge', async () => {
    const csv = 'street_address,city,state,zip_code\n1 Main St,Austin,TX,78701\n,Austin,TX,1\n';
    const submitted = expectDocumented(
      batchesApi.submitBatch,
      await api('post', '/property/skiptrace/batches').set('Content-Type', 'text/csv').send(csv),
    );
    const id = submitted.body.id as string;
    expectDocumented(batchesApi.getBatch, await api('get', `/property/skiptrace/batches/${id}`));
    expectDocumented(batchesApi.listBatches, await api('get', '/property/skiptrace/batches'));
    expectDocumented(batchesApi.exportBatch, await api('get', `/property/skiptrace/batches/${id}/results`));
    expectDocumented(batchesApi.cancelBatch, await api('delete', `/property/skiptrace/batches/${id}`));
    expectDocumented(batchesApi.cancelBatch, await api('delete', `/property/skiptrace/batches/${id}?purge=true`));
  });

  it('webhooks: endpoints, test event, deliveries, replay, recover', async () => {
    const created = expectDocumented(
      webhooksApi.createWebhookEndpoint,
      await api('post', '/webhooks/endpoints').send({ url: 'http://127.0.0.1:18799/hook' }),
    );
    const id = created.body.id as string;
    expectDocumented(webhooksApi.listWebhookEndpoints, await api('get', '/webhooks/endpoints'));
    expectDocumented(webhooksApi.getWebhookEndpoint, await api('get', `/webhooks/endpoints/${id}`));
    expectDocumented(
      webhooksApi.updateWebhookEndpoint,
      await api('patch', `/webhooks/endpoints/${id}`).send({ description: 'CRM' }),
    );
    expectDocumented(webhooksApi.rotateWebhookSecret, await api('post', `/webhooks/endpoints/${id}/rotate-secret`));
    const test = expectDocumented(webhooksApi.testWebhookEndpoint, await api('post', `/webhooks/endpoints/${id}/test`));
    expectDocumented(webhooksApi.listWebhookDeliveries, await api('get', `/webhooks/endpoints/${id}/deliveries`));
    expectDocumented(webhooksApi.getWebhookDelivery, await api('get', `/webhooks/deliveries/${test.body.id}`));
    const replay = await api('post', `/webhooks/deliveries/${test.body.id}/replay`);
    expect([202, 409]).toContain(replay.status);
    if (replay.status === 202) expectDocumented(webhooksApi.replayWebhookDelivery, replay);
    const since = new Date(Date.now() - 60_000).toISOString();
    expectDocumented(
      webhooksApi.recoverWebhookDeliveries,
      await api('post', `/webhooks/endpoints/${id}/recover?since=${encodeURIComponent(since)}`),
    );
    expectDocumented(webhooksApi.deleteWebhookEndpoint, await api('delete', `/webhooks/endpoints/${id}`));
  });

  it('usage: read, quotas, set quotas', async () => {
    expectDocumented(usageApi.getUsage, await api('get', '/usage?group_by=client'));
    expectDocumented(usageApi.getQuotas, await api('get', '/usage/quotas'));
    expectDocumented(usageApi.updateQuotas, await api('patch', '/usage/quotas').send({ monthly_hits: 10 }));
  });

  it('API clients: list, create, rotate, revoke', async () => {
    const created = expectDocumented(clientsApi.createApiClient, await api('post', '/clients').send({ name: 'shape' }));
    expectDocumented(clientsApi.listApiClients, await api('get', '/clients'));
    const id = created.body.client_id as string;
    expectDocumented(clientsApi.rotateApiClientSecret, await api('post', `/clients/${id}/rotate-secret`));
    expectDocumented(clientsApi.revokeApiClient, await api('delete', `/clients/${id}`));
  });
});

describe('JSON size limits on every JSON body (#22 item 4)', () => {
  // Every operation that takes a JSON body (the batch upload streams its own: batches.contract.ts).
  const jsonRoutes = API_ROUTES.filter((r) => r.body && r.operationId !== batchesApi.submitBatch.operationId).map(
    (r) =>
      [
        r.operationId,
        r.method.toUpperCase(),
        `/api/v1${r.path.replace(/\{\w+\}/g, '00000000-0000-4000-8000-000000000000')}`,
      ] as const,
  );
  const send = (method: string, path: string) =>
    method === 'PATCH' ? request(app).patch(path) : request(app).post(path);
  const field = (value: string) =>
    `{"street_address":"1 Main St","city":"Austin","state":"TX","zip_code":"78701","x":${value}}`;
  const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;
  const items = (n: number) => `[${Array(n).fill('0').join(',')}]`;
  const limits = [
    ['a string longer than 16384 characters', field(`"${'a'.repeat(16_385)}"`), field(`"${'a'.repeat(16_384)}"`)],
    ['an object with more than 1000 keys', keys(1_001), keys(1_000)],
    ['an array with more than 1000 elements', field(items(1_001)), field(items(1_000))],
  ] as const;

  it('covers the operations with JSON bodies', () => {
    expect(jsonRoutes.map(([id]) => id).sort()).toEqual(
      expect.arrayContaining([
        skiptraceApi.skipTrace.operationId,
        webhooksApi.createWebhookEndpoint.operationId,
        webhooksApi.updateWebhookEndpoint.operationId,
        clientsApi.createApiClient.operationId,
      ]),
    );
  });

  it.each(limits)('refuses %s with 400 naming the limit, plain or compressed', async (limit, over, _at) => {
    const codings = [
      ['identity', (b: string) => Buffer.from(b)],
      ['gzip', (b: string) => gzipSync(b)],
      ['br', (b: string) => brotliCompressSync(b)],
    ] as const;
    for (const [operation, method, path] of jsonRoutes) {
      for (const [coding, encode] of codings) {
        const res = await send(method, path)
          .set('Authorization', ALICE_A)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', coding)
          .serialize((bytes: unknown) => bytes as string) // as sent, not JSON-serialised
          .send(encode(over));
        expect({ operation, coding, status: res.status, body: res.body }).toEqual({
          operation,
          coding,
          status: 400,
          body: { error: 1000, message: `the body has ${limit}` },
        });
      }
    }
  });

  it.each(limits)(
    'takes a body at the limit (%s): what is refused is the field, not the size',
    async (limit, _over, at) => {
      for (const [operation, method, path] of jsonRoutes) {
        const res = await send(method, path)
          .set('Authorization', ALICE_A)
          .set('Content-Type', 'application/json')
          .send(at);
        expect({ operation, message: res.body.message }).not.toEqual({ operation, message: `the body has ${limit}` });
        expect(res.status).toBeLessThan(500);
      }
    },
  );
});
