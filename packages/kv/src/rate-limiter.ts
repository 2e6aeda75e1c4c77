/**
 * Fixed-window rate limiting on KeyValueStore.hit: at most `limit` calls per key in each
 * window of `windowMs`, the window starting at the key's first call. Cheap and atomic on
 * Redis; allows up to 2 × limit across a window boundary, which is fine for abuse limits.
 */
import type { KeyValueStore } from './kv.port.ts';

export interface RateLimiterOptions {
  /** Calls allowed per window. */
  limit: number;
  /** Window length (ms). */
  windowMs: number;
  /** Namespace inside the store; default 'ratelimit:'. */
  keyPrefix?: string;
}

export interface RateLimitDecision {
  allowed: boolean;
  /** Calls still allowed in this window. */
  remaining: number;
  /** When refused: ms until the window resets (for Retry-After); 0 when allowed. */
  retryAfterMs: number;
  /** ms until the window resets, allowed or not (RateLimit-Reset). */
  resetMs: number;
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

/**
 * Calls for the same key in the same turn of the event loop share one `hit` that counts
 * them all (one store round trip per key per turn, not per call); each caller still gets
 * its own position in the window, so exactly `limit` calls are allowed.
 */
export function createRateLimiter(kv: KeyValueStore, options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs, keyPrefix = 'ratelimit:' } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  type Waiter = { resolve: (d: RateLimitDecision) => void; reject: (err: unknown) => void };
  const waiting = new Map<string, Waiter[]>();

  const decide = (count: number, resetMs: number): RateLimitDecision => {
    const allowed = count <= limit;
    const reset = Math.max(resetMs, 0);
    return { allowed, remaining: Math.max(0, limit - count), retryAfterMs: allowed ? 0 : reset, resetMs: reset };
  };

  async function flush(key: string): Promise<void> {
    const waiters = waiting.get(key)!;
    waiting.delete(key);
    try {
      const { count, resetMs } = await kv.hit(`${keyPrefix}${key}`, windowMs, waiters.length);
      const first = count - waiters.length + 1;
      waiters.forEach((w, i) => w.resolve(decide(first + i, resetMs)));
    } catch (err) {
      for (const w of waiters) w.reject(err);
    }
  }

  return {
    consume(key) {
      return new Promise((resolve, reject) => {
        const waiters = waiting.get(key);
        if (waiters) return void waiters.push({ resolve, reject });
        waiting.set(key, [{ resolve, reject }]);
        setImmediate(() => void flush(key));
      });
    },
  };
}
