import { startBatchWorker, type BatchWorker } from '@skiptrace/batches';
import { createContactTraceEngine, createRecoverySweep } from '@skiptrace/core';
import type { MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { WorkerProcessConfig } from './config.ts';
import { createWorkerService } from './worker.service.ts';

export interface WorkerWiringDeps {
  db: Database;
  bus: MessageBus;
  logger: Logger;
}

export interface WiredWorker {
  /** Starts the job consumer, the batch-chunk consumer and the recovery sweep. */
  start(): Promise<void>;
  /** Stops intake and waits for in-flight jobs and chunks. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The worker's composition: skip-trace jobs, batch chunks and the recovery sweep over one
 * trace engine. Its own main.ts and the one-process system both call this.
 */
export function wireWorker(deps: WorkerWiringDeps, config: WorkerProcessConfig): WiredWorker {
  const { db, bus } = deps;
  const logger = deps.logger.child({ scope: 'worker' });
  const engine = createContactTraceEngine(db, config.engine);
  const jobs = createWorkerService({ db, bus, engine, logger, config: config.jobs });
  const sweep = createRecoverySweep(db, bus, logger, config.sweep);
  let batches: BatchWorker | undefined;
  return {
    async start() {
      await jobs.start();
      batches = await startBatchWorker({ db, bus, engine, logger, config: config.batches });
      sweep.start();
      logger.info({ prefetch: config.jobs.prefetch }, 'worker consuming');
    },
    async stop() {
      await sweep.stop();
      await jobs.stop();
      await batches?.stop();
    },
  };
}
