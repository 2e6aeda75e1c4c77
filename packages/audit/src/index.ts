/**
 * @skiptrace/audit: the audit log — `createAuditLog(db).record(...)` for every service that
 * does an administrative or data-export action, GET /api/v1/audit (createAuditRouter), and
 * the retention sweep. Depends on storage only; loads no service.
 */
export {
  createAuditLog,
  actorOf,
  auditContext,
  type AuditLog,
  type AuditRecord,
  type AuditActor,
  type AuditContext,
  type AuditFilters,
} from './audit.ts';
export { createAuditRouter, type AuditRouterDeps } from './audit.router.ts';
export { auditEnv, type AuditConfig } from './settings.ts';
export { startAuditSweep } from './sweep.ts';
