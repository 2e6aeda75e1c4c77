/**
 * @skiptrace/adapters: opens the adapters a process's environment selects — PostgreSQL or
 * PGlite, RabbitMQ or the in-process bus, Redis or the in-memory store — registers their
 * readiness checks and their place in the ordered shutdown. Every composition root (each
 * service's main.ts and the one-process system) opens its adapters here, so DATABASE_URL,
 * DATABASE_POOL_MAX, AMQP_URL, REDIS_URL and REDIS_PREFIX mean the same thing everywhere.
 */
import { createKeyValue, type KeyValueStore } from '@skiptrace/kv';
import { createBus, type MessageBus } from '@skiptrace/messaging';
import {
  createHealth,
  createLogger,
  createShutdown,
  exitOnSignals,
  loadConfig,
  observabilityEnvSchema,
  observabilitySettingsFrom,
  startObservability,
  type Health,
  type Logger,
  type Shutdown,
} from '@skiptrace/runtime';
import { openStore, type Database } from '@skiptrace/storage';

export interface AdapterEnv {
  DATABASE_URL?: string;
  DATABASE_POOL_MAX?: number;
  AMQP_URL?: string;
  REDIS_URL?: string;
  REDIS_PREFIX?: string;
  SKIPTRACE_DATA_DIR?: string;
}

export interface OpenOptions {
  logger: Logger;
  shutdown: Pick<Shutdown, 'add'>;
  health: Pick<Health, 'register'>;
  /**
   * Name of a service running as its own process. Set, a missing URL is warned about
   * loudly: the embedded adapter it falls back to is shared with no other process.
   * Absent (the one-process mode), embedded adapters are the point.
   */
  service?: string;
}

function warnEmbedded(options: OpenOptions, variable: string, adapter: string) {
  if (!options.service) return;
  options.logger.warn(
    { variable, adapter },
    `${variable} is not set: the ${options.service} runs on ${adapter}, which no other process shares. ` +
      `Messages, rows or limits will not reach the other services; set ${variable} unless this is a test.`,
  );
}

/** The store: PostgreSQL (pool of DATABASE_POOL_MAX) or PGlite under SKIPTRACE_DATA_DIR; migrated. */
export async function openDatabase(env: AdapterEnv, options: OpenOptions): Promise<Database> {
  if (!env.DATABASE_URL) warnEmbedded(options, 'DATABASE_URL', 'the embedded PGlite store');
  const db = await openStore(env, { max: env.DATABASE_POOL_MAX, logger: options.logger });
  options.shutdown.add('database', () => db.close());
  options.health.register('database', () => db.ping());
  return db;
}

/** The message bus: RabbitMQ (waits for the first connection) or in-process. */
export async function openBus(env: AdapterEnv, options: OpenOptions): Promise<MessageBus> {
  if (!env.AMQP_URL) warnEmbedded(options, 'AMQP_URL', 'the in-process bus');
  const bus = await createBus({ amqpUrl: env.AMQP_URL, logger: options.logger });
  options.shutdown.add('bus', () => bus.close());
  options.health.register('broker', () => {
    if (!bus.isReady()) throw new Error('broker disconnected');
  });
  return bus;
}

/** The key-value store: Redis under REDIS_PREFIX, or in memory. */
export function openKeyValue(env: AdapterEnv, options: OpenOptions): KeyValueStore {
  if (!env.REDIS_URL) warnEmbedded(options, 'REDIS_URL', 'the in-memory key-value store');
  const kv = createKeyValue({ redisUrl: env.REDIS_URL, prefix: env.REDIS_PREFIX, logger: options.logger });
  options.shutdown.add('key-value', () => kv.close());
  options.health.register('key-value', () => kv.ping());
  return kv;
}

/**
 * The common start of a service running as its own process: its logger (at the parsed
 * LOG_LEVEL), the ordered shutdown run on SIGTERM/SIGINT, metrics and tracing from the
 * OTEL_* and METRICS_* variables, and the health checks the adapters register with.
 * For main.ts only (it installs signal handlers).
 */
export async function startProcess(service: string, options: { logLevel: string; stepTimeoutMs?: number }) {
  const logger = createLogger({ name: service, level: options.logLevel });
  const shutdown = createShutdown(logger, options.stepTimeoutMs);
  exitOnSignals(shutdown, logger);
  const observability = observabilitySettingsFrom(loadConfig(observabilityEnvSchema), service);
  await startObservability(observability, { logger, shutdown });
  const health = createHealth({ metrics: observability.metrics });
  return { logger, shutdown, health, adapters: { logger, shutdown, health, service } satisfies OpenOptions };
}
