import type { KeyValueStore } from '@skiptrace/kv';

/** TEMPORARY until @skiptrace/kv exports its memory adapter. */
export function memoryKv(): KeyValueStore {
  const data = new Map<string, { v: string | Set<string>; exp?: number }>();
  const live = (k: string) => {
    const e = data.get(k);
    if (e && e.exp !== undefined && e.exp <= Date.now()) {
      data.delete(k);
      return undefined;
    }
    return e;
  };
  return {
    kind: 'memory',
    async get(k) {
      const e = live(k);
      return e && typeof e.v === 'string' ? e.v : null;
    },
    async set(k, v, o = {}) {
      if (o.onlyIfAbsent && live(k)) return false;
      data.set(k, { v, exp: o.ttlMs ? Date.now() + o.ttlMs : undefined });
      return true;
    },
    async del(...ks) {
      return ks.filter((k) => data.delete(k)).length;
    },
    async ttl(k) {
      const e = live(k);
      return !e ? -2 : e.exp === undefined ? -1 : e.exp - Date.now();
    },
    async hit(k, w) {
      let e = live(k);
      if (!e) data.set(k, (e = { v: '0', exp: Date.now() + w }));
      e.v = String(Number(e.v) + 1);
      return { count: Number(e.v), resetMs: e.exp! - Date.now() };
    },
    async addToSet(k, m, ttlMs) {
      let e = live(k);
      if (!e) data.set(k, (e = { v: new Set() }));
      (e.v as Set<string>).add(m);
      if (ttlMs) e.exp = Date.now() + ttlMs;
    },
    async members(k) {
      const e = live(k);
      return e ? [...(e.v as Set<string>)] : [];
    },
    schedule: async () => undefined,
    claimDue: async () => [],
    unschedule: async () => undefined,
    scheduled: async () => 0,
    ping: async () => undefined,
    close: async () => undefined,
  };
}
