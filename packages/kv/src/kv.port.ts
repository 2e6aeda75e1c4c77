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

export interface ScheduledMember {
  group: string;
  member: string;
}

export interface ClaimLimits {
  /** Most members in one claim. */
  total: number;
  /** Most members from one group. */
  perGroup: number;
  /** Groups with a limit of their own (0: pass over), instead of perGroup. */
  groups?: ReadonlyMap<string, number>;
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
  /**
   * Puts member on the named schedule in group (e.g. the endpoint it is for), due at
   * dueAtMs (epoch ms); re-scheduling moves it. A member belongs to one group.
   */
  schedule(name: string, group: string, member: string, dueAtMs: number): Promise<void>;
  /**
   * Atomically takes members due at or before nowMs and leases them: each is re-scheduled
   * at nowMs + leaseMs, so a claimer that dies lets it come due again. Fair across groups:
   * groups are visited in the order their earliest member comes due, each giving at most
   * its limit (its members in due order, ties by member), so a group with a backlog of due
   * members never hides the others, and a group at limit 0 is passed over untouched.
   * Two concurrent claimers never get the same member within one lease.
   */
  claimDue(name: string, nowMs: number, limits: ClaimLimits, leaseMs: number): Promise<ScheduledMember[]>;
  unschedule(name: string, group: string, member: string): Promise<void>;
  /** Members on a schedule (for start-up reconciliation and tests). */
  scheduled(name: string): Promise<number>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
