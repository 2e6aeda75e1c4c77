/**
 * Where the local test services live, and a polling helper for tests that wait on
 * something asynchronous (instead of sleeping a fixed time and then asserting).
 */
import { setTimeout as delay } from 'node:timers/promises';

export interface TestUrls {
  /** DATABASE_URL; default postgres://postgres@127.0.0.1:5432/test (trust auth). */
  databaseUrl: string;
  /** REDIS_URL; default redis://127.0.0.1:6379. */
  redisUrl: string;
  /** AMQP_URL; default amqp://guest:guest@127.0.0.1:5672 (vhost /). */
  amqpUrl: string;
}

export function testUrls(env: NodeJS.ProcessEnv = process.env): TestUrls {
  return {
    databaseUrl: env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    redisUrl: env.REDIS_URL || 'redis://127.0.0.1:6379',
    amqpUrl: env.AMQP_URL || 'amqp://guest:guest@127.0.0.1:5672',
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
