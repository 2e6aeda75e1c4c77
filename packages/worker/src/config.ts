import { z } from 'zod';
import { batchWorkerConfigFrom, batchWorkerEnv, type BatchWorkerConfig } from '@skiptrace/batches';
import { brokerEnv, commonEnv, databaseEnv, envInt, envPort } from '@skiptrace/runtime';
import type { TraceWorkerConfig } from '@skiptrace/core';

/** Environment of the worker (skip-trace jobs, batch chunks, recovery sweep). */
export const workerEnv = z.object({
  PORT: envPort(8082),
  LOG_LEVEL: commonEnv.LOG_LEVEL,
  ...databaseEnv,
  ...brokerEnv,
  WORKER_PREFETCH: envInt(1)
    .max(5000)
    .default(64)
    .describe('skip-trace jobs one worker holds unacknowledged (and traces together) at once'),
  WORKER_MAX_ATTEMPTS: envInt(1)
    .max(50)
    .default(5)
    .describe('deliveries of a failing job before it is marked failed and dead-lettered to `<queue>.dlq`'),
  TRACE_MAX_PEOPLE: envInt(1)
    .max(100)
    .default(10)
    .describe(
      'most people one skip trace returns (an address-only query returns the household ranked); when more match, the response says `truncated` and `people_total`',
    ),
  RECOVERY_STALE_AFTER_MS: envInt(1000)
    .default(60_000)
    .describe('recovery sweep: a synchronous request still pending this long is published again, ms'),
  RECOVERY_INTERVAL_MS: envInt(100).default(15_000).describe('recovery sweep: how often it looks, ms'),
  ...batchWorkerEnv,
});
export type WorkerEnv = z.infer<typeof workerEnv>;

/** The worker process on its own needs the shared store and broker: no embedded fallback. */
export const workerProcessEnv = workerEnv.extend({
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required for a worker process'),
  AMQP_URL: z.string().min(1, 'AMQP_URL is required for a worker process'),
});

export interface WorkerProcessConfig {
  jobs: TraceWorkerConfig;
  /** The trace engine's options (createContactTraceEngine). */
  engine: { maxPeople: number };
  sweep: { intervalMs: number; staleAfterMs: number; batchSize: number };
  batches: BatchWorkerConfig;
}

/** Rows the recovery sweep republishes per pass. */
const SWEEP_BATCH = 500;

/** The worker's settings from its parsed environment; the one-process mode calls it too. */
export function workerConfigFrom(env: WorkerEnv): WorkerProcessConfig {
  return {
    jobs: { prefetch: env.WORKER_PREFETCH, maxAttempts: env.WORKER_MAX_ATTEMPTS },
    engine: { maxPeople: env.TRACE_MAX_PEOPLE },
    sweep: { intervalMs: env.RECOVERY_INTERVAL_MS, staleAfterMs: env.RECOVERY_STALE_AFTER_MS, batchSize: SWEEP_BATCH },
    batches: batchWorkerConfigFrom(env),
  };
}
