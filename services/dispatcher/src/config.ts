import { z } from 'zod';
import { loadConfig } from '@skiptrace/runtime';
import { RETRY_DELAYS_MS } from './retry-policy.ts';

/** Everything the router and the dispatcher read; build it with webhookConfig() or loadWebhookConfig(). */
export interface WebhookConfig {
  /** Let endpoints point at private/loopback addresses (SSRF guard off). */
  allowPrivate: boolean;
  /** Per-request timeout (ms), connect to last body byte. */
  timeoutMs: number;
  /** How long a claimed message belongs to one dispatcher (ms); must exceed timeoutMs. */
  leaseMs: number;
  /** Deliveries in flight per dispatcher process. */
  concurrency: number;
  /** Deliveries in flight per endpoint per dispatcher process. */
  endpointConcurrency: number;
  /** Deliveries started per endpoint per second across all dispatchers; 0 = unlimited. */
  endpointRatePerSec: number;
  /** An endpoint failing continuously this long (ms) is disabled. */
  disableAfterMs: number;
  /** How long the previous secret keeps signing after a rotation (ms). */
  rotationOverlapMs: number;
  /** Idle poll interval of the schedule (ms). */
  pollMs: number;
  /** Delays between attempts (ms); attempts = length + 1. */
  retryDelaysMs: readonly number[];
  /** Name of the delivery schedule in the key-value store. */
  scheduleName: string;
  /**
   * How often (ms) a running dispatcher checks that the key-value store still holds the
   * schedule (a Redis restart without persistence, a flush, a failover to an empty
   * replica) and rebuilds it from PostgreSQL when it does not.
   */
  scheduleCheckMs: number;
}

const HOUR = 3_600_000;

export function webhookConfig(overrides: Partial<WebhookConfig> = {}): WebhookConfig {
  const timeoutMs = overrides.timeoutMs ?? 15_000;
  const config: WebhookConfig = {
    allowPrivate: false,
    timeoutMs,
    leaseMs: timeoutMs + 15_000,
    concurrency: 256,
    endpointConcurrency: 16,
    endpointRatePerSec: 0,
    disableAfterMs: 120 * HOUR,
    rotationOverlapMs: 24 * HOUR,
    pollMs: 100,
    retryDelaysMs: RETRY_DELAYS_MS,
    scheduleName: 'webhooks:due',
    scheduleCheckMs: 10_000,
    ...overrides,
  };
  if (config.leaseMs <= config.timeoutMs) throw new Error('webhook leaseMs must exceed timeoutMs');
  return config;
}

const flag = z
  .enum(['true', 'false', '1', '0'])
  .default('false')
  .transform((v) => v === 'true' || v === '1');
const int = (min: number) => z.coerce.number().int().min(min);

/** Webhook variables (units in the names). Shared by the dispatcher and the gateway. */
export const WebhookEnv = z.object({
  /** true: allow private/loopback targets (default false). */
  SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: flag,
  /** Request timeout in ms (default 15000). */
  SKIPTRACE_WEBHOOK_TIMEOUT_MS: int(100).default(15_000),
  /** Concurrent deliveries per process (default 256). */
  SKIPTRACE_WEBHOOK_CONCURRENCY: int(1).default(256),
  /** Concurrent deliveries per endpoint per process (default 16). */
  SKIPTRACE_WEBHOOK_ENDPOINT_CONCURRENCY: int(1).default(16),
  /** Deliveries per endpoint per second, all processes (default 0 = unlimited). */
  SKIPTRACE_WEBHOOK_ENDPOINT_RATE_PER_SEC: int(0).default(0),
  /** Hours of continuous failure before an endpoint is disabled (default 120 = 5 days). */
  SKIPTRACE_WEBHOOK_DISABLE_AFTER_HOURS: z.coerce.number().positive().default(120),
});

export function loadWebhookConfig(env: NodeJS.ProcessEnv = process.env): WebhookConfig {
  const e = loadConfig(WebhookEnv, env);
  return webhookConfig({
    allowPrivate: e.SKIPTRACE_WEBHOOK_ALLOW_PRIVATE,
    timeoutMs: e.SKIPTRACE_WEBHOOK_TIMEOUT_MS,
    concurrency: e.SKIPTRACE_WEBHOOK_CONCURRENCY,
    endpointConcurrency: e.SKIPTRACE_WEBHOOK_ENDPOINT_CONCURRENCY,
    endpointRatePerSec: e.SKIPTRACE_WEBHOOK_ENDPOINT_RATE_PER_SEC,
    disableAfterMs: e.SKIPTRACE_WEBHOOK_DISABLE_AFTER_HOURS * HOUR,
  });
}
