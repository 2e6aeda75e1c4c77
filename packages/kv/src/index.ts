/**
 * @skiptrace/kv: the KeyValueStore port with a Redis adapter (production) and an
 * in-memory adapter (one-process mode), plus a rate limiter and a lockout built on it.
 */
import { createMemoryKeyValue } from './kv-memory.ts';
import { createRedisKeyValue } from './kv-redis.ts';
import type { KvLogger } from './kv-redis.ts';
import type { KeyValueStore } from './kv.port.ts';

export type { ClaimLimits, KeyValueStore, ScheduledMember, SetOptions } from './kv.port.ts';
export { KeyValueUnavailableError } from './kv-errors.ts';
export { createRedisKeyValue } from './kv-redis.ts';
export type { KvLogger, RedisKeyValueOptions } from './kv-redis.ts';
export { createMemoryKeyValue } from './kv-memory.ts';
export type { MemoryKeyValueOptions } from './kv-memory.ts';
export { createRateLimiter } from './rate-limiter.ts';
export type { RateLimitDecision, RateLimiter, RateLimiterOptions } from './rate-limiter.ts';
export { createLockout } from './lockout.ts';
export type { Lockout, LockoutOptions, LockoutStatus } from './lockout.ts';

export interface KeyValueConfig {
  /** redis:// URL; when set, Redis is used. */
  redisUrl?: string;
  /** Key prefix on Redis; default 'skiptrace:'. */
  prefix?: string;
  logger?: KvLogger;
}

/** Redis when redisUrl is set, otherwise the in-memory store. */
export function createKeyValue(config: KeyValueConfig = {}): KeyValueStore {
  const { redisUrl, prefix, logger } = config;
  return redisUrl ? createRedisKeyValue({ url: redisUrl, prefix, logger }) : createMemoryKeyValue();
}
