/**
 * OpenTelemetry tracing. Libraries open spans through the API only (withSpan, the HTTP
 * middleware, the bus and database wrappers); without a started SDK those are no-ops that
 * cost a function call. The composition root (a service's or the standalone's main.ts)
 * starts the SDK with startTracing() when an OTLP endpoint is configured.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type SpanKind,
} from '@opentelemetry/api';
import { z } from 'zod';
import type { Logger } from 'pino';

export { SpanKind } from '@opentelemetry/api';
export type { Span } from '@opentelemetry/api';

// A proxy: it delegates to the SDK's tracer once one is registered, a no-op until then.
const skiptraceTracer = trace.getTracer('skiptrace');
const tracer = () => skiptraceTracer;

export interface SpanOptions {
  kind?: SpanKind;
  attributes?: Attributes;
  /** Parent context (e.g. extracted from a message); default: the active one. */
  parent?: Context;
}

/** Runs fn inside a new active span; records a thrown error on it and rethrows. */
export async function withSpan<T>(name: string, options: SpanOptions, fn: (span: Span) => Promise<T>): Promise<T> {
  const parent = options.parent ?? context.active();
  return tracer().startActiveSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    parent,
    async (span) => {
      try {
        return await fn(span);
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error)?.message });
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Starts a span the caller ends (for work that finishes in a callback, e.g. an HTTP response). */
export function startSpan(name: string, options: SpanOptions = {}): { span: Span; context: Context } {
  const parent = options.parent ?? context.active();
  const span = tracer().startSpan(name, { kind: options.kind, attributes: options.attributes }, parent);
  return { span, context: trace.setSpan(parent, span) };
}

/** Runs fn with ctx as the active context. */
export const runInContext = <T>(ctx: Context, fn: () => T): T => context.with(ctx, fn);

/** Adds the W3C `traceparent` (and `tracestate`) of the active span to a headers object. */
export function injectTraceHeaders(headers: Record<string, string>): Record<string, string> {
  propagation.inject(context.active(), headers);
  return headers;
}

/** The context a message or request carries in its headers (ROOT when it carries none). */
export function extractTraceContext(headers: Record<string, string | string[] | undefined>): Context {
  return propagation.extract(ROOT_CONTEXT, headers);
}

/** `trace_id`/`span_id` of the active span, for log lines (empty outside a sampled span). */
export function traceLogFields(): { trace_id?: string; span_id?: string } {
  const span = trace.getSpan(context.active());
  if (!span) return {};
  const { traceId, spanId, traceFlags } = span.spanContext();
  return traceFlags & 1 ? { trace_id: traceId, span_id: spanId } : {};
}

const SAMPLERS = [
  'always_on',
  'always_off',
  'traceidratio',
  'parentbased_always_on',
  'parentbased_always_off',
  'parentbased_traceidratio',
] as const;

/**
 * The standard OpenTelemetry variables this platform reads (the SDK reads them from the
 * process environment; they are declared here so a bad value fails at start and the
 * configuration table lists them).
 */
export const tracingEnv = {
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .url()
    .optional()
    .describe('OTLP base URL for traces, e.g. http://otel-collector:4318. Absent: tracing off'),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z
    .url()
    .optional()
    .describe('OTLP URL for traces only (full path, e.g. …/v1/traces); also turns tracing on'),
  OTEL_EXPORTER_OTLP_PROTOCOL: z
    .enum(['http/protobuf', 'http/json', 'grpc'])
    .optional()
    .describe('OTLP encoding: http/protobuf (default), http/json or grpc'),
  OTEL_SERVICE_NAME: z
    .string()
    .min(1)
    .optional()
    .describe(
      "service.name on every span; default the service's name (gateway, auth, worker, dispatcher; skiptrace in the one-process mode)",
    ),
  OTEL_TRACES_SAMPLER: z
    .enum(SAMPLERS)
    .optional()
    .describe('sampler: always_on, always_off, traceidratio or parentbased_* (default parentbased_always_on)'),
  OTEL_TRACES_SAMPLER_ARG: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe('sampling ratio for the traceidratio samplers, 0..1'),
};
export type TracingEnv = z.infer<z.ZodObject<typeof tracingEnv>>;

/**
 * What a process starts tracing with, from its environment (the same function in every
 * mode). The SDK reads the exporter and sampler variables from the process environment
 * itself; they are carried here so that every process is seen to get the same ones.
 */
export interface TracingSettings {
  /** On when an OTLP endpoint is set. */
  enabled: boolean;
  serviceName: string;
  endpoint?: string;
  tracesEndpoint?: string;
  protocol: 'http/protobuf' | 'http/json' | 'grpc';
  sampler: (typeof SAMPLERS)[number];
  samplerArg?: number;
}

export function tracingSettingsFrom(env: TracingEnv, serviceName: string): TracingSettings {
  return {
    enabled: Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
    serviceName: env.OTEL_SERVICE_NAME ?? serviceName,
    endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    tracesEndpoint: env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    protocol: env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf',
    sampler: env.OTEL_TRACES_SAMPLER ?? 'parentbased_always_on',
    samplerArg: env.OTEL_TRACES_SAMPLER_ARG,
  };
}

export interface Tracing {
  readonly enabled: boolean;
  /** Flushes buffered spans and stops exporting. */
  shutdown(): Promise<void>;
}

/**
 * Starts the OpenTelemetry Node SDK (traces only: metrics go to Prometheus, logs to
 * stdout) when an OTLP endpoint is configured; otherwise does nothing. Process-wide:
 * call once, from main.
 */
export async function startTracing(settings: TracingSettings, logger?: Logger): Promise<Tracing> {
  if (!settings.enabled) return { enabled: false, shutdown: async () => {} };
  const { NodeSDK } = await import('@opentelemetry/sdk-node');
  const sdk = new NodeSDK({
    serviceName: settings.serviceName,
    instrumentations: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  logger?.info(
    {
      endpoint: settings.tracesEndpoint ?? settings.endpoint,
      protocol: settings.protocol,
      sampler: settings.sampler,
    },
    'tracing on',
  );
  return { enabled: true, shutdown: () => sdk.shutdown() };
}
