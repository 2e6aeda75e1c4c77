import { z } from 'zod';
import type { Logger } from 'pino';
import type { Shutdown } from './lifecycle.ts';
import { setMetricsEnabled } from './metrics.ts';
import { startTracing, tracingEnv, type TracingEnv } from './tracing.ts';

/** Metrics and tracing variables every process reads (the configuration table lists them). */
export const observabilityEnv = {
  METRICS_ENABLED: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1')
    .describe('serve Prometheus metrics at GET /metrics on the process port and record them (false: off, 404)'),
  METRICS_TOKEN: z
    .string()
    .min(16, 'must be at least 16 characters')
    .optional()
    .describe('when set, GET /metrics requires `Authorization: Bearer <token>`; accepts METRICS_TOKEN_FILE'),
  ...tracingEnv,
};
export const observabilityEnvSchema = z.object(observabilityEnv);
export type ObservabilityEnv = z.infer<typeof observabilityEnvSchema>;

/** What the health router needs to serve /metrics. */
export interface MetricsOptions {
  enabled: boolean;
  token?: string;
}

export const metricsOptionsFrom = (
  env: Pick<ObservabilityEnv, 'METRICS_ENABLED' | 'METRICS_TOKEN'>,
): MetricsOptions => ({
  enabled: env.METRICS_ENABLED,
  token: env.METRICS_TOKEN,
});

/**
 * Process-wide: turns metric recording on or off and starts the OpenTelemetry SDK when an
 * OTLP endpoint is set, flushing spans last at shutdown. Call once, from a main.ts, before
 * the adapters open (so their spans and metrics are recorded from the start).
 */
export async function startObservability(
  env: Pick<ObservabilityEnv, 'METRICS_ENABLED'> & TracingEnv,
  deps: { service: string; logger: Logger; shutdown: Pick<Shutdown, 'add'> },
): Promise<void> {
  setMetricsEnabled(env.METRICS_ENABLED);
  const tracing = await startTracing(env, deps.service, deps.logger);
  // Registered first, so it runs last: spans of the shutdown itself are exported too.
  if (tracing.enabled) deps.shutdown.add('tracing', () => tracing.shutdown());
}
