// Composition root of a skip-trace worker process. Scale by running more of them:
// they share the queues (competing consumers) and the store.
import express from 'express';
import { openBus, openDatabase } from '@skiptrace/adapters';
import {
  createHealth,
  createLogger,
  createShutdown,
  exitOnSignals,
  finishApp,
  inputBoundary,
  listen,
  loadConfig,
  metricsOptionsFrom,
  observabilityEnvSchema,
  observeHttp,
  startObservability,
} from '@skiptrace/runtime';
import { workerConfigFrom, workerProcessEnv } from './config.ts';
import { wireWorker } from './wiring.ts';

const env = loadConfig(workerProcessEnv);
const logger = createLogger({ name: 'worker', level: env.LOG_LEVEL });
const shutdown = createShutdown(logger);
exitOnSignals(shutdown, logger);
const observability = loadConfig(observabilityEnvSchema);
await startObservability(observability, { service: 'worker', logger, shutdown });
const health = createHealth({ metrics: metricsOptionsFrom(observability) });
const adapters = { logger, shutdown, health, service: 'worker' };

const db = await openDatabase(env, adapters);
const bus = await openBus(env, adapters);
const worker = wireWorker({ db, bus, logger }, workerConfigFrom(env));

const app = express();
app.use(observeHttp());
app.use(inputBoundary());
app.use(health.router());
finishApp(app);
await worker.start();
shutdown.add('consumers', () => worker.stop());
await listen(app, env.PORT, { shutdown, health, logger });
