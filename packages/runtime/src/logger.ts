import { pino, type Logger, type LoggerOptions } from 'pino';
import { traceLogFields } from './tracing.ts';

export type { Logger } from 'pino';

/**
 * Paths redacted from every log line: credentials, and the personal data a skip-trace
 * platform handles (owner names, phones, street addresses).
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.client_secret',
  '*.secret',
  '*.access_token',
  '*.refresh_token',
  '*.first_name',
  '*.last_name',
  '*.street_address',
  '*.phones',
  '*.number',
];

export interface LoggerConfig {
  /** pino level: trace, debug, info, warn, error, fatal, silent. */
  level?: string;
  /** Service name written on every line. */
  name: string;
}

export function createLogger({ level = 'info', name }: LoggerConfig, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: name },
    timestamp: pino.stdTimeFunctions.isoTime,
    // trace_id/span_id of the active OpenTelemetry span, so log lines join their trace.
    mixin: traceLogFields,
  };
  return destination ? pino(options, destination) : pino(options);
}

export function silentLogger(): Logger {
  return pino({ level: 'silent' });
}
