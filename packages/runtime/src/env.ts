import { z } from 'zod';

/**
 * Building blocks of the services' environment schemas. Every variable carries its
 * meaning, unit and default in `.describe()`: the README's configuration table is
 * generated from these descriptions (scripts/config-table.ts), so they are documentation.
 */

/** A whole number of at least `min`, from its decimal text. */
export const envInt = (min: number) => z.coerce.number().int().min(min);

/** true/false (also 1/0). */
export const envFlag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** The TCP port a process listens on; each service has its own default. */
export const envPort = (defaultPort: number) =>
  envInt(0)
    .max(65535)
    .default(defaultPort)
    .describe('TCP port of the API, the OAuth server or the health endpoints (0: any free port)');

export const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const;

/** Variables every process reads. */
export const commonEnv = {
  LOG_LEVEL: z
    .enum(LOG_LEVELS)
    .default('info')
    .describe('pino level; names, addresses, phones and secrets are redacted from every line'),
  SKIPTRACE_DATA_DIR: z
    .string()
    .default('.data')
    .describe(
      'where the embedded store (PGlite), the signing keys and the demo credentials live; a fresh directory is a fresh system',
    ),
};

/** Variables of a process that uses the store. */
export const databaseEnv = {
  DATABASE_URL: z
    .string()
    .min(1)
    .optional()
    .describe(
      'PostgreSQL URL; migrations run on start under an advisory lock. Absent: PGlite under SKIPTRACE_DATA_DIR (the worker requires it)',
    ),
  DATABASE_POOL_MAX: envInt(1)
    .max(200)
    .default(10)
    .describe(
      'PostgreSQL connections this process may open at once (in the one-process mode, all services share them)',
    ),
};

/** Variables of a process that uses the message bus. */
export const brokerEnv = {
  AMQP_URL: z
    .string()
    .min(1)
    .optional()
    .describe(
      'RabbitMQ URL. Absent: the in-process bus (only useful with every service in one process; the worker requires it)',
    ),
};

/** Variables of a process that uses the key-value store. */
export const redisEnv = {
  REDIS_URL: z
    .string()
    .min(1)
    .optional()
    .describe(
      'Redis URL (`maxmemory-policy noeviction`) for rate limits, the webhook schedule and OAuth artefacts. Absent: in memory (one process only)',
    ),
  REDIS_PREFIX: z
    .string()
    .min(1)
    .default('skiptrace:')
    .describe('prefix of every Redis key; processes of one system must use the same prefix'),
};

/** The OAuth server's public base URL, and the `aud` of its access tokens: one meaning in auth, gateway and the one-process mode. */
export const issuerEnv = {
  AUTH_ISSUER: z
    .url()
    .optional()
    .describe(
      "public base URL of the OAuth server, no path: tokens' `iss`; the gateway fetches `<AUTH_ISSUER>/oauth/jwks`. Default: http://localhost:$PORT (auth, one-process mode), http://localhost:8081 (gateway)",
    ),
  API_AUDIENCE: z
    .string()
    .min(1)
    .default('urn:skiptrace:api')
    .describe('`aud` of access tokens: auth issues it, the gateway requires it'),
};
