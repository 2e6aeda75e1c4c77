/**
 * `/api/v1/usage` (mounted by the gateway after bearer authentication): the account's usage
 * per UTC day or per API client, its quotas and rate limit (read); the quotas themselves
 * (PATCH, admin). Everything is scoped to req.auth.accountId.
 */
import type { ApiScope, Quotas, Usage } from '@skiptrace/contracts';
import { usageApi } from '@skiptrace/contracts';
import { accountOf, ApiError, mountRoute, type Logger } from '@skiptrace/runtime';
import { Router, type Request, type RequestHandler } from 'express';
import { monthOf, type QuotaStatus, type UsageStore } from './usage.repository.ts';

export interface UsageRouterDeps {
  usage: UsageStore;
  requireScope(scope: ApiScope): RequestHandler;
  logger: Logger;
  /** The API's per-account request limit per minute (0: none), shown with the usage. */
  rateLimitPerMinute: number;
  /**
   * Called after an admin changed the account's quotas (the audit log's hook: who, from
   * where, before and after).
   */
  onQuotaChanged?(event: { req: Request; accountId: string; before: Quotas; after: Quotas }): Promise<void> | void;
}

/** Longest range one request may ask for, in days. */
const MAX_RANGE_DAYS = 400;
const DAY_MS = 86_400_000;

function dayOf(text: string, name: string): number {
  const ms = Date.parse(`${text}T00:00:00Z`);
  if (Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== text)
    throw new ApiError('invalid_parameter', `${name}: not a calendar day`);
  return ms;
}

function quotaState(limit: number | null, used: number, resetsAt: Date) {
  if (limit === null) return null;
  return { limit, used, remaining: Math.max(0, limit - used), resets_at: resetsAt.toISOString() };
}

export function createUsageRouter(deps: UsageRouterDeps): Router {
  const { usage } = deps;
  const log = deps.logger.child({ scope: 'usage-api' });
  const router = Router();
  const mount = { router, requireScope: deps.requireScope, base: '/usage' };

  mountRoute(mount, usageApi.getUsage, async ({ query }, req, res) => {
    const accountId = accountOf(req);
    const { month, resetsAt } = monthOf();
    const from = query.from ?? month;
    const to = query.to ?? new Date().toISOString().slice(0, 10);
    const span = (dayOf(to, 'to') - dayOf(from, 'from')) / DAY_MS;
    if (span < 0) throw new ApiError('invalid_parameter', 'from: must not be after to');
    if (span >= MAX_RANGE_DAYS)
      throw new ApiError('invalid_parameter', `to: at most ${MAX_RANGE_DAYS} days after from`);
    const [{ totals, data }, status] = await Promise.all([
      usage.read(accountId, { from, to, groupBy: query.group_by }),
      usage.status(accountId),
    ]);
    const none = { hits: null, rows: null };
    const quotas = status
      ? {
          hits: quotaState(status.quotas.monthly_hits, status.hits, resetsAt),
          rows: quotaState(status.quotas.monthly_rows, status.rows, resetsAt),
        }
      : none;
    const body: Usage = {
      from,
      to,
      group_by: query.group_by,
      totals,
      data,
      quotas,
      rate_limit: deps.rateLimitPerMinute > 0 ? { limit: deps.rateLimitPerMinute, window_seconds: 60 } : null,
    };
    res.json(body);
  });

  mountRoute(mount, usageApi.getQuotas, async (_input, req, res) => {
    res.json(await usage.quotas(accountOf(req)));
  });

  mountRoute(mount, usageApi.updateQuotas, async ({ body }, req, res) => {
    const accountId = accountOf(req);
    const before = await usage.quotas(accountId);
    const after = await usage.setQuotas(accountId, body);
    log.info({ accountId, clientId: req.auth?.clientId, before, after }, 'quotas changed');
    await deps.onQuotaChanged?.({ req, accountId, before, after });
    res.json(after);
  });

  return router;
}

export type { QuotaStatus };
