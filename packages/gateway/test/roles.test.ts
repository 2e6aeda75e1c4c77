// Members and roles (#28): the route × role table of docs/oauth.md is the one the routes
// declare, and every cell of it is what the gateway does — for a signed-in user of each
// role (console scopes read write admin) and for API clients, which act by their scopes.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createAccounts, createClientsRouter, createMembersRouter } from '@skiptrace/accounts';
import { createAuditLog, createAuditRouter } from '@skiptrace/audit';
import { createBatchesRouter, createBatchRows } from '@skiptrace/batches';
import { API_ROUTES, ERROR_CODES, leastRoleOf, ROLES, rolesOf, rolesTable, type RouteSpec } from '@skiptrace/contracts';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createBus } from '@skiptrace/messaging';
import { createHealth, silentLogger } from '@skiptrace/runtime';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import { createUsage, createUsageRouter } from '@skiptrace/usage';
import { createWebhooksRouter, webhookConfig } from '@skiptrace/webhooks';
import type { Express } from 'express';
import request from 'supertest';
import { createGatewayService } from '../src/gateway.service.ts';
import { testAuth, testHttpConfig } from './harness.ts';

let db: Database;
let app: Express;

beforeAll(async () => {
  db = createPgliteDatabase({});
  await db.migrate();
  const logger = silentLogger();
  const bus = await createBus();
  const audit = createAuditLog(db);
  await createAccounts(db).createAccount({ id: 'acme', name: 'Acme' });
  app = createGatewayService({
    db,
    bus,
    batchRows: createBatchRows({ db, bus, logger }),
    auth: testAuth,
    logger,
    health: createHealth(),
    kv: createMemoryKeyValue(),
    config: testHttpConfig(200),
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
        accounts: createAccounts(db),
        requireScope: testAuth.requireScope,
        logger,
        audit,
      }),
      '/members': createMembersRouter({
        db,
        audit,
        requireScope: testAuth.requireScope,
        issuer: 'http://test',
        logger,
      }),
      '/audit': createAuditRouter({ audit, requireScope: testAuth.requireScope }),
      '/usage': createUsageRouter({
        usage: createUsage(db),
        requireScope: testAuth.requireScope,
        logger,
        rateLimitPerMinute: 0,
      }),
    },
  });
});
afterAll(() => db.close());

/** A request to the route with ids that exist nowhere: whatever it answers, never before its role check. */
function call(route: RouteSpec, authorization: string) {
  const path = `/api/v1${route.path.replace(/\{\w+\}/g, '999999')}`;
  const req = request(app)[route.method](path).set('authorization', authorization);
  if (route.rawBody) return req.set('content-type', 'text/csv').send('street_address,city,state,zip_code\n');
  return route.body ? req.send({}) : req;
}

const refusedForRole = (res: request.Response) =>
  res.status === 403 && (res.body as { error?: number }).error === ERROR_CODES.insufficient_role.code;

describe('the route × role table', () => {
  it('in docs/oauth.md is the one the routes declare (node packages/gateway/scripts/roles-table.ts --write)', () => {
    const doc = readFileSync(new URL('../../../docs/oauth.md', import.meta.url), 'utf8');
    const section = doc.slice(doc.indexOf('<!-- roles-table:start'), doc.indexOf('<!-- roles-table:end -->'));
    const cells = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.startsWith('|') && !/^\|\s*-/.test(l))
        .map((l) =>
          l
            .split('|')
            .slice(1, -1)
            .map((c) => c.trim()),
        );
    expect(cells(section)).toEqual(cells(rolesTable()));
  });

  const cases = API_ROUTES.flatMap((route) =>
    ROLES.map((role, i) => [`${route.method.toUpperCase()} ${route.path}`, role, rolesOf(route)[i]!, route] as const),
  );

  it.each(cases)('%s as %s: allowed %s', async (_name, role, allowed, route) => {
    const res = await call(route, `Bearer acme:read,write,admin:${role}`);
    expect({ role, status: res.status, refused: refusedForRole(res) }).toEqual({
      role,
      status: allowed ? expect.any(Number) : 403,
      refused: !allowed,
    });
    if (!allowed)
      expect(res.body.message).toBe(`this operation needs the ${leastRoleOf(route)} role or above; you are ${role}`);
    expect(res.status).toBeLessThan(500);
  });

  it.each(API_ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r] as const))(
    '%s for API clients: an admin client as admin, others as members, and never past their scopes',
    async (_name, route) => {
      const admin = await call(route, 'Bearer acme:read,write,admin');
      expect(refusedForRole(admin)).toBe(!rolesOf(route)[ROLES.indexOf('admin')]);
      const writer = await call(route, 'Bearer acme:read,write');
      if (route.scope === 'admin') expect(writer.status).toBe(403);
      else expect(refusedForRole(writer)).toBe(!rolesOf(route)[ROLES.indexOf('member')]);
    },
  );
});
