import { z } from 'zod';
import type { Logger } from 'pino';
import type { Shutdown } from './lifecycle.ts';
import { setMetricsEnabled } from './metrics.ts';
import { startTracing, tracingEnv, tracingSettingsFrom, type TracingSettings } from './tracing.ts';

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

const metricsOptionsFrom = (env: Pick<ObservabilityEnv, 'METRICS_ENABLED' | 'METRICS_TOKEN'>): MetricsOptions => ({
  enabled: env.METRICS_ENABLED,
  token: env.METRICS_TOKEN,
});

/** A process's metrics and tracing settings: one function for every process, split or not. */
export interface ObservabilitySettings {
  metrics: MetricsOptions;
  tracing: TracingSettings;
}

/** `service` names the process in traces unless OTEL_SERVICE_NAME does (`skiptrace` in the one-process mode). */
export const observabilitySettingsFrom = (env: ObservabilityEnv, service: string): ObservabilitySettings => ({
  metrics: metricsOptionsFrom(env),
  tracing: tracingSettingsFrom(env, service),
});

/**
 * Process-wide: turns metric recording on or off and starts the OpenTelemetry SDK when an
 * OTLP endpoint is set, flushing spans last at shutdown. Call once, from a main.ts, before
 * the adapters open (so their spans and metrics are recorded from the start).
 */
export async function startObservability(
  settings: ObservabilitySettings,
  deps: { logger: Logger; shutdown: Pick<Shutdown, 'add'> },
): Promise<void> {
  setMetricsEnabled(settings.metrics.enabled);
  const tracing = await startTracing(settings.tracing, deps.logger);
  // Registered first, so it runs last: spans of the shutdown itself are exported too.
  if (tracing.enabled) deps.shutdown.add('tracing', () => tracing.shutdown());
}
