// Composition root of a webhook dispatcher process. Scale by running more of them: they
// share the event queue (competing consumers), the Redis schedule and the row leases.
import express from 'express';
import { openBus, openDatabase, openKeyValue, startProcess } from '@skiptrace/adapters';
import { finishApp, inputBoundary, listen, loadConfig, observeHttp } from '@skiptrace/runtime';
import { dispatcherEnv, webhookConfigFrom } from '@skiptrace/webhooks';
import { wireDispatcher } from '@skiptrace/dispatcher';

const env = loadConfig(dispatcherEnv);
const config = webhookConfigFrom(env);
// A shutdown step may wait for one in-flight delivery: give it the delivery timeout and some.
const { logger, shutdown, health, adapters } = await startProcess('dispatcher', {
  logLevel: env.LOG_LEVEL,
  stepTimeoutMs: config.timeoutMs + 5_000,
});

const db = await openDatabase(env, adapters);
const kv = openKeyValue(env, adapters);
const bus = await openBus(env, adapters);

const dispatcher = wireDispatcher({ db, bus, kv, logger }, config);
await dispatcher.start();
// Registered before the HTTP step, so it runs after it: stop intake, finish in-flight deliveries, then close connections.
shutdown.add('dispatcher', () => dispatcher.stop());
const app = express();
app.use(observeHttp());
app.use(inputBoundary());
app.use(health.router());
finishApp(app);
const port = await listen(app, env.PORT, { shutdown, health, logger });
logger.info({ port, allowPrivate: config.allowPrivate, timeoutMs: config.timeoutMs }, 'dispatcher running');
