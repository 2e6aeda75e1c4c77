// The one-process system's batch chunk worker in a child process of its own
// (SKIPTRACE_BATCH_WORKER=process, forked by batch-worker.ts): it consumes the chunk jobs and
// runs the batch sweep on an event loop, heap and database pool of its own, so a running
// batch neither delays the synchronous path of the main process nor adds its garbage to it.
// It reads the same environment as the main process. It stops on SIGTERM from the main
// process or when the main process is gone (the IPC channel closes); SIGINT from a terminal
// is left to the main process, which stops this one in its ordered shutdown.
import { openBus, openDatabase } from '@skiptrace/adapters';
import {
  createHealth,
  createLogger,
  createShutdown,
  loadConfig,
  metricsRegistry,
  observabilityEnv,
  observabilitySettingsFrom,
  startObservability,
} from '@skiptrace/runtime';
import { wireBatchChunks, workerConfigFrom, workerEnv } from '@skiptrace/worker';
import type { BatchWorkerMessage, BatchWorkerRequest } from './batch-worker.ts';

// The worker's own schema and settings function over the one-process environment: the same
// worker settings the main process computes (services/standalone/test/settings.test.ts), without
// loading the other services (the OAuth server, the gateway, the console) into this process.
const env = loadConfig(workerEnv.extend(observabilityEnv));
const config = workerConfigFrom(env);
const logger = createLogger({ name: 'skiptrace-batch-worker', level: env.LOG_LEVEL });
const send = (message: BatchWorkerMessage) => process.send?.(message);
const shutdown = createShutdown(logger);
await startObservability(observabilitySettingsFrom(env, 'skiptrace-batch-worker'), { logger, shutdown });
const adapters = { logger, shutdown, health: createHealth({}) };
const db = await openDatabase(env, adapters);
const bus = await openBus(env, adapters);
const chunks = wireBatchChunks({ db, bus, logger }, config);
await chunks.start();
shutdown.add('batch chunks', () => chunks.stop());

let stopping = false;
const stop = (reason: string) => {
  if (stopping) return;
  stopping = true;
  shutdown.run(reason).then(
    () => process.exit(0),
    (err: unknown) => {
      logger.fatal({ err }, 'batch worker shutdown failed');
      process.exit(1);
    },
  );
};
process.on('SIGTERM', () => stop('SIGTERM'));
process.on('SIGINT', () => undefined);
process.on('disconnect', () => stop('main process gone'));
process.on('message', (request: BatchWorkerRequest) => {
  if (request?.type !== 'metrics') return;
  metricsRegistry.getMetricsAsJSON().then(
    (metrics) => send({ type: 'metrics', id: request.id, metrics }),
    (err: unknown) => {
      logger.warn({ err }, 'batch worker metrics failed');
      send({ type: 'metrics', id: request.id, metrics: [] });
    },
  );
});
send({ type: 'ready' });
