import { z } from 'zod';

const int = (min: number) => z.coerce.number().int().min(min);

/** Environment of the gateway. Absent URLs select the embedded adapters. */
export const gatewayEnvSchema = z
  .object({
    /** TCP port; default 8080. */
    PORT: int(0).max(65535).default(8080),
    /** PostgreSQL URL; absent: PGlite under SKIPTRACE_DATA_DIR. */
    DATABASE_URL: z.string().optional(),
    /** RabbitMQ URL; absent: in-process bus (only useful with the worker in the same process). */
    AMQP_URL: z.string().optional(),
    /** Redis URL for the webhook subscription API's shared state; absent: in memory. */
    REDIS_URL: z.string().optional(),
    /** Base URL of the OAuth server whose JWKS signs access tokens; default http://localhost:8081. */
    AUTH_ISSUER: z.url().default('http://localhost:8081'),
    /** Where to fetch the JWKS, e.g. auth's Service inside the cluster; default <AUTH_ISSUER>/oauth/jwks. */
    AUTH_JWKS_URL: z.url().optional(),
    /** Expected `aud` of access tokens; default urn:skiptrace:api. */
    API_AUDIENCE: z.string().min(1).default('urn:skiptrace:api'),
    /** Public base URL of the API (ends in /api/v1); default http://localhost:${PORT}/api/v1. */
    PUBLIC_URL: z.url().optional(),
    /** How long POST /property/skiptrace waits for the worker before answering pending, ms; default 10000. */
    SYNC_DEADLINE_MS: int(1).max(120_000).default(10_000),
    /** Largest JSON request body, bytes; default 65536. */
    MAX_BODY_BYTES: int(1024).default(64 * 1024),
    /** API requests per account per minute, shared by all replicas through Redis; 0 = off; default 30000. */
    API_RATE_LIMIT_PER_MINUTE: int(0).default(30_000),
    /** pino level; default info. */
    LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
    /** Data directory of the embedded store; default .data. */
    SKIPTRACE_DATA_DIR: z.string().default('.data'),
  })
  .transform((env) => ({
    ...env,
    issuer: env.AUTH_ISSUER.replace(/\/$/, ''),
    jwksUrl: env.AUTH_JWKS_URL ?? `${env.AUTH_ISSUER.replace(/\/$/, '')}/oauth/jwks`,
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${env.PORT}/api/v1`,
  }));

export type GatewayEnv = z.infer<typeof gatewayEnvSchema>;
