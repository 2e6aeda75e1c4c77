import { z } from 'zod';
import { auditEnv, type AuditConfig } from '@skiptrace/audit';
import { batchesApiConfigFrom, batchesApiEnv, type BatchesConfig } from '@skiptrace/batches';
import { webhookConfig, webhookEnv, type WebhookConfig } from '@skiptrace/webhooks';
import { brokerEnv, commonEnv, databaseEnv, envInt, envPort, issuerEnv, redisEnv } from '@skiptrace/runtime';
import type { GatewayConfig } from './gateway.types.ts';

const API_PATH = '/api/v1';
const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** Environment of the gateway (with the batch API and the webhook subscription API it mounts). */
export const gatewayEnv = z.object({
  PORT: envPort(8080),
  ...commonEnv,
  ...databaseEnv,
  ...brokerEnv,
  ...redisEnv,
  ...issuerEnv,
  AUTH_JWKS_URL: z
    .url()
    .optional()
    .describe(
      "where the gateway fetches the issuer's JWKS, e.g. auth's Service inside the cluster. Default <AUTH_ISSUER>/oauth/jwks (one-process mode: its own OAuth server's keys, read in-process)",
    ),
  PUBLIC_URL: z
    .url()
    .refine((url) => trimSlash(url).endsWith(API_PATH), `must be the API's public URL, ending in ${API_PATH}`)
    .optional()
    .describe(
      `public URL of the API, ending in ${API_PATH} (OpenAPI \`servers\`). Default http://localhost:$PORT${API_PATH} (one-process mode: <AUTH_ISSUER>${API_PATH})`,
    ),
  SYNC_DEADLINE_MS: envInt(1)
    .max(120_000)
    .default(10_000)
    .describe('how long POST /property/skiptrace waits for the worker before answering `pending`, ms'),
  MAX_BODY_BYTES: envInt(1024)
    .default(64 * 1024)
    .describe('largest JSON request body, bytes (larger: 413)'),
  API_RATE_LIMIT_PER_MINUTE: envInt(0)
    .default(30_000)
    .describe(
      'API requests per account per minute, shared by all replicas through Redis (429 + Retry-After over it; 0: off)',
    ),
  /** The subscription API refuses private targets unless this is set (the dispatcher reads the rest of webhookEnv). */
  SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: webhookEnv.SKIPTRACE_WEBHOOK_ALLOW_PRIVATE,
  SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: webhookEnv.SKIPTRACE_WEBHOOK_LOOPBACK_ONLY,
  ...batchesApiEnv,
  ...auditEnv,
});
export type GatewayEnv = z.infer<typeof gatewayEnv>;

export interface GatewayProcessConfig {
  http: GatewayConfig;
  /** Token checks: the issuer's base URL (its JWKS) and the required audience. */
  bearer: { issuer: string; audience: string; jwksUrl: string };
  webhooks: WebhookConfig;
  batches: BatchesConfig;
  audit: AuditConfig;
}

/** The gateway's settings from its parsed environment; the one-process mode calls it too. */
export function gatewayConfigFrom(env: GatewayEnv): GatewayProcessConfig {
  const issuer = trimSlash(env.AUTH_ISSUER ?? 'http://localhost:8081');
  const publicUrl = trimSlash(env.PUBLIC_URL ?? `http://localhost:${env.PORT}${API_PATH}`);
  return {
    http: {
      syncDeadlineMs: env.SYNC_DEADLINE_MS,
      maxBodyBytes: env.MAX_BODY_BYTES,
      publicUrl,
      authUrl: issuer,
      rateLimitPerMinute: env.API_RATE_LIMIT_PER_MINUTE,
    },
    bearer: { issuer, audience: env.API_AUDIENCE, jwksUrl: env.AUTH_JWKS_URL ?? `${issuer}/oauth/jwks` },
    webhooks: webhookConfig({
      allowPrivate: env.SKIPTRACE_WEBHOOK_ALLOW_PRIVATE,
      loopbackOnly: env.SKIPTRACE_WEBHOOK_LOOPBACK_ONLY,
    }),
    batches: batchesApiConfigFrom(env),
    audit: { retentionDays: env.AUDIT_RETENTION_DAYS },
  };
}
