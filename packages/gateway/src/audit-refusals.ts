import { auditContext, type AuditLog } from '@skiptrace/audit';
import { ApiError } from '@skiptrace/runtime';
import type { ErrorRequestHandler } from 'express';

/**
 * Records a refused call of an authenticated caller — a role or scope below the route's
 * (403 insufficient_role / insufficient_scope) — in the audit log as `access.denied`, with
 * the method and path (ids only, never a body), then passes the error on to be answered.
 */
export function auditRefusals(audit: AuditLog): ErrorRequestHandler {
  return (err, req, _res, next) => {
    if (!(err instanceof ApiError) || !req.auth) return next(err);
    if (err.kind !== 'insufficient_role' && err.kind !== 'insufficient_scope') return next(err);
    const route = `${req.method} ${req.originalUrl.split('?')[0]!.slice(0, 200)}`;
    audit
      .record({
        ...auditContext(req),
        action: 'access.denied',
        target: { type: 'route', id: route },
        details: { error: err.kind, ...(req.auth.role ? { role: req.auth.role } : {}) },
      })
      .catch((recordErr: unknown) => req.log?.warn({ err: recordErr }, 'audit entry of a refusal not written'))
      .finally(() => next(err));
  };
}
