/**
 * Monthly quotas at the door: before a trace or a batch upload is accepted, the account's
 * quotas (hits, rows = sync traces + batch rows) are compared with what the month used so
 * far (one indexed statement; nothing when the account has none). Checks that arrive while
 * others are being read are read together in the next statement (one per batch of concurrent
 * requests, not one per request), and every check reads the store after it arrived: a quota
 * set by the API, the CLI or another replica applies to the next request. A quota used up answers
 * 429 code 1301 with Retry-After until the next month (UTC). Passing 80 % of a quota sends
 * one `quota.warning` webhook event per account, month and quota: published under a stable
 * message id (the dispatcher keeps one message per event and endpoint), then recorded, so
 * neither a crash in between nor two gateways at once send it twice.
 *
 * Work in flight when a quota fills up still finishes: a quota stops new work, it does not
 * cancel accepted work (a batch accepted under its quota runs to its end).
 */
import type { MessageBus } from '@skiptrace/messaging';
import { ApiError, createBatcher, type Logger } from '@skiptrace/runtime';
import type { RequestHandler } from 'express';
import type { QuotaStatus, UsageStore } from './usage.repository.ts';

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
  check(accountId: string): Promise<void>;
  /** Middleware for the routes that start work (sync trace, batch upload). */
  middleware: RequestHandler;
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

  // Concurrent checks share one statement; a check waits for the next one to start, never
  // for one already under way (it would miss a change made just before the check arrived).
  const read = createBatcher(
    async (accountIds: string[]) => {
      const found = await usage.statuses(accountIds);
      return accountIds.map((id) => found.get(id) ?? null);
    },
    { maxBatch: 500, maxConcurrent: 2 },
  );

  /** Throws 429 quota_exceeded when a quota is used up; sends the 80 % warnings due. */
  async function check(accountId: string): Promise<void> {
    const status = await read(accountId);
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
  }

  /** Middleware for the routes that start work (sync trace, batch upload). */
  const middleware: RequestHandler = (req, _res, next) => {
    const accountId = req.auth?.accountId;
    if (!accountId) return next();
    check(accountId).then(() => next(), next);
  };

  return { check, middleware };
}
