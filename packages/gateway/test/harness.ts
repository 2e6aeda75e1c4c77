import { createBatchRows } from '@skiptrace/batches';
import type { Property, Role } from '@skiptrace/contracts';
import { createTraceWorker, type TraceEngine, type TraceOutcome } from '@skiptrace/core';
import { createMemoryKeyValue } from '@skiptrace/kv';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { ApiError, createHealth, silentLogger, type Logger } from '@skiptrace/runtime';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import type { RequestHandler, Router } from 'express';
import { createGatewayService } from '../src/gateway.service.ts';
import type { GatewayAuth } from '../src/gateway.types.ts';

/**
 * Test double of the bearer port: `Authorization: Bearer <account>:<scopes>` (an API
 * client) or `Bearer <account>:<scopes>:<role>` (a signed-in user `usr_test` with that role)
 * is taken at its word. The real JWT verification has its own suite (packages/bearer) and
 * the end-to-end suite runs the gateway behind it.
 */
export const testAuth: GatewayAuth = {
  authenticate: ((req, _res, next) => {
    const m = /^Bearer ([\w-]+):([\w ,]*)(?::(owner|admin|member|viewer))?$/.exec(req.get('authorization') ?? '');
    if (!m) return next(new ApiError('unauthorized', 'missing bearer token'));
    const role = m[3] as Role | undefined;
    req.auth = {
      accountId: m[1]!,
      clientId: 'test',
      subject: role ? 'usr_test' : 'test',
      scopes: m[2]!.split(','),
      ...(role ? { role } : {}),
    };
    next();
  }) as RequestHandler,
  requireScope: (scope) => (req, _res, next) =>
    next(req.auth?.scopes.includes(scope) ? undefined : new ApiError('insufficient_scope', `requires ${scope}`)),
};

/** A deterministic engine: "1 Match St" finds Jane Roe, anything else finds nobody. */
export const fakeEngine: TraceEngine & { calls: number; fail: boolean; hold?: Promise<void> } = {
  calls: 0,
  fail: false,
  async trace(p: Property): Promise<TraceOutcome> {
    this.calls++;
    await this.hold;
    if (this.fail) throw new Error('contact store unreachable');
    if (!/match/i.test(p.street_address)) return { status: 'no_match', results: [], error: 'no owner found' };
    return {
      status: 'completed',
      results: [
        {
          first_name: 'Jane',
          last_name: 'Roe',
          confidence: 0.95,
          reasons: ['address_exact'],
          phones: [{ number: '+12125550142', type: 'mobile', dnc: false, litigator: false }],
          emails: [],
        },
      ],
    };
  },
  async traceMany(ps) {
    return Promise.all(ps.map((p) => this.trace(p)));
  },
};

export interface Harness {
  app: ReturnType<typeof createGatewayService>;
  db: Database;
  bus: MessageBus;
  worker: ReturnType<typeof createTraceWorker>;
  close(): Promise<void>;
}

/** The gateway's HTTP settings in these tests. */
export const testHttpConfig = (syncDeadlineMs: number, rateLimitPerMinute = 0) => ({
  syncDeadlineMs,
  maxBodyBytes: 16 * 1024,
  publicUrl: 'http://test/api/v1',
  authUrl: 'http://test',
  rateLimitPerMinute,
});

/**
 * The gateway on PGlite and the in-process bus with a sync worker on the fake engine;
 * `routers` adds routers as the standalone mounts them (e.g. the batch API).
 */
export async function createHarness(
  syncDeadlineMs = 2_000,
  rateLimitPerMinute = 0,
  routers?: (deps: { db: Database; bus: MessageBus; logger: Logger }) => Record<string, Router>,
): Promise<Harness> {
  const logger = silentLogger();
  const db = createPgliteDatabase({});
  await db.migrate();
  const bus = await createBus();
  const worker = createTraceWorker({ db, bus, engine: fakeEngine, logger, config: { prefetch: 10, maxAttempts: 2 } });
  await worker.start();
  const app = createGatewayService({
    db,
    bus,
    batchRows: createBatchRows({ db, bus, logger }),
    auth: testAuth,
    logger,
    health: createHealth(),
    kv: createMemoryKeyValue(),
    config: testHttpConfig(syncDeadlineMs, rateLimitPerMinute),
    routers: routers?.({ db, bus, logger }),
  });
  return {
    app,
    db,
    bus,
    worker,
    async close() {
      await worker.stop();
      await bus.close();
      await db.close();
    },
  };
}
