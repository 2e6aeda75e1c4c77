/**
 * The production KeyValueStore on Redis (ioredis). Every key is prefixed by hand (not with
 * ioredis' keyPrefix) so that Lua scripts receive exactly the keys they touch and SCAN
 * patterns match what is stored. Schedules are sorted sets scored by due time (epoch ms).
 *
 * Outages: ioredis reconnects by itself (backoff capped at 1 s). Commands do not hang
 * while Redis is away: a command issued while disconnected waits in the offline queue
 * only until the next connection attempt, because maxRetriesPerRequest 0 flushes that
 * queue at every failed attempt; so it fails within about a second (and a command issued
 * during start-up simply waits for the first connection). Commands in flight when the
 * connection drops are rejected, not resent (INCR twice would count twice), and
 * commandTimeout bounds a server that accepts but does not answer. All these surface as
 * KeyValueUnavailableError (with cause), for HTTP layers to answer 503.
 */
import { Redis } from 'ioredis';
import type { ClaimLimits, KeyValueStore, ScheduledMember, SetOptions } from './kv.port.ts';
import { checkIncrement, checkTtl, mapRedisErrors } from './kv-errors.ts';
import { CLAIM_DUE_LUA, HIT_LUA, SCHEDULE_LUA, SCHEDULED_LUA, UNSCHEDULE_LUA } from './kv-scripts.ts';

/** Structural subset of a pino logger; the host decides where logs go. */
export interface KvLogger {
  warn(meta: object, message?: string): void;
}

export interface RedisKeyValueOptions {
  url: string;
  /** Put in front of every key; default 'skiptrace:'. */
  prefix?: string;
  /** A command without a reply after this long fails (ms); default 2000. */
  commandTimeoutMs?: number;
  logger?: KvLogger;
}

interface ScriptedRedis extends Redis {
  kvHit(key: string, windowMs: number, by: number): Promise<[number, number]>;
  kvSchedule(index: string, groupKey: string, dueAtMs: number, member: string, group: string): Promise<number>;
  kvUnschedule(index: string, groupKey: string, member: string, group: string): Promise<number>;
  kvClaimDue(index: string, ...args: Array<string | number>): Promise<string[]>;
  kvScheduled(index: string): Promise<number>;
}

export function createRedisKeyValue(options: RedisKeyValueOptions): KeyValueStore {
  const prefix = options.prefix ?? 'skiptrace:';
  const redis = new Redis(options.url, {
    maxRetriesPerRequest: 0,
    retryStrategy: (attempt) => Math.min(attempt * 100, 1000),
    connectTimeout: 2000,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    autoResendUnfulfilledCommands: false,
    // ioredis arms this timer on disconnect even for a socket that is already gone; the
    // 2 s default would keep the process alive that long after close().
    disconnectTimeout: 200,
    // Commands issued in the same event-loop turn leave in one socket write. Under load the
    // dispatcher schedules and unschedules one member per delivery and the gateway checks
    // one rate limit per request; a write() each was 10.6 % of the webhook benchmark's
    // process CPU profile, 6.3 % with this (packages/dispatcher/BENCHMARKS.md).
    enableAutoPipelining: true,
  }) as ScriptedRedis;
  redis.defineCommand('kvHit', { numberOfKeys: 1, lua: HIT_LUA });
  redis.defineCommand('kvSchedule', { numberOfKeys: 2, lua: SCHEDULE_LUA });
  redis.defineCommand('kvUnschedule', { numberOfKeys: 2, lua: UNSCHEDULE_LUA });
  redis.defineCommand('kvClaimDue', { numberOfKeys: 1, lua: CLAIM_DUE_LUA });
  redis.defineCommand('kvScheduled', { numberOfKeys: 1, lua: SCHEDULED_LUA });
  let lastError = '';
  redis.on('error', (error: Error) => {
    // ioredis emits one per failed reconnection attempt; log each distinct one once.
    if (error.message !== lastError) options.logger?.warn({ err: error }, 'redis: connection error');
    lastError = error.message;
  });
  redis.on('ready', () => {
    lastError = '';
  });
  const key = (name: string): string => `${prefix}${name}`;
  // The index of a grouped schedule, and its groups' sets; one hash tag per schedule (kv-scripts.ts).
  const scheduleKey = (name: string): string => `${prefix}schedule:{${name}}`;
  const groupKey = (name: string, group: string): string => `${scheduleKey(name)}:${group}`;
  function claimArgs(nowMs: number, limits: ClaimLimits, leaseMs: number): Array<string | number> {
    const args: Array<string | number> = [
      nowMs,
      nowMs + leaseMs,
      Math.floor(limits.total),
      Math.floor(limits.perGroup),
    ];
    for (const [group, limit] of limits.groups ?? []) args.push(group, Math.max(0, Math.floor(limit)));
    return args;
  }
  function pairs(flat: string[]): ScheduledMember[] {
    const out: ScheduledMember[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push({ group: flat[i]!, member: flat[i + 1]! });
    return out;
  }
  let closing: Promise<void> | undefined;

  return {
    kind: 'redis',
    get: (name) => mapRedisErrors(() => redis.get(key(name))),

    set: (name, value, setOptions: SetOptions = {}) =>
      mapRedisErrors(async () => {
        const args: Array<string | number> = [];
        if (setOptions.ttlMs !== undefined) args.push('PX', checkTtl(setOptions.ttlMs));
        if (setOptions.onlyIfAbsent) args.push('NX');
        const reply = await redis.call('SET', key(name), value, ...args);
        return reply === 'OK';
      }),

    del: (...names) => (names.length === 0 ? Promise.resolve(0) : mapRedisErrors(() => redis.del(...names.map(key)))),
    ttl: (name) => mapRedisErrors(() => redis.pttl(key(name))),

    hit: (name, windowMs, by = 1) =>
      mapRedisErrors(async () => {
        const [count, resetMs] = await redis.kvHit(key(name), checkTtl(windowMs), checkIncrement(by));
        return { count: Number(count), resetMs: Number(resetMs) };
      }),

    addToSet: (name, member, ttlMs) =>
      mapRedisErrors(async () => {
        const multi = redis.multi().sadd(key(name), member);
        if (ttlMs !== undefined) multi.pexpire(key(name), checkTtl(ttlMs));
        const results = await multi.exec();
        const failed = results?.find(([error]) => error);
        if (failed?.[0]) throw failed[0];
      }),

    members: (name) => mapRedisErrors(() => redis.smembers(key(name))),

    schedule: (name, group, member, dueAtMs) =>
      mapRedisErrors(async () => {
        await redis.kvSchedule(scheduleKey(name), groupKey(name, group), dueAtMs, member, group);
      }),

    claimDue: (name, nowMs, limits, leaseMs) =>
      limits.total < 1
        ? Promise.resolve([])
        : mapRedisErrors(async () =>
            pairs(await redis.kvClaimDue(scheduleKey(name), ...claimArgs(nowMs, limits, leaseMs))),
          ),

    unschedule: (name, group, member) =>
      mapRedisErrors(async () => {
        await redis.kvUnschedule(scheduleKey(name), groupKey(name, group), member, group);
      }),

    scheduled: (name) => mapRedisErrors(async () => Number(await redis.kvScheduled(scheduleKey(name)))),

    ping: () =>
      mapRedisErrors(async () => {
        await redis.ping();
      }),

    close() {
      // QUIT lets pending replies arrive; when not connected there is nothing to wait for
      // (and QUIT would sit in the offline queue until the next reconnection attempt).
      if (redis.status !== 'ready') {
        redis.disconnect();
        closing ??= Promise.resolve();
      }
      closing ??= redis.quit().then(
        () => undefined,
        () => redis.disconnect(),
      );
      return closing;
    },
  };
}
