import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccounts, createClientsRouter, verifySecret, type Accounts } from '@skiptrace/auth';
import { createBatchesRouter } from '@skiptrace/batches';
import { API_ROUTES } from '@skiptrace/contracts';
import { createWebhooksRouter, loadWebhookConfig } from '@skiptrace/dispatcher';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createMemoryBus } from '@skiptrace/messaging';
import { createHealth, silentLogger } from '@skiptrace/runtime';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import type { Express } from 'express';
import request from 'supertest';
import { createGatewayService } from '../src/gateway.service.ts';
import { testAuth } from './harness.ts';

/** The gateway as main.ts and the standalone compose it: skip-trace, batch, webhook and client routes. */
function composeApi(db: Database, accounts: Accounts): Express {
  const logger = silentLogger();
  const bus = createMemoryBus();
  return createGatewayService({
    db,
    bus,
    auth: testAuth,
    logger,
    health: createHealth(),
    kv: createMemoryKeyValue(),
    config: {
      syncDeadlineMs: 1_000,
      maxBodyBytes: 16 * 1024,
      publicUrl: 'http://test/api/v1',
      authUrl: 'http://test',
      rateLimitPerMinute: 0,
    },
    routers: {
      '/': createBatchesRouter({ db, bus, auth: testAuth, logger }),
      '/webhooks': createWebhooksRouter({ db, kv: createMemoryKeyValue(), logger, config: loadWebhookConfig({}) }),
      '/clients': createClientsRouter({ accounts, requireScope: testAuth.requireScope, logger }),
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
const ALICE_R = 'Bearer alice:read';
const BOB_W = 'Bearer bob:read,write';

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
  app = composeApi(db, accounts);
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

describe('/api/v1/clients', () => {
  it('creates a client_credentials client and shows its secret once', async () => {
    const created = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_W)
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

    const list = await request(app).get('/api/v1/clients').set('Authorization', ALICE_R).expect(200);
    const shown = list.body.data.find((c: { client_id: string }) => c.client_id === created.body.client_id);
    expect(shown).toMatchObject({ name: 'nightly import' });
    expect(shown).not.toHaveProperty('client_secret');
  });

  it('defaults to the read scope and names every bad field', async () => {
    const created = await request(app).post('/api/v1/clients').set('Authorization', ALICE_W).send({ name: 'r' });
    expect(created.body.scopes).toEqual(['read']);
    const bad = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_W)
      .send({ name: '', scopes: ['admin'], extra: 1 })
      .expect(400);
    expect(bad.body.error).toBe(1000);
    expect(bad.body.message).toContain('name:');
    expect(bad.body.message).toContain('scopes.0:');
    expect(bad.body.message).toContain('unknown field(s) extra');
  });

  it('rotates the secret: the new one verifies, the old one no longer does', async () => {
    const { body: first } = await request(app)
      .post('/api/v1/clients')
      .set('Authorization', ALICE_W)
      .send({ name: 'rotating' })
      .expect(201);
    const { body: rotated } = await request(app)
      .post(`/api/v1/clients/${first.client_id}/rotate-secret`)
      .set('Authorization', ALICE_W)
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
      .set('Authorization', ALICE_W)
      .expect(409);
    expect(res.body.error).toBe(1202);
  });

  it("keeps accounts apart: another account's client is 404 to list, rotate and revoke", async () => {
    const { body } = await request(app).post('/api/v1/clients').set('Authorization', ALICE_W).send({ name: 'mine' });
    const bobList = await request(app).get('/api/v1/clients').set('Authorization', BOB_W).expect(200);
    expect(bobList.body.data).toEqual([]);
    await request(app).post(`/api/v1/clients/${body.client_id}/rotate-secret`).set('Authorization', BOB_W).expect(404);
    await request(app).delete(`/api/v1/clients/${body.client_id}`).set('Authorization', BOB_W).expect(404);
    expect(await accounts.findClient(body.client_id)).toBeDefined();
  });

  it('revokes: the client is gone and a second revoke is 404', async () => {
    const { body } = await request(app).post('/api/v1/clients').set('Authorization', ALICE_W).send({ name: 'old' });
    await request(app).delete(`/api/v1/clients/${body.client_id}`).set('Authorization', ALICE_W).expect(204);
    expect(await accounts.findClient(body.client_id)).toBeUndefined();
    await request(app).delete(`/api/v1/clients/${body.client_id}`).set('Authorization', ALICE_W).expect(404);
  });

  it('needs write to change and read to list', async () => {
    const denied = await request(app).post('/api/v1/clients').set('Authorization', ALICE_R).send({ name: 'x' });
    expect(denied.status).toBe(403);
    await request(app).get('/api/v1/clients').set('Authorization', 'Bearer alice:write').expect(403);
    await request(app).get('/api/v1/clients').expect(401);
  });
});
