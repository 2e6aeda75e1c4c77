/**
 * Monthly quotas at the door: before a trace or a batch upload is accepted, the account's
 * quotas (hits, rows = sync traces + batch rows) are compared with what the month used so
 * far (one indexed statement). The state read is reused per account for a few seconds
 * (QUOTA_CACHE_MS) so the sync path does not pay a statement per request: an account without
 * quotas is read again after that time (a quota set in this process applies at once through
 * `forget`, on other replicas within QUOTA_CACHE_MS); an account with quotas reuses it only for
 * sync traces (each counted locally as one hit and one row, an upper bound) and only while what
 * it used plus what it was let through since stays under half of every limit — near a limit,
 * and for batch uploads, every check reads the store. A quota used up answers
 * 429 code 1301 with Retry-After until the next month (UTC). Passing 80 % of a quota sends
 * one `quota.warning` webhook event per account, month and quota: published under a stable
 * message id (the dispatcher keeps one message per event and endpoint), then recorded, so
 * neither a crash in between nor two gateways at once send it twice.
 *
 * Work in flight when a quota fills up still finishes: a quota stops new work, it does not
 * cancel accepted work (a batch accepted under its quota runs to its end).
 */
import type { MessageBus } from '@skiptrace/messaging';
import { ApiError, type Logger } from '@skiptrace/runtime';
import type { RequestHandler } from 'express';
import type { QuotaStatus, UsageStore } from './usage.repository.ts';

/** How long a read quota state may be reused for an account (see above). */
export const QUOTA_CACHE_MS = 5_000;
/** Share of every limit below which an account with quotas reuses its state (see above). */
const CACHE_SHARE = 0.5;

/** Share of a quota at which the warning event goes out. */
export const QUOTA_WARNING_SHARE = 0.8;

const KINDS = [
  { quota: 'hits', limit: (s: QuotaStatus) => s.quotas.monthly_hits, used: (s: QuotaStatus) => s.hits },
  { quota: 'rows', limit: (s: QuotaStatus) => s.quotas.monthly_rows, used: (s: QuotaStatus) => s.rows },
] as const;

export interface QuotaGuardDeps {
  usage: UsageStore;
  bus: MessageBus;
  logger: Logger;
}

export interface QuotaGuard {
  /** Throws 429 quota_exceeded when a quota is used up; sends the 80 % warnings due. */
  check(accountId: string, syncTrace?: boolean): Promise<void>;
  /** Middleware for the routes that start work (sync trace, batch upload). */
  middleware: RequestHandler;
  /** Drops the account's reused state: its quotas changed (the usage API calls it). */
  forget(accountId: string): void;
}

interface CachedState {
  /** Date.now() when read. */
  at: number;
  status: QuotaStatus | undefined;
  /** Sync traces let through on this state since it was read. */
  passed: number;
}

export function createQuotaGuard({ usage, bus, logger }: QuotaGuardDeps): QuotaGuard {
  async function warn(accountId: string, status: QuotaStatus, quota: 'hits' | 'rows', limit: number, used: number) {
    const month = status.month.slice(0, 7);
    await bus.publish(
      'event.quota.warning',
      {
        accountId,
        occurredAt: new Date().toISOString(),
        data: { quota, month, limit, used, threshold: QUOTA_WARNING_SHARE },
      },
      { messageId: `quota.warning:${accountId}:${month}:${quota}` },
    );
    if (await usage.claimWarning(accountId, status.month, quota))
      logger.info({ accountId, quota, limit, used }, 'quota warning sent');
  }

  const cache = new Map<string, CachedState>();
  /** One read per account at a time: concurrent checks share it. */
  const reading = new Map<string, Promise<CachedState>>();

  function read(accountId: string): Promise<CachedState> {
    const inFlight = reading.get(accountId);
    if (inFlight) return inFlight;
    const pending: Promise<CachedState> = usage
      .status(accountId)
      .then((status) => {
        const state = { at: Date.now(), status, passed: 0 };
        // Not kept when `forget` came during the read: it may predate the change.
        if (reading.get(accountId) === pending) {
          if (cache.size >= 10_000) cache.clear();
          cache.set(accountId, state);
        }
        return state;
      })
      .finally(() => {
        if (reading.get(accountId) === pending) reading.delete(accountId);
      });
    reading.set(accountId, pending);
    return pending;
  }

  /** The cached state when it may stand in for a read (see the file's comment). */
  function reusable(accountId: string, syncTrace: boolean): CachedState | undefined {
    const state = cache.get(accountId);
    if (!state || Date.now() - state.at > QUOTA_CACHE_MS) return undefined;
    const status = state.status;
    if (!status) return state;
    if (!syncTrace) return undefined;
    for (const kind of KINDS) {
      const limit = kind.limit(status);
      if (limit !== null && kind.used(status) + state.passed + 1 >= limit * CACHE_SHARE) return undefined;
    }
    return state;
  }

  /**
   * Throws 429 quota_exceeded when a quota is used up; sends the 80 % warnings due.
   * `syncTrace`: the work is one sync trace (at most one hit and one row).
   */
  async function check(accountId: string, syncTrace = false): Promise<void> {
    const cached = reusable(accountId, syncTrace);
    if (cached) {
      cached.passed += 1;
      return;
    }
    const state = await read(accountId);
    const status = state.status;
    if (!status) return;
    for (const kind of KINDS) {
      const limit = kind.limit(status);
      if (limit === null) continue;
      const used = kind.used(status);
      if (used >= limit * QUOTA_WARNING_SHARE && !status.warned.has(kind.quota)) {
        // Awaited (once a month per quota): the requests after this one find it recorded.
        await warn(accountId, status, kind.quota, limit, used).catch((err: unknown) =>
          logger.warn({ err, accountId, quota: kind.quota }, 'quota warning not sent; tried again on the next request'),
        );
      }
      if (used >= limit) {
        const seconds = Math.max(1, Math.ceil((status.resetsAt.getTime() - Date.now()) / 1000));
        throw new ApiError(
          'quota_exceeded',
          `the monthly ${kind.quota} quota of ${limit} is used up (${used} used); it resets at ${status.resetsAt.toISOString()}`,
          { 'Retry-After': String(seconds) },
        );
      }
    }
    state.passed += 1;
  }

  function forget(accountId: string): void {
    cache.delete(accountId);
    reading.delete(accountId);
  }

  /** Middleware for the routes that start work (sync trace, batch upload). */
  const middleware: RequestHandler = (req, _res, next) => {
    const accountId = req.auth?.accountId;
    if (!accountId) return next();
    const syncTrace = req.method === 'POST' && req.path === '/property/skiptrace';
    check(accountId, syncTrace).then(() => next(), next);
  };

  return { check, middleware, forget };
}
