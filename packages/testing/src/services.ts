/**
 * Where the test services live, and a polling helper for tests that wait on something
 * asynchronous (instead of sleeping a fixed time and then asserting).
 *
 * The one place that says where the integration tests' PostgreSQL, Redis and RabbitMQ are.
 * By default (SKIPTRACE_TEST_SERVICES=containers) they are containers this test run started
 * (test/setup/services.global-setup.ts or scripts/test.ts, through ./containers.ts), which
 * export their URLs and container ids in the SKIPTRACE_TEST_* variables below.
 * SKIPTRACE_TEST_SERVICES=local is the opt-out for a machine without Docker: the machine's
 * own services at DATABASE_URL, REDIS_URL and AMQP_URL (or their defaults).
 */
import { setTimeout as delay } from 'node:timers/promises';

/** The variables the service containers are published in (set once per run, read by every test). */
export const SERVICE_ENV = {
  mode: 'SKIPTRACE_TEST_SERVICES',
  databaseUrl: 'SKIPTRACE_TEST_DATABASE_URL',
  redisUrl: 'SKIPTRACE_TEST_REDIS_URL',
  amqpUrl: 'SKIPTRACE_TEST_AMQP_URL',
  /** http://user:password@127.0.0.1:port of the RabbitMQ management API (vhosts). */
  rabbitApiUrl: 'SKIPTRACE_TEST_RABBITMQ_API_URL',
  postgresContainer: 'SKIPTRACE_TEST_POSTGRES_CONTAINER',
  redisContainer: 'SKIPTRACE_TEST_REDIS_CONTAINER',
  rabbitmqContainer: 'SKIPTRACE_TEST_RABBITMQ_CONTAINER',
} as const;

export type ServiceMode = 'containers' | 'local';

/** containers (the default) or local (SKIPTRACE_TEST_SERVICES=local: the machine's own services). */
export function serviceMode(env: NodeJS.ProcessEnv = process.env): ServiceMode {
  const mode = env[SERVICE_ENV.mode] || 'containers';
  if (mode !== 'containers' && mode !== 'local')
    throw new Error(`${SERVICE_ENV.mode} must be "containers" or "local", not "${mode}"`);
  return mode;
}

/**
 * True when this process works on the run's containers: the integration setup (or
 * scripts/test.ts) started them and said so (SKIPTRACE_TEST_SERVICES=containers with their
 * URLs and ids). The helpers that act on a service (vhosts, rabbitmqctl, stop/start) then
 * act on the containers; otherwise — SKIPTRACE_TEST_SERVICES=local, or a script outside the
 * test run such as a bench, which sets nothing — on the machine's own services, as before.
 */
export function onContainers(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[SERVICE_ENV.mode] === 'containers';
}

export type ServiceName = 'postgres' | 'redis' | 'rabbitmq';

/** The id of the container running service in this test run, or undefined on local services. */
export function serviceContainer(service: ServiceName, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const key = {
    postgres: SERVICE_ENV.postgresContainer,
    redis: SERVICE_ENV.redisContainer,
    rabbitmq: SERVICE_ENV.rabbitmqContainer,
  }[service];
  return env[key] || undefined;
}

export interface TestUrls {
  /** Default postgres://postgres@127.0.0.1:5432/test (the machine's server, trust auth). */
  databaseUrl: string;
  /** Default redis://127.0.0.1:6379. */
  redisUrl: string;
  /** Default amqp://guest:guest@127.0.0.1:5672 (vhost /). */
  amqpUrl: string;
}

/**
 * The services' URLs: the run's containers (SKIPTRACE_TEST_*_URL) when they are up, else
 * DATABASE_URL, REDIS_URL and AMQP_URL or the machine's defaults. With
 * SKIPTRACE_TEST_SERVICES=containers set explicitly (as the integration setup does), a
 * missing container URL is an error rather than a quiet fall back to the machine's services.
 */
export function testUrls(env: NodeJS.ProcessEnv = process.env): TestUrls {
  const containers = {
    databaseUrl: env[SERVICE_ENV.databaseUrl],
    redisUrl: env[SERVICE_ENV.redisUrl],
    amqpUrl: env[SERVICE_ENV.amqpUrl],
  };
  if (env[SERVICE_ENV.mode] === 'containers') {
    const missing = (['databaseUrl', 'redisUrl', 'amqpUrl'] as const).filter((key) => !containers[key]);
    if (missing.length > 0)
      throw new Error(
        `${SERVICE_ENV.mode}=containers but ${missing.map((key) => SERVICE_ENV[key]).join(', ')} not set: ` +
          'run integration tests through jest --selectProjects integration or ./run test (they start the containers)',
      );
  }
  return {
    databaseUrl: containers.databaseUrl || env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: containers.redisUrl || env.REDIS_URL || 'redis://127.0.0.1:6379',
    amqpUrl: containers.amqpUrl || env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
  };
}

export interface WaitOptions {
  /** Give up after this long (ms); default 10,000. */
  timeoutMs?: number;
  /** Pause between attempts (ms); default 50. */
  intervalMs?: number;
  /** Names what was awaited in the timeout error. */
  message?: string;
}

/**
 * Calls fn until it returns a truthy value (which is returned) without throwing. On
 * timeout rejects with message and the last error. Uses real timers: with Jest fake
 * timers advance the clock instead of waiting.
 */
export async function waitUntil<T>(fn: () => T | Promise<T>, options: WaitOptions = {}): Promise<NonNullable<T>> {
  const { timeoutMs = 10_000, intervalMs = 50, message = 'condition' } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await fn();
      if (value) return value as NonNullable<T>;
      lastError = undefined;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() >= deadline) {
      const reason = lastError instanceof Error ? `; last error: ${lastError.message}` : '';
      throw new Error(`waitUntil: ${message} not met within ${timeoutMs} ms${reason}`, { cause: lastError });
    }
    await delay(intervalMs);
  }
}
