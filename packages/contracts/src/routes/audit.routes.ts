import { AuditList, AuditQuery } from '../audit.ts';
import { PageHeaders } from './params.ts';
import { defineRoute } from './route.ts';

export const listAuditEntries = defineRoute({
  method: 'get',
  path: '/audit',
  operationId: 'listAuditEntries',
  summary: "The account's audit log, newest first",
  description:
    'Sign-ins, API clients, members, erasures, export downloads and quota changes with their actor, client, time, ' +
    'source address and target. Entries older than AUDIT_RETENTION_DAYS are deleted.',
  tag: 'Audit log',
  scope: 'admin',
  query: AuditQuery,
  responses: { 200: { description: 'Entries', schema: AuditList, headers: PageHeaders } },
  errors: ['invalid_parameter'],
});

export const auditRoutes = [listAuditEntries] as const;
