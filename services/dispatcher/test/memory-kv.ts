import type { KeyValueStore } from '@skiptrace/kv';

/**
 * A KeyValueStore in a Map for unit tests of the dispatcher (the shared memory adapter
 * of @skiptrace/kv had not landed when these tests were written). Only the schedule
 * and counters matter here; TTLs are not enforced. Integration tests use real Redis.
 */
export function createMemoryKv(): KeyValueStore & { dueAt(name: string, member: string): number | undefined } {
  const values = new Map<string, string>();
  const sets = new Map<string, Set<string>>();
  const schedules = new Map<string, Map<string, number>>();
  const counters = new Map<string, { count: number; resetAt: number }>();
  const schedule = (name: string) => {
    let s = schedules.get(name);
    if (!s) schedules.set(name, (s = new Map()));
    return s;
  };
  return {
    kind: 'memory',
    dueAt: (name, member) => schedule(name).get(member),
    async get(key) {
      return values.get(key) ?? null;
    },
    async set(key, value, options = {}) {
      if (options.onlyIfAbsent && values.has(key)) return false;
      values.set(key, value);
      return true;
    },
    async del(...keys) {
      return keys.filter((k) => values.delete(k)).length;
    },
    async ttl(key) {
      return values.has(key) ? -1 : -2;
    },
    async hit(key, windowMs) {
      const now = Date.now();
      const c = counters.get(key);
      if (!c || c.resetAt <= now) {
        counters.set(key, { count: 1, resetAt: now + windowMs });
        return { count: 1, resetMs: windowMs };
      }
      c.count += 1;
      return { count: c.count, resetMs: c.resetAt - now };
    },
    async addToSet(key, member) {
      if (!sets.has(key)) sets.set(key, new Set());
      sets.get(key)!.add(member);
    },
    async members(key) {
      return [...(sets.get(key) ?? [])];
    },
    async schedule(name, member, dueAtMs) {
      schedule(name).set(member, dueAtMs);
    },
    async claimDue(name, nowMs, limit, leaseMs) {
      const due = [...schedule(name)]
        .filter(([, at]) => at <= nowMs)
        .sort((a, b) => a[1] - b[1])
        .slice(0, limit)
        .map(([m]) => m);
      for (const m of due) schedule(name).set(m, nowMs + leaseMs);
      return due;
    },
    async unschedule(name, member) {
      schedule(name).delete(member);
    },
    async scheduled(name) {
      return schedule(name).size;
    },
    async ping() {},
    async close() {},
  };
}
