/**
 * The embedded KeyValueStore: maps in this process, with Redis' semantics (expiry by
 * timestamp, fixed-window hits, leased schedules). For the one-process mode and tests;
 * the clock is injectable so tests can move time instead of waiting.
 *
 * Not for: more than one process (each has its own maps, so rate limits and claims are
 * per process), or data that must survive a restart (nothing is persisted). Expired keys
 * are dropped when touched and by a sweep that runs at most once a minute on writes; no
 * timers are kept, so the store never holds the process open.
 */
import { checkIncrement, checkTtl } from './kv-errors.ts';
import type { KeyValueStore, SetOptions } from './kv.port.ts';

export interface MemoryKeyValueOptions {
  /** Current time in epoch ms; default Date.now. */
  now?: () => number;
}

interface Entry {
  value: string | Set<string>;
  /** Epoch ms at which the entry is gone; null without expiry. */
  expiresAt: number | null;
}

/** Minimum time between two sweeps of expired entries (ms). */
const SWEEP_INTERVAL_MS = 60_000;

function wrongType(): Error {
  return new Error('WRONGTYPE Operation against a key holding the wrong kind of value');
}

export function createMemoryKeyValue(options: MemoryKeyValueOptions = {}): KeyValueStore {
  const now = options.now ?? Date.now;
  const entries = new Map<string, Entry>();
  const schedules = new Map<string, Map<string, number>>();
  let lastSweep = now();

  function live(key: string): Entry | undefined {
    const entry = entries.get(key);
    if (entry && entry.expiresAt !== null && entry.expiresAt <= now()) {
      entries.delete(key);
      return undefined;
    }
    return entry;
  }

  function sweep(): void {
    const time = now();
    if (time - lastSweep < SWEEP_INTERVAL_MS) return;
    lastSweep = time;
    for (const [key, entry] of entries) if (entry.expiresAt !== null && entry.expiresAt <= time) entries.delete(key);
  }

  function stringValue(key: string): string | null {
    const entry = live(key);
    if (!entry) return null;
    if (typeof entry.value !== 'string') throw wrongType();
    return entry.value;
  }

  function schedule(name: string): Map<string, number> {
    let members = schedules.get(name);
    if (!members) schedules.set(name, (members = new Map()));
    return members;
  }

  return {
    kind: 'memory',
    get: async (key) => stringValue(key),

    async set(key, value, setOptions: SetOptions = {}) {
      const ttlMs = setOptions.ttlMs === undefined ? undefined : checkTtl(setOptions.ttlMs);
      if (setOptions.onlyIfAbsent && live(key)) return false;
      sweep();
      entries.set(key, { value, expiresAt: ttlMs === undefined ? null : now() + ttlMs });
      return true;
    },

    async del(...keys) {
      return keys.filter((key) => live(key) !== undefined && entries.delete(key)).length;
    },

    async ttl(key) {
      const entry = live(key);
      if (!entry) return -2;
      return entry.expiresAt === null ? -1 : entry.expiresAt - now();
    },

    async hit(key, windowMs, by = 1) {
      const window = checkTtl(windowMs);
      const increment = checkIncrement(by);
      const current = stringValue(key);
      const count = (current === null ? 0 : Number(current)) + increment;
      if (!Number.isSafeInteger(count)) throw new Error('ERR value is not an integer or out of range');
      const entry = live(key);
      const expiresAt = entry?.expiresAt ?? now() + window;
      if (!entry) sweep();
      entries.set(key, { value: String(count), expiresAt });
      return { count, resetMs: expiresAt - now() };
    },

    async addToSet(key, member, ttlMs) {
      const ttl = ttlMs === undefined ? undefined : checkTtl(ttlMs);
      let entry = live(key);
      if (entry && typeof entry.value === 'string') throw wrongType();
      if (!entry) {
        sweep();
        entries.set(key, (entry = { value: new Set(), expiresAt: null }));
      }
      (entry.value as Set<string>).add(member);
      if (ttl !== undefined) entry.expiresAt = now() + ttl;
    },

    async members(key) {
      const entry = live(key);
      if (!entry) return [];
      if (typeof entry.value === 'string') throw wrongType();
      return [...entry.value];
    },

    async schedule(name, member, dueAtMs) {
      schedule(name).set(member, dueAtMs);
    },

    async claimDue(name, nowMs, limit, leaseMs) {
      const members = schedules.get(name);
      if (!members || limit <= 0) return [];
      // Redis order: by score, then by member (byte-wise; code-unit order for ASCII).
      const due = [...members]
        .filter(([, dueAt]) => dueAt <= nowMs)
        .sort(([a, x], [b, y]) => x - y || (a < b ? -1 : a > b ? 1 : 0))
        .slice(0, Math.floor(limit))
        .map(([member]) => member);
      for (const member of due) members.set(member, nowMs + leaseMs);
      return due;
    },

    async unschedule(name, member) {
      const members = schedules.get(name);
      members?.delete(member);
      if (members?.size === 0) schedules.delete(name);
    },

    scheduled: async (name) => schedules.get(name)?.size ?? 0,
    ping: async () => undefined,
    close: async () => undefined,
  };
}
