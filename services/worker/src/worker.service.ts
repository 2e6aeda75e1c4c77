import { parseMessage, QUEUES, type PropertyResponse, type SkipTraceJob } from '@skiptrace/contracts';
import {
  completeProperties,
  completeProperty,
  propertyOf,
  publishPlantAdded,
  publishTraceCompleted,
  toResponse,
  type TraceEngine,
} from '@skiptrace/core';
import type { Consumer, Delivery, MessageBus } from '@skiptrace/messaging';
import { createBatcher, type Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { z } from 'zod';

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

type Job = z.infer<typeof SkipTraceJob>;

/** Batches of jobs traced at once per worker (each is one lookup and one UPDATE). */
const CONCURRENT_BATCHES = 2;

/**
 * The skip-trace worker: consumes jobs, traces, stores, replies, emits events.
 *
 * Jobs that arrive together are traced together: one contact lookup and one UPDATE serve
 * every job the worker holds (up to its prefetch), so under load the cost per job falls
 * instead of the queue growing. A lone job is still handled at once.
 */
export function createWorkerService({ db, bus, engine, logger, config }: WorkerDeps) {
  let consumer: Consumer | undefined;

  // The stored row decides: a redelivered job finds its result already stored and
  // re-announces it (the dispatcher drops events it has seen, by message id), so a crash
  // between storing and publishing loses no event. An erased property yields nothing.
  // The waiting caller is answered as soon as the result is stored; the job is acked only
  // once both events are confirmed, so a failed publish redelivers the job, not the answer.
  async function traceJobs(
    deliveries: { job: Job; delivery: Delivery }[],
  ): Promise<(PropertyResponse | undefined | Error)[]> {
    const outcomes = await engine.traceMany(deliveries.map(({ job }) => job.property));
    const rows = await completeProperties(
      db,
      deliveries.map(({ job }, i) => ({ id: String(job.propertyId), outcome: outcomes[i]! })),
    );
    const announced = await Promise.allSettled(
      rows.map(async (row, i) => {
        if (!row) return undefined;
        const response = toResponse(row);
        deliveries[i]!.delivery.reply(response);
        await Promise.all([
          publishPlantAdded(bus, row.account_id, { ...propertyOf(row), id: Number(row.id) }),
          publishTraceCompleted(bus, row.account_id, response),
        ]);
        return response;
      }),
    );
    return announced.map((a) => (a.status === 'fulfilled' ? a.value : (a.reason as Error)));
  }

  const traceBatched = createBatcher(traceJobs, { maxBatch: config.prefetch, maxConcurrent: CONCURRENT_BATCHES });

  async function handle(delivery: Delivery) {
    const job = parseMessage('job.skiptrace', delivery.payload);
    try {
      return await traceBatched({ job, delivery });
    } catch (err) {
      if (delivery.attempt < config.maxAttempts) throw err;
      // Last attempt: record the failure so callers polling the id see it, then let the
      // bus dead-letter the job with its reason for an operator to inspect.
      const id = String(job.propertyId);
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
