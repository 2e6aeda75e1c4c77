/**
 * How many exports run at once (#22 defect 3): each streams a page of rows at a time, but
 * each holds a database cursor, a page of rows and the socket's buffers, so their number is
 * bounded — per account, so one account cannot starve the others, and per process. Past
 * either limit the export is refused with 429 and Retry-After before anything is read.
 */
import { ApiError } from '@skiptrace/runtime';

/** Seconds a refused export is told to wait. */
export const EXPORT_RETRY_AFTER_SECONDS = 5;

export interface ExportSlots {
  /** Takes a slot for the account; throws rate_limited when none is free. The release is idempotent. */
  take(accountId: string): () => void;
}

export function createExportSlots(limits: { perAccount: number; perProcess: number }): ExportSlots {
  const byAccount = new Map<string, number>();
  let running = 0;
  const refuse = (message: string) =>
    new ApiError('rate_limited', `${message}; retry when one finishes`, {
      'Retry-After': String(EXPORT_RETRY_AFTER_SECONDS),
    });
  return {
    take(accountId) {
      const mine = byAccount.get(accountId) ?? 0;
      if (mine >= limits.perAccount) throw refuse(`this account already runs ${mine} exports, the most it may at once`);
      if (running >= limits.perProcess)
        throw refuse(`the server already runs ${running} exports, the most it may at once`);
      byAccount.set(accountId, mine + 1);
      running++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running--;
        const left = byAccount.get(accountId)! - 1;
        if (left > 0) byAccount.set(accountId, left);
        else byAccount.delete(accountId);
      };
    },
  };
}
