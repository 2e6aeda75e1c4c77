// Composition root of the auth service when it runs as its own process. Environment:
// see config.ts (AUTH_*, API_AUDIENCE, SKIPTRACE_ADMIN_TOKEN, PORT) plus DATABASE_URL
// (PostgreSQL; absent: PGlite under SKIPTRACE_DATA_DIR), REDIS_URL (artefacts and limits in
// Redis; absent: in the database and in memory) and LOG_LEVEL (pino level; default info).
import { join } from 'node:path';
import express from 'express';
import { createKeyValue } from '@skiptrace/kv';
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
import { createAuthService } from './auth.service.ts';
import { loadAuthConfig } from './config.ts';

const config = loadAuthConfig();
const logger = createLogger({ name: 'auth', level: process.env.LOG_LEVEL ?? 'info' });
const shutdown = createShutdown(logger);
exitOnSignals(shutdown, logger);
const observability = loadConfig(observabilityEnvSchema);
await startObservability(observability, { service: 'auth', logger, shutdown });

const databaseUrl = process.env.DATABASE_URL || undefined;
const db = createDatabase({ databaseUrl, dataDir: join(config.dataDir!, 'pglite'), logger });
shutdown.add('database', () => db.close());
await db.migrate();
const kv = createKeyValue({ redisUrl: process.env.REDIS_URL || undefined, logger });
shutdown.add('kv', () => kv.close());

const auth = await createAuthService({ db, kv, config, logger });
shutdown.add('auth', () => auth.close());
await auth.ensureConsoleClient({ consoleUrl: config.consoleUrl });

const health = createHealth({ metrics: metricsOptionsFrom(observability) });
health.register('database', () => db.ping());
health.register('kv', () => kv.ping());

const app = express();
app.disable('x-powered-by');
app.use(observeHttp());
app.use(inputBoundary());
app.use(health.router());
app.use(auth.app);
finishApp(app, auth.app);

const server = createHttpServer(app, { logger });
server.listen(config.port, () => logger.info({ port: config.port, issuer: config.issuer }, 'auth listening'));
shutdown.add('http', async () => {
  health.drain();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
