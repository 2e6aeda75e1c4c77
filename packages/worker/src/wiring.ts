import { startBatchWorker, type BatchWorker } from '@skiptrace/batches';
import { createContactTraceEngine, createRecoverySweep, createTraceWorker, type TraceEngine } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { WorkerProcessConfig } from './config.ts';

export interface WorkerWiringDeps {
  db: Database;
  bus: MessageBus;
  logger: Logger;
}

export interface WiredWorker {
  /** Starts the job consumer, the batch-chunk consumer (unless options.batchChunks is false) and the recovery sweep. */
  start(): Promise<void>;
  /** Stops intake and waits for in-flight jobs and chunks. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The worker's composition: skip-trace jobs, batch chunks and the recovery sweep over one
 * trace engine. Its own main.ts and the one-process system both call this; the one-process
 * system passes batchChunks: false when it runs the chunk worker in a child process.
 */
export function wireWorker(
  deps: WorkerWiringDeps,
  config: WorkerProcessConfig,
  options: { batchChunks?: boolean } = {},
): WiredWorker {
  const { db, bus } = deps;
  const logger = deps.logger.child({ scope: 'worker' });
  const engine = createContactTraceEngine(db, config.engine);
  const jobs = createTraceWorker({ db, bus, engine, logger, config: config.jobs });
  const sweep = createRecoverySweep(db, bus, logger, config.sweep);
  const batches = wireBatchChunks(deps, config, engine);
  return {
    async start() {
      await jobs.start();
      if (options.batchChunks !== false) await batches.start();
      sweep.start();
      logger.info({ prefetch: config.jobs.prefetch }, 'worker consuming');
    },
    async stop() {
      await sweep.stop();
      await jobs.stop();
      await batches.stop();
    },
  };
}

/**
 * The batch-chunk consumer and the batch sweep alone, over the given trace engine (default:
 * the contact engine on deps.db). wireWorker runs it; the one-process system runs it in a
 * child process of its own (services/standalone/src/batch-worker.process.ts).
 */
export function wireBatchChunks(
  deps: WorkerWiringDeps,
  config: WorkerProcessConfig,
  engine: TraceEngine = createContactTraceEngine(deps.db, config.engine),
): WiredWorker {
  const logger = deps.logger.child({ scope: 'worker' });
  let batches: BatchWorker | undefined;
  return {
    async start() {
      batches = await startBatchWorker({ db: deps.db, bus: deps.bus, engine, logger, config: config.batches });
    },
    async stop() {
      await batches?.stop();
    },
  };
}
