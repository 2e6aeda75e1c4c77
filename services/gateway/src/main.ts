// Composition root of the gateway when it runs as its own process.
import { join } from 'node:path';
import { createAccounts, createClientsRouter } from '@skiptrace/auth';
import { batchesConfigFromEnv, createBatchesRouter } from '@skiptrace/batches';
import { createBearerAuth } from '@skiptrace/bearer';
import { createConsoleRouter, ensureConsoleBuilt } from '@skiptrace/console';
import { CONSOLE_CLIENT_ID } from '@skiptrace/contracts';
import { createWebhooksRouter, loadWebhookConfig } from '@skiptrace/dispatcher';
import { createKeyValue } from '@skiptrace/kv';
import { createBus } from '@skiptrace/messaging';
import {
  createHealth,
  createHttpServer,
  createLogger,
  createShutdown,
  exitOnSignals,
  finishApp,
  loadConfig,
  metricsOptionsFrom,
  observabilityEnvSchema,
  startObservability,
} from '@skiptrace/runtime';
import { createDatabase } from '@skiptrace/storage';
import { gatewayEnvSchema } from './config.ts';
import { createGatewayService } from './gateway.service.ts';

const env = loadConfig(gatewayEnvSchema);
const logger = createLogger({ name: 'gateway', level: env.LOG_LEVEL });
const shutdown = createShutdown(logger);
exitOnSignals(shutdown, logger);
const observability = loadConfig(observabilityEnvSchema);
await startObservability(observability, { service: 'gateway', logger, shutdown });

const db = createDatabase({ databaseUrl: env.DATABASE_URL, dataDir: join(env.SKIPTRACE_DATA_DIR, 'pglite'), logger });
shutdown.add('database', () => db.close());
await db.migrate();
const bus = await createBus({ amqpUrl: env.AMQP_URL, logger });
shutdown.add('bus', () => bus.close());
const kv = createKeyValue({ redisUrl: env.REDIS_URL, logger });
shutdown.add('kv', () => kv.close());

const health = createHealth({ metrics: metricsOptionsFrom(observability) });
health.register('database', () => db.ping());
health.register('broker', () => {
  if (!bus.isReady()) throw new Error('broker disconnected');
});
const bearer = createBearerAuth({
  issuer: env.issuer,
  audience: env.API_AUDIENCE,
  jwksUrl: new URL(env.jwksUrl),
});
const auth = { authenticate: bearer.middleware, requireScope: bearer.requireScope };
// The web console at /console (built now when missing or stale; the image builds it ahead).
const consoleBuild = await ensureConsoleBuilt({ log: (msg) => logger.info(msg) });
const consoleRouter = await createConsoleRouter({
  dir: consoleBuild.dir,
  issuer: env.issuer,
  clientId: CONSOLE_CLIENT_ID,
});
const app = createGatewayService({
  db,
  bus,
  auth,
  kv,
  logger,
  health,
  console: consoleRouter,
  config: {
    syncDeadlineMs: env.SYNC_DEADLINE_MS,
    maxBodyBytes: env.MAX_BODY_BYTES,
    publicUrl: env.publicUrl,
    authUrl: env.issuer,
    rateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
  },
  routers: {
    '/': createBatchesRouter({ db, bus, auth, logger, config: batchesConfigFromEnv(process.env).api }),
    '/webhooks': createWebhooksRouter({
      db,
      kv,
      logger,
      config: loadWebhookConfig(),
      requireScope: bearer.requireScope,
    }),
    '/clients': createClientsRouter({ accounts: createAccounts(db), requireScope: bearer.requireScope, logger }),
  },
});

finishApp(app);
const server = createHttpServer(app, { logger });
server.listen(env.PORT, () => logger.info({ port: env.PORT }, 'gateway listening'));
shutdown.add('http', async () => {
  health.drain();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
