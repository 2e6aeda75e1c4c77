/**
 * Abuse controls over the KeyValueStore (Redis in production, so limits hold across
 * replicas): fixed-window rate limits and a login lockout with exponential back-off.
 * Lockout: after `threshold` failed logins for one email within 24 h the email is locked
 * for base·2^(failures − threshold) seconds, capped at max; a successful login clears it.
 * Keys carry a SHA-256 of the email, never the address itself.
 */
import { createHash } from 'node:crypto';
import type { KeyValueStore } from '@skiptrace/kv';

const FAILURE_WINDOW_MS = 24 * 3600 * 1000;
const hashOf = (value: string) => createHash('sha256').update(value.trim().toLowerCase()).digest('base64url');

export interface AbuseLimits {
  lockoutThreshold: number;
  lockoutBaseSeconds: number;
  lockoutMaxSeconds: number;
}

export function createAbuseControls(kv: KeyValueStore, limits: AbuseLimits) {
  return {
    /** Counts one event; returns the seconds to wait when the limit per window is exceeded. */
    async limit(key: string, max: number, windowMs = 60_000): Promise<number | undefined> {
      const { count, resetMs } = await kv.hit(`auth:rl:${key}`, windowMs);
      return count > max ? Math.max(1, Math.ceil(resetMs / 1000)) : undefined;
    },
    /** Seconds the email stays locked, or undefined. */
    async lockedFor(email: string): Promise<number | undefined> {
      const ttl = await kv.ttl(`auth:lock:${hashOf(email)}`);
      return ttl > 0 ? Math.ceil(ttl / 1000) : undefined;
    },
    /** Records a failure; returns the lockout in seconds when this failure starts one. */
    async loginFailed(email: string): Promise<number | undefined> {
      const { count } = await kv.hit(`auth:fail:${hashOf(email)}`, FAILURE_WINDOW_MS);
      if (count < limits.lockoutThreshold) return undefined;
      const seconds = Math.min(
        limits.lockoutBaseSeconds * 2 ** (count - limits.lockoutThreshold),
        limits.lockoutMaxSeconds,
      );
      await kv.set(`auth:lock:${hashOf(email)}`, '1', { ttlMs: seconds * 1000 });
      return seconds;
    },
    async loginSucceeded(email: string): Promise<void> {
      await kv.del(`auth:fail:${hashOf(email)}`, `auth:lock:${hashOf(email)}`);
    },
  };
}

export type AbuseControls = ReturnType<typeof createAbuseControls>;
