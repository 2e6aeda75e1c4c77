import { z } from 'zod';
import { brokerEnv, commonEnv, databaseEnv, envFlag, envInt, envPort, redisEnv } from '@skiptrace/runtime';
import { RETRY_DELAYS_MS } from './retry-policy.ts';

/** Everything the router and the dispatcher read; build it with webhookConfig() or webhookConfigFrom(). */
export interface WebhookConfig {
  /** Let endpoints point at private/loopback addresses (SSRF guard off). */
  allowPrivate: boolean;
  /** Webhooks may reach loopback addresses only (tests, offline demos); wins over allowPrivate. */
  loopbackOnly: boolean;
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
    loopbackOnly: false,
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

/** Webhook variables, read by the dispatcher and by the gateway (its subscription API). */
export const webhookEnv = {
  SKIPTRACE_WEBHOOK_ALLOW_PRIVATE: envFlag
    .default(false)
    .describe('let webhook endpoints point at private and loopback addresses (SSRF guard off)'),
  SKIPTRACE_WEBHOOK_LOOPBACK_ONLY: envFlag
    .default(false)
    .describe(
      'webhook endpoints may only be loopback addresses (127.0.0.0/8, ::1, localhost; other names refused without a DNS query): test suites and offline demos; wins over SKIPTRACE_WEBHOOK_ALLOW_PRIVATE',
    ),
  SKIPTRACE_WEBHOOK_TIMEOUT_MS: envInt(100)
    .default(15_000)
    .describe('one delivery attempt, connect to last response byte, ms'),
  SKIPTRACE_WEBHOOK_CONCURRENCY: envInt(1).default(256).describe('deliveries in flight per dispatcher process'),
  SKIPTRACE_WEBHOOK_ENDPOINT_CONCURRENCY: envInt(1)
    .default(16)
    .describe('deliveries in flight per endpoint per dispatcher process'),
  SKIPTRACE_WEBHOOK_ENDPOINT_RATE_PER_SEC: envInt(0)
    .default(0)
    .describe('deliveries started per endpoint per second across all dispatchers (0: unlimited)'),
  SKIPTRACE_WEBHOOK_DISABLE_AFTER_HOURS: z.coerce
    .number()
    .positive()
    .default(120)
    .describe('hours of continuous failure after which an endpoint is disabled'),
};

/** Environment of the dispatcher process. */
export const dispatcherEnv = z.object({
  PORT: envPort(8083),
  ...commonEnv,
  ...databaseEnv,
  ...brokerEnv,
  ...redisEnv,
  ...webhookEnv,
});
export type DispatcherEnv = z.infer<typeof dispatcherEnv>;

type WebhookEnv = { [K in keyof typeof webhookEnv]: z.infer<(typeof webhookEnv)[K]> };

/** The webhook settings from a parsed environment (the dispatcher's, the gateway's or the one-process mode's). */
export function webhookConfigFrom(env: WebhookEnv): WebhookConfig {
  return webhookConfig({
    allowPrivate: env.SKIPTRACE_WEBHOOK_ALLOW_PRIVATE,
    loopbackOnly: env.SKIPTRACE_WEBHOOK_LOOPBACK_ONLY,
    timeoutMs: env.SKIPTRACE_WEBHOOK_TIMEOUT_MS,
    concurrency: env.SKIPTRACE_WEBHOOK_CONCURRENCY,
    endpointConcurrency: env.SKIPTRACE_WEBHOOK_ENDPOINT_CONCURRENCY,
    endpointRatePerSec: env.SKIPTRACE_WEBHOOK_ENDPOINT_RATE_PER_SEC,
    disableAfterMs: env.SKIPTRACE_WEBHOOK_DISABLE_AFTER_HOURS * HOUR,
  });
}
