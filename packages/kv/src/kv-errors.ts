import { DependencyUnavailableError } from '@skiptrace/runtime';
/**
 * Redis outages surface as KeyValueUnavailableError (HTTP 503 upstream); command errors
 * such as WRONGTYPE pass through unchanged. Argument checks shared by both adapters, so
 * they reject the same inputs the same way, live here too.
 */

export class KeyValueUnavailableError extends DependencyUnavailableError {
  override name = 'KeyValueUnavailableError';
  constructor(message: string, options?: ErrorOptions) {
    super('the key-value store', message, options);
  }
}

/** Socket errno codes of a refused, reset or unreachable connection. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENOTFOUND']);

/** ioredis reports the other ways a command can miss its connection by message. */
const UNAVAILABLE_MESSAGES = [
  'Reached the max retries per request limit',
  'Connection is closed',
  'Command timed out',
  "Stream isn't writeable",
  'LOADING',
];

/** Duck-typed: errors from Node's realm are not `instanceof Error` under Jest's VM. */
export function isRedisUnavailable(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  if (error instanceof KeyValueUnavailableError) return true;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((text) => message.includes(text));
}

/** Awaits op, wrapping connection failures in KeyValueUnavailableError. */
export async function mapRedisErrors<T>(op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    if (error instanceof KeyValueUnavailableError || !isRedisUnavailable(error)) throw error;
    const reason = String((error as { message?: unknown }).message ?? error);
    throw new KeyValueUnavailableError(`Redis is unavailable: ${reason}`, { cause: error });
  }
}

/** A time to live or window must be a positive, finite number of ms; fractions round up. */
export function checkTtl(ms: number): number {
  if (!Number.isFinite(ms) || ms <= 0) throw new RangeError(`ttl/window must be a positive number of ms, got ${ms}`);
  return Math.ceil(ms);
}

export function checkIncrement(by: number): number {
  if (!Number.isSafeInteger(by) || by < 1) throw new RangeError(`increment must be a positive integer, got ${by}`);
  return by;
}
