/**
 * Lockout after repeated failures (e.g. password or OTP attempts): the threshold-th
 * failure locks the key for baseMs, each further failure doubles the lock, up to maxMs;
 * a success clears everything. Failures are counted in a fixed window of windowMs from
 * the first one, so old failures are forgotten even without a success. Callers check
 * status() before attempting, and report failure()/success() after.
 */
import type { KeyValueStore } from './kv.port.ts';

export interface LockoutOptions {
  /** Failures before the first lock. */
  threshold: number;
  /** First lock duration (ms). */
  baseMs: number;
  /** Longest lock (ms). */
  maxMs: number;
  /** How long failures are remembered, from the first (ms); default 24 h. */
  windowMs?: number;
  /** Namespace inside the store; default 'lockout:'. */
  keyPrefix?: string;
}

export interface LockoutStatus {
  locked: boolean;
  /** ms until the lock ends; 0 when not locked. */
  retryAfterMs: number;
}

export interface Lockout {
  /** Records a failure; returns the state after it (locked once the threshold is reached). */
  failure(key: string): Promise<LockoutStatus & { failures: number }>;
  success(key: string): Promise<void>;
  status(key: string): Promise<LockoutStatus>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export function createLockout(kv: KeyValueStore, options: LockoutOptions): Lockout {
  const { threshold, baseMs, maxMs, windowMs = DAY_MS, keyPrefix = 'lockout:' } = options;
  if (!Number.isInteger(threshold) || threshold < 1) throw new RangeError('threshold must be a positive integer');
  if (!(baseMs > 0 && maxMs >= baseMs)) throw new RangeError('need 0 < baseMs <= maxMs');
  const failuresKey = (key: string): string => `${keyPrefix}failures:${key}`;
  const lockKey = (key: string): string => `${keyPrefix}locked:${key}`;

  async function status(key: string): Promise<LockoutStatus> {
    const ttl = await kv.ttl(lockKey(key));
    return ttl > 0 ? { locked: true, retryAfterMs: ttl } : { locked: false, retryAfterMs: 0 };
  }

  return {
    async failure(key) {
      const { count } = await kv.hit(failuresKey(key), windowMs);
      if (count < threshold) return { ...(await status(key)), failures: count };
      // Exponent capped so that 2 ** n stays finite for absurd failure counts.
      const lockMs = Math.min(baseMs * 2 ** Math.min(count - threshold, 52), maxMs);
      await kv.set(lockKey(key), String(count), { ttlMs: lockMs });
      return { locked: true, retryAfterMs: lockMs, failures: count };
    },

    async success(key) {
      await kv.del(failuresKey(key), lockKey(key));
    },

    status,
  };
}
