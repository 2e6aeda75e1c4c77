// Composition root of a skip-trace worker process. Scale by running more of them:
// they share the queues (competing consumers) and the store.
import { batchesConfigFromEnv, startBatchWorker } from '@skiptrace/batches';
import { createContactTraceEngine, createRecoverySweep } from '@skiptrace/core';
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
import express from 'express';
import { workerEnvSchema } from './config.ts';
import { createWorkerService } from './worker.service.ts';

const env = loadConfig(workerEnvSchema);
const logger = createLogger({ name: 'worker', level: env.LOG_LEVEL });
const shutdown = createShutdown(logger);
exitOnSignals(shutdown, logger);
const observability = loadConfig(observabilityEnvSchema);
await startObservability(observability, { service: 'worker', logger, shutdown });

const db = createDatabase({ databaseUrl: env.DATABASE_URL, logger });
shutdown.add('database', () => db.close());
await db.migrate();
const bus = await createBus({ amqpUrl: env.AMQP_URL, logger });
shutdown.add('bus', () => bus.close());

const engine = createContactTraceEngine(db);
const worker = createWorkerService({
  db,
  bus,
  engine,
  logger,
  config: { prefetch: env.WORKER_PREFETCH, maxAttempts: env.WORKER_MAX_ATTEMPTS },
});
const sweep = createRecoverySweep(db, bus, logger, {
  intervalMs: env.RECOVERY_INTERVAL_MS,
  staleAfterMs: env.RECOVERY_STALE_AFTER_MS,
  batchSize: 500,
});

const health = createHealth({ metrics: metricsOptionsFrom(observability) });
health.register('database', () => db.ping());
health.register('broker', () => {
  if (!bus.isReady()) throw new Error('broker disconnected');
});
const app = express();
app.use(observeHttp());
app.use(inputBoundary());
app.use(health.router());
finishApp(app);
const server = createHttpServer(app, { logger }).listen(env.PORT);

await worker.start();
const batchWorker = await startBatchWorker({
  db,
  bus,
  engine,
  logger,
  config: batchesConfigFromEnv(process.env).worker,
});
sweep.start();
logger.info({ prefetch: env.WORKER_PREFETCH }, 'worker consuming');
shutdown.add('consumers', async () => {
  health.drain();
  await sweep.stop();
  await worker.stop();
  await batchWorker.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
