// Composition root of the auth service when it runs as its own process. Environment: see
// config.ts (authEnv): AUTH_*, API_AUDIENCE, SKIPTRACE_ADMIN_TOKEN, PORT, DATABASE_URL
// (PostgreSQL; absent: PGlite under SKIPTRACE_DATA_DIR), REDIS_URL (artefacts and limits in
// Redis; absent: in the database and in memory), REDIS_PREFIX and LOG_LEVEL.
import express from 'express';
import { openDatabase, openKeyValue, startProcess } from '@skiptrace/adapters';
import { finishApp, inputBoundary, listen, loadConfig, observeHttp } from '@skiptrace/runtime';
import { authConfigFrom, authEnv, wireAuth } from '@skiptrace/auth';

const env = loadConfig(authEnv);
const config = authConfigFrom(env);
const { logger, shutdown, health, adapters } = await startProcess('auth', { logLevel: env.LOG_LEVEL });

const db = await openDatabase(env, adapters);
const kv = openKeyValue(env, adapters);
const auth = await wireAuth({ db, kv, logger }, config);
shutdown.add('auth', () => auth.close());

const app = express();
app.disable('x-powered-by');
app.use(observeHttp());
app.use(inputBoundary());
app.use(health.router());
app.use(auth.app);
finishApp(app, auth.app);
const port = await listen(app, env.PORT, { shutdown, health, logger });
logger.info({ port, issuer: config.issuer }, 'auth listening');
