import { z } from 'zod';

const int = (min: number) => z.coerce.number().int().min(min);

/** Environment of the worker. */
export const workerEnvSchema = z.object({
  /** Health endpoint port (/healthz, /readyz); default 8082. */
  PORT: int(0).max(65535).default(8082),
  /** PostgreSQL URL (required: workers share the store with the gateway). */
  DATABASE_URL: z.string().min(1, 'DATABASE_URL is required for a standalone worker'),
  /** RabbitMQ URL (required: workers share queues with the gateway). */
  AMQP_URL: z.string().min(1, 'AMQP_URL is required for a standalone worker'),
  /** Unacknowledged jobs held at once per queue; default 64. */
  WORKER_PREFETCH: int(1).max(5000).default(64),
  /** Deliveries of a failing job before it is marked failed and dead-lettered; default 5. */
  WORKER_MAX_ATTEMPTS: int(1).max(50).default(5),
  /** Recovery sweep: a sync job pending this long is republished, ms; default 60000. */
  RECOVERY_STALE_AFTER_MS: int(1000).default(60_000),
  /** Recovery sweep interval, ms; default 15000. */
  RECOVERY_INTERVAL_MS: int(100).default(15_000),
  /** pino level; default info. */
  LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
});

export type WorkerEnv = z.infer<typeof workerEnvSchema>;
