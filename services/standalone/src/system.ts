import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { authConfig, createAccounts, createAuthService, createClientsRouter } from '@skiptrace/auth';
import { batchesConfigFromEnv, createBatchesRouter, startBatchWorker } from '@skiptrace/batches';
import { createBearerAuth } from '@skiptrace/bearer';
import { createConsoleRouter, ensureConsoleBuilt } from '@skiptrace/console';
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import { createContactTraceEngine, createRecoverySweep } from '@skiptrace/core';
import { createDispatcher, createWebhooksRouter, loadWebhookConfig } from '@skiptrace/dispatcher';
import { createGatewayService } from '@skiptrace/gateway';
import { createKeyValue } from '@skiptrace/kv';
import { createBus } from '@skiptrace/messaging';
import {
  createHealth,
  createHttpServer,
  createLogger,
  createShutdown,
  finishApp,
  loadConfig,
  metricsOptionsFrom,
  observabilityEnvSchema,
  observeHttp,
  setMetricsEnabled,
  type Logger,
} from '@skiptrace/runtime';
import { createDatabase } from '@skiptrace/storage';
import { createWorkerService } from '@skiptrace/worker';
import express from 'express';
import { standaloneEnvSchema } from './config.ts';
import { loadDemoData } from './demo.ts';

export interface System {
  app: express.Express;
  /** Listens on PORT (0 picks a free port) and starts the consumers; returns the base URL. */
  start(): Promise<string>;
  /** Ordered shutdown: stop intake, drain, close connections. Idempotent. */
  stop(reason?: string): Promise<void>;
  logger: Logger;
}

/**
 * All four services in one process: the gateway at /api/v1, the OAuth server at the root,
 * a worker and a webhook dispatcher, wired over whichever adapters the environment selects.
 */
export async function createSystem(envInput: NodeJS.ProcessEnv = process.env, logger?: Logger): Promise<System> {
  const env = loadConfig(standaloneEnvSchema, envInput);
  const log = logger ?? createLogger({ name: 'skiptrace', level: env.LOG_LEVEL });
  const shutdown = createShutdown(log);
  await mkdir(env.SKIPTRACE_DATA_DIR, { recursive: true });

  const db = createDatabase({
    databaseUrl: env.DATABASE_URL,
    dataDir: join(env.SKIPTRACE_DATA_DIR, 'pglite'),
    logger: log,
  });
  shutdown.add('database', () => db.close());
  await db.migrate();
  const kv = createKeyValue({ redisUrl: env.REDIS_URL, logger: log });
  shutdown.add('kv', () => kv.close());
  const bus = await createBus({ amqpUrl: env.AMQP_URL, logger: log });
  shutdown.add('bus', () => bus.close());

  const observability = loadConfig(observabilityEnvSchema, envInput);
  setMetricsEnabled(observability.METRICS_ENABLED);
  const health = createHealth({ metrics: metricsOptionsFrom(observability) });
  health.register('database', () => db.ping());
  health.register('broker', () => {
    if (!bus.isReady()) throw new Error('broker disconnected');
  });
  health.register('kv', () => kv.ping());

  const auth = await createAuthService({
    db,
    kv,
    logger: log.child({ scope: 'auth' }),
    config: authConfig({ issuer: env.publicUrl, dataDir: env.SKIPTRACE_DATA_DIR }),
  });
  shutdown.add('auth', () => auth.close());
  // The console's public OAuth client, and its build (made now when missing or stale).
  await auth.ensureConsoleClient({ consoleUrl: `${env.publicUrl}/console` });
  const consoleBuild = await ensureConsoleBuilt({ log: (msg) => log.info(msg) });
  if (consoleBuild.built) log.info({ ms: consoleBuild.ms }, 'console built');
  const demoBatchFile = join(env.SKIPTRACE_DATA_DIR, 'demo-batch.csv');
  const consoleRouter = await createConsoleRouter({
    dir: consoleBuild.dir,
    issuer: env.publicUrl,
    clientId: CONSOLE_CLIENT_ID,
    sampleCsv: env.SKIPTRACE_DEMO_ROWS > 0 ? demoBatchFile : undefined,
  });
  const bearer = createBearerAuth({ issuer: env.publicUrl, audience: 'urn:skiptrace:api', jwks: () => auth.jwks() });

  const webhookConfig = loadWebhookConfig({
    ...envInput,
    SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: env.SKIPTRACE_WEBHOOK_ALLOW_PRIVATE,
  });
  const dispatcher = createDispatcher({
    db,
    bus,
    kv,
    logger: log.child({ scope: 'dispatcher' }),
    config: webhookConfig,
  });
  const engine = createContactTraceEngine(db);
  const batchesConfig = batchesConfigFromEnv(envInput);
  const worker = createWorkerService({
    db,
    bus,
    engine,
    logger: log.child({ scope: 'worker' }),
    config: { prefetch: 64, maxAttempts: 5 },
  });
  const sweep = createRecoverySweep(db, bus, log, { intervalMs: 15_000, staleAfterMs: 60_000, batchSize: 500 });

  const gatewayAuth = { authenticate: bearer.middleware, requireScope: bearer.requireScope };
  const gateway = createGatewayService({
    db,
    bus,
    auth: gatewayAuth,
    kv,
    logger: log.child({ scope: 'gateway' }),
    health,
    config: {
      syncDeadlineMs: env.SYNC_DEADLINE_MS,
      maxBodyBytes: 64 * 1024,
      publicUrl: `${env.publicUrl}/api/v1`,
      authUrl: env.publicUrl,
      rateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
    },
    console: consoleRouter,
    routers: {
      '/': createBatchesRouter({ db, bus, auth: gatewayAuth, logger: log, config: batchesConfig.api }),
      '/webhooks': createWebhooksRouter({
        db,
        kv,
        logger: log,
        config: webhookConfig,
        requireScope: bearer.requireScope,
      }),
      '/clients': createClientsRouter({ accounts: createAccounts(db), requireScope: bearer.requireScope, logger: log }),
    },
  });
  const app = express();
  app.disable('x-powered-by');
  app.use(observeHttp());
  app.use(gateway);
  app.use(auth.app);
  finishApp(app, gateway, auth.app);

  return {
    app,
    logger: log,
    async start() {
      await loadDemoData({ db, auth, env, logger: log });
      // Consumers first: both buses drop messages published to a queue nobody declared yet.
      await worker.start();
      const batchWorker = await startBatchWorker({ db, bus, engine, logger: log, config: batchesConfig.worker });
      await dispatcher.start();
      sweep.start();
      shutdown.add('consumers', async () => {
        await sweep.stop();
        await worker.stop();
        await batchWorker.stop();
        await dispatcher.stop();
      });
      const listening = createHttpServer(app, { logger: log });
      await new Promise<void>((resolve) => listening.listen(env.PORT, resolve));
      shutdown.add('http', async () => {
        health.drain();
        await new Promise<void>((resolve) => listening.close(() => resolve()));
      });
      const port = (listening.address() as AddressInfo).port;
      return `http://localhost:${port}`;
    },
    stop: (reason = 'stop') => shutdown.run(reason),
  };
}
