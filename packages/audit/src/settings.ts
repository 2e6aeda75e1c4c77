import { envInt } from '@skiptrace/runtime';

/** Settings of the audit log (read by the gateway, which runs the retention sweep). */
export const auditEnv = {
  AUDIT_RETENTION_DAYS: envInt(0)
    .max(36_500)
    .default(365)
    .describe('days an audit-log entry is kept; older entries are deleted by an hourly sweep (0: kept for ever)'),
};

export interface AuditConfig {
  /** Days entries are kept; 0 keeps them for ever. */
  retentionDays: number;
}
