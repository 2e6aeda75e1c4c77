// Composition root of a webhook dispatcher process. Scale by running more of them: they
// share the event queue (competing consumers), the Redis schedule and the row leases.
import path from 'node:path';
import express from 'express';
import { z } from 'zod';
import { createKeyValue } from '@skiptrace/kv';
import { createBus } from '@skiptrace/messaging';
import {
  createHealth,
  createHttpServer,
  createLogger,
  createShutdown,
  exitOnSignals,
  finishApp,
  inputBoundary,
  loadConfig,
  metricsOptionsFrom,
  observabilityEnvSchema,
  observeHttp,
  startObservability,
} from '@skiptrace/runtime';
import { createDatabase } from '@skiptrace/storage';
import { loadWebhookConfig } from './config.ts';
import { createDispatcher } from './dispatcher.ts';

const env = loadConfig(
  z.object({
    /** postgres:// URL; absent: embedded PGlite in SKIPTRACE_DATA_DIR. */
    DATABASE_URL: z.string().url().optional(),
    /** redis:// URL; absent: in-memory schedule (one process only). */
    REDIS_URL: z.string().url().optional(),
    /** amqp:// URL; absent: in-process bus (one process only). */
    AMQP_URL: z.string().url().optional(),
    /** Data directory for the embedded store (default ./.data). */
    SKIPTRACE_DATA_DIR: z.string().default('.data'),
    /** Health port: GET /healthz, GET /readyz (default 8083). */
    PORT: z.coerce.number().int().min(0).max(65535).default(8083),
    /** Key prefix on Redis (default skiptrace:). */
    REDIS_PREFIX: z.string().default('skiptrace:'),
    LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  }),
);
const config = loadWebhookConfig();
const logger = createLogger({ name: 'dispatcher', level: env.LOG_LEVEL });
const shutdown = createShutdown(logger, config.timeoutMs + 5_000);
exitOnSignals(shutdown, logger);
const observability = loadConfig(observabilityEnvSchema);
await startObservability(observability, { service: 'dispatcher', logger, shutdown });

const db = createDatabase({
  databaseUrl: env.DATABASE_URL,
  dataDir: env.DATABASE_URL ? undefined : path.join(env.SKIPTRACE_DATA_DIR, 'pglite'),
  logger,
});
shutdown.add('database', () => db.close());
await db.migrate();
const kv = createKeyValue({ redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger });
shutdown.add('key-value', () => kv.close());
const bus = await createBus({ amqpUrl: env.AMQP_URL, logger });
shutdown.add('bus', () => bus.close());

const health = createHealth({ metrics: metricsOptionsFrom(observability) });
health.register('database', () => db.ping());
health.register('key-value', () => kv.ping());
health.register('broker', () => {
  if (!bus.isReady()) throw new Error('broker disconnected');
});
const app = express();
app.use(observeHttp());
app.use(inputBoundary());
app.use(health.router());
finishApp(app);
const server = createHttpServer(app, { logger }).listen(env.PORT);

const dispatcher = createDispatcher({ db, bus, kv, config, logger });
await dispatcher.start();
logger.info({ port: env.PORT, allowPrivate: config.allowPrivate, timeoutMs: config.timeoutMs }, 'dispatcher running');
// Registered last, so it runs first: stop intake and finish in-flight deliveries, then close connections.
shutdown.add('dispatcher', async () => {
  health.drain();
  await dispatcher.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
