import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { openBus, openDatabase, openKeyValue } from '@skiptrace/adapters';
import { wireAuth } from '@skiptrace/auth';
import { wireDispatcher } from '@skiptrace/dispatcher';
import { wireGateway } from '@skiptrace/gateway';
import {
  createHealth,
  createLogger,
  createShutdown,
  finishApp,
  listen,
  loadConfig,
  observeHttp,
  setMetricsEnabled,
  type Logger,
} from '@skiptrace/runtime';
import { wireWorker } from '@skiptrace/worker';
import express from 'express';
import { createAdminRouter } from './admin.router.ts';
import { createBatchWorkerProcess, type BatchWorkerProcess } from './batch-worker.ts';
import { standaloneConfigFrom, standaloneEnv, type StandaloneConfig } from './config.ts';
import { loadDemoData } from './demo.ts';

export interface System {
  app: express.Express;
  /** What each service was wired with (the same functions compute it in every mode). */
  config: StandaloneConfig;
  /** Listens on PORT (0 picks a free port) and starts the consumers; returns the base URL. */
  start(): Promise<string>;
  /** Ordered shutdown: stop intake, drain, close connections. Idempotent. */
  stop(reason?: string): Promise<void>;
  logger: Logger;
  /** The batch chunk worker's child process (SKIPTRACE_BATCH_WORKER=process), once started. */
  batchWorker?: BatchWorkerProcess;
}

/**
 * All four services in one process: the gateway at /api/v1, the OAuth server at the root,
 * a worker and a webhook dispatcher, wired by the services' own wiring functions over
 * whichever adapters the environment selects (embedded when no URL is set).
 */
export async function createSystem(envInput: NodeJS.ProcessEnv = process.env, logger?: Logger): Promise<System> {
  const env = loadConfig(standaloneEnv, envInput);
  const config = standaloneConfigFrom(env);
  const log = logger ?? createLogger({ name: 'skiptrace', level: env.LOG_LEVEL });
  const shutdown = createShutdown(log);
  // Tracing is process-wide and started by main.ts (startTracing with config.observability.tracing).
  setMetricsEnabled(config.observability.metrics.enabled);
  const health = createHealth({ metrics: config.observability.metrics });
  await mkdir(env.SKIPTRACE_DATA_DIR, { recursive: true });

  const adapters = { logger: log, shutdown, health };
  const db = await openDatabase(env, adapters);
  const kv = openKeyValue(env, adapters);
  const bus = await openBus(env, adapters);

  const auth = await wireAuth({ db, kv, logger: log }, config.auth);
  shutdown.add('auth', () => auth.close());
  const dispatcher = wireDispatcher({ db, bus, kv, logger: log }, config.dispatcher);
  // The chunk worker in a child process needs a store and a broker other processes can
  // reach; on the embedded ones (PGlite, the in-process bus) it runs here.
  const batchProcess = config.batchWorker === 'process' && Boolean(env.DATABASE_URL && env.AMQP_URL);
  if (config.batchWorker === 'process' && !batchProcess)
    log.info('batch chunks are traced in this process: the embedded store and bus are not shared with a child process');
  const worker = wireWorker({ db, bus, logger: log }, config.worker, { batchChunks: !batchProcess });
  const gateway = await wireGateway(
    {
      db,
      bus,
      kv,
      logger: log,
      health,
      // AUTH_JWKS_URL means what it means to the gateway: where the token keys come from.
      // Unset, they are this process's own OAuth server's, read in-process instead of over HTTP.
      jwks: env.AUTH_JWKS_URL ? undefined : () => auth.jwks(),
      consoleSampleCsv: config.demoRows > 0 ? join(env.SKIPTRACE_DATA_DIR, 'demo-batch.csv') : undefined,
    },
    config.gateway,
  );

  // On the embedded store this process is the only writer (openStore locked it): the CLI
  // makes its changes through this admin API instead (admin.router.ts, <data dir>/admin.json).
  const admin = db.kind === 'pglite' ? createAdminRouter({ db }) : undefined;

  const app = express();
  app.disable('x-powered-by');
  app.use(observeHttp());
  if (admin) app.use('/admin/v1', admin.router);
  app.use(gateway);
  app.use(auth.app);
  finishApp(app, gateway, auth.app);

  const system: System = {
    app,
    config,
    logger: log,
    async start() {
      await loadDemoData({ db, auth, config, logger: log });
      // Consumers first: both buses drop messages published to a queue nobody declared yet.
      await worker.start();
      await dispatcher.start();
      if (batchProcess) {
        // Forked after db.migrate() above: the child finds the schema in place.
        const child = createBatchWorkerProcess({ env: envInput, logger: log });
        system.batchWorker = child;
        await child.start();
      }
      shutdown.add('consumers', async () => {
        await worker.stop();
        await system.batchWorker?.stop();
        await dispatcher.stop();
      });
      const port = await listen(app, env.PORT, { shutdown, health, logger: log });
      if (admin) {
        const unpublish = await admin.publish(env.SKIPTRACE_DATA_DIR, `http://127.0.0.1:${port}/admin/v1`);
        shutdown.add('admin endpoint', unpublish);
      }
      return `http://localhost:${port}`;
    },
    stop: (reason = 'stop') => shutdown.run(reason),
  };
  return system;
}
