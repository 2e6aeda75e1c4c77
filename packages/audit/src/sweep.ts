import type { Logger } from '@skiptrace/runtime';
import type { AuditLog } from './audit.ts';

const SWEEP_INTERVAL_MS = 60 * 60_000;

/**
 * Deletes audit entries past the retention now and then every hour. Every gateway replica
 * may run it: the DELETE is the same whichever runs it. Returns a stop function.
 */
export function startAuditSweep(audit: AuditLog, retentionDays: number, logger: Logger): () => void {
  if (retentionDays <= 0) return () => undefined;
  const run = () => {
    audit.sweep(retentionDays).then(
      (deleted) => {
        if (deleted > 0) logger.info({ deleted, retentionDays }, 'audit entries past retention deleted');
      },
      (err: unknown) => logger.warn({ err }, 'audit retention sweep failed'),
    );
  };
  run();
  const timer = setInterval(run, SWEEP_INTERVAL_MS).unref();
  return () => clearInterval(timer);
}
