import express from 'express';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import { createMemoryKeyValue, type KeyValueStore } from '@skiptrace/kv';
import { createPgliteDatabase, type Database } from '@skiptrace/storage';
import { createBearerAuth } from '@skiptrace/bearer';
import { errorHandler, jsonBody, requestContext, silentLogger } from '@skiptrace/runtime';
import { webhookConfig, type WebhookConfig } from '@skiptrace/webhooks';
import { createDispatcher, type Dispatcher } from '../src/dispatcher.ts';
import { createWebhooksRouter } from '@skiptrace/webhooks';
import type { Resolver } from '@skiptrace/webhooks';

/** The gateway's scope check; the test app sets req.auth itself, so the key set is never consulted. */
const { requireScope } = createBearerAuth({ issuer: 'http://test', audience: 'test', jwks: () => ({ keys: [] }) });

/** A clock the test moves by hand; starts at real time so signatures verify. */
export function manualClock() {
  let offset = 0;
  return { now: () => Date.now() + offset, advance: (ms: number) => void (offset += ms) };
}

/**
 * Test app: the gateway's bearer middleware is replaced by headers naming the
 * account and scopes (x-test-account, x-test-scopes), everything else is real.
 */
export function testApp(router: express.Router): express.Express {
  const app = express();
  app.use(requestContext(silentLogger()));
  app.use((req, _res, next) => {
    const account = req.get('x-test-account');
    if (account)
      req.auth = {
        accountId: account,
        clientId: 'c',
        subject: 's',
        scopes: (req.get('x-test-scopes') ?? 'read write admin').split(' '),
      };
    next();
  });
  app.use(jsonBody(64 * 1024));
  app.use('/api/v1/webhooks', router);
  app.use(errorHandler());
  return app;
}

export interface Harness {
  db: Database;
  bus: MessageBus;
  kv: KeyValueStore;
  config: WebhookConfig;
  clock: ReturnType<typeof manualClock>;
  app: express.Express;
  /** Another API app on the same store, with other config (e.g. the SSRF guard on). */
  appWith(overrides: Partial<WebhookConfig>, resolver?: Resolver): express.Express;
  dispatcher: Dispatcher;
  close(): Promise<void>;
}

export async function createHarness(
  overrides: Partial<WebhookConfig> = {},
  options: { resolver?: Resolver; random?: () => number } = {},
): Promise<Harness> {
  const db = createPgliteDatabase();
  await db.migrate();
  const bus = await createBus();
  const config = webhookConfig({ allowPrivate: true, pollMs: 10, ...overrides });
  const clock = manualClock();
  const kv = createMemoryKeyValue({ now: clock.now });
  const logger = silentLogger();
  const router = createWebhooksRouter({ db, kv, config, logger, clock, resolver: options.resolver, requireScope });
  const dispatcher = createDispatcher({ db, bus, kv, config, logger, clock, random: options.random });
  return {
    db,
    bus,
    kv,
    config,
    clock,
    app: testApp(router),
    appWith: (more, resolver) =>
      testApp(createWebhooksRouter({ db, kv, config: { ...config, ...more }, logger, clock, resolver, requireScope })),
    dispatcher,
    async close() {
      await dispatcher.stop();
      await bus.close();
      await db.close();
    },
  };
}
