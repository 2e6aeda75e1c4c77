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
}

export interface RateLimiter {
  consume(key: string): Promise<RateLimitDecision>;
}

export function createRateLimiter(kv: KeyValueStore, options: RateLimiterOptions): RateLimiter {
  const { limit, windowMs, keyPrefix = 'ratelimit:' } = options;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  return {
    async consume(key) {
      const { count, resetMs } = await kv.hit(`${keyPrefix}${key}`, windowMs);
      const allowed = count <= limit;
      return { allowed, remaining: Math.max(0, limit - count), retryAfterMs: allowed ? 0 : Math.max(resetMs, 0) };
    },
  };
}
