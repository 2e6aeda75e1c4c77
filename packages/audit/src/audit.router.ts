/**
 * GET /api/v1/audit (mounted by the gateway after bearer authentication): the account's
 * audit log, newest first, filtered by actor, action and time, in keyset pages.
 */
import { auditApi, type ApiScope } from '@skiptrace/contracts';
import { accountOf, decodeCursor, encodeCursor, mountRoute } from '@skiptrace/runtime';
import { Router, type RequestHandler } from 'express';
import type { AuditLog } from './audit.ts';

/** Keyset cursors of this listing carry the kind `audit`. */
const CURSOR = 'audit';

export interface AuditRouterDeps {
  audit: AuditLog;
  requireScope(scope: ApiScope): RequestHandler;
}

export function createAuditRouter(deps: AuditRouterDeps): Router {
  const router = Router();
  const mount = { router, requireScope: deps.requireScope, base: '/audit' };

  mountRoute(mount, auditApi.listAuditEntries, async ({ query }, req, res) => {
    const { limit, cursor, actor, action, from, to } = query;
    const rows = await deps.audit.list(accountOf(req), {
      limit: limit + 1,
      ...(actor ? { actor } : {}),
      ...(action ? { action } : {}),
      ...(from ? { from: new Date(from) } : {}),
      ...(to ? { to: new Date(to) } : {}),
      ...(cursor ? { beforeId: decodeCursor(CURSOR, cursor) } : {}),
    });
    const data = rows.slice(0, limit);
    if (rows.length > limit) {
      const next = encodeCursor(CURSOR, data[data.length - 1]!.id);
      const params = new URLSearchParams(req.query as Record<string, string>);
      params.set('cursor', next);
      res.set('X-Next-Cursor', next);
      res.set('Link', `<${req.baseUrl}?${params}>; rel="next"`);
    }
    res.json({ data });
  });

  return router;
}
