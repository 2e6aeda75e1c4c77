// Composition root of a skip-trace worker process. Scale by running more of them:
// they share the queues (competing consumers) and the store.
import express from 'express';
import { openBus, openDatabase, startProcess } from '@skiptrace/adapters';
import { finishApp, inputBoundary, listen, loadConfig, observeHttp } from '@skiptrace/runtime';
import { wireWorker, workerConfigFrom, workerProcessEnv } from '@skiptrace/worker';

const env = loadConfig(workerProcessEnv);
const { logger, shutdown, health, adapters } = await startProcess('worker', { logLevel: env.LOG_LEVEL });

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
