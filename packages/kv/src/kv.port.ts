/**
 * The key-value port: short-lived state, rate limits and the delayed-delivery schedule.
 * Redis (ioredis) in production, an in-memory map in the one-process mode. Keys are
 * namespaced by the adapter's prefix so tests and tenants of one Redis do not collide.
 * Nothing here is a system of record: every user of it can rebuild from PostgreSQL.
 */
export interface SetOptions {
  /** Time to live in milliseconds; absent means no expiry. */
  ttlMs?: number;
  /** Only set when the key does not exist (returns false when it did). */
  onlyIfAbsent?: boolean;
}

export interface KeyValueStore {
  readonly kind: 'redis' | 'memory';
  get(key: string): Promise<string | null>;
  set(key: string, value: string, options?: SetOptions): Promise<boolean>;
  del(...keys: string[]): Promise<number>;
  /** Remaining time to live in ms; -1 without expiry, -2 when absent. */
  ttl(key: string): Promise<number>;
  /** Fixed-window counter: adds `by` (default 1) to key, starting a window of windowMs on the first hit. */
  hit(key: string, windowMs: number, by?: number): Promise<{ count: number; resetMs: number }>;
  /** Set membership with an optional expiry on the whole set (ms). */
  addToSet(key: string, member: string, ttlMs?: number): Promise<void>;
  members(key: string): Promise<string[]>;
  /** Puts member on the named schedule, due at dueAtMs (epoch ms); re-scheduling moves it. */
  schedule(name: string, member: string, dueAtMs: number): Promise<void>;
  /**
   * Atomically takes up to limit members due at or before nowMs and leases them: each is
   * re-scheduled at nowMs + leaseMs, so a claimer that dies lets it come due again.
   * Two concurrent claimers never get the same member within one lease.
   */
  claimDue(name: string, nowMs: number, limit: number, leaseMs: number): Promise<string[]>;
  unschedule(name: string, member: string): Promise<void>;
  /** Members on a schedule (for start-up reconciliation and tests). */
  scheduled(name: string): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
