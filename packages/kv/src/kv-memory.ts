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
import { CLAIM_MAX_GROUPS } from './kv-scripts.ts';
import type { KeyValueStore, ScheduledMember, SetOptions } from './kv.port.ts';

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
  /** Schedule name -> group -> member -> due ms. */
  const schedules = new Map<string, Map<string, Map<string, number>>>();
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

  function schedule(name: string, group: string): Map<string, number> {
    let groups = schedules.get(name);
    if (!groups) schedules.set(name, (groups = new Map()));
    let members = groups.get(group);
    if (!members) groups.set(group, (members = new Map()));
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

    async schedule(name, group, member, dueAtMs) {
      schedule(name, group).set(member, dueAtMs);
    },

    async claimDue(name, nowMs, limits, leaseMs) {
      const groups = schedules.get(name);
      let left = Math.floor(limits.total);
      if (!groups || left <= 0) return [];
      // Redis order: by score, then by member or group (byte-wise; code-unit order for ASCII).
      const byDue = ([a, x]: [string, number], [b, y]: [string, number]) => x - y || (a < b ? -1 : a > b ? 1 : 0);
      const dueGroups = [...groups]
        .map(([group, members]) => {
          let first = Infinity;
          for (const dueAt of members.values()) if (dueAt < first) first = dueAt;
          return [group, first] as [string, number];
        })
        .filter(([, first]) => first <= nowMs)
        .sort(byDue)
        .slice(0, CLAIM_MAX_GROUPS);
      const claimed: ScheduledMember[] = [];
      for (const [group] of dueGroups) {
        const take = Math.min(left, Math.max(0, Math.floor(limits.groups?.get(group) ?? limits.perGroup)));
        if (take <= 0) continue;
        const members = groups.get(group)!;
        const due = [...members]
          .filter(([, dueAt]) => dueAt <= nowMs)
          .sort(byDue)
          .slice(0, take)
          .map(([member]) => member);
        for (const member of due) {
          members.set(member, nowMs + leaseMs);
          claimed.push({ group, member });
        }
        left -= due.length;
        if (left <= 0) break;
      }
      return claimed;
    },

    async unschedule(name, group, member) {
      const groups = schedules.get(name);
      const members = groups?.get(group);
      members?.delete(member);
      if (members?.size === 0) groups!.delete(group);
      if (groups?.size === 0) schedules.delete(name);
    },

    scheduled: async (name) => [...(schedules.get(name)?.values() ?? [])].reduce((n, members) => n + members.size, 0),
    ping: async () => undefined,
    close: async () => undefined,
  };
}
