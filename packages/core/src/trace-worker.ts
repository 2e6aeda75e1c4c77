import type { PropertyResponse, SkipTraceJob } from '@skiptrace/contracts';
import { jsonText, type BusDelivery, type Consumer, type MessageBus } from '@skiptrace/messaging';
import { createBatcher, type Logger } from '@skiptrace/runtime';
import type { Database } from '@skiptrace/storage';
import type { z } from 'zod';
import { publishPlantAdded, publishTraceCompleted } from './events.ts';
import {
  completeProperties,
  completeProperty,
  propertyOf,
  toResponse,
  type StoredOutcome,
} from './property.repository.ts';
import type { TraceEngine } from './trace-engine.ts';

export interface TraceWorkerConfig {
  /** Unacknowledged jobs one worker holds at once. */
  prefetch: number;
  /** Deliveries of a failing job before it is marked failed and dead-lettered. */
  maxAttempts: number;
}

export interface TraceWorkerDeps {
  db: Database;
  bus: MessageBus;
  engine: TraceEngine;
  logger: Logger;
  config: TraceWorkerConfig;
}

type Job = z.infer<typeof SkipTraceJob>;
type JobDelivery = BusDelivery<'skiptrace.jobs'>;

/** Batches in progress at once per stage (lookup, store) of each worker. */
const CONCURRENT_BATCHES = 2;

/**
 * The skip-trace worker: consumes jobs, traces, stores, replies, emits events. The worker
 * service (services/worker) runs it beside the batch chunk consumer; the one-process system
 * and the gateway's tests run it in their process.
 *
 * Jobs that arrive together are traced together: one contact lookup and one UPDATE serve
 * every job the worker holds (up to its prefetch), so under load the cost per job falls
 * instead of the queue growing. A lone job is still handled at once. Lookup and store are
 * separate stages, so one batch's lookup runs while the batch before it is being stored,
 * and neither waits for the other's events to be confirmed.
 */
export function createTraceWorker({ db, bus, engine, logger, config }: TraceWorkerDeps) {
  let consumer: Consumer | undefined;
  const batching = { maxBatch: config.prefetch, maxConcurrent: CONCURRENT_BATCHES };
  const lookup = createBatcher((jobs: Job[]) => engine.traceMany(jobs.map((job) => job.property)), batching);
  const store = createBatcher(
    (items: { id: string; outcome: StoredOutcome }[]) => completeProperties(db, items),
    batching,
  );

  // The stored row decides: a redelivered job finds its result already stored and
  // re-announces it (the dispatcher drops events it has seen, by message id), so a crash
  // between storing and publishing loses no event. An erased property yields nothing.
  // The waiting caller is answered as soon as the result is stored; the job is acked only
  // once both events are confirmed, so a failed publish redelivers the job, not the answer.
  // The response is encoded once: the reply and the completed event carry the same text.
  async function trace(job: Job, delivery: JobDelivery): Promise<PropertyResponse | undefined> {
    const row = await store({ id: String(job.propertyId), outcome: await lookup(job) });
    if (!row) return undefined;
    const response = toResponse(row);
    const encoded = jsonText(response);
    delivery.reply(encoded);
    await Promise.all([
      publishPlantAdded(bus, row.account_id, { ...propertyOf(row), id: Number(row.id) }),
      publishTraceCompleted(bus, row.account_id, response, encoded),
    ]);
    return response;
  }

  async function handle(delivery: JobDelivery) {
    const job = delivery.payload;
    try {
      return await trace(job, delivery);
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
        'skiptrace.jobs',
        { prefetch: config.prefetch, maxAttempts: config.maxAttempts },
        handle,
      );
    },
    async stop() {
      await consumer?.cancel();
      consumer = undefined;
    },
  };
}
