import { parseMessage, QUEUES } from '@skiptrace/contracts';
import {
  completeProperty,
  getPropertyById,
  propertyOf,
  publishPlantAdded,
  publishTraceCompleted,
  toResponse,
  type TraceEngine,
} from '@skiptrace/core';
import type { Consumer, Delivery, MessageBus } from '@skiptrace/messaging';
import type { Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';

export interface WorkerConfig {
  /** Unacknowledged jobs one worker holds at once. */
  prefetch: number;
  /** Deliveries of a failing job before it is marked failed and dead-lettered. */
  maxAttempts: number;
}

export interface WorkerDeps {
  db: Database;
  bus: MessageBus;
  engine: TraceEngine;
  logger: Logger;
  config: WorkerConfig;
}

/** The skip-trace worker: consumes jobs, traces, stores, replies, emits events. */
export function createWorkerService({ db, bus, engine, logger, config }: WorkerDeps) {
  let consumer: Consumer | undefined;

  async function handle(delivery: Delivery) {
    const job = parseMessage('job.skiptrace', delivery.payload);
    const id = String(job.propertyId);
    const row = await getPropertyById(db, id);
    if (!row) return undefined; // erased before it was traced: nothing to do
    if (row.status !== 'pending') return toResponse(row); // redelivery of a finished job
    const property = propertyOf(row);
    try {
      // The plant.added event and the trace are independent: overlap their round trips.
      const [, outcome] = await Promise.all([
        publishPlantAdded(bus, row.account_id, { ...property, id: Number(id) }),
        engine.trace(property),
      ]);
      const stored = await completeProperty(db, id, outcome);
      if (!stored) return undefined;
      const response = toResponse(stored);
      await publishTraceCompleted(bus, stored.account_id, response);
      return response;
    } catch (err) {
      if (delivery.attempt < config.maxAttempts) throw err;
      // Last attempt: record the failure so callers polling the id see it, then let the
      // bus dead-letter the job with its reason for an operator to inspect.
      logger.error({ err, id }, 'skip trace failed on its last attempt');
      const failed = await completeProperty(db, id, {
        status: 'failed',
        results: [],
        error: 'skip trace failed after repeated errors',
      });
      if (failed) await publishTraceCompleted(bus, failed.account_id, toResponse(failed));
      throw err;
    }
  }

  return {
    handle,
    async start() {
      consumer = await bus.consume(
        {
          queue: QUEUES.skiptraceJobs.name,
          topics: [...QUEUES.skiptraceJobs.topics],
          prefetch: config.prefetch,
          maxAttempts: config.maxAttempts,
        },
        handle,
      );
    },
    async stop() {
      await consumer?.cancel();
      consumer = undefined;
    },
  };
}
