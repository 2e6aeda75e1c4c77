/**
 * Usage and quotas through the gateway on PGlite with a sync worker (issue #28 item 3):
 * counted once where the result is stored (a redelivered job counts nothing), per client;
 * the usage API's answers and refusals; monthly quotas answering 429 code 1301 and the
 * 80 % warning event sent once; the RateLimit fields.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ERROR_CODES } from '@skiptrace/contracts';
import { createBatchRows } from '@skiptrace/batches';
import { completeProperties, createTraceWorker } from '@skiptrace/core';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { ApiError, createHealth, silentLogger } from '@skiptrace/runtime';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import { createQuotaGuard, createUsage, createUsageRouter } from '@skiptrace/usage';
import type { Express, RequestHandler } from 'express';
import request from 'supertest';
import { createGatewayService } from '../src/gateway.service.ts';
import { fakeEngine, testHttpConfig } from './harness.ts';

/** `Bearer <account>:<client>:<scopes>`: the test's tokens name their client too. */
const auth = {
  authenticate: ((req, _res, next) => {
    const m = /^Bearer ([\w-]+):([\w-]+):([\w,]*)$/.exec(req.get('authorization') ?? '');
    if (!m) return next(new ApiError('unauthorized', 'missing bearer token'));
    req.auth = { accountId: m[1]!, clientId: m[2]!, subject: m[2]!, scopes: m[3]!.split(',') };
    next();
  }) as RequestHandler,
  requireScope: ((scope: string) => (req, _res, next) =>
    next(req.auth?.scopes.includes(scope) ? undefined : new ApiError('insufficient_scope', `requires ${scope}`))) as (
    scope: string,
  ) => RequestHandler,
};

let db: Database;
let bus: MessageBus;
let app: Express;
let worker: ReturnType<typeof createTraceWorker>;
const warnings: unknown[] = [];

beforeAll(async () => {
  const logger = silentLogger();
  db = createPgliteDatabase({});
  await db.migrate();
  bus = await createBus();
  await bus.consume('webhooks.events', { prefetch: 10 }, async (d) => {
    if (d.topic === 'event.quota.warning') warnings.push({ id: d.messageId, ...d.payload.data });
  });
  worker = createTraceWorker({ db, bus, engine: fakeEngine, logger, config: { prefetch: 10, maxAttempts: 2 } });
  await worker.start();
  const usage = createUsage(db);
  app = createGatewayService({
    db,
    bus,
    batchRows: createBatchRows({ db, bus, logger }),
    auth,
    logger,
    health: createHealth(),
    kv: createMemoryKeyValue(),
    config: testHttpConfig(5_000, 1_000),
    quota: createQuotaGuard({ usage, bus, logger }).middleware,
    routers: {
      '/usage': createUsageRouter({ usage, requireScope: auth.requireScope, logger, rateLimitPerMinute: 1_000 }),
    },
  });
}, 60_000);

afterAll(async () => {
  await worker.stop();
  await bus.close();
  await db.close();
});

const as = (account: string, client: string, scopes = 'read,write') => `Bearer ${account}:${client}:${scopes}`;
const hit = { street_address: '1 Match St', city: 'Austin', state: 'TX', zip_code: '78701' };
const miss = { street_address: '9 Nowhere Rd', city: 'Austin', state: 'TX', zip_code: '78701' };
const traceAs = (token: string, property: object) =>
  request(app).post('/api/v1/property/skiptrace').set('Authorization', token).send(property);
const usageOf = async (account: string, query = '') =>
  (await request(app).get(`/api/v1/usage${query}`).set('Authorization', as(account, 'reader')).expect(200)).body;

describe('usage', () => {
  it('counts each stored trace once, per client, and not a redelivered job', async () => {
    const results = await Promise.all([
      ...Array.from({ length: 12 }, () => traceAs(as('acme', 'etl'), hit)),
      ...Array.from({ length: 5 }, () => traceAs(as('acme', 'etl'), miss)),
      ...Array.from({ length: 3 }, () => traceAs(as('acme', 'crm'), hit)),
    ]);
    expect(results.map((r) => r.body.status).filter((s) => s === 'completed')).toHaveLength(15);
    // A redelivered job finds its row stored: nothing changes, nothing is counted again.
    const again = await completeProperties(db, [
      { id: String(results[0]!.body.id), outcome: { status: 'completed', results: results[0]!.body.results } },
    ]);
    expect(again[0]!.status).toBe('completed');

    const byDay = await usageOf('acme');
    expect(byDay.totals).toEqual({
      sync_traces: 20,
      batch_rows: 0,
      hits: 15,
      misses: 5,
      phones: 15,
      webhook_deliveries: 0,
    });
    expect(byDay.data).toHaveLength(1);
    expect(byDay.data[0].day).toBe(new Date().toISOString().slice(0, 10));
    const byClient = await usageOf('acme', '?group_by=client');
    expect(byClient.data.map((r: { client_id: string; sync_traces: number }) => [r.client_id, r.sync_traces])).toEqual([
      ['crm', 3],
      ['etl', 17],
    ]);
    // Another account sees only its own.
    expect((await usageOf('other')).totals.sync_traces).toBe(0);
  });

  it.each([
    ['from=2026-13-01', /from/],
    ['from=2026-02-30', /from/],
    ['to=yesterday', /to/],
    ['from=2026-11-20&to=2026-11-01', /after/],
    ['from=2020-01-01&to=2026-01-01', /400 days/],
    ['group_by=week', /group_by/],
    ['limit=5', /unknown/],
  ])('refuses %s with 400 code 1002', async (query, message) => {
    const res = await request(app)
      .get(`/api/v1/usage?${query}`)
      .set('Authorization', as('acme', 'r', 'read'));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: ERROR_CODES.invalid_parameter.code, message: expect.stringMatching(message) });
  });

  it('sends the RateLimit fields with every answer', async () => {
    const res = await request(app)
      .get('/api/v1/usage')
      .set('Authorization', as('acme', 'r', 'read'))
      .expect(200);
    expect(res.headers['ratelimit-limit']).toBe('1000');
    expect(res.headers['ratelimit-policy']).toBe('1000;w=60');
    expect(Number(res.headers['ratelimit-reset'])).toBeGreaterThan(0);
    expect(Number(res.headers['ratelimit-reset'])).toBeLessThanOrEqual(60);
    expect(res.body.rate_limit).toEqual({ limit: 1000, window_seconds: 60 });
  });
});

describe('quotas', () => {
  const admin = as('capped', 'owner', 'read,write,admin');

  it('needs admin to change, and validates the body', async () => {
    const write = as('capped', 'etl');
    expect((await request(app).patch('/api/v1/usage/quotas').set('Authorization', write).send({})).status).toBe(403);
    const bad = await request(app).patch('/api/v1/usage/quotas').set('Authorization', admin).send({ monthly_hits: -1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(ERROR_CODES.validation_failed.code);
    const unknown = await request(app).patch('/api/v1/usage/quotas').set('Authorization', admin).send({ hits: 1 });
    expect(unknown.status).toBe(400);
  });

  it('stops traces at the hits quota with 429 code 1301, and warns once at 80 %', async () => {
    const set = await request(app)
      .patch('/api/v1/usage/quotas')
      .set('Authorization', admin)
      .send({ monthly_hits: 5 })
      .expect(200);
    expect(set.body).toEqual({ monthly_hits: 5, monthly_rows: null });
    const token = as('capped', 'etl');
    for (let i = 0; i < 5; i++) expect((await traceAs(token, hit)).status).toBe(200);
    // Misses do not use the hits quota... but the quota is used up now.
    const refused = await traceAs(token, miss);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({
      error: ERROR_CODES.quota_exceeded.code,
      message: expect.stringMatching(/monthly hits quota of 5 is used up \(5 used\)/),
    });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // A batch upload is refused too, before its body is read.
    const upload = await request(app)
      .post('/api/v1/property/skiptrace/batches')
      .set('Authorization', token)
      .set('Content-Type', 'text/csv')
      .send('street_address,city,state,zip_code\n1 Match St,Austin,TX,78701\n');
    expect(upload.status).toBe(429);
    const after = await usageOf('capped');
    expect(after.quotas.hits).toMatchObject({ limit: 5, used: 5, remaining: 0 });
    expect(after.quotas.rows).toBeNull();
    // The warning went out once (at 4 of 5), whatever the requests after it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    const month = new Date().toISOString().slice(0, 7);
    expect(warnings).toEqual([
      { id: `quota.warning:capped:${month}:hits`, quota: 'hits', month, limit: 5, used: 4, threshold: 0.8 },
    ]);
    // Raising the quota lets traces through again; removing it too.
    await request(app).patch('/api/v1/usage/quotas').set('Authorization', admin).send({ monthly_hits: 100 });
    expect((await traceAs(token, hit)).status).toBe(200);
    await request(app).patch('/api/v1/usage/quotas').set('Authorization', admin).send({ monthly_hits: null });
    expect((await request(app).get('/api/v1/usage/quotas').set('Authorization', token).expect(200)).body).toEqual({
      monthly_hits: null,
      monthly_rows: null,
    });
  });
});
