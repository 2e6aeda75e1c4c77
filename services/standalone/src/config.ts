import { z } from 'zod';

const int = (min: number) => z.coerce.number().int().min(min);

/**
 * Environment of the one-process mode. With no variables at all it runs on embedded
 * adapters (PGlite, in-process bus, in-memory key-value) under SKIPTRACE_DATA_DIR.
 */
export const standaloneEnvSchema = z
  .object({
    /** TCP port for the API, the OAuth server and the health endpoints; default 8080. */
    PORT: int(0).max(65535).default(8080),
    /** Where PGlite, signing keys and demo credentials live; default .data. A fresh directory is a fresh system. */
    SKIPTRACE_DATA_DIR: z.string().default('.data'),
    /** PostgreSQL URL; absent: PGlite. */
    DATABASE_URL: z.string().optional(),
    /** PostgreSQL connections this process may open (gateway, worker and dispatcher share them); default 10. */
    DATABASE_POOL_MAX: int(1).max(200).default(10),
    /** RabbitMQ URL; absent: in-process bus. */
    AMQP_URL: z.string().optional(),
    /** Redis URL; absent: in-memory key-value store. */
    REDIS_URL: z.string().optional(),
    /** Public base URL (no path); default http://localhost:${PORT}. */
    PUBLIC_URL: z.url().optional(),
    /** How long POST /property/skiptrace waits for the worker, ms; default 10000. */
    SYNC_DEADLINE_MS: int(1).max(120_000).default(10_000),
    /** Demo contacts generated on first start (the demo account is always created); default 5000. */
    SKIPTRACE_DEMO_ROWS: int(0).default(5000),
    /** Lets webhooks reach private and loopback addresses; default true in this mode (demos). */
    SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('true'),
    /** API requests per account per minute; 0 = off; default 30000. */
    API_RATE_LIMIT_PER_MINUTE: int(0).default(30_000),
    /** pino level; default info. */
    LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
  })
  .transform((env) => ({ ...env, publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, '') }));

export type StandaloneEnv = z.infer<typeof standaloneEnvSchema>;
