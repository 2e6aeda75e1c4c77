/**
 * Abuse controls over the KeyValueStore (Redis in production, so limits hold across
 * replicas), built on @skiptrace/kv's fixed-window rate limiter and lockout:
 * - token endpoint: per client IP (before any client authentication) and per client, where
 *   only requests whose client authenticated count toward the client's limit (wrong secrets
 *   must not let whoever knows a client_id starve the real client);
 * - failed client authentications (token, introspection, revocation): per client AND source
 *   address, reserved atomically before the secret is checked; past the limit that pair is
 *   refused without a comparison, other addresses of the same client are not affected;
 * - login: per client IP, and a per-email lockout with back-off — after `threshold`
 *   failures within 24 h the email is locked for base·2^(failures − threshold) seconds,
 *   capped at max; a successful login clears it.
 * Keys carry a SHA-256 of the email, never the address itself.
 */
import { createHash } from 'node:crypto';
import { createLockout, createRateLimiter, type KeyValueStore } from '@skiptrace/kv';

const MINUTE_MS = 60_000;
const emailKey = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('base64url');
/** Bounded key for a (client_id, address) pair: both come from the request. */
const pairKey = (clientId: string, ip: string) =>
  `auth:client-auth-failures:${createHash('sha256').update(`${clientId}\n${ip}`).digest('base64url')}`;
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export interface AbuseLimits {
  /** Per minute. */
  tokenRateLimit: number;
  tokenIpRateLimit: number;
  clientAuthFailureLimit: number;
  loginRateLimit: number;
  lockoutThreshold: number;
  lockoutBaseSeconds: number;
  lockoutMaxSeconds: number;
}

export function createAbuseControls(kv: KeyValueStore, limits: AbuseLimits) {
  const limiter = (limit: number, name: string) =>
    createRateLimiter(kv, { limit, windowMs: MINUTE_MS, keyPrefix: `auth:rl:${name}:` });
  const tokenByClient = limiter(limits.tokenRateLimit, 'token-client');
  const tokenByIp = limiter(limits.tokenIpRateLimit, 'token-ip');
  const loginByIp = limiter(limits.loginRateLimit, 'login-ip');
  const lockout = createLockout(kv, {
    threshold: limits.lockoutThreshold,
    baseMs: limits.lockoutBaseSeconds * 1000,
    maxMs: limits.lockoutMaxSeconds * 1000,
    keyPrefix: 'auth:lockout:',
  });
  const waitFor = async (decision: Promise<{ allowed: boolean; retryAfterMs: number }>) => {
    const { allowed, retryAfterMs } = await decision;
    return allowed ? undefined : seconds(retryAfterMs);
  };
  return {
    /** Each returns the seconds to wait when over the limit, else undefined. */
    tokenByClient: (clientId: string) => waitFor(tokenByClient.consume(clientId)),
    tokenByIp: (ip: string) => waitFor(tokenByIp.consume(ip)),
    loginByIp: (ip: string) => waitFor(loginByIp.consume(ip)),
    /**
     * Reserves one client-authentication attempt for (client, address) BEFORE its secret is
     * compared: one atomic counter (kv.hit) counts every attempt, and an attempt is allowed
     * while attempts ≤ limit + successes of the pair. N parallel wrong secrets therefore
     * compare at most `limit` (a read-then-count let 35–60 of 60 through), while a client that
     * authenticates keeps its budget: each success (attemptSucceeded) frees its reservation.
     * Returns the seconds to wait when the attempt is refused, else undefined.
     */
    async reserveClientAuth(clientId: string, ip: string): Promise<number | undefined> {
      const key = pairKey(clientId, ip);
      const { count, resetMs } = await kv.hit(`${key}:attempts`, MINUTE_MS);
      if (count <= limits.clientAuthFailureLimit) return undefined;
      const successes = Number((await kv.get(`${key}:successes`)) ?? 0);
      return count <= limits.clientAuthFailureLimit + successes ? undefined : seconds(resetMs);
    },
    /** Frees the reservation of an attempt whose secret was right. */
    async clientAuthSucceeded(clientId: string, ip: string): Promise<void> {
      await kv.hit(`${pairKey(clientId, ip)}:successes`, MINUTE_MS);
    },
    async lockedFor(email: string): Promise<number | undefined> {
      const status = await lockout.status(emailKey(email));
      return status.locked ? seconds(status.retryAfterMs) : undefined;
    },
    /** Records a failed login; returns the lockout in seconds when the email is now locked. */
    async loginFailed(email: string): Promise<number | undefined> {
      const status = await lockout.failure(emailKey(email));
      return status.locked ? seconds(status.retryAfterMs) : undefined;
    },
    loginSucceeded: (email: string) => lockout.success(emailKey(email)),
  };
}

export type AbuseControls = ReturnType<typeof createAbuseControls>;
